package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccRegistryModuleDataSource: a private module by name and provider,
// with its versions newest first; with include_deprecation each version's
// deprecation (here 1.0.0's, deprecated in the same configuration),
// without it none is claimed; a typo fails naming the module it meant.
func TestAccRegistryModuleDataSource(t *testing.T) {
	mod := testAccRegistryModule(t, "1.0.0", "1.1.0")
	config := fmt.Sprintf(`
resource "tfgov_module_version_deprecation" "old" {
  module_name     = %[1]q
  module_provider = "aws"
  module_version  = "1.0.0"
  reason          = "Use 1.1.0"
}

data "tfgov_registry_module" "plain" {
  module_name     = %[1]q
  module_provider = "aws"
  depends_on      = [tfgov_module_version_deprecation.old]
}

data "tfgov_registry_module" "deprecations" {
  module_name         = %[1]q
  module_provider     = "aws"
  include_deprecation = true
  depends_on          = [tfgov_module_version_deprecation.old]
}
`, mod.Name)
	version := func(v, status string, deprecated, reason knownvalue.Check) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"version": knownvalue.StringExact(v), "status": knownvalue.StringExact(status), "error": knownvalue.Null(),
			"deprecated": deprecated, "deprecation_reason": reason, "deprecation_link": knownvalue.Null(),
		})
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_registry_module.plain", tfjsonpath.New("id"), knownvalue.StringExact(mod.ID)),
				statecheck.ExpectKnownValue("data.tfgov_registry_module.plain", tfjsonpath.New("latest_version"), knownvalue.Null()), // none published
				statecheck.ExpectKnownValue("data.tfgov_registry_module.plain", tfjsonpath.New("versions"), knownvalue.ListExact([]knownvalue.Check{
					version("1.1.0", "pending", knownvalue.Null(), knownvalue.Null()),
					version("1.0.0", "pending", knownvalue.Null(), knownvalue.Null()),
				})),
				statecheck.ExpectKnownValue("data.tfgov_registry_module.deprecations", tfjsonpath.New("versions"), knownvalue.ListExact([]knownvalue.Check{
					version("1.1.0", "pending", knownvalue.Bool(false), knownvalue.Null()),
					version("1.0.0", "pending", knownvalue.Bool(true), knownvalue.StringExact("Use 1.1.0")),
				})),
			},
		}},
	})
	testAccExpectErrors(t, map[string]testAccErrorCase{
		"typo": {
			fmt.Sprintf(`data "tfgov_registry_module" "typo" {`+"\n"+`module_name = %q`+"\n"+`module_provider = "aws"`+"\n}", mod.Name+"s"),
			fmt.Sprintf(`No private registry module named "%s/aws" in organization %s; the closest names: "%s/aws"`, mod.Name+"s", testAccOrganization(), mod.Name),
		},
	})
}
