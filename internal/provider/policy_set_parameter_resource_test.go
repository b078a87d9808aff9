package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

const parameterAddr = "tfgov_policy_set_parameter.test"

// testAccParameterSet makes a policy set through go-tfe, deleted when the test ends: a Sentinel
// set with neither policies nor versions takes parameters, as a versioned one does.
func testAccParameterSet(t *testing.T, opts tfe.PolicySetCreateOptions) *tfe.PolicySet {
	t.Helper()
	c := testAccClient(t)
	if opts.Name == nil {
		opts.Name = tfe.String(testAccName("params"))
	}
	ps, err := c.PolicySets.Create(context.Background(), testAccOrganization(), opts)
	if err != nil {
		t.Fatalf("creating policy set: %v", err)
	}
	t.Cleanup(func() {
		if err := c.PolicySets.Delete(context.Background(), ps.ID); err != nil && !isNotFound(err) {
			t.Errorf("deleting policy set %s: %v", ps.ID, err)
		}
	})
	return ps
}

func testAccParameterConfig(setID string, lines ...string) string {
	return fmt.Sprintf(`
resource "tfgov_policy_set_parameter" "test" {
  policy_set_id = %q
  %s
}
`, setID, strings.Join(lines, "\n  "))
}

// psParamServer checks the set's only parameter on the server (value as the API shows it: "" when sensitive).
func psParamServer(t *testing.T, setID, key, value string, sensitive bool) stateCheckFunc {
	return func(ctx context.Context, _ *tfjson.State) error {
		l, err := testAccClient(t).PolicySetParameters.List(ctx, setID, nil)
		if err != nil {
			return err
		}
		if len(l.Items) != 1 {
			return fmt.Errorf("policy set %s has %d parameters, want 1", setID, len(l.Items))
		}
		p := l.Items[0]
		if p.Key != key || p.Value != value || p.Sensitive != sensitive || p.Category != tfe.CategoryPolicySet {
			return fmt.Errorf("on the server: %+v; want key %q value %q sensitive %v", p, key, value, sensitive)
		}
		return nil
	}
}

func psParamOutside(t *testing.T, setID string, change func(c *tfe.Client, p *tfe.PolicySetParameter) error) func() {
	return func() {
		c := testAccClient(t)
		l, err := c.PolicySetParameters.List(context.Background(), setID, nil)
		if err != nil || len(l.Items) != 1 {
			t.Fatalf("listing the set's parameters: %v (%+v)", err, l)
		}
		if err := change(c, l.Items[0]); err != nil {
			t.Fatalf("changing the parameter outside Terraform: %v", err)
		}
	}
}

func testAccCheckParametersDestroyed(t *testing.T, setID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		l, err := testAccClient(t).PolicySetParameters.List(context.Background(), setID, nil)
		if err != nil {
			return err
		}
		if len(l.Items) != 0 {
			return fmt.Errorf("policy set %s still has %d parameters after destroy", setID, len(l.Items))
		}
		return nil
	}
}

func psParamExpect(action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(parameterAddr, action)}}
}

// TestAccPolicySetParameterResource_basic: create, import by <set>/<var>, by var- alone and by
// <organization>/<set name>/<key> (with an import block planning no change, and a generated
// configuration planning clean), value and key changed in place, drift of value, key and existence
// put back, made sensitive in place and non-sensitive by replacement, destroy.
func TestAccPolicySetParameterResource_basic(t *testing.T) {
	ps := testAccParameterSet(t, tfe.PolicySetCreateOptions{})
	org := testAccOrganization()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	config := func(key, value string, sensitive bool) string {
		return testAccParameterConfig(ps.ID, fmt.Sprintf("key = %q", key), fmt.Sprintf("value = %q", value), fmt.Sprintf("sensitive = %t", sensitive))
	}
	byNames := org + "/" + ps.Name + "/region"
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckParametersDestroyed(t, ps.ID),
		Steps: []resource.TestStep{
			{
				Config:           config("region", "eu", false),
				ConfigPlanChecks: psParamExpect(plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^var-[A-Za-z0-9]+$`))),
					statecheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("organization"), knownvalue.StringExact(org)),
					statecheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("readable_value"), knownvalue.StringExact("eu")),
					sameID.AddStateValue(parameterAddr, tfjsonpath.New("id")),
					psParamServer(t, ps.ID, "region", "eu", false),
				},
			},
			{
				ResourceName: parameterAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return ps.ID + "/" + s.RootModule().Resources[parameterAddr].Primary.ID, nil
				},
			},
			{
				ResourceName: parameterAddr, ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources[parameterAddr].Primary.ID, nil
				},
			},
			{ResourceName: parameterAddr, ImportState: true, ImportStateVerify: true, ImportStateId: byNames},
			{
				ResourceName: parameterAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: byNames,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(parameterAddr, plancheck.ResourceActionNoop)}},
			},
			{ResourceName: parameterAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: byNames, GenerateConfig: true},
			// Value and key in place.
			{
				Config:            config("zone", "us", false),
				ConfigPlanChecks:  psParamExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(parameterAddr, tfjsonpath.New("id")), psParamServer(t, ps.ID, "zone", "us", false)},
			},
			// Drift of value and key: put back.
			{
				PreConfig: psParamOutside(t, ps.ID, func(c *tfe.Client, p *tfe.PolicySetParameter) error {
					_, err := c.PolicySetParameters.Update(context.Background(), ps.ID, p.ID, tfe.PolicySetParameterUpdateOptions{Key: tfe.String("by_hand"), Value: tfe.String("hand")})
					return err
				}),
				Config:            config("zone", "us", false),
				ConfigPlanChecks:  psParamExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(parameterAddr, tfjsonpath.New("id")), psParamServer(t, ps.ID, "zone", "us", false)},
			},
			// Deleted outside Terraform: gone (the set's list shows every parameter), created again.
			{
				PreConfig: psParamOutside(t, ps.ID, func(c *tfe.Client, p *tfe.PolicySetParameter) error {
					return c.PolicySetParameters.Delete(context.Background(), ps.ID, p.ID)
				}),
				Config:            config("zone", "us", false),
				ConfigPlanChecks:  psParamExpect(plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{psParamServer(t, ps.ID, "zone", "us", false)},
			},
			// Made sensitive in place: the API hides the value, state keeps it, the next plan is empty.
			{
				Config:           config("zone", "secret-1", true),
				ConfigPlanChecks: psParamExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("value"), knownvalue.StringExact("secret-1")),
					statecheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("readable_value"), knownvalue.Null()),
					psParamServer(t, ps.ID, "zone", "", true),
				},
			},
			{Config: config("zone", "secret-1", true), PlanOnly: true},
			// A sensitive parameter cannot be renamed nor made non-sensitive: replaced.
			{
				Config:            config("zone", "public", false),
				ConfigPlanChecks:  psParamExpect(plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{psParamServer(t, ps.ID, "zone", "public", false)},
			},
		},
	})
}

// TestAccPolicySetParameterResource_writeOnly: value_wo stays out of plan and state, a new value
// without a new version is not seen, a new version sends it, a refresh brings nothing back; a plain
// value changed outside Terraform shows in the next plan and the apply sends value_wo again (the
// test variable's edge, TestAccModuleTestVariableResource_writeOnlyChangedOutside, shared here).
func TestAccPolicySetParameterResource_writeOnly(t *testing.T) {
	ps := testAccParameterSet(t, tfe.PolicySetCreateOptions{})
	wo := func(value string, version int, sensitive bool) string {
		return testAccParameterConfig(ps.ID, `key = "token"`, fmt.Sprintf("value_wo = %q", value), fmt.Sprintf("value_wo_version = %d", version), fmt.Sprintf("sensitive = %t", sensitive))
	}
	absent := func(secret string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("value"), knownvalue.Null()),
			statecheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("readable_value"), knownvalue.Null()),
			stateCheckFunc(func(_ context.Context, s *tfjson.State) error { return notInJSON(s, secret) }),
		}
	}
	notInPlan := func(secret string) planCheckFunc {
		return func(_ context.Context, p *tfjson.Plan) error {
			return notInJSON([]any{p.PriorState, p.PlannedValues, p.ResourceChanges, p.ResourceDrift}, secret)
		}
	}
	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:           testAccCheckParametersDestroyed(t, ps.ID),
		Steps: []resource.TestStep{
			{
				Config: wo("wo-secret-1", 1, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(parameterAddr, plancheck.ResourceActionCreate), notInPlan("wo-secret-1"),
				}},
				ConfigStateChecks: append(absent("wo-secret-1"), psParamServer(t, ps.ID, "token", "wo-secret-1", false)),
			},
			{
				PreConfig: psParamOutside(t, ps.ID, func(c *tfe.Client, p *tfe.PolicySetParameter) error {
					_, err := c.PolicySetParameters.Update(context.Background(), ps.ID, p.ID, tfe.PolicySetParameterUpdateOptions{Value: tfe.String("outside")})
					return err
				}),
				Config: wo("wo-secret-1", 1, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(parameterAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(parameterAddr, tfjsonpath.New("value_wo_version"), knownvalue.Int64Exact(1)),
				}},
				ConfigStateChecks: append(absent("wo-secret-1"), psParamServer(t, ps.ID, "token", "wo-secret-1", false)),
			},
			{
				Config:            wo("wo-secret-2", 1, false),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{psParamServer(t, ps.ID, "token", "wo-secret-1", false)},
			},
			{
				Config: wo("wo-secret-2", 2, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(parameterAddr, plancheck.ResourceActionUpdate), notInPlan("wo-secret-2"),
				}},
				ConfigStateChecks: append(absent("wo-secret-2"), psParamServer(t, ps.ID, "token", "wo-secret-2", false)),
			},
			{
				Config:            wo("wo-secret-3", 3, true),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(parameterAddr, plancheck.ResourceActionUpdate), notInPlan("wo-secret-3")}},
				ConfigStateChecks: append(absent("wo-secret-3"), psParamServer(t, ps.ID, "token", "", true)),
			},
			{Config: wo("wo-secret-3", 3, true), PlanOnly: true},
		},
	})
}

// TestAccPolicySetParameterResource_refused: a set of individually attached policies and an OPA
// set take no parameters, and a missing set is named: each fails at plan, before any write, or at
// apply, before the parameter's create, for a set the same apply makes; a key the set already has
// fails with its import block.
func TestAccPolicySetParameterResource_refused(t *testing.T) {
	c := testAccClient(t)
	ctx := context.Background()
	pol, err := c.Policies.Create(ctx, testAccOrganization(), tfe.PolicyCreateOptions{Name: tfe.String(testAccName("param-pol")), Kind: tfe.Sentinel,
		Query: nil, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cleanupErr(t, "policy "+pol.ID, c.Policies.Delete(ctx, pol.ID)) })
	individual := testAccParameterSet(t, tfe.PolicySetCreateOptions{Policies: []*tfe.Policy{pol}})
	opa := testAccParameterSet(t, tfe.PolicySetCreateOptions{Kind: tfe.OPA})
	open := testAccParameterSet(t, tfe.PolicySetCreateOptions{})
	taken, err := c.PolicySetParameters.Create(ctx, open.ID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("taken"), Value: tfe.String("x"), Category: tfe.Category(tfe.CategoryPolicySet)})
	if err != nil {
		t.Fatal(err)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: testAccParameterConfig(individual.ID, `key = "region"`, `value = "eu"`), PlanOnly: true,
				ExpectError: matchWrapped(fmt.Sprintf("Policy set %q (%s) holds 1 individually attached policies (`policy_ids`): HCP Terraform takes parameters only on a versioned policy set", individual.Name, individual.ID)),
			},
			{
				Config: testAccParameterConfig(opa.ID, `key = "region"`, `value = "eu"`), PlanOnly: true,
				ExpectError: matchWrapped(fmt.Sprintf("Policy set %q (%s) is an OPA set: only Sentinel policies read parameters", opa.Name, opa.ID)),
			},
			{
				Config: testAccParameterConfig("polset-missing0000000001", `key = "region"`, `value = "eu"`), PlanOnly: true,
				ExpectError: matchWrapped("Could not plan parameter \"region\" of policy set polset-missing0000000001: the set was not found"),
			},
			// A set made by the same apply is unknown at plan: the create reads it first and names the cause.
			{
				Config: fmt.Sprintf(`
resource "tfgov_policy_set" "s" {
  name       = %q
  policy_ids = [%q]
}
resource "tfgov_policy_set_parameter" "test" {
  policy_set_id = tfgov_policy_set.s.id
  key           = "region"
  value         = "eu"
}
`, testAccName("param-same-apply"), pol.ID),
				ExpectError: matchWrapped("individually attached policies (`policy_ids`): HCP Terraform takes parameters only on a versioned policy set"),
			},
			{
				Config: testAccParameterConfig(open.ID, `key = "taken"`, `value = "y"`),
				ExpectError: wrappedRE(regexp.QuoteMeta(fmt.Sprintf("Policy set %s already has a parameter with key \"taken\" (%s)", open.ID, taken.ID)) + `.*` +
					regexp.QuoteMeta(fmt.Sprintf(`id = "%s/%s"`, open.ID, taken.ID))),
			},
		},
	})
	params, err := c.PolicySetParameters.List(ctx, individual.ID, nil)
	if err != nil || len(params.Items) != 0 {
		t.Errorf("the refused set has parameters: %+v, %v", params, err)
	}
}

// TestAccPolicySetParameterResource_cannotSee: a token without "Manage policies" cannot refresh the
// parameter and the error names the permission (state keeps it: the owner's plan is empty); once
// the set is deleted, the parameter is gone and leaves state without error.
func TestAccPolicySetParameterResource_cannotSee(t *testing.T) {
	ps := testAccParameterSet(t, tfe.PolicySetCreateOptions{})
	team := testAccTeam(t, nil)
	limited := testAccTeamTokenProvider(t, team)
	config := testAccParameterConfig(ps.ID, `key = "region"`, `value = "eu"`)
	org := testAccOrganization()
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config},
			{
				Config: limited + config, PlanOnly: true,
				ExpectError: wrappedRE(`Policy set parameter var-\w+ of policy set ` + ps.ID + ` cannot be refreshed: organization ` + regexp.QuoteMeta(org) +
					` exists, but the API token may not list its policy sets: it needs the organization's "Manage policies" permission`),
			},
			{Config: config, PlanOnly: true},
			{
				PreConfig: func() {
					if err := testAccClient(t).PolicySets.Delete(context.Background(), ps.ID); err != nil {
						t.Fatalf("deleting the set outside Terraform: %v", err)
					}
				},
				Config:           "# nothing\n",
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
