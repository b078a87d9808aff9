package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tfgov/terraform-provider-tfgov/internal/policysample"
)

// TestGenerateCode: 1,000 generated policies have the libraries' median
// and p99 size per kind (within 10%), none over the max, the same code
// every run, valid Rego, and a different code in version 1.
func TestGenerateCode(t *testing.T) {
	pols := generateCode(1000)
	if again := generateCode(1000); again[7].code != pols[7].code || again[500].code != pols[500].code {
		t.Error("the code differs between runs")
	}
	sizes := map[string][]int{}
	for i, p := range pols {
		sizes[p.Kind] = append(sizes[p.Kind], len(p.code[0]))
		if p.code[0] == p.code[1] {
			t.Errorf("policy %d: version 1 is version 0", i)
		}
		if p.Kind == "opa" && i%50 == 1 {
			for v, c := range p.code {
				if _, err := ast.ParseModuleWithOpts("p.rego", c, ast.ParserOptions{RegoVersion: ast.RegoV1}); err != nil {
					t.Fatalf("policy %d version %d is not valid Rego: %v\n%s", i, v, err, c)
				}
			}
		}
	}
	for kind, want := range map[string]policysample.Dist{"sentinel": policysample.Sentinel, "opa": policysample.Rego} {
		s := sizes[kind]
		sort.Ints(s)
		if len(s) != 500 {
			t.Fatalf("%s: %d policies, want 500", kind, len(s))
		}
		for _, q := range []struct {
			name      string
			got, want float64
		}{{"median", float64(s[250]), want.Median}, {"p90", float64(s[450]), want.P90}} {
			if q.got < 0.9*q.want || q.got > 1.1*q.want {
				t.Errorf("%s %s: %.0f bytes, want %.0f ± 10%%", kind, q.name, q.got, q.want)
			}
		}
		if largest := float64(s[len(s)-1]); largest > want.Max+200 {
			t.Errorf("%s max: %.0f bytes, want at most %.0f", kind, largest, want.Max)
		}
	}
}

// TestReadCodeDir: real files are cycled, a Rego file's query is its
// package's deny, and version 1 differs.
func TestReadCodeDir(t *testing.T) {
	dir := t.TempDir()
	for name, code := range map[string]string{"a.sentinel": "main = rule { true }\n", "b.rego": "package x.y\n\nimport rego.v1\n\ndeny contains 1 if { false }\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(code), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	pols, err := readCodeDir(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	if pols[0].Kind != "sentinel" || pols[1].Kind != "opa" || pols[1].Query != "data.x.y.deny" || pols[2].Kind != "sentinel" {
		t.Errorf("kinds and queries: %+v", pols)
	}
	if pols[0].code[0] == pols[0].code[1] || !strings.HasPrefix(pols[0].code[1], pols[0].code[0]) {
		t.Errorf("version 1 of a file: %q", pols[0].code[1])
	}
	if _, err := readCodeDir(t.TempDir(), 1); err == nil {
		t.Error("an empty folder: no error")
	}
}
