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
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
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

func TestAccPolicyList_query(t *testing.T) {
	name := testAccName("list")
	testAccQuery(t, queryCase{
		typ: "policy", config: testAccPolicyConfig(name, "opa", "mandatory", "Listed", `data.terraform.deny`),
		filter:   fmt.Sprintf("search = %q\n    kind = \"opa\"", name),
		identity: map[string]knownvalue.Check{"id": idLike("pol")},
		display:  knownvalue.StringExact(name + " (opa)"),
		values: map[string]knownvalue.Check{
			"name": knownvalue.StringExact(name), "organization": orgCheck(), "kind": knownvalue.StringExact("opa"),
			"enforcement_level": knownvalue.StringExact("mandatory"), "description": knownvalue.StringExact("Listed"),
			"query": knownvalue.StringExact("data.terraform.deny"), "content": knownvalue.Null(),
		},
	})
}

func TestAccPolicyUploadList_query(t *testing.T) {
	name := testAccName("list")
	testAccQuery(t, queryCase{
		typ: "policy_upload", config: testAccPolicyWithUpload(name, "sentinel", sentinelCode),
		filter:   fmt.Sprintf("search = %q", name),
		identity: map[string]knownvalue.Check{"policy_id": idLike("pol")},
		display:  knownvalue.StringExact("code of " + name + " (sentinel)"),
		values: map[string]knownvalue.Check{
			"content": knownvalue.StringExact(sentinelCode), "content_sha256": knownvalue.StringExact(sha256String(sentinelCode)), "source": knownvalue.Null(),
		},
	})
}

func TestAccTeamAccessList_query(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	testAccQuery(t, queryCase{
		typ: "team_access", config: testAccTeamAccessConfig(team.ID, ws.ID, "plan", ""),
		filter:   fmt.Sprintf("workspace_id = %q", ws.ID),
		identity: map[string]knownvalue.Check{"id": idLike("tws")},
		display:  knownvalue.StringExact("team " + team.Name + ": plan access"), // the name, not the ID
		values: map[string]knownvalue.Check{
			"team_id": knownvalue.StringExact(team.ID), "workspace_id": knownvalue.StringExact(ws.ID), "access": knownvalue.StringExact("plan"),
		},
	})
}

func TestAccAgentTokenList_query(t *testing.T) {
	pool := testAccAgentPool(t)
	testAccQuery(t, queryCase{
		typ: "agent_token", config: testAccAgentTokenConfig(pool.ID, "listed token", ""),
		filter:   fmt.Sprintf("agent_pool_id = %q", pool.ID),
		identity: map[string]knownvalue.Check{"agent_pool_id": knownvalue.StringExact(pool.ID), "id": idLike("at")},
		display:  knownvalue.StringRegexp(regexp.MustCompile(`^listed token \(created \d{4}-`)),
		values: map[string]knownvalue.Check{
			"description": knownvalue.StringExact("listed token"), "agent_pool_id": knownvalue.StringExact(pool.ID),
			"token": knownvalue.Null(), // never returned after create
		},
	})
}

func TestAccModuleTestVariableList_query(t *testing.T) {
	mod := testAccModule(t)
	testAccQuery(t, queryCase{
		typ: "module_test_variable", config: testAccTestVariableConfig(mod, `key = "AWS_REGION"`, `value = "eu-west-1"`),
		filter:   fmt.Sprintf("module_name = %q\n    module_provider = %q", mod.Name, mod.Provider),
		identity: moduleIDOf(mod, "id", idLike("var")),
		display:  knownvalue.StringExact("AWS_REGION"),
		values: map[string]knownvalue.Check{
			"key": knownvalue.StringExact("AWS_REGION"), "value": knownvalue.StringExact("eu-west-1"), "sensitive": knownvalue.Bool(false),
		},
	})
}

func TestAccModuleTestRunList_query(t *testing.T) {
	mod := testAccModule(t)
	dir := testModuleDir(t, "pass")
	testAccQuery(t, queryCase{
		typ: "module_test_run", config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir)),
		filter:   fmt.Sprintf("module_name = %q\n    module_provider = %q", mod.Name, mod.Provider),
		identity: moduleIDOf(mod, "id", idLike("trun")),
		display:  knownvalue.StringRegexp(regexp.MustCompile(`^trun-[A-Za-z0-9]+ \(finished, pass, \d{4}-`)),
		values: map[string]knownvalue.Check{
			"status": knownvalue.StringExact("finished"), "test_status": knownvalue.StringExact("pass"), "tests_passed": knownvalue.Int64Exact(3),
			"configuration_version_id": idLike("cv"), "source": knownvalue.Null(),
		},
	})
}

func TestAccModuleVersionDeprecationList_query(t *testing.T) {
	m := testAccRegistryModule(t, "1.0.0", "1.1.0")
	mod := moduleRef{Organization: testAccOrganization(), Name: m.Name, Provider: m.Provider}
	testAccQuery(t, queryCase{
		typ: "module_version_deprecation", config: testAccDeprecationConfig("", m.Name, "1.0.0", "Use 1.1.0.", ""),
		filter:   fmt.Sprintf("module_name = %q\n    module_provider = %q", mod.Name, mod.Provider),
		identity: moduleIDOf(mod, "module_version", knownvalue.StringExact("1.0.0")),
		display:  knownvalue.StringExact("version 1.0.0 deprecated: Use 1.1.0."),
		values: map[string]knownvalue.Check{
			"reason": knownvalue.StringExact("Use 1.1.0."), "link": knownvalue.Null(), "module_version_id": knownvalue.NotNull(),
		},
	})
}
