package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The house rules that a tool can hold (STYLE.md, "Resource file order"
// and "Design records"): tests filed by subject, and comments that say why
// in a line or two, with the reasoning in DESIGN.md. A file may pass 600
// lines when it holds one concern; these rules replace that cap.

// maxCommentDensity is the most comment lines per code line in a package's
// production files: the anchor providers measure 0.03 to 0.13.
const maxCommentDensity = 0.12

// maxCommentRun is the longest run of comment lines outside the doc
// comment of an exported identifier or a package.
const maxCommentRun = 10

// goFiles lists dir's .go files, production (tests false) or tests.
func goFiles(t *testing.T, dir string, tests bool) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && strings.HasSuffix(n, "_test.go") == tests {
			out = append(out, n)
		}
	}
	return out
}

// TestHouseTestFiles: every test file is named for the file it tests
// (<file>_test.go), for the cross-type suite it holds (suite_*_test.go), or
// is test set-up shared by both (acctest*_test.go), or is a type's kit
// (<type>_kit_test.go, and kit_test.go for what kits share).
func TestHouseTestFiles(t *testing.T) {
	sources := goFiles(t, ".", false)
	for _, f := range goFiles(t, ".", true) {
		if strings.HasPrefix(f, "suite_") || strings.HasPrefix(f, "acctest") || f == "kit_test.go" || typeFile(f, []string{"_kit_test.go"}) {
			continue
		}
		if !slices.Contains(sources, strings.TrimSuffix(f, "_test.go")+".go") {
			t.Errorf("%s: tests no file of that name; name it <file>_test.go for the file it tests, suite_*_test.go for a cross-type suite, <type>_kit_test.go for a type's kit, or acctest_*_test.go for shared test set-up", f)
		}
	}
}

// exportedDecl is a line that an exported identifier's or a package's doc comment precedes.
var exportedDecl = regexp.MustCompile(`^(func (\([^)]*\) )?|type |var |const )[A-Z]|^package `)

// commentCount is a file's comment lines (trimmed, starting with //), code
// lines (the other non-blank lines), and its runs of comment lines longer
// than maxCommentRun that are neither a package doc nor the doc comment of
// an exported identifier (as "line N: M lines").
func commentCount(src string, packageDoc bool) (comments, code int, runs []string) {
	lines := strings.Split(src, "\n")
	run := 0
	for i, l := range append(lines, "") {
		s := strings.TrimSpace(l)
		if strings.HasPrefix(s, "//") {
			comments++
			run++
			continue
		}
		if run > maxCommentRun && !packageDoc && !exportedDecl.MatchString(l) {
			runs = append(runs, fmt.Sprintf("line %d: %d lines", i+1-run, run))
		}
		run = 0
		if s != "" {
			code++
		}
	}
	return comments, code, runs
}

// TestHouseComments: comment lines per code line in the production files
// of the provider and of tfeclient at most maxCommentDensity, and no run of
// more than maxCommentRun comment lines in those and the sandbox's, but a
// package doc or an exported identifier's doc comment. Longer reasoning
// goes in DESIGN.md, named from the code in a line.
func TestHouseComments(t *testing.T) {
	for _, dir := range []string{".", "../tfeclient", "../sandbox"} {
		var comments, code int
		var dense []string
		for _, f := range goFiles(t, dir, false) {
			src, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			c, k, runs := commentCount(string(src), f == "doc.go")
			comments, code = comments+c, code+k
			if f != "doc.go" && k > 0 && float64(c)/float64(k) > maxCommentDensity {
				dense = append(dense, fmt.Sprintf("%s %.2f", f, float64(c)/float64(k)))
			}
			for _, r := range runs {
				t.Errorf("%s, %s of comment: say why in a line or two, and put the reasoning in DESIGN.md", filepath.Join(dir, f), r)
			}
		}
		if dir == "../sandbox" || code == 0 {
			continue
		}
		if d := float64(comments) / float64(code); d > maxCommentDensity {
			t.Errorf("%s: %d comment lines per %d code lines (%.3f), over %.2f; the densest files: %s", dir, comments, code, d, maxCommentDensity, strings.Join(dense, ", "))
		}
	}
}
