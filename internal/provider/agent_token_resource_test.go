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
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const agentTokenAddr = "tfgov_agent_token.test"

func testAccAgentTokenConfig(poolID, description, rotation string) string {
	triggers := ""
	if rotation != "" {
		triggers = fmt.Sprintf("rotation_triggers = { rotation = %q }", rotation)
	}
	return fmt.Sprintf(`
resource "tfgov_agent_token" "test" {
  agent_pool_id = %[1]q
  description   = %[2]q
  %[3]s
}
`, poolID, description, triggers)
}

// testAccCheckAgentTokens checks on the server that the pool holds exactly
// the token in state and nothing else: a replaced token was revoked.
func testAccCheckAgentTokens(t *testing.T, poolID string) stateCheckFunc {
	return func(ctx context.Context, state *tfjson.State) error {
		id, err := stateID(state, agentTokenAddr)
		if err != nil {
			return err
		}
		l, err := testAccClient(t).AgentTokens.List(ctx, poolID)
		if err != nil {
			return err
		}
		if len(l.Items) != 1 || l.Items[0].ID != id {
			ids := []string{}
			for _, it := range l.Items {
				ids = append(ids, it.ID)
			}
			return fmt.Errorf("pool %s holds tokens %v, want only %s", poolID, ids, id)
		}
		return nil
	}
}

func testAccCheckAgentTokensDestroyed(t *testing.T, poolID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		l, err := testAccClient(t).AgentTokens.List(context.Background(), poolID)
		if err != nil {
			return err
		}
		if len(l.Items) != 0 {
			return fmt.Errorf("pool %s still holds %d tokens after destroy", poolID, len(l.Items))
		}
		return nil
	}
}

func TestAccAgentTokenResource_basic(t *testing.T) {
	pool := testAccAgentPool(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	rotated := statecheck.CompareValue(compare.ValuesDiffer())

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckAgentTokensDestroyed(t, pool.ID),
		Steps: []resource.TestStep{
			{
				Config: testAccAgentTokenConfig(pool.ID, "ci agents", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(agentTokenAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^at-[A-Za-z0-9]+$`))),
					statecheck.ExpectKnownValue(agentTokenAddr, tfjsonpath.New("description"), knownvalue.StringExact("ci agents")),
					statecheck.ExpectKnownValue(agentTokenAddr, tfjsonpath.New("token"), knownvalue.StringRegexp(regexp.MustCompile(`.{20,}`))),
					statecheck.ExpectSensitiveValue(agentTokenAddr, tfjsonpath.New("token")),
					statecheck.ExpectKnownValue(agentTokenAddr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					sameID.AddStateValue(agentTokenAddr, tfjsonpath.New("id")),
					rotated.AddStateValue(agentTokenAddr, tfjsonpath.New("id")),
					testAccCheckAgentTokens(t, pool.ID),
				},
			},
			// Import by token ID alone (the pool is found) ...
			{
				ResourceName:            agentTokenAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"token"},
			},
			// ... and by <agent_pool_id>/<token_id>, through an import block.
			{
				ResourceName:    agentTokenAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return pool.ID + "/" + s.RootModule().Resources[agentTokenAddr].Primary.ID, nil
				},
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentTokenAddr, plancheck.ResourceActionNoop),
				}},
			},
			// The same configuration again changes nothing.
			{
				Config: testAccAgentTokenConfig(pool.ID, "ci agents", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentTokenAddr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(agentTokenAddr, tfjsonpath.New("id"))},
			},
			// Rotation: a new trigger value replaces the token and revokes the old one.
			{
				Config: testAccAgentTokenConfig(pool.ID, "ci agents", "2026-11"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentTokenAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					rotated.AddStateValue(agentTokenAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(agentTokenAddr, tfjsonpath.New("rotation_triggers"), knownvalue.MapExact(map[string]knownvalue.Check{"rotation": knownvalue.StringExact("2026-11")})),
					testAccCheckAgentTokens(t, pool.ID),
				},
			},
			// A new description needs a new token too: the API has no update.
			{
				Config: testAccAgentTokenConfig(pool.ID, "build agents", "2026-11"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentTokenAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(agentTokenAddr, tfjsonpath.New("description"), knownvalue.StringExact("build agents")),
					testAccCheckAgentTokens(t, pool.ID),
				},
			},
			// Drift: the token is revoked outside Terraform; the next plan creates it again.
			{
				PreConfig: func() {
					l, err := testAccClient(t).AgentTokens.List(context.Background(), pool.ID)
					if err != nil || len(l.Items) != 1 {
						t.Fatalf("listing tokens: %v", err)
					}
					if err := testAccClient(t).AgentTokens.Delete(context.Background(), l.Items[0].ID); err != nil {
						t.Fatalf("revoking token outside Terraform: %v", err)
					}
				},
				Config: testAccAgentTokenConfig(pool.ID, "build agents", "2026-11"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentTokenAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckAgentTokens(t, pool.ID)},
			},
		},
	})
}

// TestAccAgentTokenResource_createBeforeDestroy rotates with
// create_before_destroy: the new token exists before the old is revoked.
func TestAccAgentTokenResource_createBeforeDestroy(t *testing.T) {
	pool := testAccAgentPool(t)
	config := func(rotation string) string {
		return fmt.Sprintf(`
resource "tfgov_agent_token" "test" {
  agent_pool_id     = %[1]q
  description       = "rotating"
  rotation_triggers = { rotation = %[2]q }
  lifecycle {
    create_before_destroy = true
  }
}
`, pool.ID, rotation)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckAgentTokensDestroyed(t, pool.ID),
		Steps: []resource.TestStep{
			{Config: config("1"), ConfigStateChecks: []statecheck.StateCheck{testAccCheckAgentTokens(t, pool.ID)}},
			{
				Config: config("2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentTokenAddr, plancheck.ResourceActionCreateBeforeDestroy),
				}},
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckAgentTokens(t, pool.ID)},
			},
		},
	})
}

// TestAccAgentTokenResource_invalid rejects bad input at plan time, before
// any request.
func TestAccAgentTokenResource_invalid(t *testing.T) {
	tests := map[string]struct {
		pool, description string
		want              string
	}{
		"pool id":           {"ws-abc", "x", `agent_pool_id.*must be an ID of the form apool-<id>`},
		"blank description": {"apool-abc", "   ", `description.*must not be empty`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      testAccAgentTokenConfig(tc.pool, tc.description, ""),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)` + tc.want),
				}},
			})
		})
	}
}

// TestAccAgentTokenResource_missingPool names the pool and the permission.
func TestAccAgentTokenResource_missingPool(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      testAccAgentTokenConfig("apool-doesnotexist123", "x", ""),
			ExpectError: regexp.MustCompile(`Agent pool apool-doesnotexist123 was not found, or the API token may\s+not\s+manage\s+agent\s+pools`),
		}},
	})
}

// TestAccAgentTokenResource_requests counts the API requests of one token's
// create, refresh and destroy on the sandbox.
func TestAccAgentTokenResource_requests(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	pool := testAccAgentPool(t)
	var tokenID string
	counts := map[string]int{}
	tokenPath := func() string { return "/api/v2/authentication-tokens/" + tokenID }
	createPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := sb.RequestsTo("DELETE", tokenPath()); n != 1 {
				return fmt.Errorf("destroy made %d DELETE requests, want 1", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: testAccAgentTokenConfig(pool.ID, "counted", ""),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
					var err error
					tokenID, err = stateID(s, agentTokenAddr)
					counts["create"] = sb.RequestsTo("POST", createPath)
					return err
				})},
			},
			{
				PreConfig:    func() { counts["lists before refresh"] = sb.RequestsTo("GET", createPath) },
				RefreshState: true,
				Check: func(*terraform.State) error {
					counts["refresh lists"] = sb.RequestsTo("GET", createPath) - counts["lists before refresh"]
					counts["reads"] = sb.RequestsTo("GET", tokenPath())
					return nil
				},
			},
		},
	})
	if counts["create"] != 1 {
		t.Errorf("create made %d POST requests, want 1", counts["create"])
	}
	if counts["refresh lists"] != 1 || counts["reads"] != 0 {
		t.Errorf("the refresh listed the pool's tokens %d times and read the token by ID %d times, want 1 and 0", counts["refresh lists"], counts["reads"])
	}
}

// TestAccAgentTokenResource_serverError: the reference lists a 500 for a
// failure while creating an agent token. A POST answered 500 may have made
// a token, so it is not replayed blindly: the provider looks for tokens of
// that create (revoking any, since their secret reached nobody) and creates
// again. A failure that lasts past maxAmbiguousCreates names the pool; a
// token made before its answer was lost is revoked and one token results.
func TestAccAgentTokenResource_serverError(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("fault injection needs the sandbox")
	}
	pool := testAccAgentPool(t)
	createPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
	config := testAccAgentTokenConfig(pool.ID, "flaky", "")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckAgentTokensDestroyed(t, pool.ID),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: createPath, Status: 500, Count: maxAmbiguousCreates}); err != nil {
						t.Fatal(err)
					}
				},
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Error creating agent token.*Agent pool ` + pool.ID + `.*5 attempts\s+ended\s+without\s+a\s+definite\s+answer`),
			},
			{
				PreConfig: func() {
					// Processed, then answered 500: the token exists, its
					// secret was lost.
					if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: createPath, Status: 500, After: true, Count: 1}); err != nil {
						t.Fatal(err)
					}
				},
				Config:            config,
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckAgentTokens(t, pool.ID)},
			},
		},
	})
}
