package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

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

// memPrivate is private state in memory, for the record's round trip.
type memPrivate map[string][]byte

func (m memPrivate) GetKey(_ context.Context, k string) ([]byte, diag.Diagnostics) { return m[k], nil }
func (m memPrivate) SetKey(_ context.Context, k string, v []byte) diag.Diagnostics {
	m[k] = v
	return nil
}

// TestExclusiveRemovesWhatTheRefreshSaw (issue 43, row 6): an update
// removes the grants its refresh recorded of the teams leaving team_ids;
// a team that held nothing then, or a grant made since, is left alone.
// Without a record (a state no refresh of this version wrote) every
// leaving team's grant goes, as before.
func TestExclusiveRemovesWhatTheRefreshSaw(t *testing.T) {
	ctx := context.Background()
	grant := func(id, team string) *tfe.TeamAccess { return &tfe.TeamAccess{ID: id, Team: &tfe.Team{ID: team}} }
	saw := &recordsByID[*tfe.TeamAccess]{byID: map[string]*tfe.TeamAccess{"tws-a1": grant("tws-a1", "team-a"), "tws-k1": grant("tws-k1", "team-k")}}
	p := memPrivate{}
	var diags diag.Diagnostics
	writeGrantRecord(ctx, p, grantRecordOf(saw), &diags)
	seen := readGrantRecord(ctx, p, &diags)
	if diags.HasError() || len(seen) != 2 || seen["team-a"] != "tws-a1" || seen["team-k"] != "tws-k1" {
		t.Fatalf("record round trip: %v %v (stored %s)", seen, diags, p[grantRecordKey])
	}
	// At apply: a's grant, e's new grant and k's.
	now := &recordsByID[*tfe.TeamAccess]{byID: map[string]*tfe.TeamAccess{
		"tws-a1": grant("tws-a1", "team-a"), "tws-e1": grant("tws-e1", "team-e"), "tws-k1": grant("tws-k1", "team-k"),
	}}
	prior := map[string]bool{"team-a": true, "team-e": true, "team-k": true}
	keep := map[string]bool{"team-k": true}
	tests := map[string]struct {
		seen        grantRecord
		wantTeams   []string
		wantRemoved []string
	}{
		"recorded":        {seen, []string{"team-a"}, []string{"tws-a1"}},
		"replaced grant":  {grantRecord{"team-a": "tws-a0", "team-k": "tws-k1"}, []string{"team-a"}, nil},
		"no record (old)": {nil, []string{"team-a", "team-e"}, []string{"tws-a1", "tws-e1"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			teams := removedTeams(nil, keep, prior, tc.seen)
			var gotTeams, gotRemoved []string
			for id := range teams {
				gotTeams = append(gotTeams, id)
			}
			for _, g := range revocations(now, keep, teams, tc.seen) {
				gotRemoved = append(gotRemoved, g.ID)
			}
			slices.Sort(gotTeams)
			if !slices.Equal(gotTeams, tc.wantTeams) || !slices.Equal(gotRemoved, tc.wantRemoved) {
				t.Errorf("removed_team_ids %v and grants %v, want %v and %v", gotTeams, gotRemoved, tc.wantTeams, tc.wantRemoved)
			}
		})
	}
}

// TestAccWorkspaceTeamAccessExclusive_createCannotSee (issue 43, row 1): a
// new exclusive access planned with a token that sees only its own team's
// grant fails, rather than plan to remove nothing.
func TestAccWorkspaceTeamAccessExclusive_createCannotSee(t *testing.T) {
	ws := testAccWorkspace(t)
	mine, other := testAccTeam(t, nil), testAccTeam(t, nil)
	testAccGrant(t, mine.ID, ws.ID, tfe.AccessRead)
	testAccGrant(t, other.ID, ws.ID, tfe.AccessWrite)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: testAccTeamTokenProvider(t, mine) + testAccExclusiveConfig(ws.ID, mine.ID), PlanOnly: true,
			ExpectError: matchWrapped("Cannot plan exclusive team access", fmt.Sprintf("workspace %s (%q) exists, but the API token may not see every team's access to it", ws.ID, ws.Name)),
		}},
	})
}
