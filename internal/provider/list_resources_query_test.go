package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// queryCase is one list resource's acceptance test (Terraform 1.14 and
// later): Terraform makes an object, then `terraform query` with the list
// block finds exactly it, with its identity, display name and resource.
type queryCase struct {
	typ      string // without the provider prefix
	config   string
	filter   string // the list block's config arguments
	identity map[string]knownvalue.Check
	display  knownvalue.Check
	values   map[string]knownvalue.Check // resource attributes
}

func testAccQuery(t *testing.T, c queryCase) {
	addr := "tfgov_" + c.typ + ".test"
	var known []querycheck.KnownValueCheck
	for attr, check := range c.values {
		known = append(known, querycheck.KnownValueCheck{Path: tfjsonpath.New(attr), KnownValue: check})
	}
	byIdentity := queryfilter.ByResourceIdentity(c.identity)
	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: c.config},
			{
				Query: true,
				Config: fmt.Sprintf(`
provider "tfgov" {}

list "tfgov_%[1]s" "test" {
  provider         = tfgov
  include_resource = true
  config {
    %[2]s
  }
}
`, c.typ, c.filter),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength(addr, 1),
					querycheck.ExpectIdentity(addr, c.identity),
					querycheck.ExpectResourceDisplayName(addr, byIdentity, c.display),
					querycheck.ExpectResourceKnownValues(addr, byIdentity, known),
				},
			},
		},
	})
}

var (
	orgCheck = func() knownvalue.Check { return knownvalue.StringExact(testAccOrganization()) }
	idLike   = func(prefix string) knownvalue.Check {
		return knownvalue.StringRegexp(regexp.MustCompile(`^` + prefix + `-[A-Za-z0-9]+$`))
	}
	moduleIDOf = func(mod moduleRef, last string, check knownvalue.Check) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{
			"organization": knownvalue.StringExact(mod.Organization), "module_name": knownvalue.StringExact(mod.Name),
			"module_provider": knownvalue.StringExact(mod.Provider), last: check,
		}
	}
)
