package provider

import (
	"regexp"
	"strings"
	"testing"
)

// Terraform wraps a diagnostic's detail at a fixed width, so where a line
// breaks depends on what precedes it: a temporary path or a random name moves
// every break after it. An ExpectError pattern must therefore let any space be
// a line break; these two helpers are the only way the tests build one.

// wrappedRE compiles the regular expression pattern with each run of spaces
// matching any run of white space and `.` matching newlines.
func wrappedRE(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + spaces.ReplaceAllLiteralString(strings.TrimPrefix(pattern, `(?s)`), `\s+`))
}

var spaces = regexp.MustCompile(` +`)

// matchWrapped matches the parts in order, each literally except that any
// space may be any run of white space.
func matchWrapped(parts ...string) *regexp.Regexp {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = regexp.QuoteMeta(p)
	}
	return wrappedRE(strings.Join(quoted, ".*"))
}

func TestWrappedRE(t *testing.T) {
	const wrapped = "Error: Cannot read the policy code\n\nsource: the file /tmp/x/001/tags.rego does\nnot exist; its directory holds\n  no file."
	tests := []struct {
		name string
		re   *regexp.Regexp
		want bool
	}{
		{"a break between words", wrappedRE(`Cannot read the policy code.*tags\.rego does not exist`), true},
		{"an indented break", wrappedRE(`holds no file`), true},
		{"two spaces, one break", wrappedRE(`exist;  its`), true},
		{"a leading (?s) is kept once", wrappedRE(`(?s)policy code.*no file`), true},
		{"other words do not match", wrappedRE(`does not matter`), false},
		{"literal parts in order", matchWrapped("tags.rego does not exist", "holds no file."), true},
		{"literal parts out of order", matchWrapped("holds no file.", "tags.rego"), false},
		{"a literal dot is not any character", matchWrapped("tags-rego"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.re.MatchString(wrapped); got != tc.want {
				t.Errorf("%s matches %t, want %t", tc.re, got, tc.want)
			}
		})
	}
}
