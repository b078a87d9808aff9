package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccPolicySetDataSource: a set by name with its kind, versioned and whole scope; a name that
// names no set is an error naming the closest.
func TestAccPolicySetDataSource(t *testing.T) {
	f := testAccScopeFixture(t)
	g := f.sets["global"]
	addr := "data.tfgov_policy_set.test"
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf("data \"tfgov_policy_set\" \"test\" {\n  name = %q\n}\n", g.Name),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(g.ID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("kind"), knownvalue.StringExact("sentinel")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("versioned"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scope").AtMapKey("global"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scope").AtMapKey("excluded_workspace_ids"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(f.b.ID)})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scope").AtMapKey("tag_match"), knownvalue.StringExact("any")),
				},
			},
			{
				Config: fmt.Sprintf("data \"tfgov_policy_set\" \"p\" {\n  name = %q\n}\n", f.sets["project"].Name),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.tfgov_policy_set.p", tfjsonpath.New("scope").AtMapKey("excluded_tags"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{"key": knownvalue.StringExact("skip"), "value": knownvalue.Null()})})),
				},
			},
			{
				Config:      fmt.Sprintf("data \"tfgov_policy_set\" \"test\" {\n  name = %q\n}\n", g.Name+"x"),
				ExpectError: matchWrapped(fmt.Sprintf("has no policy set named %q; the closest names: %q", g.Name+"x", g.Name)),
			},
		},
	})
}
