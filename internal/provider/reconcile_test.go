package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// TestAccLostAnswers: for every resource that creates, a create the
// service processed and whose answer was lost (a 503 after processing, or
// a dropped connection). Where the API allows no proof that the object
// found is this create's (policies, team access, test variables: issue
// 25), the create fails with "already exists" naming the object in an
// import block; following it (terraform import) converges: the next plan
// is empty and the service holds exactly the object in state. A test run
// on the create's own configuration version is adopted with no second
// create. Where more than one object may match (agent tokens, whose
// secret was lost with the answer; test runs of a given configuration
// version, which siblings share), the create is made again while the lost
// one is left alone and named in a warning. A second configuration shares
// the pool, the workspace, the module and the organization: its objects
// (made through go-tfe a moment before the create, as its apply would,
// with the same description, the same configuration version and the same
// inputs wherever the API allows two alike) are neither revoked, adopted,
// named for import nor changed.
func TestAccLostAnswers(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("lost answers are injected by the sandbox")
	}
	type tcase struct {
		config    string
		postPath  string
		wantPosts int // creates sent in all
		// refused, when set, is the error the create fails with; addr and
		// importID then give the import that the error advises.
		refused  *regexp.Regexp
		addr     string
		importID func(ctx context.Context) (string, error)
		// other makes the second configuration's objects and returns
		// their IDs and a check that they are as they were.
		other func(ctx context.Context) (ids map[string]bool, unchanged func(context.Context) error)
		// onService checks what the service holds, given the state and the
		// second configuration's IDs.
		onService func(ctx context.Context, s *tfjson.State, others map[string]bool) error
	}
	cases := map[string]func(t *testing.T) tcase{
		"policy": func(t *testing.T) tcase {
			name := testAccName("lost")
			c := testAccClient(t)
			return tcase{
				config:    testAccPolicyConfig(name, "", "", "lost answer", ""),
				postPath:  "/api/v2/organizations/" + testAccOrganization() + "/policies",
				wantPosts: 1,
				refused:   wrappedRE(`Policy\s+already\s+exists.*` + regexp.QuoteMeta(fmt.Sprintf("already has a policy named %q (pol-", name)) + `.*without\s+a\s+definite\s+answer.*import\s+\{\s+to\s+=\s+tfgov_policy\.<name>\s+id\s+=\s+"pol-`),
				addr:      policyAddr,
				importID: func(ctx context.Context) (string, error) {
					pol, err := policyClient{c}.findByName(ctx, testAccOrganization(), name)
					if err != nil {
						return "", err
					}
					return pol.ID, nil
				},
				other: func(ctx context.Context) (map[string]bool, func(context.Context) error) {
					pol, err := policyClient{c}.create(ctx, testAccOrganization(), &tfe.PolicyCreateOptions{
						Name: tfe.String(name + "-other"), Kind: tfe.Sentinel, Description: tfe.String("lost answer"),
					})
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { _ = c.Policies.Delete(context.Background(), pol.ID) })
					return map[string]bool{pol.ID: true}, func(ctx context.Context) error {
						got, err := c.Policies.Read(ctx, pol.ID)
						if err != nil {
							return err
						}
						if got.Description != "lost answer" || !got.UpdatedAt.IsZero() {
							return fmt.Errorf("policy %s changed: description %q, updated-at %s", pol.ID, got.Description, got.UpdatedAt)
						}
						return nil
					}
				},
				onService: func(ctx context.Context, s *tfjson.State, _ map[string]bool) error {
					id, err := stateID(s, policyAddr)
					if err != nil {
						return err
					}
					pols, err := c.Policies.List(ctx, testAccOrganization(), &tfe.PolicyListOptions{Search: name})
					if err != nil {
						return err
					}
					var mine []string
					for _, p := range pols.Items {
						if p.Name == name {
							mine = append(mine, p.ID)
						}
					}
					if len(mine) != 1 || mine[0] != id {
						return fmt.Errorf("policies named %s on the service: %v, want one, %s", name, mine, id)
					}
					return nil
				},
			}
		},
		"team access": func(t *testing.T) tcase {
			team, otherTeam, ws := testAccTeam(t, nil), testAccTeam(t, nil), testAccWorkspace(t)
			c := testAccClient(t)
			return tcase{
				config:    testAccTeamAccessConfig(team.ID, ws.ID, "write", ""),
				postPath:  "/api/v2/team-workspaces",
				wantPosts: 1,
				refused:   wrappedRE(`already\s+has\s+"write"\s+access.*import\s+\{\s+to\s+=\s+tfgov_team_access\.<name>\s+id\s+=\s+"tws-.*without\s+a\s+definite\s+answer`),
				addr:      "tfgov_team_access.test",
				importID: func(ctx context.Context) (string, error) {
					grants, err := c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
					if err != nil {
						return "", err
					}
					for _, g := range grants.Items {
						if g.Team != nil && g.Team.ID == team.ID {
							return g.ID, nil
						}
					}
					return "", fmt.Errorf("no grant of team %s on workspace %s", team.ID, ws.ID)
				},
				other: func(ctx context.Context) (map[string]bool, func(context.Context) error) {
					g, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessWrite), Team: otherTeam, Workspace: ws})
					if err != nil {
						t.Fatal(err)
					}
					return map[string]bool{g.ID: true}, func(ctx context.Context) error {
						got, err := c.TeamAccess.Read(ctx, g.ID)
						if err != nil {
							return err
						}
						if got.Access != tfe.AccessWrite {
							return fmt.Errorf("grant %s changed: access %q", g.ID, got.Access)
						}
						return nil
					}
				},
				onService: func(ctx context.Context, s *tfjson.State, others map[string]bool) error {
					id, err := stateID(s, "tfgov_team_access.test")
					if err != nil {
						return err
					}
					grants, err := c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
					if err != nil {
						return err
					}
					var mine []string
					for _, g := range grants.Items {
						if !others[g.ID] {
							mine = append(mine, g.ID)
						}
					}
					if len(mine) != 1 || mine[0] != id {
						return fmt.Errorf("grants of this configuration on workspace %s: %v, want one, %s", ws.ID, mine, id)
					}
					return nil
				},
			}
		},
		"module test variable": func(t *testing.T) tcase {
			mod := testAccModule(t)
			c := testAccClient(t)
			return tcase{
				config:    testAccTestVariableConfig(mod, `key = "LOST"`, `value = "v"`),
				postPath:  mod.varsPath(),
				wantPosts: 1,
				refused: wrappedRE(`Module\s+test\s+variable\s+already\s+exists.*with\s+key\s+"LOST".*without\s+a\s+definite\s+answer.*id\s+=\s+"` +
					regexp.QuoteMeta(mod.String()+"/var-")),
				addr: testVariableAddr,
				importID: func(ctx context.Context) (string, error) {
					l, err := listTestVariables(ctx, c, mod)
					if err != nil {
						return "", err
					}
					if v := l.byKey["LOST"]; v != nil {
						return mod.String() + "/" + v.ID, nil
					}
					return "", fmt.Errorf("no variable LOST in module %s", mod)
				},
				other: func(ctx context.Context) (map[string]bool, func(context.Context) error) {
					v, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{
						Key: tfe.String("OTHER"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(true),
					})
					if err != nil {
						t.Fatal(err)
					}
					return map[string]bool{v.ID: true}, func(ctx context.Context) error {
						got, err := c.TestVariables.Read(ctx, mod.id(), v.ID)
						if err != nil {
							return err
						}
						if got.Key != "OTHER" || !got.Sensitive {
							return fmt.Errorf("variable %s changed: key %q, sensitive %v", v.ID, got.Key, got.Sensitive)
						}
						return nil
					}
				},
				onService: func(ctx context.Context, s *tfjson.State, others map[string]bool) error {
					id, err := stateID(s, testVariableAddr)
					if err != nil {
						return err
					}
					l, err := c.TestVariables.List(ctx, mod.id(), nil)
					if err != nil {
						return err
					}
					var mine []string
					for _, v := range l.Items {
						if !others[v.ID] {
							mine = append(mine, v.ID)
						}
					}
					if len(mine) != 1 || mine[0] != id {
						return fmt.Errorf("variables of this configuration in module %s: %v, want one, %s", mod, mine, id)
					}
					return nil
				},
			}
		},
		// A parameter with the key is found after the lost create, and never adopted (DESIGN.md "Lost creates").
		"policy set parameter": func(t *testing.T) tcase {
			set := testAccParameterSet(t, tfe.PolicySetCreateOptions{})
			c := testAccClient(t)
			return tcase{
				config:    testAccParameterConfig(set.ID, `key = "lost"`, `value = "v"`),
				postPath:  "/api/v2/policy-sets/" + set.ID + "/parameters",
				wantPosts: 1,
				refused: wrappedRE(`Policy\s+set\s+parameter\s+already\s+exists.*with\s+key\s+"lost".*without\s+a\s+definite\s+answer.*id\s+=\s+"` +
					regexp.QuoteMeta(set.ID+"/var-")),
				addr: parameterAddr,
				importID: func(ctx context.Context) (string, error) {
					l, err := listPolicySetParameters(ctx, c, set.ID)
					if err != nil {
						return "", err
					}
					if v := l.byKey["lost"]; v != nil {
						return set.ID + "/" + v.ID, nil
					}
					return "", fmt.Errorf("no parameter lost in policy set %s", set.ID)
				},
				other: func(ctx context.Context) (map[string]bool, func(context.Context) error) {
					v, err := c.PolicySetParameters.Create(ctx, set.ID, tfe.PolicySetParameterCreateOptions{
						Key: tfe.String("other"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryPolicySet), Sensitive: tfe.Bool(true),
					})
					if err != nil {
						t.Fatal(err)
					}
					return map[string]bool{v.ID: true}, func(ctx context.Context) error {
						got, err := c.PolicySetParameters.Read(ctx, set.ID, v.ID)
						if err != nil {
							return err
						}
						if got.Key != "other" || !got.Sensitive {
							return fmt.Errorf("parameter %s changed: key %q, sensitive %v", v.ID, got.Key, got.Sensitive)
						}
						return nil
					}
				},
				onService: func(ctx context.Context, s *tfjson.State, others map[string]bool) error {
					id, err := stateID(s, parameterAddr)
					if err != nil {
						return err
					}
					l, err := listPolicySetParameters(ctx, c, set.ID)
					if err != nil {
						return err
					}
					var mine []string
					for pid := range l.byID {
						if !others[pid] {
							mine = append(mine, pid)
						}
					}
					if len(mine) != 1 || mine[0] != id {
						return fmt.Errorf("parameters of this configuration in policy set %s: %v, want one, %s", set.ID, mine, id)
					}
					return nil
				},
			}
		},
		// With `source` the provider uploads a configuration version of its
		// own: a run on it can only be this create's, and is adopted.
		"module test run": func(t *testing.T) tcase {
			mod := testAccModule(t)
			return tcase{
				config:    testAccTestRunConfig(mod, fmt.Sprintf("source = %q", testModuleDir(t, "pass")), "wait_for_completion = false"),
				postPath:  "/api/v2/" + mod.testRunsPath(),
				wantPosts: 1,
				other:     otherTestRun(t, mod, ""),
				onService: testRunsOnService(t, mod, 1),
			}
		},
		// With a given configuration version, which siblings and other
		// configurations may share with identical inputs, no run is
		// provably this create's: it queues another, and the lost one is
		// named in a warning.
		"module test run of a configuration version": func(t *testing.T) tcase {
			mod := testAccModule(t)
			cv := testAccTestConfiguration(t, mod, "pass")
			return tcase{
				config:    testAccTestRunConfig(mod, fmt.Sprintf("configuration_version_id = %q", cv), "wait_for_completion = false"),
				postPath:  "/api/v2/" + mod.testRunsPath(),
				wantPosts: 2,
				other:     otherTestRun(t, mod, cv),
				onService: testRunsOnService(t, mod, 2),
			}
		},
		"agent token": func(t *testing.T) tcase {
			pool := testAccAgentPool(t)
			c := testAccClient(t)
			return tcase{
				config:    testAccAgentTokenConfig(pool.ID, "lost", ""),
				postPath:  "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens",
				wantPosts: 2, // the token whose secret was lost is left alone, named in a warning
				other: func(ctx context.Context) (map[string]bool, func(context.Context) error) {
					tok, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("lost")})
					if err != nil {
						t.Fatal(err)
					}
					return map[string]bool{tok.ID: true}, func(ctx context.Context) error {
						_, err := c.AgentTokens.Read(ctx, tok.ID)
						return err
					}
				},
				onService: func(ctx context.Context, s *tfjson.State, others map[string]bool) error {
					id, err := stateID(s, agentTokenAddr)
					if err != nil {
						return err
					}
					tokens, err := allAgentTokens(ctx, c, pool.ID)
					if err != nil {
						return err
					}
					var inState, left int
					for _, tok := range tokens {
						switch {
						case tok.ID == id:
							inState++
						case others[tok.ID]:
						case isOrphanCandidate(tok.ID):
							left++
						default:
							return fmt.Errorf("token %s is in the pool, neither in state, the other configuration's, nor named in a warning", tok.ID)
						}
					}
					if inState != 1 || left != 1 {
						return fmt.Errorf("pool %s: %d tokens in state and %d named in a warning, want 1 and 1", pool.ID, inState, left)
					}
					return nil
				},
			}
		},
	}
	for name, mk := range cases {
		for _, drop := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, drop=%v", name, drop), func(t *testing.T) {
				tc := mk(t)
				// Not parallel: policies and team access share their create
				// path with other tests, which would take the fault.
				var posts0 int
				var others map[string]bool
				var unchanged func(context.Context) error
				first := resource.TestStep{
					PreConfig: func() {
						others, unchanged = tc.other(context.Background())
						posts0 = sb.RequestsTo("POST", tc.postPath)
						f := sandbox.Fault{Method: "POST", Path: tc.postPath, Status: 503, After: true, Count: 1}
						if drop {
							f.Status, f.Drop, f.After = 0, true, false
						}
						if err := sb.InjectFault(f); err != nil {
							t.Fatal(err)
						}
					},
					Config: tc.config,
				}
				checks := []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
					if n := sb.RequestsTo("POST", tc.postPath) - posts0; n != tc.wantPosts {
						return fmt.Errorf("%d creates sent, want %d", n, tc.wantPosts)
					}
					for _, r := range s.Values.RootModule.Resources {
						if id, _ := r.AttributeValues["id"].(string); others[id] {
							return fmt.Errorf("%s adopted the other configuration's %s", r.Address, id)
						}
					}
					if err := unchanged(ctx); err != nil {
						return fmt.Errorf("the other configuration's object: %w", err)
					}
					return tc.onService(ctx, s, others)
				})}
				steps := []resource.TestStep{first}
				if tc.refused == nil {
					steps[0].ConfigStateChecks = checks
				} else {
					// The create fails naming the object; the user follows
					// the advice (terraform import), and the next apply
					// has nothing to do (plugin-testing checks the plan).
					steps[0].ExpectError = tc.refused
					steps = append(steps, resource.TestStep{
						Config:             tc.config,
						ResourceName:       tc.addr,
						ImportState:        true,
						ImportStatePersist: true,
						ImportStateIdFunc: func(*terraform.State) (string, error) {
							id, err := tc.importID(context.Background())
							if others[id[strings.LastIndex(id, "/")+1:]] {
								return "", fmt.Errorf("the error named the other configuration's %s", id)
							}
							return id, err
						},
					}, resource.TestStep{Config: tc.config, ConfigStateChecks: checks})
				}
				accTest(t, resource.TestCase{
					Steps: steps,
				})
			})
		}
	}
}

// otherTestRun makes the second configuration's run of mod: on cv, or on
// a configuration version of its own when cv is "", with default inputs.
func otherTestRun(t *testing.T, mod moduleRef, cv string) func(ctx context.Context) (map[string]bool, func(context.Context) error) {
	return func(ctx context.Context) (map[string]bool, func(context.Context) error) {
		if cv == "" {
			cv = testAccTestConfiguration(t, mod, "pass")
		}
		run := testAccTestRun(t, mod, cv)
		return map[string]bool{run.ID: true}, func(ctx context.Context) error {
			_, err := testAccClient(t).TestRuns.Read(ctx, mod.id(), run.ID)
			return err
		}
	}
}

// testRunsOnService checks that mod holds the run in state and, besides
// the second configuration's, want runs in all (the one in state, and any
// a lost create queued and a warning named).
func testRunsOnService(t *testing.T, mod moduleRef, want int) func(ctx context.Context, s *tfjson.State, others map[string]bool) error {
	return func(ctx context.Context, s *tfjson.State, others map[string]bool) error {
		id, err := stateID(s, testRunAddr)
		if err != nil {
			return err
		}
		l, err := testAccClient(t).TestRuns.List(ctx, mod.id(), &tfe.TestRunListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
		if err != nil {
			return err
		}
		var mine []string
		found := false
		for _, r := range l.Items {
			if !others[r.ID] {
				mine = append(mine, r.ID)
				found = found || r.ID == id
			}
		}
		if len(mine) != want || !found {
			return fmt.Errorf("runs of this configuration in module %s: %v, want %d with %s", mod, mine, want, id)
		}
		return nil
	}
}

// TestAccLostAnswerRefused: after an ambiguous create (a 503 the service
// did not process), an object with the same identity made outside
// Terraform before the apply (with other attributes) is not adopted: the
// create fails as it would with no fault, naming its ID in an import
// block. (TestAccLostAnswerNotOurs covers such objects with the attributes
// sent, TestAccLostAnswerMadeMeanwhile objects made during the apply.)
func TestAccLostAnswerRefused(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("faults are injected by the sandbox")
	}
	ctx := context.Background()
	t.Run("policy", func(t *testing.T) {
		name := testAccName("taken")
		pol, err := policyClient{testAccClient(t)}.create(ctx, testAccOrganization(), &tfe.PolicyCreateOptions{
			Name: tfe.String(name), Kind: tfe.Sentinel, Description: tfe.String("made elsewhere"),
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cleanupErr(t, "policy "+pol.ID, testAccClient(t).Policies.Delete(context.Background(), pol.ID))
		})
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				PreConfig: func() {
					// 503 before processing: the create made nothing, but
					// the provider cannot know it.
					if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: "/api/v2/organizations/" + testAccOrganization() + "/policies", Status: 503, Count: 1}); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccPolicyConfig(name, "", "", "mine", ""),
				ExpectError: wrappedRE(`Policy\s+already\s+exists.*` + regexp.QuoteMeta(fmt.Sprintf("already has a policy named %q (%s). The create request ended without a definite answer", name, pol.ID)) +
					`.*import\s+\{\s+to\s+=\s+tfgov_policy\.<name>\s+id\s+=\s+"` + regexp.QuoteMeta(pol.ID) + `"`),
			}},
		})
	})
	t.Run("module test variable", func(t *testing.T) {
		mod := testAccModule(t)
		v, err := testAccClient(t).TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{
			Key: tfe.String("TAKEN"), Value: tfe.String("theirs"), Category: tfe.Category(tfe.CategoryEnv),
		})
		if err != nil {
			t.Fatal(err)
		}
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				PreConfig: func() {
					if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: mod.varsPath(), Status: 503, Count: 1}); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccTestVariableConfig(mod, `key = "TAKEN"`, `value = "mine"`),
				ExpectError: wrappedRE(`Module\s+test\s+variable\s+already\s+exists.*` + regexp.QuoteMeta(fmt.Sprintf("already has a test variable with key %q (%s). The create request ended without a definite answer", "TAKEN", v.ID)) +
					`.*id\s+=\s+"` + regexp.QuoteMeta(mod.String()+"/"+v.ID) + `"`),
			}},
		})
	})
}

// TestAccNameTaken: a create refused with a 422 because the name is taken
// (as after a crash between the create and the saving of state) quotes the
// service's detail, names the attribute, and names the object that holds
// the name with its import block.
func TestAccNameTaken(t *testing.T) {
	name := testAccName("taken")
	pol, err := policyClient{testAccClient(t)}.create(context.Background(), testAccOrganization(), &tfe.PolicyCreateOptions{Name: tfe.String(name), Kind: tfe.Sentinel})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cleanupErr(t, "policy "+pol.ID, testAccClient(t).Policies.Delete(context.Background(), pol.ID))
	})
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: testAccPolicyConfig(name, "", "", "", ""),
			ExpectError: wrappedRE(`Policy already exists.*` + regexp.QuoteMeta(fmt.Sprintf("already has a policy named %q (%s)", name, pol.ID)) +
				`.*422.*has\s+already\s+been\s+taken.*\(attribute\s+"name"\).*id\s+=\s+"` + regexp.QuoteMeta(pol.ID) + `"`),
		}},
	})
}

func TestReconcileCreate(t *testing.T) {
	t.Parallel()
	amb := &tfeclient.AmbiguousWriteError{Method: "POST", Path: "/x", Status: 503, Reason: "503 Service Unavailable", Start: time.Now(), End: time.Now()}
	wrapped := fmt.Errorf("Post %q: %w", "http://x", amb) // as *url.Error wraps it
	conflict := &conflictError{"taken"}
	tests := map[string]struct {
		creates   []error        // answers of successive creates (nil: success)
		looks     []string       // answers of successive looks: "adopt", "none", "conflict", "fail"
		want      string         // "created", "adopted", or a part of the error
		wantCalls [2]int         // creates, looks
		wantCount map[string]int // reconciliations counted
	}{
		"created at once":         {creates: []error{nil}, want: "created", wantCalls: [2]int{1, 0}},
		"other error passed on":   {creates: []error{errors.New("422 nope")}, want: "422 nope", wantCalls: [2]int{1, 0}},
		"lost answer, adopted":    {creates: []error{wrapped}, looks: []string{"adopt"}, want: "adopted", wantCalls: [2]int{1, 1}, wantCount: map[string]int{"t adopted": 1}},
		"nothing made, recreated": {creates: []error{wrapped, nil}, looks: []string{"none"}, want: "created", wantCalls: [2]int{2, 1}, wantCount: map[string]int{"t recreated": 1}},
		"not provably ours":       {creates: []error{wrapped}, looks: []string{"conflict"}, want: "taken", wantCalls: [2]int{1, 1}, wantCount: map[string]int{"t refused": 1}},
		"look fails":              {creates: []error{wrapped}, looks: []string{"fail"}, want: "then looking for what it made: list failed", wantCalls: [2]int{1, 1}},
		"gives up": {creates: []error{wrapped}, looks: []string{"none"}, want: "5 attempts ended without a definite answer",
			wantCalls: [2]int{maxAmbiguousCreates, maxAmbiguousCreates}, wantCount: map[string]int{"t recreated": maxAmbiguousCreates}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			// Not parallel: the reconciliation counters are process-wide.
			before := reconciliations()
			var creates, looks int
			got, err := reconcileCreate(context.Background(), "t",
				func() (string, error) {
					e := tc.creates[min(creates, len(tc.creates)-1)]
					creates++
					if e != nil {
						return "", e
					}
					return "created", nil
				},
				func(_ context.Context, a *tfeclient.AmbiguousWriteError) (string, bool, error) {
					if a != amb {
						t.Errorf("look got %v, want the transport's error", a)
					}
					l := tc.looks[min(looks, len(tc.looks)-1)]
					looks++
					switch l {
					case "adopt":
						return "adopted", true, nil
					case "conflict":
						return "", false, conflict
					case "fail":
						return "", false, errors.New("list failed")
					}
					return "", false, nil
				})
			switch {
			case err != nil:
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want %q", err, tc.want)
				}
			case got != tc.want:
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if [2]int{creates, looks} != tc.wantCalls {
				t.Errorf("creates, looks = %d, %d, want %v", creates, looks, tc.wantCalls)
			}
			after := reconciliations()
			for k, n := range tc.wantCount {
				if d := after[k] - before[k]; d != n {
					t.Errorf("%s counted %d times, want %d", k, d, n)
				}
			}
		})
	}
}

// TestReconcileCreate_afterStop: a create whose answer was lost as
// Terraform asked the provider to stop still looks for what it made (the
// look-up gets a live context), so the object is named with its import
// block in that apply; a create again after a look-up that found nothing
// is a new write, and is not sent.
func TestReconcileCreate_afterStop(t *testing.T) {
	amb := &tfeclient.AmbiguousWriteError{Method: "POST", Path: "/x", Reason: "connection reset"}
	ctx, stop := context.WithCancel(context.Background())
	stop()
	creates := 0
	_, err := reconcileCreate(ctx, "t",
		func() (string, error) {
			creates++
			if creates > 1 {
				return tfeclient.CarriedValue(ctx, func(context.Context) (string, error) { return "made again", nil })
			}
			return "", amb
		},
		func(lctx context.Context, _ *tfeclient.AmbiguousWriteError) (string, bool, error) {
			if lctx.Err() != nil {
				t.Errorf("the look-up after the stop got a done context: %v", lctx.Err())
			}
			return "", false, nil // nothing made
		})
	var ns *tfeclient.NotSentError
	if creates != 2 || !errors.As(err, &ns) {
		t.Errorf("%d creates, error %v; want the look-up, then a create not sent", creates, err)
	}
	_, err = reconcileCreate(ctx, "t",
		func() (string, error) { return "", amb },
		func(context.Context, *tfeclient.AmbiguousWriteError) (string, bool, error) {
			return "", false, &conflictError{msg: "already exists (id-1): import { id = \"id-1\" }"}
		})
	if err == nil || err.Error() != "already exists (id-1): import { id = \"id-1\" }" {
		t.Errorf("found after the stop: %v, want the import advice", err)
	}
}
