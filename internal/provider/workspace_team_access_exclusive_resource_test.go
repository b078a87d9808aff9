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
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
			b, a := teamIDsIn(rc.Change.Before), teamIDsIn(rc.Change.After)
			if !slices.Equal(b, before) || !slices.Equal(a, after) {
				return fmt.Errorf("team_ids planned %v -> %v, want %v -> %v", b, a, before, after)
			}
			return nil
		}
		return fmt.Errorf("%s not in the plan", exclusiveAddr)
	})
}

func teamIDsIn(v any) []string {
	m, _ := v.(map[string]any)
	l, _ := m["team_ids"].([]any)
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

// TestAccWorkspaceTeamAccessExclusive_gone: a workspace
// that answers 404 was deleted, or the token belongs to no team of its
// organization. A team token names no user whose teams would say that it
// sees every workspace, so the refresh of the exclusive access, and of a
// grant on it, fails and says how to forget them if it was deleted.
// Neither leaves state. (An owner's token: TestAccTeamAccess_workspaceDeleted.)
func TestAccWorkspaceTeamAccessExclusive_gone(t *testing.T) {
	ws := testAccWorkspace(t)
	a := testAccTeam(t, nil)
	reader := testAccTeam(t, &tfe.OrganizationAccessOptions{ManageWorkspaces: tfe.Bool(true)})
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
				Config: testAccTeamTokenProvider(t, reader) + config, PlanOnly: true,
				ExpectError: eitherOrder(
					regexp.QuoteMeta("The exclusive team access of workspace "+ws.ID+" ")+missing,
					`Team access tws-\S+ \(team `+a.ID+`\) `+missing),
			},
			// A destroy cannot tell the workspace's deletion from a token outside its organization
			// either: the user forgets the objects, as the error advises.
			{Config: `
removed {
  from = tfgov_workspace_team_access_exclusive.test
  lifecycle { destroy = false }
}
removed {
  from = tfgov_team_access.test
  lifecycle { destroy = false }
}
`},
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

// memPrivate is private state in memory, for the record's round trip.
type memPrivate map[string][]byte

func (m memPrivate) GetKey(_ context.Context, k string) ([]byte, diag.Diagnostics) { return m[k], nil }

func (m memPrivate) SetKey(_ context.Context, k string, v []byte) diag.Diagnostics {
	m[k] = v
	return nil
}

// TestExclusiveRemovesWhatTheRefreshSaw: an update
// removes the grants its refresh recorded of the teams leaving team_ids;
// a team that held nothing then, or a grant made since, is left alone.
// Without a record (a state no refresh of this version wrote) every
// leaving team's grant goes, as before.
func TestExclusiveRemovesWhatTheRefreshSaw(t *testing.T) {
	ctx := context.Background()
	grant := func(id, team string) *exclusiveGrant { return &exclusiveGrant{ID: id, TeamID: team} }
	saw := &exclusiveGrants{grants: []*exclusiveGrant{grant("tws-a1", "team-a"), grant("tws-k1", "team-k")}}
	p := memPrivate{}
	var diags diag.Diagnostics
	writeGrantRecord(ctx, p, "tws-", grantRecordOf(saw), &diags)
	seen := readGrantRecord(ctx, p, "tws-", &diags)
	if diags.HasError() || len(seen) != 2 || seen["team-a"] != "tws-a1" || seen["team-k"] != "tws-k1" {
		t.Fatalf("record round trip: %v %v (stored %s)", seen, diags, p[grantRecordKey])
	}
	// At apply: a's grant, e's new grant and k's.
	now := &exclusiveGrants{grants: []*exclusiveGrant{grant("tws-a1", "team-a"), grant("tws-e1", "team-e"), grant("tws-k1", "team-k")}}
	prior := map[string]bool{"team-a": true, "team-e": true, "team-k": true}
	keep := map[string]bool{"team-k": true}
	tests := map[string]struct {
		seen        grantRecord
		wantTeams   []string
		wantRemoved []string
	}{
		"recorded":        {seen, []string{"team-a"}, []string{"tws-a1"}},
		"replaced grant":  {grantRecord{"team-a": "tws-a0", "team-k": "tws-k1"}, []string{"team-a"}, nil},
		"no record (old)": {nil, []string{"team-a", "team-e"}, []string{"tws-a1", "tws-e1"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			teams := removedTeams(nil, keep, prior, tc.seen)
			var gotTeams, gotRemoved []string
			for id := range teams {
				gotTeams = append(gotTeams, id)
			}
			for _, g := range revocations(now, keep, teams, tc.seen) {
				gotRemoved = append(gotRemoved, g.ID)
			}
			slices.Sort(gotTeams)
			if !slices.Equal(gotTeams, tc.wantTeams) || !slices.Equal(gotRemoved, tc.wantRemoved) {
				t.Errorf("removed_team_ids %v and grants %v, want %v and %v", gotTeams, gotRemoved, tc.wantTeams, tc.wantRemoved)
			}
		})
	}
}

// TestAccWorkspaceTeamAccessExclusive_createCannotSee: a
// new exclusive access planned with a token that sees only its own team's
// grant fails, rather than plan to remove nothing.
func TestAccWorkspaceTeamAccessExclusive_createCannotSee(t *testing.T) {
	ws := testAccWorkspace(t)
	mine, other := testAccTeam(t, nil), testAccTeam(t, nil)
	testAccGrant(t, mine.ID, ws.ID, tfe.AccessRead)
	testAccGrant(t, other.ID, ws.ID, tfe.AccessWrite)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: testAccTeamTokenProvider(t, mine) + testAccExclusiveConfig(ws.ID, mine.ID), PlanOnly: true,
			ExpectError: matchWrapped("Cannot plan exclusive team access", fmt.Sprintf("workspace %s (%q) exists, but the API token may not see every team's access to it", ws.ID, ws.Name)),
		}},
	})
}

// TestAccWorkspaceTeamAccessExclusive_savedPlan: the
// plan records the teams whose access it removes (removed_team_ids, shown
// by `terraform show` of a saved plan) and the apply removes exactly
// those, for a new resource as for an update.
//
//   - A new resource, planned with `plan -out` while team b holds an
//     undeclared grant; then someone grants team c access; the saved plan
//     is applied: nothing the plan did not show is removed. (Terraform
//     plans a new resource again at apply and the provider cannot see the
//     saved plan, so the apply stops on the changed set before removing
//     anything; see removed_team_ids.) The next plan shows b and c leaving,
//     each by name and ID; b's grant revoked and made again after that
//     plan (the same teams leave) stops its saved apply too; an apply
//     removes both.
//   - An update dropping teams a and e (e holds nothing), planned with
//     `plan -out`; then someone grants teams d and e access; the saved
//     plan is applied: a's grant goes, d's and e's stay (the apply
//     removes only the grants the plan saw), and the next plan
//     shows d and e leaving.
func TestAccWorkspaceTeamAccessExclusive_savedPlan(t *testing.T) {
	ws := testAccWorkspace(t)
	a, b, c, d, e := testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil)
	ga := testAccGrant(t, a.ID, ws.ID, tfe.AccessRead)
	gb := testAccGrant(t, b.ID, ws.ID, tfe.AccessWrite)
	dir := newCLIDir(t, testAccExclusiveConfig(ws.ID, a.ID, e.ID))
	grants := func(want map[string]string) {
		t.Helper()
		if err := testAccGrantsAre(t, ws.ID, want); err != nil {
			t.Error(err)
		}
	}
	folded := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	// A new resource: the saved plan shows b in removed_team_ids.
	dir.must("plan", "-out=tfplan")
	if show := folded(dir.must("show", "tfplan")); !strings.Contains(show, fmt.Sprintf(`removed_team_ids = [ + "%s", ]`, b.ID)) {
		t.Errorf("the saved plan does not show removed_team_ids = [%s]:\n%s", b.ID, show)
	}
	gc := testAccGrant(t, c.ID, ws.ID, tfe.AccessPlan)
	out, err := runTerraform(t, dir.dir, "apply", "-no-color", "tfplan")
	if err == nil {
		t.Fatalf("the saved plan applied though the workspace's grants changed since:\n%s", out)
	}
	if !strings.Contains(folded(out), "removed_team_ids") || !strings.Contains(folded(out), "before anything is removed; plan again") {
		t.Errorf("the refused apply does not name removed_team_ids and say why:\n%s", out)
	}
	grants(map[string]string{a.ID: ga.ID, b.ID: gb.ID, c.ID: gc.ID})
	out = folded(dir.must("plan", "-out=tfplan"))
	for _, want := range []string{fmt.Sprintf("team %q (%s): write access (%s)", b.Name, b.ID, gb.ID), fmt.Sprintf("team %q (%s): plan access (%s)", c.Name, c.ID, gc.ID)} {
		if !strings.Contains(out, want) {
			t.Errorf("the next plan does not warn with %q:\n%s", want, out)
		}
	}
	// b's grant revoked and made again after this plan: the same teams leave, but the new grant
	// is not the one the plan saw, and the apply stops before removing anything.
	if err := testAccClient(t).TeamAccess.Remove(context.Background(), gb.ID); err != nil {
		t.Fatal(err)
	}
	gb = testAccGrant(t, b.ID, ws.ID, tfe.AccessRead)
	out, err = runTerraform(t, dir.dir, "apply", "-no-color", "tfplan")
	if err == nil || !strings.Contains(folded(out), "removed_grant_ids") {
		t.Fatalf("the saved plan applied, or failed not naming removed_grant_ids, though b's grant was made again since (%v):\n%s", err, out)
	}
	grants(map[string]string{a.ID: ga.ID, b.ID: gb.ID, c.ID: gc.ID})
	dir.must("apply", "-auto-approve")
	grants(map[string]string{a.ID: ga.ID})
	dir.emptyPlan()

	// An update: a and e leave team_ids; d and e are granted access after
	// the plan.
	dir.write("main.tf", requiredProvidersShim+testAccExclusiveConfig(ws.ID))
	dir.must("plan", "-out=tfplan")
	if show := folded(dir.must("show", "tfplan")); !strings.Contains(show, fmt.Sprintf(`~ removed_team_ids = [ + "%s", ]`, a.ID)) {
		t.Errorf("the saved plan does not show removed_team_ids = [%s]:\n%s", a.ID, show)
	}
	gd := testAccGrant(t, d.ID, ws.ID, tfe.AccessRead)
	ge := testAccGrant(t, e.ID, ws.ID, tfe.AccessRead)
	dir.must("apply", "tfplan")
	grants(map[string]string{d.ID: gd.ID, e.ID: ge.ID})
	show := folded(dir.must("plan"))
	for _, id := range []string{d.ID, e.ID} {
		if !strings.Contains(show, fmt.Sprintf(`- "%s",`, id)) || !strings.Contains(show, fmt.Sprintf(`+ "%s",`, id)) {
			t.Errorf("the next plan does not show %s leaving team_ids (and in removed_team_ids):\n%s", id, show)
		}
	}
	dir.must("apply", "-auto-approve")
	grants(map[string]string{})
	dir.emptyPlan()
}

// testAccMemberToken makes a member of the organization in teams and
// returns a provider block with a user token of theirs, and the
// membership's ID. Only the sandbox's admin token can make another user's
// token.
func testAccMemberToken(t *testing.T, teams ...*tfe.Team) (provider, membershipID string) {
	t.Helper()
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("making a member's user token needs the sandbox's admin token")
	}
	ctx := context.Background()
	c := testAccClient(t)
	m, err := c.OrganizationMemberships.Create(ctx, testAccOrganization(), tfe.OrganizationMembershipCreateOptions{Email: tfe.String(testAccName("member") + "@example.invalid")})
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range teams {
		if err := c.TeamMembers.Add(ctx, tm.ID, tfe.TeamMemberAddOptions{OrganizationMembershipIDs: []string{m.ID}}); err != nil {
			t.Fatal(err)
		}
	}
	admin, err := tfe.NewClient(&tfe.Config{Address: c.BaseURL().Scheme + "://" + c.BaseURL().Host, Token: sb.AdminToken()})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := admin.UserTokens.Create(ctx, m.User.ID, tfe.UserTokenCreateOptions{Description: "lock-out test"})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("provider \"tfgov\" {\n  token = %q\n}\n", tok.Token), m.ID
}

// TestAccWorkspaceTeamAccessExclusive_lockOutExemptions: the
// lock-out guard refuses only a removal after which the token's user no
// longer administers the workspace. A member of two teams with admin
// access may lose one of them; a member of a team that may manage all
// workspaces may lose their only admin grant. Each removal is applied.
func TestAccWorkspaceTeamAccessExclusive_lockOutExemptions(t *testing.T) {
	t.Run("admin through a second team", func(t *testing.T) {
		ws := testAccWorkspace(t)
		adm1, adm2 := testAccTeam(t, nil), testAccTeam(t, nil)
		testAccGrant(t, adm1.ID, ws.ID, tfe.AccessAdmin)
		g2 := testAccGrant(t, adm2.ID, ws.ID, tfe.AccessAdmin)
		provider, _ := testAccMemberToken(t, adm1, adm2)
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{
				{
					Config: provider + testAccExclusiveConfig(ws.ID, adm2.ID),
					ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(context.Context, *tfjson.State) error {
						return testAccGrantsAre(t, ws.ID, map[string]string{adm2.ID: g2.ID})
					})},
				},
				// Dropping the last one is refused, naming it.
				{
					Config:      provider + testAccExclusiveConfig(ws.ID),
					ExpectError: wrappedRE(`lock the API token out.*` + regexp.QuoteMeta(fmt.Sprintf("%q", adm2.Name)) + `\s+\(` + adm2.ID + `\)`),
				},
			},
		})
	})
	t.Run("a team that manages all workspaces", func(t *testing.T) {
		ws := testAccWorkspace(t)
		adm := testAccTeam(t, nil)
		managers := testAccTeam(t, &tfe.OrganizationAccessOptions{ManageWorkspaces: tfe.Bool(true)})
		testAccGrant(t, adm.ID, ws.ID, tfe.AccessAdmin)
		provider, _ := testAccMemberToken(t, adm, managers)
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config: provider + testAccExclusiveConfig(ws.ID),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(context.Context, *tfjson.State) error {
					return testAccGrantsAre(t, ws.ID, map[string]string{})
				})},
			}},
		})
	})
}

// TestAccWorkspaceTeamAccessExclusive_lockOutAtApply: the lock-out guard
// runs again when a saved plan is applied: planned while the member holds
// admin access through a second team, applied after they left it, the
// removal is refused and nothing is removed.
func TestAccWorkspaceTeamAccessExclusive_lockOutAtApply(t *testing.T) {
	ws := testAccWorkspace(t)
	adm1, adm2 := testAccTeam(t, nil), testAccTeam(t, nil)
	g1 := testAccGrant(t, adm1.ID, ws.ID, tfe.AccessAdmin)
	g2 := testAccGrant(t, adm2.ID, ws.ID, tfe.AccessAdmin)
	provider, member := testAccMemberToken(t, adm1, adm2)
	dir := newCLIDir(t, provider+testAccExclusiveConfig(ws.ID, adm1.ID, adm2.ID))
	dir.must("apply", "-auto-approve")
	dir.write("main.tf", requiredProvidersShim+provider+testAccExclusiveConfig(ws.ID, adm2.ID))
	dir.must("plan", "-out=tfplan")
	// The member leaves adm2 (the team of the grant the plan keeps).
	ctx := context.Background()
	c := testAccClient(t)
	if err := c.TeamMembers.Remove(ctx, adm2.ID, tfe.TeamMemberRemoveOptions{OrganizationMembershipIDs: []string{member}}); err != nil {
		t.Fatal(err)
	}
	out, err := runTerraform(t, dir.dir, "apply", "-no-color", "tfplan")
	if err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), "lock the API token out") {
		t.Errorf("the saved plan applied after the member lost their other admin team: %v\n%s", err, out)
	}
	if err := testAccGrantsAre(t, ws.ID, map[string]string{adm1.ID: g1.ID, adm2.ID: g2.ID}); err != nil {
		t.Error(err)
	}
	// Back in adm2 for the cleanup's destroy (which removes no access).
	if err := c.TeamMembers.Add(ctx, adm2.ID, tfe.TeamMemberAddOptions{OrganizationMembershipIDs: []string{member}}); err != nil {
		t.Fatal(err)
	}
}

// TestAccWorkspaceTeamAccessExclusive_projectCannotTell: a token that administers the workspace
// (a workspace admin grant) but may not see every grant of its project cannot tell which teams
// reach the workspace through the project: project_team_ids is null, never an empty set.
func TestAccWorkspaceTeamAccessExclusive_projectCannotTell(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	prj := testAccProjectNamed(t, testAccName("prj"))
	ws, err := c.Workspaces.Create(ctx, testAccOrganization(), tfe.WorkspaceCreateOptions{Name: tfe.String(testAccName("ws")), Project: &tfe.Project{ID: prj.ID}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cleanupErr(t, "workspace "+ws.ID, c.Workspaces.DeleteByID(context.Background(), ws.ID)) })
	adm, other := testAccTeam(t, nil), testAccTeam(t, nil)
	testAccGrant(t, adm.ID, ws.ID, tfe.AccessAdmin)
	testAccExclusiveProjectGrant(t, other.ID, prj.ID, tfe.TeamProjectAccessRead)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: testAccTeamTokenProvider(t, adm) + testAccExclusiveConfig(ws.ID, adm.ID),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(exclusiveAddr, tfjsonpath.New("project_team_ids"), knownvalue.Null()),
			},
		}},
	})
}
