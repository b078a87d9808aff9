package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// identityCase is one resource's identity acceptance test: create it,
// import it by identity (an import block with identity = {…}) and compare
// with the state, update it (if it has an in-place update), then delete the
// object outside Terraform, after which the refresh drops it from state and
// the plan makes it again (or, for a test run, plans a new one).
type identityCase struct {
	typ    resourceType // without the provider prefix
	addr   string
	config string
	update string // "" when the resource updates nothing in place
	ignore []string
	// remove deletes the object in state s outside Terraform.
	remove func(t *testing.T, s *tfjson.State)
	// importUpdates: the import plans an in-place update of attributes
	// that are the configuration's, not the service's (a test run's
	// source), instead of nothing.
	importUpdates bool
	// planOnly: the object cannot be made again by this test's apply (a
	// test run whose module is gone), so the last step only plans.
	planOnly bool
}

// identityChecks checks that the identity holds exactly the resource's
// identity attributes, each equal to the state attribute of its name.
func identityChecks(typ resourceType, addr string) []statecheck.StateCheck {
	want := map[string]knownvalue.Check{}
	var checks []statecheck.StateCheck
	for _, a := range resourceIdentities[typ] {
		want[a.name] = knownvalue.NotNull()
		checks = append(checks, statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New(a.name)))
	}
	return append(checks, statecheck.ExpectIdentity(addr, want))
}

func testAccIdentity(t *testing.T, c identityCase) {
	var state *tfjson.State
	keep := stateCheckFunc(func(_ context.Context, s *tfjson.State) error { state = s; return nil })
	steps := []resource.TestStep{
		{Config: c.config, ConfigStateChecks: append(identityChecks(c.typ, c.addr), keep)},
		{
			// An import block with identity = {…}: plugin-testing checks that
			// the plan only imports (no change against the configuration)
			// and that the imported identity is the one in state.
			// (ImportStateVerify works only with `terraform import`, which
			// takes an ID, not an identity.)
			ResourceName: c.addr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
			ExpectNonEmptyPlan: c.importUpdates,
			ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(c.addr, map[bool]plancheck.ResourceActionType{false: plancheck.ResourceActionNoop, true: plancheck.ResourceActionUpdate}[c.importUpdates]),
			}},
		},
		// The identity's values joined with "/" are an import ID: the
		// import by identity runs the same code, which terraform import
		// checks attribute by attribute.
		{
			ResourceName: c.addr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: c.ignore,
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				rs, ok := s.RootModule().Resources[c.addr]
				if !ok {
					return "", fmt.Errorf("%s not in state", c.addr)
				}
				var parts []string
				for _, a := range resourceIdentities[c.typ] {
					parts = append(parts, rs.Primary.Attributes[a.name])
				}
				return strings.Join(parts, "/"), nil
			},
		},
	}
	if c.update != "" {
		steps = append(steps, resource.TestStep{
			Config:            c.update,
			ConfigPlanChecks:  expectAction(c.addr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: append(identityChecks(c.typ, c.addr), keep),
		})
	}
	last := c.config
	if c.update != "" {
		last = c.update
	}
	gone := resource.TestStep{
		PreConfig: func() { c.remove(t, state) },
		Config:    last,
	}
	if c.planOnly {
		gone.PlanOnly, gone.ExpectNonEmptyPlan = true, true
		gone.ConfigPlanChecks = resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(c.addr, plancheck.ResourceActionCreate),
		}}
	} else {
		gone.ConfigPlanChecks = expectAction(c.addr, plancheck.ResourceActionCreate)
		gone.ConfigStateChecks = identityChecks(c.typ, c.addr)
	}
	steps = append(steps, gone)
	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps:                  steps,
	})
}

// stateAttr returns attribute attr of the resource at addr in s.
func stateAttr(t *testing.T, s *tfjson.State, addr, attr string) string {
	t.Helper()
	if s == nil || s.Values == nil {
		t.Fatal("no state")
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address == addr {
			if v, ok := r.AttributeValues[attr].(string); ok {
				return v
			}
		}
	}
	t.Fatalf("%s.%s not in state", addr, attr)
	return ""
}

func TestAccPolicyResource_identity(t *testing.T) {
	name := testAccName("ident")
	testAccIdentity(t, identityCase{
		typ: "policy", addr: policyAddr,
		config: testAccPolicyConfig(name, "", "", "First", ""),
		update: testAccPolicyConfig(name, "", "", "Second", ""),
		remove: func(t *testing.T, s *tfjson.State) {
			if err := testAccClient(t).Policies.Delete(context.Background(), stateAttr(t, s, policyAddr, "id")); err != nil {
				t.Fatalf("deleting the policy outside Terraform: %v", err)
			}
		},
	})
}

func TestAccPolicyUploadResource_identity(t *testing.T) {
	name := testAccName("ident")
	testAccIdentity(t, identityCase{
		typ: "policy_upload", addr: uploadAddr,
		config: testAccPolicyWithUpload(name, "sentinel", sentinelCode),
		update: testAccPolicyWithUpload(name, "sentinel", sentinelCodeV2),
		remove: func(t *testing.T, s *tfjson.State) {
			if err := testAccClient(t).Policies.Delete(context.Background(), stateAttr(t, s, uploadAddr, "policy_id")); err != nil {
				t.Fatalf("deleting the policy outside Terraform: %v", err)
			}
		},
	})
}

func TestAccTeamAccessResource_identity(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	testAccIdentity(t, identityCase{
		typ: "team_access", addr: teamAccessAddr,
		config: testAccTeamAccessConfig(team.ID, ws.ID, "read", ""),
		update: testAccTeamAccessConfig(team.ID, ws.ID, "write", ""),
		remove: func(t *testing.T, s *tfjson.State) {
			if err := testAccClient(t).TeamAccess.Remove(context.Background(), stateAttr(t, s, teamAccessAddr, "id")); err != nil {
				t.Fatalf("removing the team access outside Terraform: %v", err)
			}
		},
	})
}

func TestAccAgentTokenResource_identity(t *testing.T) {
	pool := testAccAgentPool(t)
	testAccIdentity(t, identityCase{
		typ: "agent_token", addr: agentTokenAddr,
		config: testAccAgentTokenConfig(pool.ID, "identity", ""),
		ignore: []string{"token"}, // the API returns the secret only on create
		remove: func(t *testing.T, s *tfjson.State) {
			if err := testAccClient(t).AgentTokens.Delete(context.Background(), stateAttr(t, s, agentTokenAddr, "id")); err != nil {
				t.Fatalf("revoking the token outside Terraform: %v", err)
			}
		},
	})
}

func TestAccModuleTestVariableResource_identity(t *testing.T) {
	mod := testAccModule(t)
	testAccIdentity(t, identityCase{
		typ: "module_test_variable", addr: testVariableAddr,
		config: testAccTestVariableConfig(mod, `key = "AWS_REGION"`, `value = "eu-west-1"`),
		update: testAccTestVariableConfig(mod, `key = "AWS_REGION"`, `value = "eu-west-2"`),
		remove: func(t *testing.T, s *tfjson.State) {
			if err := testAccClient(t).TestVariables.Delete(context.Background(), mod.id(), stateAttr(t, s, testVariableAddr, "id")); err != nil {
				t.Fatalf("deleting the variable outside Terraform: %v", err)
			}
		},
	})
}

func TestAccModuleTestRunResource_identity(t *testing.T) {
	mod := testAccModule(t)
	dir := testModuleDir(t, "pass")
	testAccIdentity(t, identityCase{
		typ: "module_test_run", addr: testRunAddr,
		config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir)),
		// The directory and its hash are the configuration's, not the service's.
		ignore:        []string{"source", "source_hash"},
		importUpdates: true, // records source and source_hash, starts no run
		// A run cannot be deleted, only its module: made again, it has no
		// runs, so the run is gone (a missing module fails the refresh).
		remove: func(t *testing.T, _ *tfjson.State) {
			c := testAccClient(t)
			if err := c.RegistryModules.DeleteProvider(context.Background(), mod.id()); err != nil {
				t.Fatalf("deleting %s: %v", mod, err)
			}
			if _, err := c.RegistryModules.Create(context.Background(), mod.Organization, tfe.RegistryModuleCreateOptions{
				Name: tfe.String(mod.Name), Provider: tfe.String(mod.Provider), RegistryName: tfe.PrivateRegistry,
			}); err != nil {
				t.Fatalf("making %s again: %v", mod, err)
			}
		},
		planOnly: true,
	})
}

func TestAccModuleVersionDeprecationResource_identity(t *testing.T) {
	mod := testAccRegistryModule(t, "1.0.0")
	v := testAccModuleVersion(mod, "1.0.0")
	testAccIdentity(t, identityCase{
		typ: "module_version_deprecation", addr: deprecationAddr,
		config: testAccDeprecationConfig("", mod.Name, "1.0.0", "Use 2.x.", ""),
		update: testAccDeprecationConfig("", mod.Name, "1.0.0", "Use 3.x.", ""),
		remove: func(t *testing.T, _ *tfjson.State) {
			if err := undeprecateModuleVersion(context.Background(), testAccClient(t), v); err != nil {
				t.Fatalf("reverting the deprecation outside Terraform: %v", err)
			}
		},
	})
}
