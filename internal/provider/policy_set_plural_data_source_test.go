package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccPolicySetsDataSource: a search and a kind narrow the sets, by name; a search matching
// nothing is an error naming the closest names, unless allow_empty says none is fine.
func TestAccPolicySetsDataSource(t *testing.T) {
	f := testAccScopeFixture(t)
	addr := "data.tfgov_policy_sets.test"
	config := func(args string) string { return "data \"tfgov_policy_sets\" \"test\" {\n" + args + "\n}\n" }
	name := func(letter string) knownvalue.Check { return knownvalue.StringExact(f.sets[letter].Name) }
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config(fmt.Sprintf("  search = %q", f.prefix)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("policy_sets"), knownvalue.ListSizeExact(5)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("policy_sets").AtSliceIndex(0).AtMapKey("name"), name("direct")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ids").AtSliceIndex(0), knownvalue.StringExact(f.sets["direct"].ID)),
				},
			},
			{
				Config: config(fmt.Sprintf("  search = %q\n  kind = \"opa\"", f.prefix)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("policy_sets"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("policy_sets").AtSliceIndex(0).AtMapKey("name"), name("other")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("policy_sets").AtSliceIndex(0).AtMapKey("kind"), knownvalue.StringExact("opa")),
				},
			},
			{
				Config:      config(fmt.Sprintf("  search = %q", f.prefix+"-globl")),
				ExpectError: matchWrapped(fmt.Sprintf("No policy set of organization %s has a name containing %q; the closest names: %q", testAccOrganization(), f.prefix+"-globl", f.sets["global"].Name), "set allow_empty = true"),
			},
			{
				Config:            config(fmt.Sprintf("  search = %q\n  allow_empty = true", f.prefix+"-globl")),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("ids"), knownvalue.ListSizeExact(0))},
			},
		},
	})
}
