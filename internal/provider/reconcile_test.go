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

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

func TestAmbiguousWindow(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	amb := &ambiguousWriteError{Start: start, End: start.Add(2 * time.Second)}
	for _, tc := range []struct {
		at   time.Time
		want bool
	}{
		{start, true},
		{start.Add(time.Second), true},
		{start.Add(-clockSkew), true},
		{start.Add(-clockSkew - time.Millisecond), false},
		{start.Add(2*time.Second + clockSkew), true},
		{start.Add(2*time.Second + clockSkew + time.Millisecond), false},
		{start.Add(-time.Hour), false},
	} {
		if got := amb.within(tc.at); got != tc.want {
			t.Errorf("within(%s) = %v, want %v", tc.at.Sub(start), got, tc.want)
		}
	}
}

// TestAccLostAnswers: for every resource that creates, a create the
// service processed and whose answer was lost (a 503 after processing, or
// a dropped connection) ends with exactly one object on the service, the
// one in state: adopted with no second create, or (agent tokens, whose
// secret was lost with the answer) revoked and made again.
func TestAccLostAnswers(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("lost answers are injected by the sandbox")
	}
	type tcase struct {
		config    string
		postPath  string
		wantPosts int // creates sent in all
		onService func(ctx context.Context, s *tfjson.State) error
	}
	cases := map[string]func(t *testing.T) tcase{
		"policy": func(t *testing.T) tcase {
			name := testAccName("lost")
			return tcase{
				config:    testAccPolicyConfig(name, "", "", "lost answer", ""),
				postPath:  "/api/v2/organizations/" + testAccOrganization() + "/policies",
				wantPosts: 1,
				onService: func(ctx context.Context, s *tfjson.State) error {
					id, err := stateID(s, policyAddr)
					if err != nil {
						return err
					}
					pols, err := policyClient{testAccClient(t)}.list(ctx, testAccOrganization(), name, "")
					if err != nil {
						return err
					}
					if len(pols) != 1 || pols[0].ID != id {
						return fmt.Errorf("%d policies named %s on the service, want one, %s", len(pols), name, id)
					}
					return nil
				},
			}
		},
		"team access": func(t *testing.T) tcase {
			team, ws := testAccTeam(t, nil), testAccWorkspace(t)
			return tcase{
				config:    testAccTeamAccessConfig(team.ID, ws.ID, "write", ""),
				postPath:  "/api/v2/team-workspaces",
				wantPosts: 1,
				onService: func(ctx context.Context, s *tfjson.State) error {
					id, err := stateID(s, "tfgov_team_access.test")
					if err != nil {
						return err
					}
					grants, err := listTeamAccess(ctx, testAccClient(t), ws.ID)
					if err != nil {
						return err
					}
					if len(grants) != 1 || grants[0].ID != id {
						return fmt.Errorf("%d grants on workspace %s, want one, %s", len(grants), ws.ID, id)
					}
					return nil
				},
			}
		},
		"module test variable": func(t *testing.T) tcase {
			mod := testAccModule(t)
			return tcase{
				config:    testAccTestVariableConfig(mod, `key = "LOST"`, `value = "v"`, `sensitive = true`),
				postPath:  mod.varsPath(),
				wantPosts: 1,
				onService: func(ctx context.Context, s *tfjson.State) error {
					id, err := stateID(s, testVariableAddr)
					if err != nil {
						return err
					}
					l, err := listTestVariables(ctx, testAccClient(t), mod)
					if err != nil {
						return err
					}
					if len(l.byID) != 1 || l.byID[id] == nil {
						return fmt.Errorf("%d variables in module %s, want one, %s", len(l.byID), mod, id)
					}
					return nil
				},
			}
		},
		"module test run": func(t *testing.T) tcase {
			mod := testAccModule(t)
			cv := testAccTestConfiguration(t, mod, "pass")
			return tcase{
				config:    testAccTestRunConfig(mod, fmt.Sprintf("configuration_version_id = %q", cv), "wait_for_completion = false"),
				postPath:  "/api/v2/" + mod.testRunsPath(),
				wantPosts: 1,
				onService: func(ctx context.Context, s *tfjson.State) error {
					id, err := stateID(s, testRunAddr)
					if err != nil {
						return err
					}
					runs, err := testRunClient{testAccClient(t)}.list(ctx, mod, nil)
					if err != nil {
						return err
					}
					if len(runs) != 1 || runs[0].ID != id {
						return fmt.Errorf("%d runs of module %s, want one, %s", len(runs), mod, id)
					}
					return nil
				},
			}
		},
		"agent token": func(t *testing.T) tcase {
			pool := testAccAgentPool(t)
			return tcase{
				config:    testAccAgentTokenConfig(pool.ID, "lost", ""),
				postPath:  "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens",
				wantPosts: 2, // the token whose secret was lost is revoked
				onService: testAccCheckAgentTokens(t, pool.ID),
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
				resource.Test(t, resource.TestCase{
					PreCheck:                 func() { testAccPreCheck(t) },
					ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
					Steps: []resource.TestStep{{
						PreConfig: func() {
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
						ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
							if n := sb.RequestsTo("POST", tc.postPath) - posts0; n != tc.wantPosts {
								return fmt.Errorf("%d creates sent, want %d", n, tc.wantPosts)
							}
							return tc.onService(ctx, s)
						})},
					}},
				})
			})
		}
	}
}

// TestAccLostAnswerRefused: after an ambiguous create, an object with the
// same identity that is not provably this create's (made outside
// Terraform, with other attributes) is not adopted: the create fails naming
// its ID in an import block.
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
		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				PreConfig: func() {
					// 503 before processing: the create made nothing, but
					// the provider cannot know it.
					if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: "/api/v2/organizations/" + testAccOrganization() + "/policies", Status: 503, Count: 1}); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccPolicyConfig(name, "", "", "mine", ""),
				ExpectError: regexp.MustCompile(`(?s)not\s+provably\s+the\s+object\s+this\s+create\s+made:\s+the\s+description\s+differs.*import\s+\{\s+to\s+=\s+tfgov_policy\.<name>\s+id\s+=\s+"` +
					regexp.QuoteMeta(pol.ID) + `"`),
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
		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				PreConfig: func() {
					if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: mod.varsPath(), Status: 503, Count: 1}); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccTestVariableConfig(mod, `key = "TAKEN"`, `value = "mine"`),
				ExpectError: regexp.MustCompile(`(?s)the\s+value\s+differs.*id\s+=\s+"` +
					regexp.QuoteMeta(mod.String()+"/"+v.ID) + `"`),
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
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: testAccPolicyConfig(name, "", "", "", ""),
			ExpectError: regexp.MustCompile(`(?s)Policy already exists.*` + phraseRE(fmt.Sprintf("already has a policy named %q (%s)", name, pol.ID)).String() +
				`.*422.*has\s+already\s+been\s+taken.*\(attribute\s+"name"\).*id\s+=\s+"` + regexp.QuoteMeta(pol.ID) + `"`),
		}},
	})
}

func TestReconcileCreate(t *testing.T) {
	t.Parallel()
	amb := &ambiguousWriteError{Method: "POST", Path: "/x", Status: 503, Reason: "503 Service Unavailable", Start: time.Now(), End: time.Now()}
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
				func(a *ambiguousWriteError) (string, bool, error) {
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
