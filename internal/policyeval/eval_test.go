package policyeval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tfgov/terraform-provider-tfgov/internal/policysample"
)

// TestEvaluateErrors: errors of the call itself, before OPA evaluates.
func TestEvaluateErrors(t *testing.T) {
	ok := Module{Name: "ok.rego", Code: []byte("package p\n\ndeny contains 1 if false\n")}
	tests := []struct {
		name    string
		modules []Module
		query   string
		input   string
		has     string
	}{
		{"query does not parse", []Module{ok}, "data.p.deny[", "", `query "data.p.deny[": `},
		{"empty query", []Module{ok}, "  ", "", "the query is empty"},
		{"empty module", []Module{ok, {Name: "empty.rego", Code: []byte("\n")}}, "data.p.deny", "", "empty.rego: the module is empty"},
		{"two modules of one name", []Module{ok, ok}, "data.p.deny", "", `two modules are named "ok.rego"`},
		{"a request", []Module{{Name: "net.rego", Code: []byte("package p\n\ndeny contains r if {\n\tr := http.send({\"method\": \"get\", \"url\": \"http://127.0.0.1:9\"})\n}\n")}},
			"data.p.deny", "", "net.rego:4: rego_type_error: undefined function http.send (refused by the provider: it sends HTTP requests"},
		{"input not JSON", []Module{ok}, "data.p.deny", `{"plan": `, "the input is not a JSON document"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var input []byte
			if tc.input != "" {
				input = []byte(tc.input)
			}
			_, err := Evaluate(context.Background(), tc.modules, tc.query, input)
			if err == nil || !strings.Contains(err.Error(), tc.has) {
				t.Fatalf("error %v, want one with %q", err, tc.has)
			}
			if tc.input != "" && !errors.As(err, new(InputError)) {
				t.Errorf("%v is not an InputError", err)
			}
		})
	}
}

// BenchmarkEvaluate: one policy of real size (policysample's library
// sizes, 1 to 7 KB) against a plan: compiled and evaluated each time
// (Evaluate, as a data source read does) and evaluated only (Prepared).
func BenchmarkEvaluate(b *testing.B) {
	ctx := context.Background()
	for _, size := range []int{1 << 10, 4 << 10, 7 << 10} {
		code := []byte(policysample.RegoCode("terraform.policies.sample", 3, 1, size))
		modules := []Module{{Name: "sample.rego", Code: code}}
		input := []byte(planOpenSSH)
		b.Run(fmt.Sprintf("%dKB/evaluate", len(code)>>10), func(b *testing.B) {
			for b.Loop() {
				if _, err := Evaluate(ctx, modules, "data.terraform.policies.sample.deny", input); err != nil {
					b.Fatal(err)
				}
			}
		})
		p, err := Prepare(ctx, modules, "data.terraform.policies.sample.deny")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dKB/prepared", len(code)>>10), func(b *testing.B) {
			for b.Loop() {
				if _, err := p.Eval(ctx, input); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
