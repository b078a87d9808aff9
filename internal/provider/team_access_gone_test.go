package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// testAccTeamTokenProvider makes a token of team (through the API) and
// returns a provider block that uses it.
func testAccTeamTokenProvider(t *testing.T, team *tfe.Team) string {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	tt, err := c.TeamTokens.Create(ctx, team.ID)
	if err != nil {
		t.Fatalf("team token: %v", err)
	}
	t.Cleanup(func() { cleanupErr(t, "the token of team "+team.ID, c.TeamTokens.Delete(ctx, team.ID)) })
	return fmt.Sprintf("provider \"tfgov\" {\n  token = %q\n}\n", tt.Token)
}

// eitherOrder matches the wrapped patterns a and b in either order (the
// diagnostics of concurrent refreshes come in any order).
func eitherOrder(a, b string) *regexp.Regexp {
	return wrappedRE(`(` + a + `.*` + b + `|` + b + `.*` + a + `)`)
}

// TestAccTeamAccess_cannotSee (issue 43, row 1): the owner grants teams
// mine (admin) and other (write) access and declares both exclusive; mine
// is lowered to read. A token of team mine sees only mine's grant: its
// refresh fails, naming other's grant, its team, the workspace and the
// permission, and the exclusive access fails instead of planning "No
// changes"; nothing leaves state, and the owner's next plan is empty.
func TestAccTeamAccess_cannotSee(t *testing.T) {
	ws := testAccWorkspace(t)
	mine, other := testAccTeam(t, nil), testAccTeam(t, nil)
	limited := testAccTeamTokenProvider(t, mine)
	config := func(access string) string {
		return fmt.Sprintf(`
resource "tfgov_team_access" "mine" {
  team_id      = %[1]q
  workspace_id = %[3]q
  access       = %[4]q
}
resource "tfgov_team_access" "other" {
  team_id      = %[2]q
  workspace_id = %[3]q
  access       = "write"
}
`, mine.ID, other.ID, ws.ID, access) + testAccExclusiveConfig(ws.ID, mine.ID, other.ID)
	}
	perm := regexp.QuoteMeta(permTeamAccess)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("admin")},
			{Config: config("read")},
			{
				Config: limited + config("read"), PlanOnly: true,
				ExpectError: eitherOrder(
					fmt.Sprintf(`Team access tws-\S+ \(team %s\) cannot be refreshed: the API token may not see it. Workspace %s \(%q\) exists, but without %s, a token sees only the access of its own teams`,
						other.ID, ws.ID, ws.Name, perm),
					fmt.Sprintf(`The exclusive team access of workspace %s cannot be refreshed: workspace %s \(%q\) exists, but the API token may not see every team's access to it: it needs %s`,
						ws.ID, ws.ID, ws.Name, perm)),
			},
			{Config: config("read"), PlanOnly: true},
		},
	})
}
