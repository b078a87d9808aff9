package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const exclusiveAddr = "tfgov_workspace_team_access_exclusive.test"

func testAccExclusiveConfig(wsID string, teamIDs ...string) string {
	q := make([]string, len(teamIDs))
	for i, id := range teamIDs {
		q[i] = fmt.Sprintf("%q", id)
	}
	return fmt.Sprintf(`
resource "tfgov_workspace_team_access_exclusive" "test" {
  workspace_id = %q
  team_ids     = [%s]
}
`, wsID, strings.Join(q, ", "))
}

// testAccGrant gives team access to ws outside Terraform.
func testAccGrant(t *testing.T, teamID, wsID string, access tfe.AccessType) *tfe.TeamAccess {
	t.Helper()
	ta, err := testAccClient(t).TeamAccess.Add(context.Background(), tfe.TeamAccessAddOptions{
		Access: tfe.Access(access), Team: &tfe.Team{ID: teamID}, Workspace: &tfe.Workspace{ID: wsID},
	})
	if err != nil {
		t.Fatalf("granting %s to %s: %v", teamID, wsID, err)
	}
	return ta
}

// testAccGrantsAre checks, through go-tfe, that the workspace's grants are
// exactly want (grant IDs by team ID: a grant kept keeps its ID).
func testAccGrantsAre(t *testing.T, wsID string, want map[string]string) error {
	l, err := testAccClient(t).TeamAccess.List(context.Background(), &tfe.TeamAccessListOptions{WorkspaceID: wsID})
	if err != nil {
		return err
	}
	got := map[string]string{}
	for _, g := range l.Items {
		got[g.Team.ID] = g.ID
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("workspace %s grants %v, want %v", wsID, got, want)
	}
	return nil
}

// expectTeamIDsLeave checks that the plan updates team_ids from
// exactly before to exactly after.
func expectTeamIDsLeave(before, after []string) plancheck.PlanCheck {
	return planCheckFunc(func(_ context.Context, plan *tfjson.Plan) error {
		slices.Sort(before)
		slices.Sort(after)
		for _, rc := range plan.ResourceChanges {
			if rc.Address != exclusiveAddr {
				continue
			}
			b, a := setOf(rc.Change.Before, "team_ids"), setOf(rc.Change.After, "team_ids")
			if !slices.Equal(b, before) || !slices.Equal(a, after) {
				return fmt.Errorf("team_ids planned %v -> %v, want %v -> %v", b, a, before, after)
			}
			return nil
		}
		return fmt.Errorf("%s not in the plan", exclusiveAddr)
	})
}

func setOf(v any, attr string) []string {
	m, _ := v.(map[string]any)
	l, _ := m[attr].([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestAccWorkspaceTeamAccessExclusive_basic is the "done when": a
// workspace holds three grants, the configuration declares two; the plan
// shows the third team leaving team_ids, the apply revokes exactly that
// grant, the next plan is empty. Then: a grant added outside Terraform is
// planned away and revoked; a declared team without a grant plans nothing;
// import by workspace ID; destroy revokes nothing. Against the sandbox the
// requests are counted: one list per workspace on refresh, one DELETE per
// grant removed.
func TestAccWorkspaceTeamAccessExclusive_basic(t *testing.T) {
	ws := testAccWorkspace(t)
	a, b, c, d, e := testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil)
	ga := testAccGrant(t, a.ID, ws.ID, tfe.AccessRead)
	gb := testAccGrant(t, b.ID, ws.ID, tfe.AccessWrite)
	gc := testAccGrant(t, c.ID, ws.ID, tfe.AccessPlan)
	kept := map[string]string{a.ID: ga.ID, b.ID: gb.ID}
	grants := []string{ga.ID, gb.ID, gc.ID}

	// The list's path is every workspace's: the test does not run in
	// parallel, so that only its own lists are counted.
	sb := testAccSandbox()
	list := func() int { return sb.RequestsTo("GET", "/api/v2/team-workspaces") }
	deletes := func() int {
		n := 0
		for _, id := range grants {
			n += sb.RequestsTo("DELETE", "/api/v2/team-workspaces/"+id)
		}
		return n
	}
	var lists, dels int
	mark := func() {
		if sb != nil {
			lists, dels = list(), deletes()
		}
	}
	// requests checks the lists and DELETEs since mark.
	requests := func(wantLists, wantDeletes int) statecheck.StateCheck {
		return stateCheckFunc(func(context.Context, *tfjson.State) error {
			if sb == nil {
				return nil
			}
			gotL, gotD := list()-lists, deletes()-dels
			t.Logf("requests: %d team access lists, %d DELETEs", gotL, gotD)
			if gotL > wantLists || gotD != wantDeletes {
				return fmt.Errorf("%d lists and %d DELETEs, want at most %d lists and %d DELETEs", gotL, gotD, wantLists, wantDeletes)
			}
			return nil
		})
	}

	accTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return testAccGrantsAre(t, ws.ID, kept) // destroy revokes nothing
		},
		Steps: []resource.TestStep{
			// All three declared: nothing removed.
			{
				PreConfig: mark,
				Config:    testAccExclusiveConfig(ws.ID, a.ID, b.ID, c.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exclusiveAddr, tfjsonpath.New("team_ids"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(a.ID), knownvalue.StringExact(b.ID), knownvalue.StringExact(c.ID),
					})),
					// apply: the plan walk's list (its plan must tell what
					// the create removes), the apply walk's (shared by its
					// plan and the create)
					requests(2, 0),
				},
			},
			// Two declared: the plan shows c leaving; the apply revokes only c.
			{
				PreConfig: mark,
				Config:    testAccExclusiveConfig(ws.ID, a.ID, b.ID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exclusiveAddr, plancheck.ResourceActionUpdate),
					expectTeamIDsLeave([]string{a.ID, b.ID, c.ID}, []string{a.ID, b.ID}),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error { return testAccGrantsAre(t, ws.ID, kept) }),
					// plugin-testing's plan: the refresh's list (shared with
					// the plan's lock-out check); its apply: the refresh's
					// list, and the apply walk's (shared by its plan and the
					// update); one DELETE
					requests(3, 1),
				},
			},
			// A grant added outside Terraform shows as d joining then
			// leaving team_ids, and is revoked.
			{
				PreConfig: func() { grants = append(grants, testAccGrant(t, d.ID, ws.ID, tfe.AccessAdmin).ID); mark() },
				Config:    testAccExclusiveConfig(ws.ID, a.ID, b.ID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exclusiveAddr, plancheck.ResourceActionUpdate),
					expectTeamIDsLeave([]string{a.ID, b.ID, d.ID}, []string{a.ID, b.ID}),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error { return testAccGrantsAre(t, ws.ID, kept) }),
					requests(3, 1),
				},
			},
			// A declared team without a grant: allowed, nothing to do, no
			// perpetual diff.
			{Config: testAccExclusiveConfig(ws.ID, a.ID, b.ID, e.ID)},
			{Config: testAccExclusiveConfig(ws.ID, a.ID, b.ID, e.ID), PlanOnly: true},
			// ... and dropping it again removes nothing.
			{
				PreConfig: mark,
				Config:    testAccExclusiveConfig(ws.ID, a.ID, b.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error { return testAccGrantsAre(t, ws.ID, kept) }),
					requests(3, 0),
				},
			},
			// Import by workspace ID (removed_team_ids: what the last apply
			// removed, empty after an import as after any refresh).
			{
				ResourceName: exclusiveAddr, ImportState: true, ImportStateVerify: true,
				ImportStateId: ws.ID, ImportStateVerifyIdentifierAttribute: "workspace_id",
				ImportStateVerifyIgnore: []string{"removed_team_ids"},
			},
		},
	})
}

// TestAccWorkspaceTeamAccessExclusive_create: a new resource removes every
// undeclared grant, and its plan warns with them (the plan of a new
// resource has no prior team_ids to show them leaving from).
func TestAccWorkspaceTeamAccessExclusive_create(t *testing.T) {
	ws := testAccWorkspace(t)
	a, b := testAccTeam(t, nil), testAccTeam(t, nil)
	ga := testAccGrant(t, a.ID, ws.ID, tfe.AccessRead)
	testAccGrant(t, b.ID, ws.ID, tfe.AccessWrite)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: testAccExclusiveConfig(ws.ID, a.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error {
						return testAccGrantsAre(t, ws.ID, map[string]string{a.ID: ga.ID})
					}),
				},
			},
			// An empty set removes every grant.
			{
				Config: testAccExclusiveConfig(ws.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error { return testAccGrantsAre(t, ws.ID, map[string]string{}) }),
					statecheck.ExpectKnownValue(exclusiveAddr, tfjsonpath.New("team_ids"), knownvalue.SetExact([]knownvalue.Check{})),
				},
			},
		},
	})
}

// TestAccWorkspaceTeamAccessExclusive_warning: the plan of a new resource
// names the grants it will remove (terraform plan's output), and so does an
// update's, whose diff shows bare team IDs: each team and the workspace by
// name beside its ID.
func TestAccWorkspaceTeamAccessExclusive_warning(t *testing.T) {
	testCLIConfig(t)
	ws := testAccWorkspace(t)
	a, b := testAccTeam(t, nil), testAccTeam(t, nil)
	testAccGrant(t, a.ID, ws.ID, tfe.AccessRead)
	gb := testAccGrant(t, b.ID, ws.ID, tfe.AccessWrite)
	dir := t.TempDir()
	write := func(teams ...string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(budgetProviderBlock+testAccExclusiveConfig(ws.ID, teams...)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	wsLabel := fmt.Sprintf("workspace %q (%s)", ws.Name, ws.ID)
	bLine := fmt.Sprintf("team %q (%s): write access (%s)", b.Name, b.ID, gb.ID)
	write(a.ID)
	out, err := runTerraform(t, dir, "plan", "-no-color")
	if err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, out)
	}
	folded := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Team access will be removed", wsLabel, bLine} {
		if !strings.Contains(folded, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "team "+a.ID+":") || strings.Contains(folded, fmt.Sprintf("(%s):", a.ID)) {
		t.Errorf("the plan names the declared team %s:\n%s", a.ID, out)
	}
	// Declaring both, then dropping b: the update's plan names b.
	write(a.ID, b.ID)
	if out, err := runTerraform(t, dir, "apply", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, out)
	}
	write(a.ID)
	out, err = runTerraform(t, dir, "plan", "-no-color")
	if err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, out)
	}
	folded = strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Team access will be removed", "that leave team_ids from " + wsLabel, bLine, `- "` + b.ID + `"`} {
		if !strings.Contains(folded, want) {
			t.Errorf("the update's plan does not say %q:\n%s", want, out)
		}
	}
}

// TestAccWorkspaceTeamAccessExclusive_invalid: bad input fails at plan,
// naming the attribute.
func TestAccWorkspaceTeamAccessExclusive_invalid(t *testing.T) {
	accUnitTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: testAccExclusiveConfig("workspace", "team-abc"), PlanOnly: true, ExpectError: wrappedRE(`workspace_id.*ws-<id>`)},
			{Config: testAccExclusiveConfig("ws-abc", "team-abc", "owners"), PlanOnly: true, ExpectError: wrappedRE(`team_ids.*team-<id>`)},
		},
	})
}

// TestAccWorkspaceTeamAccessExclusive_gone (issue 43, row 1): a workspace
// that answers 404 was deleted, or the token belongs to no team of its
// organization; the service does not say which, so the refresh of its
// exclusive access, and of a grant on it, fails and says how to forget
// them if it was deleted. Neither leaves state.
func TestAccWorkspaceTeamAccessExclusive_gone(t *testing.T) {
	ws := testAccWorkspace(t)
	a := testAccTeam(t, nil)
	config := testAccExclusiveConfig(ws.ID, a.ID) + testAccTeamAccessConfig(a.ID, ws.ID, "read", "")
	missing := fmt.Sprintf(`cannot be refreshed: workspace %s was not found. It was deleted, or the API token belongs to no team of its organization: `+
		`the service answers the same to both. If it was deleted, remove the resource from state: terraform state rm`, ws.ID)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					if err := testAccClient(t).Workspaces.DeleteByID(context.Background(), ws.ID); err != nil {
						t.Fatal(err)
					}
				},
				Config: config, PlanOnly: true,
				ExpectError: eitherOrder(
					regexp.QuoteMeta("The exclusive team access of workspace "+ws.ID+" ")+missing,
					`Team access tws-\S+ \(team `+a.ID+`\) `+missing),
			},
		},
	})
}

// TestAccWorkspaceTeamAccessExclusive_identity: Terraform 1.12's identity
// is the workspace ID; an import block with identity plans no change.
func TestAccWorkspaceTeamAccessExclusive_identity(t *testing.T) {
	ws := testAccWorkspace(t)
	a := testAccTeam(t, nil)
	testAccGrant(t, a.ID, ws.ID, tfe.AccessRead)
	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{Config: testAccExclusiveConfig(ws.ID, a.ID), ConfigStateChecks: identityChecks("workspace_team_access_exclusive", exclusiveAddr)},
			{
				ResourceName: exclusiveAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exclusiveAddr, plancheck.ResourceActionNoop),
				}},
			},
		},
	})
}

// TestAccWorkspaceTeamAccessExclusive_lockOut: a member (not an owner)
// who administers the workspace only through team adm's admin grant may
// not remove it: the plan fails naming the team. With adm kept, another
// team's grant goes. Needs a user token of a member, which only the
// sandbox's admin token can make.
func TestAccWorkspaceTeamAccessExclusive_lockOut(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("making a member's user token needs the sandbox's admin token")
	}
	ctx := context.Background()
	c := testAccClient(t)
	ws := testAccWorkspace(t)
	adm, other := testAccTeam(t, nil), testAccTeam(t, nil)
	admGrant := testAccGrant(t, adm.ID, ws.ID, tfe.AccessAdmin)
	testAccGrant(t, other.ID, ws.ID, tfe.AccessRead)
	m, err := c.OrganizationMemberships.Create(ctx, testAccOrganization(), tfe.OrganizationMembershipCreateOptions{Email: tfe.String(testAccName("member") + "@example.invalid")})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.TeamMembers.Add(ctx, adm.ID, tfe.TeamMemberAddOptions{OrganizationMembershipIDs: []string{m.ID}}); err != nil {
		t.Fatal(err)
	}
	admin, err := tfe.NewClient(&tfe.Config{Address: c.BaseURL().Scheme + "://" + c.BaseURL().Host, Token: sb.AdminToken()})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := admin.UserTokens.Create(ctx, m.User.ID, tfe.UserTokenCreateOptions{Description: "lock-out test"})
	if err != nil {
		t.Fatal(err)
	}
	provider := fmt.Sprintf("provider \"tfgov\" {\n  token = %q\n}\n", tok.Token)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// A new resource that would remove adm: refused at plan.
			{
				Config:      provider + testAccExclusiveConfig(ws.ID, other.ID),
				ExpectError: wrappedRE(`lock the API token out.*` + adm.ID),
			},
			// Keeping adm, other's grant goes.
			{
				Config: provider + testAccExclusiveConfig(ws.ID, adm.ID),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(context.Context, *tfjson.State) error {
					return testAccGrantsAre(t, ws.ID, map[string]string{adm.ID: admGrant.ID})
				})},
			},
			// An update dropping adm: refused at plan too, naming the
			// workspace and the team beside their IDs.
			{
				Config: provider + testAccExclusiveConfig(ws.ID),
				ExpectError: matchWrapped("lock the API token out", fmt.Sprintf("administers workspace %q (%s) only through team %q (%s)", ws.Name, ws.ID, adm.Name, adm.ID),
					fmt.Sprintf("Keep %s (%q) in team_ids", adm.ID, adm.Name)),
			},
		},
	})
}

// The request budget of tfgov_workspace_team_access_exclusive
// (TestAccRequestBudgets): N workspaces, each with a read grant of team
// "keep" and an admin grant of team "extra", one resource per workspace
// declaring keep. A refresh is one read and one list per workspace (the
// read: its can-update, since only a token that sees every grant may say
// which teams hold access; issue 43, row 1; a new resource's plan reads
// it too, as its plan shows what it removes from the list alone); the
// plan of a removal adds
// the lock-out check: the organization's team list, once per walk (the
// caller is the owner, so one list proves it: no workspace read); each
// removed grant is one DELETE.
func init() {
	budgetCases["workspace_team_access_exclusive"] = budgetCase{
		fixtures: func(e *budgetEnv, n int) {
			ctx := context.Background()
			team := func(name string) string {
				tm, err := e.client.Teams.Create(ctx, e.org, tfe.TeamCreateOptions{Name: tfe.String(name), Visibility: tfe.String("organization")})
				if err != nil {
					e.t.Fatal(err)
				}
				return tm.ID
			}
			e.vars["keep"], e.vars["extra"], e.vars["more"] = team("keep"), team("extra"), team("more")
			var wss []string
			for i := range n {
				ws, err := e.client.Workspaces.Create(ctx, e.org, tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("budget-%d", i))})
				if err != nil {
					e.t.Fatal(err)
				}
				for team, access := range map[string]tfe.AccessType{e.vars["keep"]: tfe.AccessRead, e.vars["extra"]: tfe.AccessAdmin} {
					if _, err := e.client.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(access), Team: &tfe.Team{ID: team}, Workspace: &tfe.Workspace{ID: ws.ID}}); err != nil {
						e.t.Fatal(err)
					}
				}
				wss = append(wss, fmt.Sprintf("%q", ws.ID))
			}
			e.vars["workspaces"] = "[" + strings.Join(wss, ", ") + "]"
		},
		config: func(e *budgetEnv, _, v int) string {
			// The update adds a team without a grant: nothing to remove.
			teams := map[int]string{1: fmt.Sprintf("%q", e.vars["keep"]), 2: fmt.Sprintf("%q, %q", e.vars["keep"], e.vars["more"])}[v]
			return fmt.Sprintf(`locals { workspaces = %s }
resource "tfgov_workspace_team_access_exclusive" "r" {
  for_each     = { for i, w in local.workspaces : tostring(i) => w }
  workspace_id = each.value
  team_ids     = [%s]
}
output "ids" { value = { for k, r in tfgov_workspace_team_access_exclusive.r : k => r.workspace_id } }
`, e.vars["workspaces"], teams)
		},
		imports: `import {
  for_each = local.ids
  to       = tfgov_workspace_team_access_exclusive.r[each.key]
  id       = each.value
}
`,
		// Someone gives team extra admin access to workspace "0" again.
		outside: func(e *budgetEnv) {
			if _, err := e.client.TeamAccess.Add(context.Background(), tfe.TeamAccessAddOptions{
				Access: tfe.Access(tfe.AccessAdmin), Team: &tfe.Team{ID: e.vars["extra"]}, Workspace: &tfe.Workspace{ID: e.ids["0"]},
			}); err != nil {
				e.t.Fatal(err)
			}
		},
		// The repair: the apply walk's list of workspace "0" and its
		// lock-out check, then one DELETE.
		repair: 3,
		budget: func(op budgetOp, n, _ int) int {
			return starts(op) + map[budgetOp]int{
				opCreate:  4*n + 2 + n, // each walk: a read and a list per workspace, one team list (lock-out check); a DELETE per workspace
				opPlan:    2 * n,       // the refresh: a read and a list per workspace
				opDrift:   2*n + 1,     // the refresh; the team list (lock-out check of workspace "0")
				opUpdate:  2*n + 1,     // the refresh; the plan's lock-out check (the repair's); nothing else: teams only added
				opImport:  2 * n,       // the refresh: a read and a list per workspace
				opDestroy: 2 * n,       // the refresh: a read and a list per workspace; nothing is removed
			}[op]
		},
	}
}

// TestAccWorkspaceTeamAccessExclusive_lostDelete: the answer to a DELETE is
// lost (processed, then the connection dropped; then processed, answered
// 503): the apply still ends with exactly the undeclared grants gone, and
// the next plan is empty. A DELETE refused unprocessed (503, retries
// exhausted) fails the apply naming the grant, keeps the team in state,
// and the next apply removes it.
func TestAccWorkspaceTeamAccessExclusive_lostDelete(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("fault switches need the sandbox")
	}
	ws := testAccWorkspace(t)
	a, b, c := testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil)
	ga := testAccGrant(t, a.ID, ws.ID, tfe.AccessRead)
	gb := testAccGrant(t, b.ID, ws.ID, tfe.AccessRead)
	gc := testAccGrant(t, c.ID, ws.ID, tfe.AccessRead)
	d := testAccTeam(t, nil)
	var gd *tfe.TeamAccess
	const noRetry = "provider \"tfgov\" {\n  retry_max = 0\n}\n"
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: testAccExclusiveConfig(ws.ID, a.ID, b.ID, c.ID)},
			{
				PreConfig: func() {
					for _, f := range []sandbox.Fault{
						{Method: "DELETE", Path: "/api/v2/team-workspaces/" + gb.ID, Drop: true, Count: 1},
						{Method: "DELETE", Path: "/api/v2/team-workspaces/" + gc.ID, Status: 503, After: true, Count: 1},
					} {
						if err := sb.InjectFault(f); err != nil {
							t.Fatal(err)
						}
					}
				},
				Config: testAccExclusiveConfig(ws.ID, a.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error {
						return testAccGrantsAre(t, ws.ID, map[string]string{a.ID: ga.ID})
					}),
				},
			},
			// Refused, not processed, and not retried (retry_max = 0): the
			// apply fails naming the grant; the state keeps d, so the plan
			// shows it leaving again and the next apply removes it.
			{
				PreConfig: func() {
					gd = testAccGrant(t, d.ID, ws.ID, tfe.AccessWrite)
					if err := sb.InjectFault(sandbox.Fault{Method: "DELETE", Path: "/api/v2/team-workspaces/" + gd.ID, Status: 503, Count: 1}); err != nil {
						t.Fatal(err)
					}
				},
				Config:      noRetry + testAccExclusiveConfig(ws.ID, a.ID),
				ExpectError: wrappedRE(`Error removing team access.*team "[^"]+" \(` + d.ID + `\)`),
			},
			{
				Config: noRetry + testAccExclusiveConfig(ws.ID, a.ID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectTeamIDsLeave([]string{a.ID, d.ID}, []string{a.ID}),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					stateCheckFunc(func(context.Context, *tfjson.State) error {
						return testAccGrantsAre(t, ws.ID, map[string]string{a.ID: ga.ID})
					}),
				},
			},
		},
	})
}
