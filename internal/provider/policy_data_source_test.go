package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// policyAttrs are the attributes the resource and the data sources share
// (the data sources also give policy_set_ids, policy_set_count and
// updated_at, which the resource does not keep in state).
var policyAttrs = []string{"id", "organization", "name", "description", "kind", "query", "enforcement_level"}

func TestAccPolicyDataSource_basic(t *testing.T) {
	name := testAccName("ds")
	config := fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name              = %[1]q
  kind              = "opa"
  query             = "data.terraform.deny"
  description       = "Read back"
  enforcement_level = "mandatory"
}

data "tfgov_policy" "by_id" {
  id = tfgov_policy.test.id
}

data "tfgov_policy" "by_name" {
  name       = tfgov_policy.test.name
  depends_on = [tfgov_policy.test]
}
`, name)
	var checks []statecheck.StateCheck
	for _, ds := range []string{"data.tfgov_policy.by_id", "data.tfgov_policy.by_name"} {
		for _, a := range policyAttrs {
			checks = append(checks, statecheck.CompareValuePairs(ds, tfjsonpath.New(a), policyAddr, tfjsonpath.New(a), compare.ValuesSame()))
		}
	}
	checks = append(checks,
		statecheck.ExpectKnownValue("data.tfgov_policy.by_name", tfjsonpath.New("query"), knownvalue.StringExact("data.terraform.deny")),
		statecheck.ExpectKnownValue("data.tfgov_policy.by_name", tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
		statecheck.ExpectKnownValue("data.tfgov_policy.by_name", tfjsonpath.New("policy_set_ids"), knownvalue.SetExact([]knownvalue.Check{})),
		statecheck.ExpectKnownValue("data.tfgov_policy.by_name", tfjsonpath.New("policy_set_count"), knownvalue.Int64Exact(0)),
		statecheck.ExpectKnownValue("data.tfgov_policy.by_name", tfjsonpath.New("updated_at"), knownvalue.Null()),
	)
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps:        []resource.TestStep{{Config: config, ConfigStateChecks: checks}},
	})
}

func TestAccPolicyDataSource_errors(t *testing.T) {
	tests := map[string]struct{ config, want string }{
		"neither":         {`data "tfgov_policy" "x" {}`, `Exactly one of these attributes must be configured: \[id,name\]`},
		"both":            {`data "tfgov_policy" "x" {` + "\n" + `id = "pol-abc"` + "\n" + `name = "abc"` + "\n}", `Exactly one of these attributes must be configured: \[id,name\]`},
		"id and org":      {`data "tfgov_policy" "x" {` + "\n" + `id = "pol-abc"` + "\n" + `organization = "abc"` + "\n}", `cannot be configured together`},
		"missing id":      {`data "tfgov_policy" "x" {` + "\n" + `id = "pol-doesnotexist0001"` + "\n}", `Policy pol-doesnotexist0001 was not found: organization ` + testAccOrganization() + `, whose policies the API token may list, has none with that ID`},
		"missing name":    {`data "tfgov_policy" "x" {` + "\n" + `name = "no-such-policy-here"` + "\n}", `Organization ` + testAccOrganization() + ` has no policy named "no-such-policy-here": its policies, which the API token may list, do not include it`},
		"missing org":     {`data "tfgov_policy" "x" {` + "\n" + `name = "x"` + "\n" + `organization = "no-such-org-ds"` + "\n}", `Organization no-such-org-ds was not found, or the API token belongs to no team of it`},
		"bad id":          {`data "tfgov_policy" "x" {` + "\n" + `id = "polset-abc"` + "\n}", `must be an ID of the form pol-<id>`},
		"list bad kind":   {`data "tfgov_policies" "x" {` + "\n" + `kind = "rego"` + "\n}", `kind.*value must be one of`},
		"list empty text": {`data "tfgov_policies" "x" {` + "\n" + `search = ""` + "\n}", `search.*at least 1`},
		"list no org":     {`data "tfgov_policies" "x" {` + "\n" + `organization = "no-such-org-list"` + "\n}", `Organization no-such-org-list was not found, or the API token belongs to no team of it`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:      tc.config,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}
