package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakefileRaceTests: every alternative of the Makefile's RACE_ACC (the
// acceptance tests make test runs with -race) matches an acceptance test
// here, so that a renamed test does not leave the race detector unnoticed.
// DESIGN.md "Where the race detector runs".
func TestMakefileRaceTests(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join(repoRoot(), "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^RACE_ACC \?= \^TestAcc\((.+)\)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal(`GNUmakefile has no line "RACE_ACC ?= ^TestAcc(...)"`)
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	decl := regexp.MustCompile(`(?m)^func (TestAcc\w+)\(t \*testing\.T\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range decl.FindAllSubmatch(b, -1) {
			names = append(names, string(d[1]))
		}
	}
	alts := topAlternatives(string(m[1]))
	if len(alts) < 2 {
		t.Fatalf("RACE_ACC names %d alternatives: %q", len(alts), m[1])
	}
	for _, alt := range alts {
		re := regexp.MustCompile(`^TestAcc(` + alt + `)`)
		found := false
		for _, n := range names {
			found = found || re.MatchString(n)
		}
		if !found {
			t.Errorf("RACE_ACC's %q matches no acceptance test of internal/provider: renamed? (GNUmakefile)", "TestAcc"+alt)
		}
	}
}

// topAlternatives splits a regular expression at the | outside parentheses.
func topAlternatives(re string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range re {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, re[start:i])
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(re[start:]))
}
