package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const testVariableAddr = "tfgov_module_test_variable.test"

// testAccTestVariableConfig is one variable of mod with the given
// attribute lines (HCL).
func testAccTestVariableConfig(mod moduleRef, lines ...string) string {
	return fmt.Sprintf(`
resource "tfgov_module_test_variable" "test" {
  module_name     = %[1]q
  module_provider = %[2]q
  %[3]s
}
`, mod.Name, mod.Provider, strings.Join(lines, "\n  "))
}

// testAccTestVariableOnServer reads the variable in state at addr through
// go-tfe.
func testAccTestVariableOnServer(ctx context.Context, t *testing.T, mod moduleRef, s *tfjson.State, addr string) (*tfe.Variable, error) {
	id, err := stateID(s, addr)
	if err != nil {
		return nil, err
	}
	v, err := testAccClient(t).TestVariables.Read(ctx, mod.id(), id)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", id, err)
	}
	return v, nil
}

// tvServer checks the variable on the server: key, value (as the API shows
// it: "" when sensitive), description and sensitive.
func tvServer(t *testing.T, mod moduleRef, key, value, description string, sensitive bool) stateCheckFunc {
	return func(ctx context.Context, s *tfjson.State) error {
		v, err := testAccTestVariableOnServer(ctx, t, mod, s, testVariableAddr)
		if err != nil {
			return err
		}
		if v.Key != key || v.Value != value || v.Description != description || v.Sensitive != sensitive || v.Category != tfe.CategoryEnv {
			return fmt.Errorf("on the server: %+v; want key %q value %q description %q sensitive %v", v, key, value, description, sensitive)
		}
		return nil
	}
}

// tvState checks key, value and sensitive in state.
func tvState(key string, value knownvalue.Check, sensitive bool) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("key"), knownvalue.StringExact(key)),
		statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("value"), value),
		statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("sensitive"), knownvalue.Bool(sensitive)),
	}
}

func tvExpect(action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testVariableAddr, action)}}
}

// testAccCheckTestVariablesDestroyed: the module has no variables left.
func testAccCheckTestVariablesDestroyed(t *testing.T, mod moduleRef) resource.TestCheckFunc {
	return func(*terraform.State) error {
		l, err := testAccClient(t).TestVariables.List(context.Background(), mod.id(), nil)
		if err != nil {
			return err
		}
		if len(l.Items) != 0 {
			return fmt.Errorf("module %s still has %d test variables after destroy, the first %s", mod, len(l.Items), l.Items[0].Key)
		}
		return nil
	}
}

func tvImportID(mod moduleRef, last func(*terraform.State) (string, error)) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		l, err := last(s)
		return mod.String() + "/" + l, err
	}
}

func tvStateID(s *terraform.State) (string, error) {
	rs, ok := s.RootModule().Resources[testVariableAddr]
	if !ok {
		return "", fmt.Errorf("%s not in state", testVariableAddr)
	}
	return rs.Primary.ID, nil
}

// TestAccModuleTestVariableResource_basic: create, import by ID and by key
// (command and import block), update of value and description, rename in
// place, drift of value, description, key and existence, destroy.
func TestAccModuleTestVariableResource_basic(t *testing.T) {
	mod := testAccModule(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	config := func(key, value, description string) string {
		lines := []string{fmt.Sprintf("key = %q", key), fmt.Sprintf("value = %q", value)}
		if description != "" {
			lines = append(lines, fmt.Sprintf("description = %q", description))
		}
		return testAccTestVariableConfig(mod, lines...)
	}
	outside := func(opts tfe.VariableUpdateOptions) func() {
		return func() {
			l, err := testAccClient(t).TestVariables.List(context.Background(), mod.id(), nil)
			if err != nil || len(l.Items) != 1 {
				t.Fatalf("listing the module's variables: %v (%+v)", err, l)
			}
			if _, err := testAccClient(t).TestVariables.Update(context.Background(), mod.id(), l.Items[0].ID, opts); err != nil {
				t.Fatalf("changing the variable outside Terraform: %v", err)
			}
		}
	}

	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckTestVariablesDestroyed(t, mod),
		Steps: []resource.TestStep{
			{
				Config:           config("AWS_REGION", "eu-west-1", "Region the tests run in"),
				ConfigPlanChecks: tvExpect(plancheck.ResourceActionCreate),
				ConfigStateChecks: append(tvState("AWS_REGION", knownvalue.StringExact("eu-west-1"), false),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^var-[A-Za-z0-9]+$`))),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("category"), knownvalue.StringExact("env")),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("hcl"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("description"), knownvalue.StringExact("Region the tests run in")),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("value_wo_version"), knownvalue.Null()),
					sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id")),
					tvServer(t, mod, "AWS_REGION", "eu-west-1", "Region the tests run in", false),
				),
			},
			// Import by <organization>/<module_name>/<module_provider>/<var-id> ...
			{
				ResourceName:      testVariableAddr,
				ImportState:       true,
				ImportStateIdFunc: tvImportID(mod, tvStateID),
				ImportStateVerify: true,
			},
			// ... and by .../<key> ...
			{
				ResourceName:      testVariableAddr,
				ImportState:       true,
				ImportStateId:     mod.String() + "/AWS_REGION",
				ImportStateVerify: true,
			},
			// ... also with an import block, which plans no change.
			{
				ResourceName:    testVariableAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   mod.String() + "/AWS_REGION",
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testVariableAddr, plancheck.ResourceActionNoop),
				}},
			},
			// ... and with terraform plan -generate-config-out, which writes
			// the plain value as it is: the generated configuration plans clean.
			{ResourceName: testVariableAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: mod.String() + "/AWS_REGION", GenerateConfig: true},
			// Value and description in place; removing the description sets it to "".
			{
				Config:           config("AWS_REGION", "us-east-1", ""),
				ConfigPlanChecks: tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(tvState("AWS_REGION", knownvalue.StringExact("us-east-1"), false),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("description"), knownvalue.StringExact("")),
					sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id")),
					tvServer(t, mod, "AWS_REGION", "us-east-1", "", false)),
			},
			// The API renames a non-sensitive variable in place; an empty value is a value.
			{
				Config:           config("AWS_DEFAULT_REGION", "", "renamed"),
				ConfigPlanChecks: tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(tvState("AWS_DEFAULT_REGION", knownvalue.StringExact(""), false),
					sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id")),
					tvServer(t, mod, "AWS_DEFAULT_REGION", "", "renamed", false)),
			},
			// Drift: value and description changed outside Terraform are put back.
			{
				PreConfig:         outside(tfe.VariableUpdateOptions{Value: tfe.String("changed by hand"), Description: tfe.String("by hand")}),
				Config:            config("AWS_DEFAULT_REGION", "", "renamed"),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{tvServer(t, mod, "AWS_DEFAULT_REGION", "", "renamed", false), sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id"))},
			},
			// Drift: renamed outside Terraform; renamed back.
			{
				PreConfig:         outside(tfe.VariableUpdateOptions{Key: tfe.String("BY_HAND")}),
				Config:            config("AWS_DEFAULT_REGION", "", "renamed"),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{tvServer(t, mod, "AWS_DEFAULT_REGION", "", "renamed", false), sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id"))},
			},
			// Drift: deleted outside Terraform; created again.
			{
				PreConfig: func() {
					l, err := testAccClient(t).TestVariables.List(context.Background(), mod.id(), nil)
					if err != nil || len(l.Items) != 1 {
						t.Fatalf("listing the module's variables: %v (%+v)", err, l)
					}
					if err := testAccClient(t).TestVariables.Delete(context.Background(), mod.id(), l.Items[0].ID); err != nil {
						t.Fatalf("deleting the variable outside Terraform: %v", err)
					}
				},
				Config:            config("AWS_DEFAULT_REGION", "x", "renamed"),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{tvServer(t, mod, "AWS_DEFAULT_REGION", "x", "renamed", false)},
			},
		},
	})
}

// TestAccModuleTestVariableResource_sensitive: the value of a sensitive
// variable is kept from state (the API hides it); making a variable
// sensitive is in place, renaming one or making it non-sensitive again
// replaces it; import leaves the value unknown, and the next apply sets it.
func TestAccModuleTestVariableResource_sensitive(t *testing.T) {
	mod := testAccModule(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	config := func(key, value string, sensitive bool) string {
		return testAccTestVariableConfig(mod, fmt.Sprintf("key = %q", key), fmt.Sprintf("value = %q", value), fmt.Sprintf("sensitive = %t", sensitive))
	}

	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckTestVariablesDestroyed(t, mod),
		Steps: []resource.TestStep{
			{
				Config:            config("TOKEN", "plain-1", false),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id")), tvServer(t, mod, "TOKEN", "plain-1", "", false)},
			},
			// Made sensitive in place: the API hides the value, state keeps it.
			{
				Config:           config("TOKEN", "secret-1", true),
				ConfigPlanChecks: tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(tvState("TOKEN", knownvalue.StringExact("secret-1"), true),
					sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id")),
					tvServer(t, mod, "TOKEN", "", "", true)),
			},
			// A refresh keeps the value: the plan stays empty.
			{
				Config:            config("TOKEN", "secret-1", true),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: tvState("TOKEN", knownvalue.StringExact("secret-1"), true),
			},
			// A new value in place.
			{
				Config:            config("TOKEN", "secret-2", true),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(tvState("TOKEN", knownvalue.StringExact("secret-2"), true), sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id"))),
			},
			// Import (by key): the value is unknown to the import ...
			{
				ResourceName:            testVariableAddr,
				ImportState:             true,
				ImportStateId:           mod.String() + "/TOKEN",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"value"},
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if len(s) != 1 || s[0].Attributes["value"] != "" || s[0].Attributes["sensitive"] != "true" {
						return fmt.Errorf("imported %+v, want a sensitive variable without value", s)
					}
					return nil
				},
			},
			// ... so an import block plans to send the configured value.
			{
				ResourceName:       testVariableAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithID,
				ImportStateId:      mod.String() + "/TOKEN",
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testVariableAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("description"), knownvalue.StringExact("")),
				}},
			},
			// A generated configuration leaves the unreadable value out (both
			// value and value_wo), which an existing sensitive variable allows:
			// it plans clean.
			{ResourceName: testVariableAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: mod.String() + "/TOKEN", GenerateConfig: true},
			// So may a hand-written one: the value stays as it is, on the
			// service and in state (value is Optional and Computed).
			{
				Config:            testAccTestVariableConfig(mod, `key = "TOKEN"`, `sensitive = true`),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionNoop),
				ConfigStateChecks: append(tvState("TOKEN", knownvalue.StringExact("secret-2"), true), tvServer(t, mod, "TOKEN", "", "", true)),
			},
			{Config: testAccTestVariableConfig(mod, `key = "TOKEN"`, `sensitive = true`), PlanOnly: true},
			// The API cannot rename a sensitive variable: replaced.
			{
				Config:           config("API_TOKEN", "secret-2", true),
				ConfigPlanChecks: tvExpect(plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: append(tvState("API_TOKEN", knownvalue.StringExact("secret-2"), true),
					tvServer(t, mod, "API_TOKEN", "", "", true)),
			},
			// Nor make it non-sensitive: replaced.
			{
				Config:           config("API_TOKEN", "public", false),
				ConfigPlanChecks: tvExpect(plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: append(tvState("API_TOKEN", knownvalue.StringExact("public"), false),
					tvServer(t, mod, "API_TOKEN", "public", "", false)),
			},
			// Made sensitive outside Terraform: the configuration says false,
			// which the API cannot go back to, so the plan replaces it.
			{
				PreConfig: func() {
					l, err := testAccClient(t).TestVariables.List(context.Background(), mod.id(), nil)
					if err != nil || len(l.Items) != 1 {
						t.Fatalf("listing: %v", err)
					}
					if _, err := testAccClient(t).TestVariables.Update(context.Background(), mod.id(), l.Items[0].ID, tfe.VariableUpdateOptions{Sensitive: tfe.Bool(true)}); err != nil {
						t.Fatal(err)
					}
				},
				Config:            config("API_TOKEN", "public", false),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{tvServer(t, mod, "API_TOKEN", "public", "", false)},
			},
		},
	})
}

// notInJSON fails when secret appears anywhere in v (a state or a plan).
func notInJSON(v any, secret string) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if strings.Contains(string(raw), secret) {
		return fmt.Errorf("the write-only value %q is in the JSON", secret)
	}
	return nil
}

// TestAccModuleTestVariableResource_writeOnly: value_wo reaches the API but
// never the plan or state; a new value is sent only when value_wo_version
// changes; switching between value and value_wo works both ways.
func TestAccModuleTestVariableResource_writeOnly(t *testing.T) {
	mod := testAccModule(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	wo := func(value string, version int, sensitive bool) string {
		return testAccTestVariableConfig(mod, `key = "DB_PASSWORD"`, fmt.Sprintf("value_wo = %q", value), fmt.Sprintf("value_wo_version = %d", version), fmt.Sprintf("sensitive = %t", sensitive))
	}
	absent := func(secret string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("value"), knownvalue.Null()),
			statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("value_wo"), knownvalue.Null()),
			stateCheckFunc(func(_ context.Context, s *tfjson.State) error { return notInJSON(s, secret) }),
			sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id")),
		}
	}
	notInPlan := func(secret string) planCheckFunc {
		// The plan's configuration section shows the literal written in the
		// configuration; what the provider plans and stores must not.
		return func(_ context.Context, p *tfjson.Plan) error {
			return notInJSON([]any{p.PriorState, p.PlannedValues, p.ResourceChanges, p.ResourceDrift}, secret)
		}
	}

	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:           testAccCheckTestVariablesDestroyed(t, mod),
		Steps: []resource.TestStep{
			// Not sensitive, so the server's value can be checked.
			{
				Config: wo("wo-secret-1", 1, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testVariableAddr, plancheck.ResourceActionCreate), notInPlan("wo-secret-1"),
				}},
				ConfigStateChecks: append(absent("wo-secret-1"),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("value_wo_version"), knownvalue.Int64Exact(1)),
					tvServer(t, mod, "DB_PASSWORD", "wo-secret-1", "", false)),
			},
			// A new value without a new version is not seen.
			{
				Config:            wo("wo-secret-2", 1, false),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: append(absent("wo-secret-2"), tvServer(t, mod, "DB_PASSWORD", "wo-secret-1", "", false)),
			},
			// A new version sends it.
			{
				Config: wo("wo-secret-2", 2, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testVariableAddr, plancheck.ResourceActionUpdate), notInPlan("wo-secret-2"),
				}},
				ConfigStateChecks: append(absent("wo-secret-2"), tvServer(t, mod, "DB_PASSWORD", "wo-secret-2", "", false)),
			},
			// A refresh does not bring the API's value into state.
			{
				Config:            wo("wo-secret-2", 2, false),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: absent("wo-secret-2"),
			},
			// Made sensitive with a new value, in place.
			{
				Config:            wo("wo-secret-3", 3, true),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(absent("wo-secret-3"), tvServer(t, mod, "DB_PASSWORD", "", "", true)),
			},
			// From value_wo to value ...
			{
				Config:           testAccTestVariableConfig(mod, `key = "DB_PASSWORD"`, `value = "in-state"`, `sensitive = true`),
				ConfigPlanChecks: tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(tvState("DB_PASSWORD", knownvalue.StringExact("in-state"), true),
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("value_wo_version"), knownvalue.Null()),
					sameID.AddStateValue(testVariableAddr, tfjsonpath.New("id"))),
			},
			// ... and back, which sends the write-only value whatever its version.
			{
				Config:            wo("wo-secret-4", 1, true),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: absent("wo-secret-4"),
			},
			// Replaced (sensitive back to false): the write-only value is sent on create.
			{
				Config:            wo("wo-secret-5", 1, false),
				ConfigPlanChecks:  tvExpect(plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{tvServer(t, mod, "DB_PASSWORD", "wo-secret-5", "", false)},
			},
			// value_wo and value_wo_version left out keep the service's value
			// (a saved plan must apply as shown): the apply sends no value, and neither it nor
			// the next plan brings the former write-only value into state or
			// plan, readable_value included.
			{
				Config: testAccTestVariableConfig(mod, `key = "DB_PASSWORD"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testVariableAddr, plancheck.ResourceActionUpdate), notInPlan("wo-secret-5"),
					plancheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("readable_value"), knownvalue.Null()),
				}},
				ConfigStateChecks: append(absent("wo-secret-5")[:3],
					statecheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("readable_value"), knownvalue.Null()),
					tvServer(t, mod, "DB_PASSWORD", "wo-secret-5", "", false)),
			},
			// Another change keeps the value out too, and sends none.
			{
				Config: testAccTestVariableConfig(mod, `key = "DB_PASSWORD"`, `description = "kept"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testVariableAddr, plancheck.ResourceActionUpdate), notInPlan("wo-secret-5"),
				}},
				ConfigStateChecks: append(absent("wo-secret-5")[:3], tvServer(t, mod, "DB_PASSWORD", "wo-secret-5", "kept", false)),
			},
			{
				Config:            testAccTestVariableConfig(mod, `key = "DB_PASSWORD"`, `description = "kept"`),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), notInPlan("wo-secret-5")}},
				ConfigStateChecks: append(absent("wo-secret-5")[:3], tvServer(t, mod, "DB_PASSWORD", "wo-secret-5", "kept", false)),
			},
		},
	})
}

// TestAccModuleTestVariableResource_writeOnlyChangedOutside: a variable
// that is not sensitive, set with value_wo and changed outside Terraform,
// shows in the next plan and the apply sends value_wo again (the service
// returns the value). The scenario machine found it: make scenarios
// STEPS=90 SEED=1 (EditVariable V0 value_wo sensitive=false, Apply, Outside
// "change variable V0", Apply: the service kept "outside").
func TestAccModuleTestVariableResource_writeOnlyChangedOutside(t *testing.T) {
	mod := testAccModule(t)
	config := testAccTestVariableConfig(mod, `key = "DB_PASSWORD"`, `value_wo = "wo-secret-1"`, `value_wo_version = 1`, `sensitive = false`)
	changeOutside := func(value string) func() {
		return func() {
			ctx := context.Background()
			c := testAccClient(t)
			l, err := c.TestVariables.List(ctx, mod.id(), nil)
			if err != nil || len(l.Items) != 1 {
				t.Fatalf("listing %s's test variables: %v, %v", mod, l, err)
			}
			if _, err := c.TestVariables.Update(ctx, mod.id(), l.Items[0].ID, tfe.VariableUpdateOptions{Value: tfe.String(value)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:           testAccCheckTestVariablesDestroyed(t, mod),
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: []statecheck.StateCheck{tvServer(t, mod, "DB_PASSWORD", "wo-secret-1", "", false)}},
			{
				PreConfig: changeOutside("outside"),
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testVariableAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testVariableAddr, tfjsonpath.New("value_wo_version"), knownvalue.Int64Exact(1)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					tvServer(t, mod, "DB_PASSWORD", "wo-secret-1", "", false),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error { return notInJSON(s, "wo-secret-1") }),
				},
			},
			// Set back to the same value outside: nothing to do.
			{
				PreConfig:        changeOutside("wo-secret-1"),
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestAccModuleTestVariableResource_moduleDeleted: a module deleted outside
// Terraform answers 404 as it does to a token of no team of its
// organization, so the refresh fails saying both and how to forget the
// variable (DESIGN.md, "Gone or cannot see"); a removed block does.
func TestAccModuleTestVariableResource_moduleDeleted(t *testing.T) {
	mod := testAccModule(t)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: testAccTestVariableConfig(mod, `key = "A"`, `value = "x"`)},
			{
				PreConfig: func() {
					if err := testAccClient(t).RegistryModules.DeleteProvider(context.Background(), mod.id()); err != nil {
						t.Fatalf("deleting the module outside Terraform: %v", err)
					}
				},
				Config:   testAccTestVariableConfig(mod, `key = "A"`, `value = "x"`),
				PlanOnly: true,
				ExpectError: matchWrapped("cannot be refreshed: module "+mod.String()+" was not found. It was deleted, or the API token belongs to no team of its organization",
					"terraform state rm <address>, or a removed block"),
			},
			{
				Config: "removed {\n  from = " + testVariableAddr + "\n  lifecycle {\n    destroy = false\n  }\n}\n",
				Check: func(s *terraform.State) error {
					if _, ok := s.RootModule().Resources[testVariableAddr]; ok {
						return fmt.Errorf("%s is still in state", testVariableAddr)
					}
					return nil
				},
			},
		},
	})
}

// TestAccModuleTestVariableResource_errors: a missing module and a key the
// module already has are reported naming the module (and, for the key, how
// to import it); nothing is left in state.
func TestAccModuleTestVariableResource_errors(t *testing.T) {
	mod := testAccModule(t)
	taken, err := testAccClient(t).TestVariables.Create(context.Background(), mod.id(), tfe.VariableCreateOptions{
		Key: tfe.String("TAKEN"), Value: tfe.String("x"), Category: tfe.Category(tfe.CategoryEnv),
	})
	if err != nil {
		t.Fatal(err)
	}
	missing := moduleRef{Organization: mod.Organization, Name: "no-such-module-" + randomSuffix(), Provider: "aws"}
	tests := map[string]struct {
		config string
		want   *regexp.Regexp
	}{
		"missing module": {testAccTestVariableConfig(missing, `key = "A"`, `value = "x"`),
			matchWrapped(fmt.Sprintf("Could not create test variable A of module %s: the module was not found in the private registry of organization %s, or the API token belongs to no team of it.", missing, missing.Organization))},
		"key taken": {testAccTestVariableConfig(mod, `key = "TAKEN"`, `value = "y"`),
			wrappedRE(regexp.QuoteMeta(fmt.Sprintf("Module %s already has a test variable with key \"TAKEN\" (%s)", mod, taken.ID)) + `.*already been taken.*` +
				regexp.QuoteMeta(fmt.Sprintf(`id = "%s/%s"`, mod, taken.ID)))},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{Config: tc.config, ExpectError: tc.want}},
			})
		})
	}
}

// TestAccModuleTestVariableResource_invalid rejects bad input at plan time,
// before any request.
func TestAccModuleTestVariableResource_invalid(t *testing.T) {
	mod := moduleRef{Organization: testAccOrganization(), Name: "network", Provider: "aws"}
	tests := map[string]struct {
		lines []string
		want  string
	}{
		"key starts with a digit":  {[]string{`key = "1ABC"`, `value = ""`}, `key must begin with a letter or an underscore and contain only letters, numbers and underscores, got: 1ABC`},
		"key with a dash":          {[]string{`key = "MY-KEY"`, `value = ""`}, `key must begin with a letter or an underscore`},
		"key empty":                {[]string{`key = ""`, `value = ""`}, `key must begin with a letter or an underscore`},
		"description too long":     {[]string{`key = "A"`, `value = ""`, fmt.Sprintf("description = %q", strings.Repeat("é", 513))}, `description UTF-8 character count must be at most 512, got: 513`},
		"category":                 {[]string{`key = "A"`, `value = ""`, `category = "terraform"`}, `category value must be one of: \["env"\], got: "terraform"`},
		"value and value_wo":       {[]string{`key = "A"`, `value = "x"`, `value_wo = "y"`, `value_wo_version = 1`}, `(?i)these attributes cannot be configured together: \[value,value_wo\]`},
		"neither":                  {[]string{`key = "A"`}, `Missing value.*A new variable needs a value`},
		"neither, new sensitive":   {[]string{`key = "A"`, `sensitive = true`}, `Missing value.*A new variable needs a value`},
		"value_wo without version": {[]string{`key = "A"`, `value_wo = "y"`}, `(?i)these attributes must be configured together: \[value_wo,value_wo_version\]`},
		"version without value_wo": {[]string{`key = "A"`, `value = "x"`, `value_wo_version = 1`}, `(?i)these attributes must be configured together: \[value_wo,value_wo_version\]`},
		"module provider":          {[]string{`module_provider = "AWS"`}, `module_provider.*must contain only lower-case letters and digits`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			config := testAccTestVariableConfig(mod, tc.lines...)
			if name == "module provider" {
				config = strings.Replace(testAccTestVariableConfig(mod, `key = "A"`, `value = ""`), `module_provider = "aws"`, `module_provider = "AWS"`, 1)
			}
			accParallelTest(t, resource.TestCase{
				TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
				Steps: []resource.TestStep{{
					Config:      config,
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// TestAccModuleTestVariableResource_importErrors: the import ID is checked,
// and a key the module does not have is reported naming both.
func TestAccModuleTestVariableResource_importErrors(t *testing.T) {
	mod := testAccModule(t)
	tests := map[string]struct {
		id   string
		want *regexp.Regexp
	}{
		"three parts":     {mod.String(), matchWrapped("want <organization>/<module_name>/<module_provider>/<variable_id> or")},
		"not a key or ID": {mod.String() + "/MY-KEY", matchWrapped("the last part is neither a variable ID (var-<id>) nor a key")},
		"unknown key":     {mod.String() + "/NOPE", matchWrapped(fmt.Sprintf("Module %s has no test variable with key \"NOPE\"", mod))},
		"unknown ID":      {mod.String() + "/var-doesnotexist1234", matchWrapped(fmt.Sprintf("Module %s has no test variable var-doesnotexist1234", mod))},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:        testAccTestVariableConfig(mod, `key = "A"`, `value = "x"`),
					ResourceName:  testVariableAddr,
					ImportState:   true,
					ImportStateId: tc.id,
					ExpectError:   tc.want,
				}},
			})
		})
	}
}

// TestAccModuleTestVariableResource_refreshRequests: refreshing many
// variables of one module costs one list request per Terraform operation,
// not one per variable, and never a read by ID.
func TestAccModuleTestVariableResource_refreshRequests(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	const n = 100
	mod := testAccModule(t)
	listPath := mod.varsPath()
	type counts struct{ list, readByID int }
	var ids []string
	now := func() counts {
		c := counts{list: sb.RequestsTo("GET", listPath)}
		for _, id := range ids {
			c.readByID += sb.RequestsTo("GET", listPath+"/"+id)
		}
		return c
	}
	var before counts
	mark := func() { before = now() }
	expect := func(what string, want counts) func() error {
		return func() error {
			got := now()
			got.list -= before.list
			got.readByID -= before.readByID
			t.Logf("%s of %d variables of one module: %d list requests, %d reads by ID", what, n, got.list, got.readByID)
			if got != want {
				return fmt.Errorf("%s of %d variables made %d list requests and %d reads by ID, want %d and %d", what, n, got.list, got.readByID, want.list, want.readByID)
			}
			return nil
		}
	}
	config := fmt.Sprintf(`
resource "tfgov_module_test_variable" "test" {
  count           = %[3]d
  module_name     = %[1]q
  module_provider = %[2]q
  key             = "VAR_${count.index}"
  value           = "value-${count.index}"
  sensitive       = count.index %% 2 == 0
}
`, mod.Name, mod.Provider, n)

	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckTestVariablesDestroyed(t, mod),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
					for _, r := range s.Values.RootModule.Resources {
						if id, ok := r.AttributeValues["id"].(string); ok && r.Type == "tfgov_module_test_variable" {
							ids = append(ids, id)
						}
					}
					l, err := testAccClient(t).TestVariables.List(ctx, mod.id(), &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
					if err != nil {
						return err
					}
					if len(ids) != n || l.TotalCount != n {
						return fmt.Errorf("%d variables in state and %d on the server, want %d", len(ids), l.TotalCount, n)
					}
					return nil
				})},
			},
			// terraform refresh: one list request.
			{
				PreConfig:    mark,
				RefreshState: true,
				Check:        func(*terraform.State) error { return expect("terraform refresh", counts{list: 1})() },
			},
			// terraform plan (which refreshes first): one list request.
			{
				PreConfig:        mark,
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), planCheckFunc(func(context.Context, *tfjson.Plan) error { return expect("terraform plan", counts{list: 1})() })}},
			},
		},
	})
}

func TestModuleTestVariableValidateConfig_sensitiveValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := NewModuleTestVariableResource()
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	objType := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)

	tests := map[string]struct {
		value, valueWO any
		sensitive      any
		wantWarning    bool
	}{
		"sensitive with value":      {value: "s3cr3t", sensitive: true, wantWarning: true},
		"sensitive with unknown":    {value: tftypes.UnknownValue, sensitive: true, wantWarning: true},
		"sensitive with value_wo":   {valueWO: "s3cr3t", sensitive: true},
		"plain with value":          {value: "eu-west-1", sensitive: false},
		"sensitive unknown":         {value: "x", sensitive: tftypes.UnknownValue},
		"imported sensitive, empty": {sensitive: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vals := map[string]tftypes.Value{}
			for attr, typ := range objType.AttributeTypes {
				vals[attr] = tftypes.NewValue(typ, nil)
			}
			set := func(attr string, v any) {
				if v != nil {
					vals[attr] = tftypes.NewValue(objType.AttributeTypes[attr], v)
				}
			}
			set("value", tc.value)
			set("value_wo", tc.valueWO)
			set("sensitive", tc.sensitive)
			req := fwresource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(objType, vals)}}
			var resp fwresource.ValidateConfigResponse
			r.(fwresource.ResourceWithValidateConfig).ValidateConfig(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("unexpected error: %v", resp.Diagnostics)
			}
			if got := resp.Diagnostics.WarningsCount() > 0; got != tc.wantWarning {
				t.Fatalf("warning = %v, want %v (%v)", got, tc.wantWarning, resp.Diagnostics)
			}
		})
	}
}

// TestModuleTestVariableRead_readByIDFails (issue 53, survivor b): a
// variable missing from its module's list of two pages is read by ID, and
// only that read's 404 means gone: a 500 there fails the refresh, and state
// keeps the variable.
func TestModuleTestVariableRead_readByIDFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const org = "var-read-500"
	srv, c, p := protoSandbox(t, org, nil)
	mod := listTestModule(t, c, org)
	for i := range bulkPageSize {
		if _, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String(fmt.Sprintf("K_%d", i)), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)}); err != nil {
			t.Fatal(err)
		}
	}
	v, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String("GONE"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)})
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]tftypes.Value
	for _, r := range p.list("tfgov_module_test_variable", map[string]string{"module_name": mod.Name, "module_provider": mod.Provider}, true, 1000) {
		if r.identity["id"] == v.ID {
			state = r.resource
		}
	}
	if state == nil {
		t.Fatal("the variable is not listed")
	}
	if err := c.TestVariables.Delete(ctx, mod.id(), v.ID); err != nil {
		t.Fatal(err)
	}
	// Two pages still (101 variables): the missing one is read by ID.
	if _, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String("K_LAST"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)}); err != nil {
		t.Fatal(err)
	}
	byID := mod.varsPath() + "/" + v.ID
	if err := srv.InjectFault(sandbox.Fault{Method: "GET", Path: byID, Status: 500, Count: 1}); err != nil {
		t.Fatal(err)
	}
	once := newProtoProvider(t, map[string]string{"address": p.cfg["address"], "token": p.cfg["token"], "organization": org, "retry_max": "0"})
	resp := once.readNoIdentity("tfgov_module_test_variable", state)
	if !hasErrors(resp.Diagnostics) || !strings.Contains(diagText(resp.Diagnostics), "Error reading module test variable") {
		t.Errorf("a 500 on the read by ID: diagnostics %s, want the refresh to fail", diagText(resp.Diagnostics))
	}
	if n := srv.RequestsTo("GET", byID); n != 1 {
		t.Errorf("%d reads by ID, want 1", n)
	}
	// Its 404: gone.
	resp = once.fresh().readNoIdentity("tfgov_module_test_variable", state)
	if len(resp.Diagnostics) > 0 || once.decode(once.schema.ResourceSchemas["tfgov_module_test_variable"].ValueType(), resp.NewState) != nil {
		t.Errorf("a 404 on the read by ID: diagnostics %s, state %v; want the variable gone", diagText(resp.Diagnostics), resp.NewState)
	}
}
