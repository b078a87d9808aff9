package provider

import (
	"context"
	"fmt"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccErrorsSayWhich: where the API's 404 means "missing" and "not
// allowed" alike, the error says which, naming the permission: with the
// token of a team without organization permissions, the organization's
// policies, an agent pool's tokens, a workspace's team access and a
// module's tests exist but may not be managed; with the owner's token, a typo in a team ID or a
// workspace ID names what is missing. Runs against a live organization
// too (team tokens through go-tfe).
func TestAccErrorsSayWhich(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	org := testAccOrganization()
	pool := testAccAgentPool(t)
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	mod := testAccModule(t)
	limited := testAccTeamTokenProvider(t, team)
	access := func(teamID, wsID string) string {
		return fmt.Sprintf("resource \"tfgov_team_access\" \"test\" {\n  team_id      = %q\n  workspace_id = %q\n  access       = \"read\"\n}\n", teamID, wsID)
	}
	tests := map[string]struct{ config, want string }{
		"policies without the permission": {limited + `data "tfgov_policies" "test" {}`,
			fmt.Sprintf(`Organization %s exists, but the API token may not manage its policies: it needs the organization's "Manage policies" permission`, org)},
		"agent tokens without the permission": {limited + fmt.Sprintf("data \"tfgov_agent_tokens\" \"test\" {\n  agent_pool_id = %q\n}\n", pool.ID),
			fmt.Sprintf(`Agent pool %s (%q) exists, but the API token may not manage its tokens: it needs the organization's "Manage agent pools" permission`, pool.ID, pool.Name)},
		"team access without the permission": {limited + access(team.ID, ws.ID),
			fmt.Sprintf(`Workspace %s (%q) exists, but the API token may not manage its team access: it needs admin access to the workspace, or the organization's "Manage workspaces" permission`, ws.ID, ws.Name)},
		"module tests without the permission": {limited + testAccTestVariableConfig(mod, `key = "A"`, `value = "x"`),
			fmt.Sprintf("Could not create test variable A of module %s: the module exists, so the API token may not manage its tests: they need membership of the owners team", mod)},
		"a policy by ID without the permission": {limited + `data "tfgov_policy" "test" { id = "pol-doesnotexist0001" }`,
			fmt.Sprintf(`Policy pol-doesnotexist0001 was not found. Organization %s exists, but the API token may not manage its policies`, org)},
		"a test run without the permission": {limited + testAccModuleTestRunConfig("test", mod, "trun-doesnotexist1"),
			fmt.Sprintf("Test run trun-doesnotexist1 of module %s cannot be read: the module exists, but the API token may not see its tests: they need membership of the owners team", mod)},
		"a typo in the team ID": {access("team-typo0000000001", ws.ID),
			fmt.Sprintf(`Team team-typo0000000001 was not found: workspace %s (%q) exists and the API token may manage its team access`, ws.ID, ws.Name)},
		"a typo in the workspace ID": {access(team.ID, "ws-typo000000000001"),
			`Workspace ws-typo000000000001 was not found: no organization the API token belongs to has a workspace of that ID`},
		"a missing organization": {`data "tfgov_policies" "test" { organization = "` + testAccName("no-such-org") + `" }`,
			`was not found, or the API token belongs to no team of it`},
	}
	// A team of another organization the token reads is
	// named with its organization, not "not visible". The second
	// organization is made with the token, as a user would make one.
	other := testAccName("tfgov-other")
	var noOther string
	if _, err := c.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(other), Email: tfe.String("acc-owner@" + other + ".invalid")}); err != nil {
		noOther = fmt.Sprintf("the API token could not make a second organization (%v): only a user token can", err)
	} else {
		t.Cleanup(func() { cleanupErr(t, "organization "+other, c.Organizations.Delete(ctx, other)) })
		foreign, err := c.Teams.Create(ctx, other, tfe.TeamCreateOptions{Name: tfe.String("foreign"), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatalf("a team of %s: %v", other, err)
		}
		tests["a team of another organization"] = struct{ config, want string }{access(foreign.ID, ws.ID),
			fmt.Sprintf(`Team %s belongs to organization %s, and workspace %s (%q) to organization %s: a team can hold access only to the workspaces of its own organization.`,
				foreign.ID, other, ws.ID, ws.Name, org)}
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{Config: tc.config, ExpectError: matchWrapped(tc.want)}},
			})
		})
	}
	if noOther != "" {
		t.Run("a team of another organization", func(t *testing.T) { t.Skip(noOther) })
	}
}
