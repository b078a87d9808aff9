package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// TestAccTeamAccess_workspaceDeleted: issue 55 row 4. A workspace deleted
// outside Terraform, with a token whose user sees every workspace of the
// organization (an owner's): its grants (for_each instances, which a
// removed block cannot name) and its exclusive access leave state at the
// refresh, each with a warning naming it, and nothing else is needed. A
// token that cannot tell keeps today's error:
// TestAccWorkspaceTeamAccessExclusive_gone.
func TestAccTeamAccess_workspaceDeleted(t *testing.T) {
	rc := testCLIConfig(t)
	testAccPreCheck(t)
	ctx := context.Background()
	if u, err := testAccClient(t).Users.ReadCurrent(ctx); err != nil || u.IsServiceAccount {
		t.Skipf("needs TFE_TOKEN to be a user's token (an owner's): an organization or team token names no user (%v)", err)
	}
	ws := testAccWorkspace(t)
	a, b := testAccTeam(t, nil), testAccTeam(t, nil)
	dir := t.TempDir()
	write := func(resources string) {
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(budgetProviderBlock+resources), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(fmt.Sprintf(`
resource "tfgov_team_access" "app" {
  for_each     = { a = %[1]q, b = %[2]q }
  team_id      = each.value
  workspace_id = %[3]q
  access       = "read"
}
resource "tfgov_workspace_team_access_exclusive" "app" {
  workspace_id = %[3]q
  team_ids     = [for g in tfgov_team_access.app : g.team_id]
}
`, a.ID, b.ID, ws.ID))
	if out, err := runTerraformRC(t, rc, dir, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := runTerraformRC(t, rc, dir, "destroy", "-auto-approve", "-input=false", "-no-color"); err != nil {
			t.Errorf("destroy: %v\n%s", err, out)
		}
	})
	if err := testAccClient(t).Workspaces.DeleteByID(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	// The configuration drops them, as a user does once the workspace is gone.
	write("")
	out, err := runTerraformRC(t, rc, dir, "apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("apply after the workspace was deleted: %v\n%s", err, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, team := range []string{a.Name, b.Name} {
		want := fmt.Sprintf(`Team access tws-\S+ of team "%s" \(team-\S+\) left state: its workspace %s was deleted\. The API token's user sees every workspace of organization %s`,
			regexp.QuoteMeta(team), ws.ID, regexp.QuoteMeta(testAccOrganization()))
		if !regexp.MustCompile(want).MatchString(flat) {
			t.Errorf("no warning naming the grant of team %s (%s):\n%s", team, want, out)
		}
	}
	if !strings.Contains(flat, "The exclusive team access of workspace "+ws.ID+" left state: the workspace was deleted.") {
		t.Errorf("no warning naming the exclusive team access:\n%s", out)
	}
	list, err := runTerraformRC(t, rc, dir, "state", "list")
	if err != nil || strings.TrimSpace(list) != "" {
		t.Errorf("state list after the refresh: %v\n%s", err, list)
	}
}
