package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/tfgov/terraform-provider-tfgov/internal/policysample"
)

// Policy code of real size (policysample): generateCode gives N policies,
// half Sentinel and half Rego, whose sizes are the quantiles of each
// kind's distribution in a fixed shuffled order: the same code every run.
// -code-dir takes a folder of real .sentinel and .rego files instead,
// cycled.

// benchPolicy is one measured policy: its kind, query and code in each
// version (0: create; 1: update).
type benchPolicy struct {
	Kind  string `json:"kind"`
	Query any    `json:"query"` // null for Sentinel
	code  [2]string
}

// generateCode gives n policies of real size (see above).
func generateCode(n int) []benchPolicy {
	perm := rand.New(rand.NewPCG(37, 1000)).Perm(n) // a fixed order of the quantiles
	out := make([]benchPolicy, n)
	for i := range out {
		q := (float64(perm[i]/2) + 0.5) / float64((n+1)/2)
		if i%2 == 0 {
			size := policysample.Sentinel.Size(q)
			out[i] = benchPolicy{Kind: "sentinel", code: [2]string{policysample.SentinelCode(i, 0, size), policysample.SentinelCode(i, 1, size)}}
		} else {
			size := policysample.Rego.Size(q)
			pkg := fmt.Sprintf("terraform.policies.bench_%d", i)
			out[i] = benchPolicy{Kind: "opa", Query: "data." + pkg + ".deny", code: [2]string{policysample.RegoCode(pkg, i, 0, size), policysample.RegoCode(pkg, i, 1, size)}}
		}
	}
	return out
}

// readCodeDir takes n policies from the .sentinel and .rego files of dir,
// cycled in name order; version 1 is the file with a comment appended. A
// Rego file's query is its package's deny.
func readCodeDir(dir string, n int) ([]benchPolicy, error) {
	var files []string
	for _, ext := range []string{"*.sentinel", "*.rego"} {
		m, err := filepath.Glob(filepath.Join(dir, ext))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("-code-dir %s: no .sentinel or .rego files", dir)
	}
	pkgLine := regexp.MustCompile(`(?m)^package\s+([\w.]+)`)
	out := make([]benchPolicy, n)
	for i := range out {
		f := files[i%len(files)]
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		p := benchPolicy{Kind: "sentinel", code: [2]string{string(raw), string(raw) + "\n# version 1\n"}}
		if strings.HasSuffix(f, ".rego") {
			m := pkgLine.FindSubmatch(raw)
			if m == nil {
				return nil, fmt.Errorf("%s: no package line", f)
			}
			p.Kind, p.Query = "opa", "data."+string(m[1])+".deny"
		}
		out[i] = p
	}
	return out, nil
}

// writeCode writes the policies under dir: v0/<i>.policy and v1/<i>.policy,
// and policies.json with each one's kind and query, which the
// configurations read.
func writeCode(dir string, pols []benchPolicy) error {
	for v := range 2 {
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprint("v", v)), 0o755); err != nil {
			return err
		}
		for i, p := range pols {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprint("v", v), fmt.Sprint(i, ".policy")), []byte(p.code[v]), 0o644); err != nil {
				return err
			}
		}
	}
	meta, err := json.Marshal(pols)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "policies.json"), meta, 0o644)
}

// codeStats is the median and p99 of the policies' code sizes, version 0.
func codeStats(pols []benchPolicy) (median, p99 int) {
	sizes := make([]int, len(pols))
	for i, p := range pols {
		sizes[i] = len(p.code[0])
	}
	sort.Ints(sizes)
	return sizes[len(sizes)/2], sizes[min(len(sizes)-1, len(sizes)*99/100)]
}
