package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

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
