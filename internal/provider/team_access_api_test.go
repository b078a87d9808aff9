package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// eitherOrder matches the wrapped patterns a and b in either order (the
// diagnostics of concurrent refreshes come in any order).
func eitherOrder(a, b string) *regexp.Regexp {
	return wrappedRE(`(` + a + `.*` + b + `|` + b + `.*` + a + `)`)
}

// TestAccTeamAccess_cannotSee: the owner grants teams
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
	accParallelTest(t, resource.TestCase{
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

// TestAccTeamAccess_manageWorkspaces: a team token with "Manage all workspaces" (and a read grant,
// so that the workspace stays readable once the permission goes) manages every team's access, as HCP
// Terraform allows: it adds a grant, its refresh keeps it, and the exclusive resource sees and removes
// a grant it did not declare. With the permission lowered through the API, the refresh fails naming it
// and state keeps every grant.
func TestAccTeamAccess_manageWorkspaces(t *testing.T) {
	ws := testAccWorkspace(t)
	declared, undeclared := testAccTeam(t, nil), testAccTeam(t, nil)
	all := tfe.OrganizationAccessOptions{ManageWorkspaces: tfe.Bool(true)}
	managers := testAccTeam(t, &all)
	testAccGrant(t, managers.ID, ws.ID, tfe.AccessRead)
	outside := testAccGrant(t, undeclared.ID, ws.ID, tfe.AccessRead)
	set := func(on bool) func() {
		return func() {
			oa := tfe.OrganizationAccessOptions{ManageWorkspaces: tfe.Bool(on)}
			if _, err := testAccClient(t).Teams.Update(context.Background(), managers.ID, tfe.TeamUpdateOptions{OrganizationAccess: &oa}); err != nil {
				t.Fatalf("setting manage-workspaces of %s to %v: %v", managers.ID, on, err)
			}
		}
	}
	t.Cleanup(set(true)) // for the test case's destroy if a step fails
	config := testAccTeamTokenProvider(t, managers) + fmt.Sprintf(`
resource "tfgov_team_access" "declared" {
  team_id      = %q
  workspace_id = %q
  access       = "write"
}
`, declared.ID, ws.ID)
	exclusive := testAccExclusiveConfig(ws.ID, declared.ID, managers.ID)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config},
			{
				Config: config + exclusive,
				Check: func(*terraform.State) error {
					if _, err := testAccClient(t).TeamAccess.Read(context.Background(), outside.ID); !isNotFound(err) {
						return fmt.Errorf("the undeclared grant %s after the exclusive apply: %w, want it removed", outside.ID, err)
					}
					return nil
				},
			},
			{
				PreConfig: set(false), Config: config + exclusive, PlanOnly: true,
				ExpectError: wrappedRE(`Team access tws-\S+ \(team ` + declared.ID + `\) cannot be refreshed: the API token may not see it.*` + regexp.QuoteMeta(`"Manage workspaces" permission`)),
			},
			{PreConfig: set(true), Config: config + exclusive, PlanOnly: true},
		},
	})
}

// TestTeamAccessUpdateError: an update of team access answered 404 says
// which, from one read of the workspace: the workspace is gone, the token
// may not manage its team access, or the grant was removed outside
// Terraform. Against a sandbox of the test's own, through go-tfe.
func TestTeamAccessUpdateError(t *testing.T) {
	t.Parallel()
	const org = "update-error"
	_, c, _ := protoSandbox(t, org, nil)
	ctx := context.Background()
	ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	team, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String("readers"), Visibility: tfe.String("organization")})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := c.TeamTokens.Create(ctx, team.ID)
	if err != nil {
		t.Fatal(err)
	}
	limited, err := tfe.NewClient(&tfe.Config{Address: c.BaseURL().Scheme + "://" + c.BaseURL().Host, Token: tt.Token})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		client *tfe.Client
		wsID   string
		want   string
	}{
		"workspace gone":    {c, "ws-gone000000000001", "Workspace ws-gone000000000001 of team access tws-gone000000000001 was not found"},
		"no permission":     {limited, ws.ID, fmt.Sprintf(`Workspace %s ("app") exists, but the API token may not manage its team access`, ws.ID)},
		"removed elsewhere": {c, ws.ID, "Team access tws-gone000000000001 was removed outside Terraform"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := &providerData{client: tc.client}
			if got := d.teamAccessUpdateError(ctx, "tws-gone000000000001", tc.wsID); !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want it to contain %q", got, tc.want)
			}
		})
	}
}
