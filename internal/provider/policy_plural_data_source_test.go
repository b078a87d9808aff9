package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccPoliciesDataSource_paging lists more policies than one page of
// the API's default (20) and of the provider's page size (100).
func TestAccPoliciesDataSource_paging(t *testing.T) {
	prefix := testAccName("many")
	const sentinels, opas = 98, 5
	c := testAccClient(t)
	ids := make([]string, 0, sentinels+opas)
	t.Cleanup(func() {
		for _, id := range ids {
			if err := c.Policies.Delete(context.Background(), id); err != nil && !isNotFound(err) {
				t.Errorf("deleting policy %s: %v", id, err)
			}
		}
	})
	for i := range sentinels + opas {
		opts := tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("%s-%03d", prefix, i)), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}
		if i >= sentinels {
			opts.Kind, opts.Query = tfe.OPA, tfe.String("data.terraform.deny")
		}
		pol, err := c.Policies.Create(context.Background(), testAccOrganization(), opts)
		if err != nil {
			t.Fatalf("creating policy %d: %v", i, err)
		}
		ids = append(ids, pol.ID)
	}

	config := fmt.Sprintf(`
data "tfgov_policies" "all" {
  search = %[1]q
}

data "tfgov_policies" "opa" {
  search = %[1]q
  kind   = "opa"
}

data "tfgov_policies" "none" {
  search      = "%[1]s-nothing"
  allow_empty = true
}
`, prefix)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_policies.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(sentinels+opas)),
				statecheck.ExpectKnownValue("data.tfgov_policies.all", tfjsonpath.New("policies"), knownvalue.ListSizeExact(sentinels+opas)),
				statecheck.ExpectKnownValue("data.tfgov_policies.all", tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
				statecheck.ExpectKnownValue("data.tfgov_policies.all", tfjsonpath.New("policies").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":                knownvalue.StringRegexp(regexp.MustCompile(`^pol-`)),
					"name":              knownvalue.StringExact(prefix + "-000"),
					"description":       knownvalue.Null(),
					"kind":              knownvalue.StringExact("sentinel"),
					"query":             knownvalue.Null(),
					"enforcement_level": knownvalue.StringExact("advisory"),
					"policy_set_ids":    knownvalue.SetExact([]knownvalue.Check{}),
					"policy_set_count":  knownvalue.Int64Exact(0),
					"updated_at":        knownvalue.Null(),
				})),
				statecheck.ExpectKnownValue("data.tfgov_policies.all", tfjsonpath.New("policies").AtSliceIndex(sentinels+opas-1).AtMapKey("name"), knownvalue.StringExact(fmt.Sprintf("%s-%03d", prefix, sentinels+opas-1))),
				statecheck.ExpectKnownValue("data.tfgov_policies.opa", tfjsonpath.New("policies"), knownvalue.ListSizeExact(opas)),
				statecheck.ExpectKnownValue("data.tfgov_policies.opa", tfjsonpath.New("policies").AtSliceIndex(0).AtMapKey("query"), knownvalue.StringExact("data.terraform.deny")),
				statecheck.ExpectKnownValue("data.tfgov_policies.none", tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{})),
				stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
					for _, r := range s.Values.RootModule.Resources {
						if r.Address != "data.tfgov_policies.all" {
							continue
						}
						got := map[string]bool{}
						for _, id := range r.AttributeValues["ids"].([]any) {
							got[id.(string)] = true
						}
						for _, id := range ids {
							if !got[id] {
								return fmt.Errorf("policy %s is missing from the list", id)
							}
						}
						return nil
					}
					return fmt.Errorf("data.tfgov_policies.all not in state")
				}),
			},
		}, {
			// A search that matches nothing fails, naming the closest names
			// (a typo must not read as an empty result), unless allow_empty (data.tfgov_policies.none).
			Config: fmt.Sprintf(`data "tfgov_policies" "typo" { search = "%s-0001" }`, prefix),
			ExpectError: matchWrapped(fmt.Sprintf(`No policy of organization %s has a name containing "%s-0001"; the closest names: "%[2]s-000", "%[2]s-001"`, testAccOrganization(), prefix),
				"set allow_empty = true"),
		}},
	})
}
