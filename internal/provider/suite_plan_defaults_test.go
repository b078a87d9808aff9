package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccRemovedArgumentPlansDefault: for every Optional+Computed
// attribute of every resource, applying a value other than the default
// and then removing the line from the configuration plans the documented
// default (with the action the change takes), applies it, and the next
// plan is empty (plugin-testing checks that after every apply).
//
// Not in the table, and why:
//   - organization (every resource but team access and agent tokens): its
//     default is the provider's organization, and a second organization
//     cannot be made through the public API of a live service;
//     planOrganization plans it, replacing the resource.
//   - tfgov_module_test_variable.category: `env` is its only valid value.
//   - tfgov_module_test_variable.value: it has no default; left out on an
//     existing variable it keeps the service's value, as documented (a
//     generated configuration writes `value = null # sensitive`), and
//     TestAccModuleTestVariableResource_sensitive plans that as no change.
//   - tfgov_module_test_run.configuration_version_id: exactly one of it
//     and `source` is required, so it cannot be removed alone.
//   - tfgov_policy.content_sha256 and tfgov_policy_upload.content_sha256
//     are in the table: their default is the code's hash, so removing a
//     configured (matching) hash plans no change.
func TestAccRemovedArgumentPlansDefault(t *testing.T) {
	type fixture func(t *testing.T) (with, without string)
	type row struct {
		name   string
		addr   string
		config fixture
		action plancheck.ResourceActionType
		attr   tfjsonpath.Path
		want   knownvalue.Check
	}
	policy := func(withKind, withLevel, withQuery, kind, level, query string) fixture {
		return func(*testing.T) (string, string) {
			name := testAccName("default")
			return testAccPolicyConfig(name, withKind, withLevel, "", withQuery), testAccPolicyConfig(name, kind, level, "", query)
		}
	}
	const opaQuery = "data.terraform.policies.tags.deny"
	upload := func(name, extra string) string {
		return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = %q
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  content   = %q
  %s
}
`, name, opaQuery, regoCode, extra)
	}
	codeHash := func(t *testing.T) (string, string) {
		name := testAccName("default")
		sum := fmt.Sprintf("content_sha256 = %q", sha256Hex([]byte(regoCode)))
		return upload(name, sum), upload(name, "")
	}
	variable := func(line string, keep ...string) fixture {
		return func(t *testing.T) (string, string) {
			mod := testAccModule(t)
			base := append([]string{`key = "DEFAULTS"`, `value = "v"`}, keep...)
			return testAccTestVariableConfig(mod, append(base, line)...), testAccTestVariableConfig(mod, base...)
		}
	}
	run := func(line string) fixture {
		return func(t *testing.T) (string, string) {
			mod := testAccModule(t)
			base := []string{fmt.Sprintf("configuration_version_id = %q", testAccTestConfiguration(t, mod, "pass"))}
			if line != "wait_for_completion = false" {
				base = append(base, "wait_for_completion = false")
			}
			return testAccTestRunConfig(mod, append(base, line)...), testAccTestRunConfig(mod, base...)
		}
	}
	access := func(with, without string) fixture {
		return func(t *testing.T) (string, string) {
			team, ws := testAccTeam(t, nil).ID, testAccWorkspace(t).ID
			return testAccTeamAccessConfig(team, ws, "custom", with), testAccTeamAccessConfig(team, ws, "custom", without)
		}
	}
	perm := func(name string) tfjsonpath.Path { return tfjsonpath.New("permissions").AtMapKey(name) }
	const update, replace, noop = plancheck.ResourceActionUpdate, plancheck.ResourceActionDestroyBeforeCreate, plancheck.ResourceActionNoop

	for _, r := range []row{
		{"policy enforcement_level sentinel", policyAddr, policy("", "advisory", "", "", "", ""), update, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("hard-mandatory")},
		{"policy enforcement_level opa", policyAddr, policy("opa", "mandatory", opaQuery, "opa", "", opaQuery), update, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("advisory")},
		{"policy kind", policyAddr, policy("opa", "", opaQuery, "", "", ""), replace, tfjsonpath.New("kind"), knownvalue.StringExact("sentinel")},
		{"policy_upload content_sha256", "tfgov_policy_upload.test", codeHash, noop, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(regoCode)))},
		{"module_test_variable description", testVariableAddr, variable(`description = "set"`), update, tfjsonpath.New("description"), knownvalue.StringExact("")},
		{"module_test_variable hcl", testVariableAddr, variable(`hcl = true`), update, tfjsonpath.New("hcl"), knownvalue.Bool(false)},
		{"module_test_variable sensitive", testVariableAddr, variable(`sensitive = true`), replace, tfjsonpath.New("sensitive"), knownvalue.Bool(false)},
		{"module_test_run wait_for_completion", testRunAddr, run("wait_for_completion = false"), update, tfjsonpath.New("wait_for_completion"), knownvalue.Bool(true)},
		{"module_test_run fail_on_test_failure", testRunAddr, run("fail_on_test_failure = false"), update, tfjsonpath.New("fail_on_test_failure"), knownvalue.Bool(true)},
		{"module_test_run verbose", testRunAddr, run("verbose = true"), replace, tfjsonpath.New("verbose"), knownvalue.Bool(false)},
		{"module_test_run test_directory", testRunAddr, run(`test_directory = "other"`), replace, tfjsonpath.New("test_directory"), knownvalue.StringExact("tests")},
		{"team_access permissions", teamAccessAddr, access(`{ runs = "apply", workspace_locking = true }`, ""), update, tfjsonpath.New("permissions"), taDefaults.check()},
		{"team_access permissions.runs", teamAccessAddr, access(`{ runs = "apply" }`, `{}`), update, perm("runs"), knownvalue.StringExact("read")},
		{"team_access permissions.variables", teamAccessAddr, access(`{ variables = "write" }`, `{}`), update, perm("variables"), knownvalue.StringExact("none")},
		{"team_access permissions.state_versions", teamAccessAddr, access(`{ state_versions = "read" }`, `{}`), update, perm("state_versions"), knownvalue.StringExact("none")},
		{"team_access permissions.sentinel_mocks", teamAccessAddr, access(`{ sentinel_mocks = "read" }`, `{}`), update, perm("sentinel_mocks"), knownvalue.StringExact("none")},
		{"team_access permissions.workspace_locking", teamAccessAddr, access(`{ workspace_locking = true }`, `{}`), update, perm("workspace_locking"), knownvalue.Bool(false)},
		{"team_access permissions.run_tasks", teamAccessAddr, access(`{ run_tasks = true }`, `{}`), update, perm("run_tasks"), knownvalue.Bool(false)},
		{"team_access permissions.policy_overrides", teamAccessAddr, access(`{ policy_overrides = true }`, `{}`), update, perm("policy_overrides"), knownvalue.Bool(false)},
	} {
		t.Run(r.name, func(t *testing.T) {
			with, without := r.config(t)
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{
					{Config: with},
					{
						Config: without,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(r.addr, r.action),
							plancheck.ExpectKnownValue(r.addr, r.attr, r.want),
						}},
						ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(r.addr, r.attr, r.want)},
					},
				},
			})
		})
	}
}
