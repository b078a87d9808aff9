package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestAccWorkspaceTeamAccessExclusive_savedPlan (issue 35, row 1): the
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
//     each by name and ID, and its apply removes both.
//   - An update dropping teams a and e (e holds nothing), planned with
//     `plan -out`; then someone grants teams d and e access; the saved
//     plan is applied: a's grant goes, d's and e's stay (issue 43, row 6:
//     the apply removes only the grants the plan saw), and the next plan
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
	out = folded(dir.must("plan"))
	for _, want := range []string{fmt.Sprintf("team %q (%s): write access (%s)", b.Name, b.ID, gb.ID), fmt.Sprintf("team %q (%s): plan access (%s)", c.Name, c.ID, gc.ID)} {
		if !strings.Contains(out, want) {
			t.Errorf("the next plan does not warn with %q:\n%s", want, out)
		}
	}
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

// TestAccWorkspaceTeamAccessExclusive_lockOutExemptions (issue 35): the
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
