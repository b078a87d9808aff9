package provider

import (
	"context"
	"fmt"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccTeamAccessDataSources reads a workspace with several teams' grants
// (a fixed level, a custom grant, a secret team's grant) made outside
// Terraform, through both data sources, and one grant made by a resource in
// the same configuration.
func TestAccTeamAccessDataSources(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	ws := testAccWorkspace(t)
	empty := testAccWorkspace(t)
	readers, deployers, managed := testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil)
	// A secret team with organization-level access of its own: the owner
	// sees its grant and its name.
	auditors := testAccTeam(t, &tfe.OrganizationAccessOptions{ReadWorkspaces: tfe.Bool(true)})
	if _, err := c.Teams.Update(ctx, auditors.ID, tfe.TeamUpdateOptions{Visibility: tfe.String("secret")}); err != nil {
		t.Fatal(err)
	}
	add := func(tm *tfe.Team, opts tfe.TeamAccessAddOptions) *tfe.TeamAccess {
		opts.Team, opts.Workspace = tm, ws
		ta, err := c.TeamAccess.Add(ctx, opts)
		if err != nil {
			t.Fatalf("granting %s: %v", tm.Name, err)
		}
		return ta
	}
	readGrant := add(readers, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead)})
	deployGrant := add(deployers, tfe.TeamAccessAddOptions{
		Access: tfe.Access(tfe.AccessCustom), Runs: tfe.RunsPermission(tfe.RunsPermissionApply),
		StateVersions: tfe.StateVersionsPermission(tfe.StateVersionsPermissionReadOutputs), WorkspaceLocking: tfe.Bool(true),
	})
	auditGrant := add(auditors, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessPlan)})

	config := fmt.Sprintf(`
resource "tfgov_team_access" "managed" {
  team_id      = %[4]q
  workspace_id = %[1]q
  access       = "admin"
}

data "tfgov_team_access" "deployers" {
  team_id      = %[2]q
  workspace_id = %[1]q
}

data "tfgov_team_access" "managed" {
  team_id      = tfgov_team_access.managed.team_id
  workspace_id = tfgov_team_access.managed.workspace_id
}

data "tfgov_workspace_team_access" "all" {
  workspace_id = %[1]q
  depends_on   = [tfgov_team_access.managed]
}

data "tfgov_workspace_team_access" "empty" {
  workspace_id = %[3]q
}
`, ws.ID, deployers.ID, empty.ID, managed.ID)

	entry := func(id, teamID, teamName, access string, p taPerms) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id":          knownvalue.StringExact(id),
			"team_id":     knownvalue.StringExact(teamID),
			"team_name":   knownvalue.StringExact(teamName),
			"access":      knownvalue.StringExact(access),
			"permissions": p.check(),
		})
	}
	deployPerms := taPerms{"apply", "none", "read-outputs", "none", true, false, false}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_team_access.deployers", tfjsonpath.New("id"), knownvalue.StringExact(deployGrant.ID)),
				statecheck.ExpectKnownValue("data.tfgov_team_access.deployers", tfjsonpath.New("access"), knownvalue.StringExact("custom")),
				statecheck.ExpectKnownValue("data.tfgov_team_access.deployers", tfjsonpath.New("team_name"), knownvalue.StringExact(deployers.Name)),
				statecheck.ExpectKnownValue("data.tfgov_team_access.managed", tfjsonpath.New("team_name"), knownvalue.StringExact(managed.Name)),
				statecheck.ExpectKnownValue("data.tfgov_team_access.deployers", tfjsonpath.New("permissions"), deployPerms.check()),
				statecheck.CompareValuePairs("data.tfgov_team_access.managed", tfjsonpath.New("id"), "tfgov_team_access.managed", tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue("data.tfgov_team_access.managed", tfjsonpath.New("access"), knownvalue.StringExact("admin")),
				statecheck.ExpectKnownValue("data.tfgov_team_access.managed", tfjsonpath.New("permissions"), taAdmin.check()),
				statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.all", tfjsonpath.New("id"), knownvalue.StringExact(ws.ID)),
				statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.all", tfjsonpath.New("team_access"), knownvalue.ListPartial(map[int]knownvalue.Check{
					0: entry(readGrant.ID, readers.ID, readers.Name, "read", taRead),
					1: entry(deployGrant.ID, deployers.ID, deployers.Name, "custom", deployPerms),
					2: entry(auditGrant.ID, auditors.ID, auditors.Name, "plan", taPlan),
				})),
				statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.all", tfjsonpath.New("team_access"), knownvalue.ListSizeExact(4)),
				statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.all", tfjsonpath.New("team_access").AtSliceIndex(3).AtMapKey("team_name"), knownvalue.StringExact(managed.Name)),
				statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.empty", tfjsonpath.New("team_access"), knownvalue.ListExact([]knownvalue.Check{})),
			},
		}},
	})
}

// TestAccTeamAccessDataSource_notFound: a team without access, and a
// missing workspace, are errors that say so; for a token that sees every
// grant of the workspace (the owner's), the team has no access, not "or
// the token may not see it".
//
// A token of a team with read access sees
// only its own team's grant: for another team it is "no access that the
// API token may see", from the workspace's can-update, never "has no
// access".
func TestAccTeamAccessDataSource_notFound(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	reader := testAccTeam(t, nil)
	testAccGrant(t, reader.ID, ws.ID, tfe.AccessRead)
	limited := testAccTeamTokenProvider(t, reader)
	lookup := fmt.Sprintf("data \"tfgov_team_access\" \"x\" {\n  team_id = %q\n  workspace_id = %q\n}\n", team.ID, ws.ID)
	tests := map[string]struct{ config, want string }{
		"no access": {
			lookup,
			"Team " + team.ID + " has no access to workspace " + ws.ID + ` ("` + ws.Name + `"): the API token sees every grant of the workspace, and none is the team's.`,
		},
		"no access the token may see": {
			limited + lookup,
			"Team " + team.ID + " has no access to workspace " + ws.ID + ` that the API token may see: without ` + permTeamAccess + `, a token sees only the access of its own teams.`,
		},
		"missing workspace": {
			fmt.Sprintf("data \"tfgov_team_access\" \"x\" {\n  team_id = %q\n  workspace_id = \"ws-doesnotexist0001\"\n}\n", team.ID),
			"Workspace ws-doesnotexist0001 was not found",
		},
		"missing workspace (list)": {
			"data \"tfgov_workspace_team_access\" \"x\" {\n  workspace_id = \"ws-doesnotexist0001\"\n}\n",
			"Workspace ws-doesnotexist0001 was not found",
		},
		"bad workspace id": {
			"data \"tfgov_workspace_team_access\" \"x\" {\n  workspace_id = \"team-abc\"\n}\n",
			"must be an ID of the form ws-<id>",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{Config: tc.config, ExpectError: matchWrapped(tc.want)}},
			})
		})
	}
}

// TestAccWorkspaceTeamAccessDataSource_withoutInclude: against a server
// that ignores `include`, the team names come from the organization's team
// list (one request), never from a read per team; likewise for
// tfgov_team_access.
func TestAccWorkspaceTeamAccessDataSource_withoutInclude(t *testing.T) {
	if testAccSandbox() == nil {
		t.Skip("the proxy fronts the in-process sandbox")
	}
	ws := testAccWorkspace(t)
	a, b := testAccTeam(t, nil), testAccTeam(t, nil)
	for _, tm := range []*tfe.Team{a, b} {
		if _, err := testAccClient(t).TeamAccess.Add(context.Background(), tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessWrite), Team: tm, Workspace: ws}); err != nil {
			t.Fatal(err)
		}
	}
	proxyURL := testAccTeamAccessProxy(t, func(doc map[string]any) { delete(doc, "included") })
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "tfgov" {
  address = %[1]q
}

data "tfgov_workspace_team_access" "all" {
  workspace_id = %[2]q
}

data "tfgov_team_access" "b" {
  team_id      = %[3]q
  workspace_id = %[2]q
}
`, proxyURL, ws.ID, b.ID),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_team_access.b", tfjsonpath.New("team_name"), knownvalue.StringExact(b.Name)),
				stateCheckFunc(func(context.Context, *tfjson.State) error {
					for _, tm := range []*tfe.Team{a, b} {
						if n := testAccSandbox().RequestsTo("GET", "/api/v2/teams/"+tm.ID); n != 0 {
							return fmt.Errorf("team %s was read %d times, want 0 (its name comes from the team list)", tm.ID, n)
						}
					}
					return nil
				}),
				statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.all", tfjsonpath.New("team_access").AtSliceIndex(0).AtMapKey("team_name"), knownvalue.StringExact(a.Name)),
				statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.all", tfjsonpath.New("team_access").AtSliceIndex(1).AtMapKey("team_name"), knownvalue.StringExact(b.Name)),
			},
		}},
	})
}
