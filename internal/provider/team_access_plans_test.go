package provider

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestPlannedAccess: whichever of a grant and its parent's exclusive set
// plans second sees the other; another parent, or a kept team, is no
// conflict.
func TestPlannedAccess(t *testing.T) {
	t.Parallel()
	ws1, ws2 := accessParent{workspaceGrants, "ws-1"}, accessParent{workspaceGrants, "ws-2"}
	projects := &grantParentKind{noun: "project"}
	keep := map[string]bool{"team-b": true}
	for _, tc := range []struct {
		name         string
		grantFirst   bool
		grantParent  accessParent
		team         string
		wantConflict bool
	}{
		{"grant first, left out", true, ws1, "team-a", true},
		{"exclusive first, left out", false, ws1, "team-a", true},
		{"grant first, kept", true, ws1, "team-b", false},
		{"exclusive first, kept", false, ws1, "team-b", false},
		{"another workspace", true, ws2, "team-a", false},
		{"another workspace, exclusive first", false, ws2, "team-a", false},
		{"a project of the same ID", false, accessParent{projects, "ws-1"}, "team-a", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var p plannedAccess
			var got bool
			if tc.grantFirst {
				if p.planGrant(tc.grantParent, tc.team) {
					t.Fatal("a grant planned first conflicts with nothing")
				}
				got = slices.Contains(p.planExclusive(ws1, keep), tc.team)
			} else {
				if left := p.planExclusive(ws1, keep); len(left) > 0 {
					t.Fatalf("an exclusive set planned first conflicts with nothing, got %v", left)
				}
				got = p.planGrant(tc.grantParent, tc.team)
			}
			if got != tc.wantConflict {
				t.Errorf("conflict = %v, want %v", got, tc.wantConflict)
			}
		})
	}
}

// TestAccTeamAccess_exclusiveFlap: issue 55 row 3. A tfgov_team_access for
// a team that the workspace's tfgov_workspace_team_access_exclusive leaves
// out of team_ids would be added and removed on alternate applies; the
// plan fails naming both resources and the team, whichever Terraform plans
// first. A team_ids not known at plan is not refused, and declaring the
// grant's team plans.
func TestAccTeamAccess_exclusiveFlap(t *testing.T) {
	ws := testAccWorkspace(t)
	a, b := testAccTeam(t, nil), testAccTeam(t, nil)
	grants := fmt.Sprintf(`
resource "tfgov_team_access" "a" {
  team_id      = %[1]q
  workspace_id = %[3]q
  access       = "read"
}
resource "tfgov_team_access" "b" {
  team_id      = %[2]q
  workspace_id = %[3]q
  access       = "read"
}
`, a.ID, b.ID, ws.ID)
	flap := wrappedRE(`This configuration grants team "` + regexp.QuoteMeta(a.Name) + `" \(` + a.ID + `\) access to workspace "` +
		regexp.QuoteMeta(ws.Name) + `" \(` + ws.ID + `\) with tfgov_team_access,.*its tfgov_workspace_team_access_exclusive of that workspace.*leaves them out of team_ids.*` +
		`Each apply would undo the previous one`)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: grants + fmt.Sprintf(`
resource "tfgov_workspace_team_access_exclusive" "app" {
  workspace_id = %[1]q
  team_ids     = [%[2]q]
}
`, ws.ID, b.ID),
				PlanOnly:    true,
				ExpectError: flap,
			},
			{
				// Unknown at plan (terraform_data's output): decided at apply, not refused.
				Config: grants + fmt.Sprintf(`
resource "terraform_data" "teams" {
  input = [%[2]q]
}
resource "tfgov_workspace_team_access_exclusive" "app" {
  workspace_id = %[1]q
  team_ids     = terraform_data.teams.output
}
`, ws.ID, b.ID),
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			{
				Config: grants + fmt.Sprintf(`
resource "tfgov_workspace_team_access_exclusive" "app" {
  workspace_id = %[1]q
  team_ids     = [tfgov_team_access.a.team_id, tfgov_team_access.b.team_id]
}
`, ws.ID),
			},
		},
	})
}

// TestAccTeamAccess_planNames: issue 55 row 7. A new grant's plan names
// its team (team_name, from the organization's team list) and shows the
// permissions its fixed level implies; a level change plans the new
// level's permissions, not "(known after apply)"; a refresh keeps the name
// (include=team) and an import by ID names the team too.
func TestAccTeamAccess_planNames(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: testAccTeamAccessConfig(team.ID, ws.ID, "read", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("team_name"), knownvalue.StringExact(team.Name)),
					plancheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("permissions"), taRead.check()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("team_name"), knownvalue.StringExact(team.Name)),
				},
			},
			{
				Config: testAccTeamAccessConfig(team.ID, ws.ID, "write", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(teamAccessAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("team_name"), knownvalue.StringExact(team.Name)),
					plancheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("permissions"), taWrite.check()),
				}},
				ConfigStateChecks: testAccTeamAccessChecks(t, "write", taWrite),
			},
			{
				Config: testAccTeamAccessConfig(team.ID, ws.ID, "admin", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("permissions"), taAdmin.check()),
				}},
				ConfigStateChecks: testAccTeamAccessChecks(t, "admin", taAdmin),
			},
			{
				Config: testAccTeamAccessConfig(team.ID, ws.ID, "admin", ""), PlanOnly: true,
			},
			{ResourceName: teamAccessAddr, ImportState: true, ImportStateVerify: true},
		},
	})
}
