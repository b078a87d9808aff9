package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func testAccModuleTestVariablesConfig(mod moduleRef) string {
	return fmt.Sprintf(`
data "tfgov_module_test_variables" "test" {
  module_name     = %q
  module_provider = %q
}
`, mod.Name, mod.Provider)
}

// TestAccModuleTestVariablesDataSource lists a module's variables sorted by
// key, without the value of a sensitive one; a missing module is an error.
func TestAccModuleTestVariablesDataSource(t *testing.T) {
	mod := testAccModule(t)
	c := testAccClient(t)
	for _, v := range []tfe.VariableCreateOptions{
		{Key: tfe.String("ZONE"), Value: tfe.String("b"), Description: tfe.String("zone"), Category: tfe.Category(tfe.CategoryEnv), HCL: tfe.Bool(true)},
		{Key: tfe.String("API_TOKEN"), Value: tfe.String("hush"), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(true)},
	} {
		if _, err := c.TestVariables.Create(context.Background(), mod.id(), v); err != nil {
			t.Fatal(err)
		}
	}
	const addr = "data.tfgov_module_test_variables.test"
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: testAccModuleTestVariablesConfig(mod),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(mod.String())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("variables"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"id": knownvalue.StringRegexp(regexp.MustCompile(`^var-`)), "key": knownvalue.StringExact("API_TOKEN"), "value": knownvalue.Null(),
							"description": knownvalue.StringExact(""), "category": knownvalue.StringExact("env"), "hcl": knownvalue.Bool(false), "sensitive": knownvalue.Bool(true),
						}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"id": knownvalue.StringRegexp(regexp.MustCompile(`^var-`)), "key": knownvalue.StringExact("ZONE"), "value": knownvalue.StringExact("b"),
							"description": knownvalue.StringExact("zone"), "category": knownvalue.StringExact("env"), "hcl": knownvalue.Bool(true), "sensitive": knownvalue.Bool(false),
						}),
					})),
				},
			},
			{
				Config:      testAccModuleTestVariablesConfig(moduleRef{Name: "no-such-module", Provider: "aws"}),
				ExpectError: wrappedRE(`Error listing module test variables.*was not found`),
			},
		},
	})
}
