package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccPolicyEvaluationDataSource evaluates a two-file policy (a source
// file and an inline v0 helper module) against a failing plan (input) and
// a passing one (input_file): result and violations as HCP Terraform reads
// the query's array. Then the errors, each at plan and naming its
// attribute: a module that does not parse (file:line), an undefined query,
// a query that gives no array, a conflict at evaluation (file:line), and
// an input that is not JSON.
func TestAccPolicyEvaluationDataSource(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	policy := write("tags.rego", `package terraform.policies.tags

import input.plan.resource_changes

deny contains {"address": rc.address, "missing": tag} if {
	some rc in resource_changes
	rc.change.actions[_] != "delete"
	some tag in data.terraform.lib.required
	not rc.change.after.tags[tag]
}

mode := "strict" if count(resource_changes) > 0
mode := "lax" if count(resource_changes) > 1
`)
	// Rego v0 (no if, no contains): the service's older OPA versions.
	const lib = "package terraform.lib\n\nrequired[t] { t := [\"owner\", \"cost-center\"][_] }\n"
	passing := write("pass.json", `{"plan": {"resource_changes": [{"address": "aws_s3_bucket.a", "change": {"actions": ["create"], "after": {"tags": {"owner": "x", "cost-center": "1"}}}}]}}`)
	failing := `jsonencode({ plan = { resource_changes = [
    { address = "aws_s3_bucket.a", change = { actions = ["create"], after = { tags = { owner = "x" } } } },
    { address = "aws_s3_bucket.b", change = { actions = ["delete"], after = null } },
  ] } })`
	config := func(query, input string, modules string) string {
		return fmt.Sprintf(`
data "tfgov_policy_evaluation" "test" {
  sources = [%q]
  modules = { %s }
  query   = %q
  %s
}
`, policy, modules, query, input)
	}
	libModule := fmt.Sprintf(`"lib.rego" = %q`, lib)
	ds := "data.tfgov_policy_evaluation.test"
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config("data.terraform.policies.tags.deny", "input = "+failing, libModule),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("result"), knownvalue.StringExact("fail")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("violations"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"address": knownvalue.StringExact("aws_s3_bucket.a"), "missing": knownvalue.StringExact("cost-center"),
						}),
					})),
				},
			},
			{
				Config: config("data.terraform.policies.tags.deny", fmt.Sprintf("input_file = %q", passing), libModule),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("result"), knownvalue.StringExact("pass")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("violations"), knownvalue.ListSizeExact(0)),
				},
			},
			{
				Config:      config("data.terraform.policies.tags.deny", "", `"lib.rego" = "package terraform.lib\n\nrequired contains t if {\n  t := [\"owner\"\n}\n"`),
				ExpectError: matchWrapped("Rego does not parse", "modules = {", "lib.rego:5: rego_parse_error"),
			},
			{
				Config:      config("data.terraform.policies.tag.deny", "input = "+failing, libModule),
				ExpectError: matchWrapped("Policy evaluation failed", "query   =", `query "data.terraform.policies.tag.deny" is undefined`),
			},
			{
				Config:      config("data.terraform.policies.tags.mode", fmt.Sprintf("input_file = %q", passing), libModule),
				ExpectError: matchWrapped("Policy evaluation failed", "query   =", `query "data.terraform.policies.tags.mode" gives a string ("strict"), not an array`),
			},
			{
				Config:      config("data.terraform.policies.tags.mode", "input = "+failing, libModule),
				ExpectError: matchWrapped("Policy evaluation failed", "sources =", "tags.rego:13: eval_conflict_error: rule data.terraform.policies.tags.mode produced conflicting values"),
			},
			{
				Config:      config("data.terraform.policies.tags.deny", `input = "{\"plan\": "`, libModule),
				ExpectError: matchWrapped("Policy evaluation failed", "input =", "the input is not a JSON document"),
			},
		},
	})
}

// TestConfigureDataMissingToken: without a token the provider's data
// reaches no type but tfgov_policy_evaluation (which never reads it);
// every other type reports the missing token, the first with the places
// looked at, the others in a line.
func TestConfigureDataMissingToken(t *testing.T) {
	data := &providerData{missingToken: "looked, in this order: ..."}
	for i, want := range []string{"looked, in this order: ...", "another error of this run lists every place", "another error of this run lists every place"} {
		var diags diag.Diagnostics
		if d := configureData(data, &diags); d != nil || !diags.HasError() || diags[0].Summary() != "Missing API token" || !strings.Contains(diags[0].Detail(), want) {
			t.Fatalf("configureData without a token, call %d: %v, %v; want %q", i, d, diags, want)
		}
	}
}
