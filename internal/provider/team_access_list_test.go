package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestListResource_teamAccess(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-ta", nil)
	ws, err := c.Workspaces.Create(ctx, "list-ta", tfe.WorkspaceCreateOptions{Name: tfe.String("ws")})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for i := range listSize {
		tm, err := c.Teams.Create(ctx, "list-ta", tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("developers-%03d", i)), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatal(err)
		}
		names[tm.ID] = tm.Name
		access := tfe.AccessRead
		if i%2 == 1 {
			access = tfe.AccessWrite
		}
		if _, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(access), Team: tm, Workspace: ws}); err != nil {
			t.Fatal(err)
		}
	}
	before := sb.RequestsTo("GET", "/api/v2/team-workspaces")
	teamsBefore := sb.RequestsTo("GET", "/api/v2/organizations/list-ta/teams")
	res := p.list("tfgov_team_access", map[string]string{"workspace_id": ws.ID}, true, 1000)
	if got := sb.RequestsTo("GET", "/api/v2/team-workspaces") - before; got != listPages {
		t.Errorf("listing %d grants took %d requests, want %d", listSize, got, listPages)
	}
	// The names come with the grants (include=team): no team list, never a
	// read per team.
	if got := sb.RequestsTo("GET", "/api/v2/organizations/list-ta/teams") - teamsBefore; got != 0 {
		t.Errorf("naming %d teams took %d team list requests, want none", listSize, got)
	}
	checkResults(t, "team_access", res, listSize, true)
	for _, r := range res {
		team := str(t, r.resource["team_id"])
		if str(t, r.resource["workspace_id"]) != ws.ID || r.display != "team "+names[team]+": "+str(t, r.resource["access"])+" access" {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
	// A workspace that does not exist is an error, not an empty list.
	res = p.list("tfgov_team_access", map[string]string{"workspace_id": "ws-missing"}, false, 10)
	if len(res) != 1 || !hasErrors(res[0].diags) {
		t.Fatalf("listing a missing workspace: %+v, want one error", res)
	}
}

// TestListResource_teamAccessByWorkspaceName: a query file has no data
// sources, so the list takes the workspace by name too: one read more;
// a typo is an error naming the closest workspace, not an empty list.
func TestListResource_teamAccessByWorkspaceName(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-ta-name", nil)
	ws, err := c.Workspaces.Create(ctx, "list-ta-name", tfe.WorkspaceCreateOptions{Name: tfe.String("payments-prod")})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := c.Teams.Create(ctx, "list-ta-name", tfe.TeamCreateOptions{Name: tfe.String("sre"), Visibility: tfe.String("organization")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessWrite), Team: tm, Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	before := sb.RequestsTo("GET", "/api/v2/organizations/list-ta-name/workspaces/payments-prod")
	res := p.list("tfgov_team_access", map[string]string{"workspace_name": "payments-prod", "organization": "list-ta-name"}, true, 10)
	if len(res) != 1 || hasErrors(res[0].diags) || str(t, res[0].resource["workspace_id"]) != ws.ID || res[0].display != "team sre: write access" {
		t.Fatalf("by name: %+v", res)
	}
	if got := sb.RequestsTo("GET", "/api/v2/organizations/list-ta-name/workspaces/payments-prod") - before; got != 1 {
		t.Errorf("the name took %d reads, want 1", got)
	}
	res = p.list("tfgov_team_access", map[string]string{"workspace_name": "payments-prd", "organization": "list-ta-name"}, false, 10)
	if len(res) != 1 || !strings.Contains(diagText(res[0].diags), `No workspace named "payments-prd" in organization list-ta-name; the closest names: "payments-prod".`) {
		t.Fatalf("a typo: %+v, want the error naming payments-prod", res)
	}
}

func TestAccTeamAccessList_query(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	testAccQuery(t, queryCase{
		typ: "team_access", config: testAccTeamAccessConfig(team.ID, ws.ID, "plan", ""),
		filter:   fmt.Sprintf("workspace_id = %q", ws.ID),
		identity: map[string]knownvalue.Check{"id": idLike("tws")},
		display:  knownvalue.StringExact("team " + team.Name + ": plan access"), // the name, not the ID
		values: map[string]knownvalue.Check{
			"team_id": knownvalue.StringExact(team.ID), "workspace_id": knownvalue.StringExact(ws.ID), "access": knownvalue.StringExact("plan"),
		},
	})
}
