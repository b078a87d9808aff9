package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

func TestCheckRego(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		code    string
		wantErr string
	}{
		"rego v1":              {regoCode, ""},
		"rego v0":              {regoV0Code, ""},
		"v0 with import":       {"package x\n\nimport rego.v1\n\nallow if true\n", ""},
		"unclosed rule":        {badRego, "rego_parse_error"},
		"no package":           {"deny contains msg if { msg := 1 }\n", "package expected"},
		"empty":                {"  \n", "the code is empty"},
		"sentinel is not rego": {sentinelCode, "rego_parse_error"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := checkRego("p.rego", []byte(tc.code))
			if tc.wantErr == "" && err != nil {
				t.Fatalf("rejected valid Rego: %v", err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestCheckRegoQuery(t *testing.T) {
	t.Parallel()
	for q, ok := range map[string]bool{
		"data.terraform.policies.deny":          true,
		"data.terraform.policies[\"x-y\"].deny": true,
		"data.x.deny[msg]":                      true,
		"data.x[":                               false,
		"":                                      false,
		"deny contains msg if {":                false,
	} {
		if err := checkRegoQuery(q); (err == nil) != ok {
			t.Errorf("query %q: err = %v, want ok = %v", q, err, ok)
		}
	}
}

// TestExampleRego keeps the Rego shipped in examples/ valid.
func TestExampleRego(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../examples/*/policies/*.rego")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example Rego found (%v)", err)
	}
	for _, f := range files {
		code, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkRego(filepath.Base(f), code); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// BenchmarkCheckRego measures the parse check on the quickstart's policy.
func BenchmarkCheckRego(b *testing.B) {
	code, err := os.ReadFile("../../examples/quickstart/policies/required-tags.rego")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := checkRego("required-tags.rego", code); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCheckPolicyCode(t *testing.T) {
	t.Parallel()
	const rego = "package terraform.policies\n\ndeny contains msg if { msg := \"x\"; false }\n"
	const brokenRego = "# tags\npackage terraform.policies\n\ndeny contains msg if {\n"
	const sentinel = "import \"tfplan/v2\" as tfplan\n\nmain = rule { true }\n"
	tests := map[string]struct {
		kind, name, code string
		wantErr          string
	}{
		"empty opa":                 {"opa", "p", "", "the code is empty"},
		"blank sentinel":            {"sentinel", "p", " \n\t\n", "the code is empty"},
		"empty, kind unknown":       {"", "p", "", "the code is empty"},
		"rego":                      {"opa", "p", rego, ""},
		"broken rego":               {"opa", "p.rego", brokenRego, "p.rego:"},
		"not rego at all":           {"opa", "p", sentinel, "p:"},
		"sentinel":                  {"sentinel", "p", sentinel, ""},
		"broken rego as sentinel":   {"sentinel", "p", brokenRego, ""},
		"unknown kind, package":     {"", "p", brokenRego, "p:"},
		"unknown kind, .rego file":  {"", "tags.rego", "deny[msg] {", "tags.rego:"},
		"unknown kind, sentinel":    {"", "p.sentinel", sentinel, ""},
		"unknown kind, valid rego":  {"", "p", rego, ""},
		"package name in a comment": {"", "p", "# package x\nmain = rule { true }\n", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := checkPolicyCode(tc.kind, tc.name, []byte(tc.code))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestSuggestQuery: an OPA policy without query is told the query HCP
// Terraform's documentation writes for its package (data.<package>.deny),
// Rego v1 or v0; code that is not known or not Rego gets the example.
func TestSuggestQuery(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ code, want string }{
		"v1 deny": {"package terraform.policies.tags\n\ndeny contains msg if {\n  msg := \"x\"\n}\n",
			`. The code declares package terraform.policies.tags: query = "data.terraform.policies.tags.deny" evaluates its deny rule`},
		"v0 deny": {"package terraform.policies.tags\n\ndeny[msg] {\n  msg := \"x\"\n}\n",
			`query = "data.terraform.policies.tags.deny"`},
		"package only": {"# a comment\npackage acme.ingress\n", `query = "data.acme.ingress.deny"`},
		"no deny rule": {"package acme.ingress\n\nviolation contains msg if {\n  msg := \"x\"\n}\nallow := true\n",
			`package acme.ingress, with no deny rule (its rules: violation, allow): HCP Terraform's documentation writes the query as data.<package>.<rule>, for a rule that holds the messages that deny, such as "data.acme.ingress.deny".`},
		"unknown":     {"", `, such as "data.terraform.policies.deny".`},
		"not rego":    {"main = rule { true }\n", `, such as "data.terraform.policies.deny".`},
		"broken rego": {"package x\n\ndeny contains msg if {\n", `, such as "data.terraform.policies.deny".`},
	} {
		if got := suggestQuery([]byte(tc.code)); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q lacks %q", name, got, tc.want)
		}
	}
}

// TestCheckCodeOfKind_names: an error about a policy's code names the
// policy by ID and name, or, for a policy not created yet, by name alone
// (never "Policy  (p)", an empty ID).
func TestCheckCodeOfKind_names(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{
		"":            "The new policy p: ",
		"pol-abc1234": "Policy pol-abc1234 (p): ",
	} {
		var diags diag.Diagnostics
		checkCodeOfKind(id, policyIdentity{kind: tfe.OPA, name: "p"}, []byte("package x\n\ndeny contains msg if {\n"), "content", &diags)
		if len(diags) != 1 {
			t.Fatalf("id %q: %d diagnostics, want 1: %v", id, len(diags), diags)
		}
		if got := diags[0].Detail(); !strings.HasPrefix(got, want) || strings.Contains(got, "Policy  (") {
			t.Errorf("id %q: detail %q, want it to open with %q", id, got, want)
		}
	}
}
