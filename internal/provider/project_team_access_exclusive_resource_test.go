package provider

import (
	"context"
	"fmt"
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
)

const projectExclusiveAddr = "tfgov_project_team_access_exclusive.test"

func testAccProjectExclusiveConfig(prjID string, teamIDs ...string) string {
	q := make([]string, len(teamIDs))
	for i, id := range teamIDs {
		q[i] = fmt.Sprintf("%q", id)
	}
	return fmt.Sprintf(`
resource "tfgov_project_team_access_exclusive" "test" {
  project_id = %q
  team_ids   = [%s]
}
`, prjID, strings.Join(q, ", "))
}

// testAccExclusiveProjectGrant gives team access to a project outside Terraform.
func testAccExclusiveProjectGrant(t *testing.T, teamID, prjID string, access tfe.TeamProjectAccessType) *tfe.TeamProjectAccess {
	t.Helper()
	g, err := testAccClient(t).TeamProjectAccess.Add(context.Background(), tfe.TeamProjectAccessAddOptions{
		Access: access, Team: &tfe.Team{ID: teamID}, Project: &tfe.Project{ID: prjID},
	})
	if err != nil {
		t.Fatalf("granting %s to %s: %v", teamID, prjID, err)
	}
	return g
}

// testAccProjectGrantsAre checks, through go-tfe, that the project's grants are exactly want
// (grant IDs by team ID: a grant kept keeps its ID).
func testAccProjectGrantsAre(t *testing.T, prjID string, want map[string]string) error {
	l, err := testAccClient(t).TeamProjectAccess.List(context.Background(), tfe.TeamProjectAccessListOptions{ProjectID: prjID})
	if err != nil {
		return err
	}
	got := map[string]string{}
	for _, g := range l.Items {
		got[g.Team.ID] = g.ID
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("project %s grants %v, want %v", prjID, got, want)
	}
	return nil
}

// expectProjectTeamIDsLeave checks that the plan updates team_ids from exactly before to after.
func expectProjectTeamIDsLeave(before, after []string) plancheck.PlanCheck {
	return planCheckFunc(func(_ context.Context, plan *tfjson.Plan) error {
		slices.Sort(before)
		slices.Sort(after)
		for _, rc := range plan.ResourceChanges {
			if rc.Address == projectExclusiveAddr {
				if b, a := teamIDsIn(rc.Change.Before), teamIDsIn(rc.Change.After); !slices.Equal(b, before) || !slices.Equal(a, after) {
					return fmt.Errorf("team_ids planned %v -> %v, want %v -> %v", b, a, before, after)
				}
				return nil
			}
		}
		return fmt.Errorf("%s not in the plan", projectExclusiveAddr)
	})
}

// TestAccProjectTeamAccessExclusive_basic: a project holds three grants and the configuration
// declares two: the create removes the third. Dropping a team plans it leaving team_ids and
// removes only its grant; a grant added outside Terraform (drift) is planned away and removed;
// import by project ID and by identity change nothing; destroy removes no access.
func TestAccProjectTeamAccessExclusive_basic(t *testing.T) {
	prj := testAccProjectNamed(t, testAccName("prj"))
	a, b, c, d := testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil)
	ga := testAccExclusiveProjectGrant(t, a.ID, prj.ID, tfe.TeamProjectAccessRead)
	gb := testAccExclusiveProjectGrant(t, b.ID, prj.ID, tfe.TeamProjectAccessWrite)
	testAccExclusiveProjectGrant(t, c.ID, prj.ID, tfe.TeamProjectAccessAdmin)
	grantsAre := func(want map[string]string) statecheck.StateCheck {
		return stateCheckFunc(func(context.Context, *tfjson.State) error { return testAccProjectGrantsAre(t, prj.ID, want) })
	}
	accParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return testAccProjectGrantsAre(t, prj.ID, map[string]string{a.ID: ga.ID}) // destroy removes nothing
		},
		Steps: []resource.TestStep{
			{
				Config:            testAccProjectExclusiveConfig(prj.ID, a.ID, b.ID),
				ConfigStateChecks: []statecheck.StateCheck{grantsAre(map[string]string{a.ID: ga.ID, b.ID: gb.ID})},
			},
			{
				Config: testAccProjectExclusiveConfig(prj.ID, a.ID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(projectExclusiveAddr, plancheck.ResourceActionUpdate),
					expectProjectTeamIDsLeave([]string{a.ID, b.ID}, []string{a.ID}),
					plancheck.ExpectKnownValue(projectExclusiveAddr, tfjsonpath.New("removed_grant_ids"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(gb.ID)})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{grantsAre(map[string]string{a.ID: ga.ID})},
			},
			{
				PreConfig: func() { testAccExclusiveProjectGrant(t, d.ID, prj.ID, tfe.TeamProjectAccessMaintain) },
				Config:    testAccProjectExclusiveConfig(prj.ID, a.ID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectProjectTeamIDsLeave([]string{a.ID, d.ID}, []string{a.ID}),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					grantsAre(map[string]string{a.ID: ga.ID}),
					statecheck.ExpectKnownValue(projectExclusiveAddr, tfjsonpath.New("team_ids"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(a.ID)})),
				},
			},
			{
				ResourceName: projectExclusiveAddr, ImportState: true, ImportStateVerify: true,
				ImportStateId: prj.ID, ImportStateVerifyIdentifierAttribute: "project_id",
				ImportStateVerifyIgnore: []string{"removed_team_ids", "removed_grant_ids"},
			},
		},
	})
	// A grant its project's exclusive set leaves out would flap: refused at plan, naming both.
	testAccExpectErrors(t, map[string]testAccErrorCase{
		"grant left out": {
			testAccProjectExclusiveConfig(prj.ID, a.ID) + fmt.Sprintf(`
resource "tfgov_team_project_access" "d" {
  project_id = %q
  team_id    = %q
  access     = "read"
}
`, prj.ID, d.ID),
			"Team project access and exclusive team access disagree",
		},
	})
	t.Run("identity", func(t *testing.T) {
		accParallelTest(t, resource.TestCase{
			TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
			Steps: []resource.TestStep{
				{Config: testAccProjectExclusiveConfig(prj.ID, a.ID), ConfigStateChecks: identityChecks("project_team_access_exclusive", projectExclusiveAddr)},
				{
					ResourceName: projectExclusiveAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
					ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(projectExclusiveAddr, plancheck.ResourceActionNoop)}},
				},
			},
		})
	})
}

// TestAccProjectTeamAccessExclusive_savedPlan: the workspace form's guarantee on a project. A
// saved plan removing b's grant is applied after b's grant was removed and made again (a new
// ID): the apply removes only what the plan saw, so the new grant stays and the next plan shows
// b leaving, naming b and the project by name; the next apply removes it and the plan is empty.
func TestAccProjectTeamAccessExclusive_savedPlan(t *testing.T) {
	prj := testAccProjectNamed(t, testAccName("prj"))
	a, b := testAccTeam(t, nil), testAccTeam(t, nil)
	ga := testAccExclusiveProjectGrant(t, a.ID, prj.ID, tfe.TeamProjectAccessRead)
	gb := testAccExclusiveProjectGrant(t, b.ID, prj.ID, tfe.TeamProjectAccessWrite)
	dir := newCLIDir(t, testAccProjectExclusiveConfig(prj.ID, a.ID, b.ID))
	grants := func(want map[string]string) {
		t.Helper()
		if err := testAccProjectGrantsAre(t, prj.ID, want); err != nil {
			t.Error(err)
		}
	}
	folded := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	dir.must("apply", "-auto-approve")
	dir.emptyPlan()

	dir.write("main.tf", requiredProvidersShim+testAccProjectExclusiveConfig(prj.ID, a.ID))
	out := folded(dir.must("plan", "-out=tfplan"))
	for _, want := range []string{
		"Team access will be removed", fmt.Sprintf("that leave team_ids from project %q (%s)", prj.Name, prj.ID),
		fmt.Sprintf("team %q (%s): write access (%s)", b.Name, b.ID, gb.ID), fmt.Sprintf(`- "%s"`, b.ID),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	if err := testAccClient(t).TeamProjectAccess.Remove(context.Background(), gb.ID); err != nil {
		t.Fatal(err)
	}
	gb2 := testAccExclusiveProjectGrant(t, b.ID, prj.ID, tfe.TeamProjectAccessRead)
	dir.must("apply", "tfplan")
	grants(map[string]string{a.ID: ga.ID, b.ID: gb2.ID}) // the grant made after the plan stays
	out = folded(dir.must("plan"))
	if !strings.Contains(out, fmt.Sprintf(`- "%s"`, b.ID)) || !strings.Contains(out, gb2.ID) {
		t.Errorf("the next plan does not show b's new grant %s leaving:\n%s", gb2.ID, out)
	}
	dir.must("apply", "-auto-approve")
	grants(map[string]string{a.ID: ga.ID})
	dir.emptyPlan()
}

// TestAccProjectTeamAccessExclusive_lockOut: a member who administers the project only through
// team adm's admin grant may not remove it: the plan fails naming the project and the team; with
// adm kept, another team's grant goes. Needs a user token of a member (the sandbox's admin token).
func TestAccProjectTeamAccessExclusive_lockOut(t *testing.T) {
	prj := testAccProjectNamed(t, testAccName("prj"))
	adm, other := testAccTeam(t, nil), testAccTeam(t, nil)
	admGrant := testAccExclusiveProjectGrant(t, adm.ID, prj.ID, tfe.TeamProjectAccessAdmin)
	testAccExclusiveProjectGrant(t, other.ID, prj.ID, tfe.TeamProjectAccessRead)
	provider, _ := testAccMemberToken(t, adm)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: provider + testAccProjectExclusiveConfig(prj.ID, other.ID),
				ExpectError: matchWrapped("lock the API token out of the project",
					fmt.Sprintf("administers project %q (%s) only through team %q (%s)", prj.Name, prj.ID, adm.Name, adm.ID)),
			},
			{
				Config: provider + testAccProjectExclusiveConfig(prj.ID, adm.ID),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(context.Context, *tfjson.State) error {
					return testAccProjectGrantsAre(t, prj.ID, map[string]string{adm.ID: admGrant.ID})
				})},
			},
		},
	})
}

// TestAccProjectTeamAccessExclusive_lockDown is issue 58's "done when": a configuration that
// locks a workspace down while a team holds access to its project plans a warning naming that
// team and the project, and the team still reaches the workspace; once the project's team
// access is managed exclusively too (its grant removed), the plan is clean and the team's token
// may neither run nor read state there: no route in.
func TestAccProjectTeamAccessExclusive_lockDown(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	prj := testAccProjectNamed(t, testAccName("prj"))
	ws, err := c.Workspaces.Create(ctx, testAccOrganization(), tfe.WorkspaceCreateOptions{Name: tfe.String(testAccName("ws")), Project: &tfe.Project{ID: prj.ID}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cleanupErr(t, "workspace "+ws.ID, c.Workspaces.DeleteByID(context.Background(), ws.ID)) })
	contractors := testAccTeam(t, nil)
	testAccExclusiveProjectGrant(t, contractors.ID, prj.ID, tfe.TeamProjectAccessWrite)
	teamClient, err := tfe.NewClient(&tfe.Config{Address: c.BaseURL().Scheme + "://" + c.BaseURL().Host, Token: testAccTeamToken(t, contractors.ID)})
	if err != nil {
		t.Fatal(err)
	}
	// A route in: the team token's permissions on the workspace (any member may find it).
	reaches := func() bool {
		t.Helper()
		w, err := teamClient.Workspaces.ReadByID(ctx, ws.ID)
		if err != nil && !isNotFound(err) {
			t.Fatal(err)
		}
		return err == nil && w.Permissions != nil && (w.Permissions.CanQueueRun || w.Permissions.CanReadStateVersions)
	}
	folded := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	workspace := fmt.Sprintf(`
resource "tfgov_workspace_team_access_exclusive" "locked" {
  workspace_id = %q
  team_ids     = []
}
`, ws.ID)
	dir := newCLIDir(t, workspace)
	out := folded(dir.must("apply", "-auto-approve"))
	for _, want := range []string{"Teams reach the workspace through its project",
		fmt.Sprintf("hold access to project %q (%s), which holds workspace %q (%s)", prj.Name, prj.ID, ws.Name, ws.ID),
		fmt.Sprintf("team %q (%s)", contractors.Name, contractors.ID)} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not warn %q:\n%s", want, out)
		}
	}
	if got := dir.stateAttr("tfgov_workspace_team_access_exclusive.locked", "project_team_ids"); fmt.Sprint(got) != fmt.Sprint([]any{contractors.ID}) {
		t.Errorf("project_team_ids = %v, want [%s]", got, contractors.ID)
	}
	if !reaches() {
		t.Fatalf("team %s does not reach workspace %s through its project before the lock-down", contractors.ID, ws.ID)
	}
	dir.write("main.tf", requiredProvidersShim+workspace+testAccProjectExclusiveConfig(prj.ID))
	dir.must("apply", "-auto-approve")
	out = dir.must("plan", "-detailed-exitcode")
	if !strings.Contains(out, "No changes") || strings.Contains(out, "Warning: Teams reach") {
		t.Errorf("the plan after the project's lock-down is not clean:\n%s", out)
	}
	if reaches() {
		t.Errorf("team %s still reaches workspace %s after its project grant was removed", contractors.ID, ws.ID)
	}
}
