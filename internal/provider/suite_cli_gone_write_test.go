package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// A write's 404 is "gone" only when the service confirms it (DESIGN.md "Gone or cannot see"): saved
// plans applied after the provider's team lost a permission, lowered through the API (so these run
// against a live organization too).

// permissionSwitch sets the organization access of team through the owner's client; the test's
// cleanup gives it all back before the working directory's destroy runs.
func permissionSwitch(t *testing.T, team *tfe.Team, all tfe.OrganizationAccessOptions) func(tfe.OrganizationAccessOptions) {
	t.Helper()
	c := testAccClient(t)
	set := func(oa tfe.OrganizationAccessOptions) {
		t.Helper()
		if _, err := c.Teams.Update(context.Background(), team.ID, tfe.TeamUpdateOptions{OrganizationAccess: &oa}); err != nil {
			t.Fatalf("updating the organization access of team %s: %v", team.ID, err)
		}
	}
	t.Cleanup(func() { set(all) })
	return set
}

// TestAccSavedPlanAfterPermissionLoss_agentTokenReplace: a saved plan that replaces an agent token,
// applied after the provider's team lost "Manage agent pools", fails naming the token and the
// permission, before anything is made; state keeps the old token, which stays live. Once the
// permission is back, the next apply replaces it: one live token, never two.
func TestAccSavedPlanAfterPermissionLoss_agentTokenReplace(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	pool := testAccAgentPool(t)
	all := tfe.OrganizationAccessOptions{ManageAgentPools: tfe.Bool(true)}
	team := testAccTeam(t, &all)
	provider := testAccTeamTokenProvider(t, team)
	config := func(description string) string {
		return provider + fmt.Sprintf(`
resource "tfgov_agent_token" "test" {
  agent_pool_id = %q
  description   = %q
}
`, pool.ID, description)
	}
	d := newCLIDir(t, config("first"))
	set := permissionSwitch(t, team, all)
	d.must("apply", "-auto-approve")
	old, _ := d.stateAttr("tfgov_agent_token.test", "id").(string)

	d.write("main.tf", requiredProvidersShim+config("second"))
	if out := d.must("plan", "-out=tfplan"); !strings.Contains(out, "must be replaced") {
		t.Fatalf("the plan does not replace the token:\n%s", out)
	}
	set(tfe.OrganizationAccessOptions{ManageAgentPools: tfe.Bool(false)})
	d.applyFails("Cannot revoke agent token", "Agent token "+old+" cannot be revoked: agent pool "+pool.ID,
		`it needs the organization's "Manage agent pools" permission`, "State keeps it")
	if got := d.stateAttr("tfgov_agent_token.test", "id"); got != old {
		t.Errorf("state holds token %v after the failed apply, want %s", got, old)
	}
	if _, err := c.AgentTokens.Read(ctx, old); err != nil {
		t.Errorf("token %s after the failed apply: %v, want it live", old, err)
	}

	set(all)
	d.must("apply", "-auto-approve")
	now, _ := d.stateAttr("tfgov_agent_token.test", "id").(string)
	tokens, err := c.AgentTokens.List(ctx, pool.ID)
	if err != nil {
		t.Fatalf("listing the pool's tokens: %v", err)
	}
	var live []string
	for _, tok := range tokens.Items {
		live = append(live, tok.ID)
	}
	if now == old || len(live) != 1 || live[0] != now {
		t.Errorf("after the permission came back: state %s (was %s), live tokens %v, want the new one alone", now, old, live)
	}
	d.emptyPlan()
}

// TestAccSavedPlanAfterPermissionLoss_destroy: a saved `plan -destroy` applied after the provider's
// team lost its permissions (its organization access, and its admin grant on the workspace) fails,
// naming each object and the permission; state keeps every object and the service still has them.
// With the permissions back, a saved destroy whose objects were deleted outside Terraform since its
// plan is done: each 404 is confirmed gone.
func TestAccSavedPlanAfterPermissionLoss_destroy(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	pool := testAccAgentPool(t)
	ws := testAccWorkspace(t)
	other := testAccTeam(t, nil)
	all := tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true), ManageAgentPools: tfe.Bool(true)}
	team := testAccTeam(t, &all)
	admin, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessAdmin), Team: team, Workspace: ws})
	if err != nil {
		t.Fatalf("granting the provider's team admin on %s: %v", ws.ID, err)
	}
	config := testAccTeamTokenProvider(t, team) + fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name    = %q
  kind    = "sentinel"
  content = "main = rule { true }\n"
}

resource "tfgov_agent_token" "test" {
  agent_pool_id = %q
  description   = "destroy after a permission loss"
}

resource "tfgov_team_access" "test" {
  team_id      = %q
  workspace_id = %q
  access       = "read"
}
`, testAccName("gone-destroy"), pool.ID, other.ID, ws.ID)
	d := newCLIDir(t, config)
	set := permissionSwitch(t, team, all)
	t.Cleanup(func() { // before the directory's destroy
		if _, err := c.TeamAccess.Update(ctx, admin.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessAdmin)}); err != nil {
			t.Errorf("giving team %s admin on %s back: %v", team.ID, ws.ID, err)
		}
	})
	d.must("apply", "-auto-approve")
	ids := map[string]string{}
	for _, addr := range []string{"tfgov_policy.test", "tfgov_agent_token.test", "tfgov_team_access.test"} {
		ids[addr], _ = d.stateAttr(addr, "id").(string)
	}

	d.must("plan", "-destroy", "-out=tfplan")
	set(tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(false), ManageAgentPools: tfe.Bool(false)})
	if _, err := c.TeamAccess.Update(ctx, admin.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessRead)}); err != nil {
		t.Fatalf("lowering team %s to read on %s: %v", team.ID, ws.ID, err)
	}
	d.applyFails(
		"Cannot delete policy", "Policy "+ids["tfgov_policy.test"]+` cannot be deleted: organization `+testAccOrganization()+` exists, but the API token may not list its policies: it needs the organization's "Manage policies" permission`,
		"Cannot revoke agent token", "Agent token "+ids["tfgov_agent_token.test"]+` cannot be revoked`, `"Manage agent pools"`,
		"Cannot remove team access", "Team access "+ids["tfgov_team_access.test"], "cannot be removed: the API token may not see it", `"Manage workspaces" permission`,
	)
	state := d.must("state", "list")
	for addr := range ids {
		if !strings.Contains(state, addr) {
			t.Errorf("%s left state after the failed destroy:\n%s", addr, state)
		}
	}
	if _, err := c.Policies.Read(ctx, ids["tfgov_policy.test"]); err != nil {
		t.Errorf("policy after the failed destroy: %v", err)
	}
	if _, err := c.AgentTokens.Read(ctx, ids["tfgov_agent_token.test"]); err != nil {
		t.Errorf("agent token after the failed destroy: %v", err)
	}
	if _, err := c.TeamAccess.Read(ctx, ids["tfgov_team_access.test"]); err != nil {
		t.Errorf("team access after the failed destroy: %v", err)
	}

	set(all)
	if _, err := c.TeamAccess.Update(ctx, admin.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessAdmin)}); err != nil {
		t.Fatalf("giving team %s admin on %s back: %v", team.ID, ws.ID, err)
	}
	d.must("plan", "-destroy", "-out=tfplan")
	for _, err := range []error{
		c.Policies.Delete(ctx, ids["tfgov_policy.test"]),
		c.AgentTokens.Delete(ctx, ids["tfgov_agent_token.test"]),
		c.TeamAccess.Remove(ctx, ids["tfgov_team_access.test"]),
	} {
		if err != nil {
			t.Fatalf("deleting outside Terraform: %v", err)
		}
	}
	d.must("apply", "tfplan")
	if state := d.must("state", "list"); strings.TrimSpace(state) != "" {
		t.Errorf("state after the destroy of objects already gone:\n%s", state)
	}
}
