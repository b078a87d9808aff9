package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sync/atomic"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// Never touch what you did not make (DESIGN.md "Lost creates"):
// after a create whose answer was lost, an object that this resource
// instance did not provably make (another configuration's, another
// person's, one that existed before the apply or appeared since) is
// neither revoked nor adopted; the outcome is the one the same
// configuration gets against the same service with no fault.

// TestAccLostAnswerNotOurs: in each case the object is made outside this
// configuration (by another configuration, or by hand) just before the
// create, then the create's answer is lost.
func TestAccLostAnswerNotOurs(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("lost answers are injected by the sandbox")
	}
	ctx := context.Background()
	inject := func(t *testing.T, f sandbox.Fault) {
		t.Helper()
		if err := sb.InjectFault(f); err != nil {
			t.Fatal(err)
		}
	}

	// Another configuration's token with the same description in the same
	// pool, made just before this configuration's create, whose answer is
	// lost after processing: it is not revoked, and it is not in state.
	t.Run("agent token of another configuration", func(t *testing.T) {
		c := testAccClient(t)
		pool := testAccAgentPool(t)
		postPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
		var theirs *tfe.AgentToken
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				PreConfig: func() {
					var err error
					if theirs, err = c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("ci-agents")}); err != nil {
						t.Fatal(err)
					}
					inject(t, sandbox.Fault{Method: "POST", Path: postPath, Status: 503, After: true, Count: 1})
				},
				Config: testAccAgentTokenConfig(pool.ID, "ci-agents", ""),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
					id, err := stateID(s, agentTokenAddr)
					if err != nil {
						return err
					}
					if id == theirs.ID {
						return fmt.Errorf("the other configuration's token %s was adopted", id)
					}
					if _, err := c.AgentTokens.Read(ctx, theirs.ID); err != nil {
						return fmt.Errorf("the other configuration's token %s: %w", theirs.ID, err)
					}
					return nil
				})},
			}},
		})
	})

	// A grant made by hand before the apply, exactly as configured: with
	// no fault the add fails with "already has read access" and an import
	// block; a 503 before processing must end the same way.
	t.Run("team access made by hand", func(t *testing.T) {
		c := testAccClient(t)
		team, ws := testAccTeam(t, nil), testAccWorkspace(t)
		theirs, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: team, Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		for _, fault := range []bool{false, true} {
			accTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					PreConfig: func() {
						if fault {
							inject(t, sandbox.Fault{Method: "POST", Path: "/api/v2/team-workspaces", Status: 503, Count: 1})
						}
					},
					Config: testAccTeamAccessConfig(team.ID, ws.ID, "read", ""),
					ExpectError: wrappedRE(`already\s+has\s+"read"\s+access.*import\s+\{\s+to\s+=\s+tfgov_team_access\.<name>\s+id\s+=\s+"` +
						regexp.QuoteMeta(theirs.ID) + `"`),
				}},
			})
		}
		if _, err := c.TeamAccess.Read(ctx, theirs.ID); err != nil {
			t.Errorf("the hand-made grant %s: %v", theirs.ID, err)
		}
	})

	// A policy made by hand before the apply with the name, kind and
	// description configured, no code and no policy set.
	t.Run("policy made by hand", func(t *testing.T) {
		c := testAccClient(t)
		name := testAccName("hand")
		pol, err := policyClient{c}.create(ctx, testAccOrganization(), &tfe.PolicyCreateOptions{
			Name: tfe.String(name), Kind: tfe.Sentinel, Description: tfe.String("same"),
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Policies.Delete(context.Background(), pol.ID) })
		for _, fault := range []bool{false, true} {
			accTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					PreConfig: func() {
						if fault {
							inject(t, sandbox.Fault{Method: "POST", Path: "/api/v2/organizations/" + testAccOrganization() + "/policies", Status: 503, Count: 1})
						}
					},
					Config: testAccPolicyConfig(name, "", "", "same", ""),
					ExpectError: wrappedRE(regexp.QuoteMeta(fmt.Sprintf("already has a policy named %q (%s)", name, pol.ID)) +
						`.*import\s+\{\s+to\s+=\s+tfgov_policy\.<name>\s+id\s+=\s+"` + regexp.QuoteMeta(pol.ID) + `"`),
				}},
			})
		}
	})

	// A test variable made by hand a moment before the create, with the key
	// and value configured: its created-at lies in the request's window,
	// which proves nothing (someone else's would too); it is not adopted.
	t.Run("module test variable made by hand", func(t *testing.T) {
		c := testAccClient(t)
		mod := testAccModule(t)
		var theirs *tfe.Variable
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				PreConfig: func() {
					var err error
					if theirs, err = c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{
						Key: tfe.String("HAND"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv),
					}); err != nil {
						t.Fatal(err)
					}
					inject(t, sandbox.Fault{Method: "POST", Path: mod.varsPath(), Status: 503, Count: 1})
				},
				Config: testAccTestVariableConfig(mod, `key = "HAND"`, `value = "v"`),
				ExpectError: wrappedRE(`already\s+has\s+a\s+test\s+variable\s+with\s+key\s+"HAND".*id\s+=\s+"` +
					regexp.QuoteMeta(mod.String()+"/") + `var-`),
			}},
		})
		if theirs == nil {
			return
		}
		if _, err := c.TestVariables.Read(ctx, mod.id(), theirs.ID); err != nil {
			t.Errorf("the hand-made variable %s: %v", theirs.ID, err)
		}
	})

	// A run queued by another configuration on the same configuration
	// version with the same (default) inputs, a moment before this create:
	// not adopted; this configuration queues its own run.
	t.Run("module test run of another configuration", func(t *testing.T) {
		mod := testAccModule(t)
		cv := testAccTestConfiguration(t, mod, "pass")
		postPath := "/api/v2/" + mod.testRunsPath()
		var theirs *tfe.TestRun
		var posts0 int
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				PreConfig: func() {
					theirs = testAccTestRun(t, mod, cv)
					posts0 = sb.RequestsTo("POST", postPath)
					inject(t, sandbox.Fault{Method: "POST", Path: postPath, Status: 503, Count: 1})
				},
				Config: testAccTestRunConfig(mod, fmt.Sprintf("configuration_version_id = %q", cv), "wait_for_completion = false"),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
					id, err := stateID(s, testRunAddr)
					if err != nil {
						return err
					}
					if id == theirs.ID {
						return fmt.Errorf("the other configuration's run %s was adopted", id)
					}
					if n := sb.RequestsTo("POST", postPath) - posts0; n != 2 {
						return fmt.Errorf("%d creates sent, want 2 (the one that failed, then its own)", n)
					}
					return nil
				})},
			}},
		})
	})
}

// allAgentTokens lists every token of a pool through go-tfe, page by page
// to the end.
func allAgentTokens(ctx context.Context, c *tfe.Client, poolID string) ([]*tfe.AgentToken, error) {
	var out []*tfe.AgentToken
	for page := 1; page != 0; {
		l, err := c.AgentTokens.ListWithOptions(ctx, poolID, &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		if l.Pagination == nil || l.NextPage <= page {
			break
		}
		page = l.NextPage
	}
	return out, nil
}

// isOrphanCandidate reports whether a create of this process named token
// id as possibly left behind by a lost answer.
func isOrphanCandidate(id string) bool {
	_, ok := agentTokenOrphanCandidates.Load(id)
	return ok
}

// changedBeforeLook starts a sandbox of the test's own (organization org)
// in which the first request with method and path is processed, then
// change is called with the answer's body (the object made), as if
// someone else changed the object at once, and then the answer is lost:
// a 503. It returns the sandbox, a go-tfe client of the organization and
// the provider block for it.
func changedBeforeLook(t *testing.T, org, method, path string, change func(c *tfe.Client, body []byte) error) (*tfe.Client, string) {
	t.Helper()
	var done atomic.Bool
	return frontedSandbox(t, org, func(c *tfe.Client, next http.Handler, w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if r.Method != method || r.URL.Path != path || !done.CompareAndSwap(false, true) {
			return false
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		if err := change(c, rec.Body.Bytes()); err != nil {
			t.Errorf("changing the object made by %s %s: %v", method, path, err)
		}
		unavailable(w)
		return true
	})
}

// createdID is the ID in a JSON:API answer's body.
func createdID(body []byte) (string, error) {
	var doc struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return "", fmt.Errorf("decoding the answer %q: %w", body, err)
	}
	if doc.Data.ID == "" {
		return "", fmt.Errorf("no ID in the answer %q", body)
	}
	return doc.Data.ID, nil
}

// TestAccLostAnswerChanged: the create is processed, someone else changes
// the object at once, then the answer is lost. The object is not adopted
// (nothing the API returns proves whose it is, changed or not), and the
// create fails as a duplicate does, naming it with an import block.
func TestAccLostAnswerChanged(t *testing.T) {
	if testAccSandbox() == nil {
		t.Skip("the answer is lost by a sandbox of the test's own")
	}
	ctx := context.Background()
	t.Run("team access", func(t *testing.T) {
		c, provider := changedBeforeLook(t, "tfgov-changed-ta", "POST", "/api/v2/team-workspaces", func(c *tfe.Client, body []byte) error {
			id, err := createdID(body)
			if err != nil {
				return err
			}
			_, err = c.TeamAccess.Update(ctx, id, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessRead)})
			return err
		})
		team, err := c.Teams.Create(ctx, "tfgov-changed-ta", tfe.TeamCreateOptions{Name: tfe.String("t"), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatal(err)
		}
		ws, err := c.Workspaces.Create(ctx, "tfgov-changed-ta", tfe.WorkspaceCreateOptions{Name: tfe.String("w")})
		if err != nil {
			t.Fatal(err)
		}
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:      provider + testAccTeamAccessConfig(team.ID, ws.ID, "write", ""),
				ExpectError: wrappedRE(`already\s+has\s+"read"\s+access.*id\s+=\s+"tws-.*without\s+a\s+definite\s+answer.*does\s+not\s+take\s+it\s+over`),
			}},
		})
	})
	t.Run("policy", func(t *testing.T) {
		c, provider := changedBeforeLook(t, "tfgov-changed-pol", "POST", "/api/v2/organizations/tfgov-changed-pol/policies", func(c *tfe.Client, body []byte) error {
			id, err := createdID(body)
			if err != nil {
				return err
			}
			_, err = c.Policies.Update(ctx, id, tfe.PolicyUpdateOptions{Description: tfe.String("changed")})
			return err
		})
		_ = c // the organization's policies need no fixture
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:      provider + testAccPolicyConfig("p", "", "", "mine", ""),
				ExpectError: wrappedRE(`Policy\s+already\s+exists.*named\s+"p".*without\s+a\s+definite\s+answer.*id\s+=\s+"pol-`),
			}},
		})
	})
	t.Run("module test variable", func(t *testing.T) {
		const org = "tfgov-changed-var"
		mod := moduleRef{Organization: org, Name: "m", Provider: "aws"}
		c, provider := changedBeforeLook(t, org, "POST", mod.varsPath(), func(c *tfe.Client, body []byte) error {
			id, err := createdID(body)
			if err != nil {
				return err
			}
			_, err = c.TestVariables.Update(ctx, mod.id(), id, tfe.VariableUpdateOptions{Value: tfe.String("changed")})
			return err
		})
		if _, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String(mod.Name), Provider: tfe.String(mod.Provider), RegistryName: tfe.PrivateRegistry}); err != nil {
			t.Fatal(err)
		}
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:      provider + testAccTestVariableConfig(mod, `key = "K"`, `value = "mine"`),
				ExpectError: wrappedRE(`Module\s+test\s+variable\s+already\s+exists.*key\s+"K".*without\s+a\s+definite\s+answer.*id\s+=\s+"` + regexp.QuoteMeta(mod.String()+"/var-")),
			}},
		})
	})
}

// TestAccLostAnswerSiblings: `count` siblings that send identical creates
// (agent tokens with one description in one pool, test runs of one
// configuration version), one of whose answers is lost: each sibling ends
// with an object of its own, all alive, and the lost create's object is
// left alone (never a sibling's): for agent tokens, named in a warning.
func TestAccLostAnswerSiblings(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("lost answers are injected by the sandbox")
	}
	const siblings = 3
	for _, drop := range []bool{false, true} {
		fault := func(path string) sandbox.Fault {
			if drop {
				return sandbox.Fault{Method: "POST", Path: path, Drop: true, Count: 1}
			}
			return sandbox.Fault{Method: "POST", Path: path, Status: 503, After: true, Count: 1}
		}
		t.Run(fmt.Sprintf("agent tokens, drop=%v", drop), func(t *testing.T) {
			c := testAccClient(t)
			pool := testAccAgentPool(t)
			postPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
			var posts0 int
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					PreConfig: func() {
						posts0 = sb.RequestsTo("POST", postPath)
						if err := sb.InjectFault(fault(postPath)); err != nil {
							t.Fatal(err)
						}
					},
					Config: fmt.Sprintf(`
resource "tfgov_agent_token" "test" {
  count         = %d
  agent_pool_id = %q
  description   = "siblings"
}
`, siblings, pool.ID),
					ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
						if n := sb.RequestsTo("POST", postPath) - posts0; n != siblings+1 {
							return fmt.Errorf("%d creates sent, want %d", n, siblings+1)
						}
						inState := map[string]bool{}
						for i := range siblings {
							id, err := stateID(s, fmt.Sprintf("tfgov_agent_token.test[%d]", i))
							if err != nil {
								return err
							}
							if isOrphanCandidate(id) {
								return fmt.Errorf("token %s, in state, was named as a possible orphan", id)
							}
							inState[id] = true
						}
						if len(inState) != siblings {
							return fmt.Errorf("%d distinct tokens in state, want %d", len(inState), siblings)
						}
						tokens, err := allAgentTokens(ctx, c, pool.ID)
						if err != nil {
							return err
						}
						left := 0
						for _, tok := range tokens {
							switch {
							case inState[tok.ID]:
								delete(inState, tok.ID)
							case isOrphanCandidate(tok.ID):
								left++
							default:
								return fmt.Errorf("token %s: neither in state nor named in a warning", tok.ID)
							}
						}
						if len(inState) != 0 || left != 1 {
							return fmt.Errorf("tokens in state missing from the pool: %v; tokens left and named: %d, want 1", inState, left)
						}
						return nil
					})},
				}},
			})
		})
		t.Run(fmt.Sprintf("test runs of one configuration version, drop=%v", drop), func(t *testing.T) {
			mod := testAccModule(t)
			cv := testAccTestConfiguration(t, mod, "pass")
			postPath := "/api/v2/" + mod.testRunsPath()
			var posts0 int
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					PreConfig: func() {
						posts0 = sb.RequestsTo("POST", postPath)
						if err := sb.InjectFault(fault(postPath)); err != nil {
							t.Fatal(err)
						}
					},
					Config: fmt.Sprintf(`
resource "tfgov_module_test_run" "test" {
  count                    = %d
  module_name              = %q
  module_provider          = %q
  configuration_version_id = %q
  wait_for_completion      = false
}
`, siblings, mod.Name, mod.Provider, cv),
					ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
						if n := sb.RequestsTo("POST", postPath) - posts0; n != siblings+1 {
							return fmt.Errorf("%d creates sent, want %d", n, siblings+1)
						}
						inState := map[string]bool{}
						for i := range siblings {
							id, err := stateID(s, fmt.Sprintf("tfgov_module_test_run.test[%d]", i))
							if err != nil {
								return err
							}
							inState[id] = true
						}
						if len(inState) != siblings {
							return fmt.Errorf("%d distinct runs in state, want %d: a sibling's run was adopted", len(inState), siblings)
						}
						l, err := testAccClient(t).TestRuns.List(ctx, mod.id(), &tfe.TestRunListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
						if err != nil {
							return err
						}
						if len(l.Items) != siblings+1 {
							return fmt.Errorf("%d runs on the service, want %d (the siblings' and the lost one)", len(l.Items), siblings+1)
						}
						return nil
					})},
				}},
			})
		})
	}
}

// TestAccCreatesListNothing: a create answered at once costs its one
// request, whatever its parent holds: nothing is listed before a create
// (a pre-write snapshot, a list per parent per apply, proved nothing
// about the gap before the create, and cost a request per parent). A
// workspace with 120 grants made beforehand gets 10 more, an organization
// 10 policies, a module 10 test variables: 30 POSTs and no list request.
func TestAccCreatesListNothing(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	if testAccSandbox() == nil {
		t.Skip("requests are counted by the sandbox")
	}
	ctx := context.Background()
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-snapshot")
	org := sb.organization
	ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("w")})
	if err != nil {
		t.Fatal(err)
	}
	var teams []string
	for i := range 130 {
		tm, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("t-%d", i)), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatal(err)
		}
		if i < 120 {
			if _, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: tm, Workspace: ws}); err != nil {
				t.Fatal(err)
			}
		} else {
			teams = append(teams, tm.ID)
		}
	}
	m, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("m"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry})
	if err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`
provider "tfgov" {
  address      = %[1]q
  token        = %[2]q
  organization = %[3]q
}

resource "tfgov_team_access" "t" {
  count        = 10
  team_id      = %[4]s[count.index]
  workspace_id = %[5]q
  access       = "read"
}

resource "tfgov_policy" "p" {
  count = 10
  name  = "p-${count.index}"
}

resource "tfgov_module_test_variable" "v" {
  count           = 10
  module_name     = %[6]q
  module_provider = "aws"
  key             = "V_${count.index}"
  value           = "v"
}
`, sb.address, sb.token, org, hclList(teams), ws.ID, m.Name)
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			PreConfig: sb.srv.ResetStats,
			Config:    config,
			Check: func(*terraform.State) error {
				stats := sb.srv.Stats()
				got := map[string]int{
					"team access lists":     stats["GET /api/v2/team-workspaces"],
					"policy lists":          stats["GET /api/v2/organizations/{org}/policies"],
					"test variable lists":   stats["GET /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars"],
					"team access creates":   stats["POST /api/v2/team-workspaces"],
					"policy creates":        stats["POST /api/v2/organizations/{org}/policies"],
					"test variable creates": stats["POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars"],
				}
				want := map[string]int{"team access creates": 10, "policy creates": 10, "test variable creates": 10}
				t.Logf("requests of 30 creates under 3 parents: %v; requests in all: %d", got, sumStats(stats))
				for k, n := range got {
					if n != want[k] {
						return fmt.Errorf("%d %s during the apply, want %d: %v", n, k, want[k], stats)
					}
				}
				return nil
			},
		}},
	})
}
