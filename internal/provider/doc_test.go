package provider

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docFileRE finds the file names doc.go's map gives: a name, or a pattern
// such as <type>_resource.go.
var docFileRE = regexp.MustCompile(`(?:<type>|[a-z0-9_])+\.go\b`)

// TestDocMap: doc.go's map names every production file of the package,
// itself or by a <type>_*.go pattern whose <type> is a registered type, and
// every file it names exists (the map's lines under its internal/tfeclient
// heading name files there).
func TestDocMap(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	var patterns []string
	dir := "."
	for line := range strings.SplitSeq(f.Doc.Text(), "\n") {
		if strings.HasPrefix(line, "# ") {
			dir = map[bool]string{true: filepath.Join("..", "tfeclient"), false: "."}[strings.Contains(line, "internal/tfeclient")]
		}
		for _, name := range docFileRE.FindAllString(line, -1) {
			if strings.HasPrefix(name, "<type>") {
				patterns = append(patterns, strings.TrimPrefix(name, "<type>"))
				continue
			}
			path := name
			if strings.HasPrefix(line, "\t") { // a map's line, under its heading's directory
				path = filepath.Join(dir, name)
			}
			listed[path] = true
			if _, err := os.Stat(path); err != nil {
				t.Errorf("doc.go names %s, which does not exist", path)
			}
		}
	}
	for _, file := range goFiles(t, ".", false) {
		if file != "doc.go" && !listed[file] && !typeFile(file, patterns) {
			t.Errorf("doc.go's map does not list %s: add it under its concern", file)
		}
	}
}

// typeFile: the file is <type><suffix> for a registered type and one of the
// suffixes.
func typeFile(file string, suffixes []string) bool {
	var names []string
	for _, r := range resourceRegistry {
		names = append(names, string(r.typ))
	}
	for _, r := range dataSourceRegistry {
		names = append(names, string(r.typ))
	}
	for _, r := range actionRegistry {
		names = append(names, string(r.typ))
	}
	for _, n := range names {
		for _, s := range suffixes {
			if file == n+s {
				return true
			}
		}
	}
	return false
}

var (
	headingRE = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	anchorRE  = regexp.MustCompile(`\]\(#([^)]+)\)`)
)

// TestDocDesignLinks: every link to a section of DESIGN.md, in DESIGN.md
// itself, names a heading there (GitHub's anchor of it).
func TestDocDesignLinks(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "DESIGN.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, m := range headingRE.FindAllStringSubmatch(string(raw), -1) {
		anchors[githubAnchor(m[1])] = true
	}
	for _, m := range anchorRE.FindAllStringSubmatch(string(raw), -1) {
		if !anchors[m[1]] {
			t.Errorf("DESIGN.md links to #%s, which is no heading of it", m[1])
		}
	}
}

// githubAnchor is the anchor GitHub gives a heading: lower case, spaces as
// hyphens, other punctuation dropped.
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
