package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const moduleVersionAddr = "data.tfgov_module_version.test"

// testAccModuleVersionDataSourceConfig reads version of module name/aws,
// after deprecating it when withDeprecation is set.
func testAccModuleVersionDataSourceConfig(name, version string, withDeprecation bool) string {
	config := fmt.Sprintf(`
data "tfgov_module_version" "test" {
  module_name     = %[1]q
  module_provider = "aws"
  module_version  = %[2]q
`, name, version)
	if withDeprecation {
		return testAccDeprecationConfig("", name, version, "Use 1.1.0.", "https://example.com/upgrade") + config + `
  depends_on = [tfgov_module_version_deprecation.test]
}
`
	}
	return config + "}\n"
}

// TestAccModuleVersionDataSource_basic reads a version before, during and
// after its deprecation.
func TestAccModuleVersionDataSource_basic(t *testing.T) {
	mod := testAccRegistryModule(t, "1.0.0", "1.1.0")
	notDeprecated := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^modver-[A-Za-z0-9]+$`))),
		statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
		statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("status"), knownvalue.StringExact("pending")),
		statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("deprecated"), knownvalue.Bool(false)),
		statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("deprecation_reason"), knownvalue.Null()),
		statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("deprecation_link"), knownvalue.Null()),
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:            testAccModuleVersionDataSourceConfig(mod.Name, "1.0.0", false),
				ConfigStateChecks: notDeprecated,
			},
			{
				Config: testAccModuleVersionDataSourceConfig(mod.Name, "1.0.0", true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("deprecated"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("deprecation_reason"), knownvalue.StringExact("Use 1.1.0.")),
					statecheck.ExpectKnownValue(moduleVersionAddr, tfjsonpath.New("deprecation_link"), knownvalue.StringExact("https://example.com/upgrade")),
					statecheck.CompareValuePairs(moduleVersionAddr, tfjsonpath.New("id"), deprecationAddr, tfjsonpath.New("module_version_id"), compare.ValuesSame()),
				},
			},
			// The deprecation destroyed (the data source was read in the
			// same plan, before the revert) ...
			{
				Config: testAccModuleVersionDataSourceConfig(mod.Name, "1.0.0", false),
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error {
						return testAccCheckDeprecation(t, testAccModuleVersion(mod, "1.0.0"), false, "", "")
					}),
				},
			},
			// ... the next read finds the version no longer deprecated.
			{
				Config:            testAccModuleVersionDataSourceConfig(mod.Name, "1.0.0", false),
				ConfigStateChecks: notDeprecated,
			},
		},
	})
}

// TestAccModuleVersionDataSource_missing: a version the module does not
// have is an error listing the versions it has, in version order.
func TestAccModuleVersionDataSource_missing(t *testing.T) {
	mod := testAccRegistryModule(t, "1.10.0", "1.0.0", "1.2.0")
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: testAccModuleVersionDataSourceConfig(mod.Name, "2.0.0", false),
			ExpectError: matchWrapped(fmt.Sprintf("Could not read version 2.0.0 of module %[1]s/%[2]s/aws: module %[1]s/%[2]s/aws has no version 2.0.0; its versions are 1.0.0, 1.2.0, 1.10.0.",
				testAccOrganization(), mod.Name)),
		}},
	})
}
