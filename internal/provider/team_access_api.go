package provider

import (
	"context"
	"fmt"
	"net/url"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Team access's requests, and what their errors mean (DESIGN.md "Gone or cannot see").

// listTeamAccess lists the grants the token sees; the API pages them only when asked.
func listTeamAccess(ctx context.Context, client *tfe.Client, workspaceID string) ([]*tfe.TeamAccess, error) {
	return tfeclient.ListAll(ctx, teamAccessPages(client, workspaceID, 0))
}

// teamAccessPages reads a page of size grants (0: the API's default, no paging on page 1).
func teamAccessPages(client *tfe.Client, workspaceID string, size int) func(context.Context, int) ([]*tfe.TeamAccess, *tfe.Pagination, error) {
	return func(ctx context.Context, n int) ([]*tfe.TeamAccess, *tfe.Pagination, error) {
		opts := &tfe.TeamAccessListOptions{WorkspaceID: workspaceID, ListOptions: tfe.ListOptions{PageSize: size}}
		if n > 1 || size > 0 {
			opts.PageNumber = n
		}
		l, err := client.TeamAccess.List(ctx, opts)
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	}
}

// teamAccessListQuery adds include=team, which go-tfe lacks here: team names in the same answer.
type teamAccessListQuery struct {
	tfe.ListOptions
	WorkspaceID string `url:"filter[workspace][id]"`
	Include     string `url:"include,omitempty"`
}

func listTeamAccessWithTeams(ctx context.Context, c *tfe.Client, wsID string) ([]*tfe.TeamAccess, error) {
	return tfeclient.ListAll(ctx, teamAccessPagesWithTeams(c, wsID, 0))
}

// teamAccessPagesWithTeams is teamAccessPages with include=team.
func teamAccessPagesWithTeams(c *tfe.Client, wsID string, size int) func(context.Context, int) ([]*tfe.TeamAccess, *tfe.Pagination, error) {
	return func(ctx context.Context, n int) ([]*tfe.TeamAccess, *tfe.Pagination, error) {
		q := &teamAccessListQuery{WorkspaceID: wsID, Include: "team", ListOptions: tfe.ListOptions{PageSize: size}}
		if n > 1 || size > 0 {
			q.PageNumber = n
		}
		l := &tfe.TeamAccessList{}
		if err := tfeclient.APIRequest(ctx, c, "GET", "team-workspaces", q, nil, l); err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	}
}

// teamNameValue names team teamID of workspace wsID (grantTeamName).
func (d *providerData) teamNameValue(ctx context.Context, wsID, teamID string) types.String {
	return d.grantTeamName(ctx, workspaceGrants, wsID, teamID)
}

// organizationTeams is the shared team list: a request per 100 teams per organization and operation.
func (d *providerData) organizationTeams(ctx context.Context, org string) (*recordsByID[*tfe.Team], error) {
	return d.lists.teams.get(ctx, org, func(ctx context.Context) (*recordsByID[*tfe.Team], error) {
		l, err := listAllPages(ctx, func(t *tfe.Team) string { return t.ID }, func(ctx context.Context, n int) ([]*tfe.Team, *tfe.Pagination, error) {
			p, err := d.client.Teams.List(ctx, org, &tfe.TeamListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}})
			if err != nil {
				return nil, nil, err
			}
			return p.Items, p.Pagination, nil
		})
		if err == nil {
			tflog.Debug(ctx, "Listed teams", map[string]any{"organization": org, "count": len(l.byID), "organization_missing": l.parentMissing})
		}
		return l, err
	})
}

// teamNames names the grants' teams of workspace wsID (grantTeamNames).
func (d *providerData) teamNames(ctx context.Context, wsID string, grants []*tfe.TeamAccess) map[string]string {
	return d.grantTeamNames(ctx, workspaceGrants, wsID, grants)
}

func teamLabel(names map[string]string, id string) string {
	if n := names[id]; n != "" {
		return fmt.Sprintf("%q (%s)", n, id)
	}
	return id
}

// seesEveryGrant: the token sees and manages every grant of ws, from the one field of the workspace
// read the team access endpoints honour: can-update, true for an owner, the organization token, a
// team with "Manage workspaces" and a team with admin access: the rule by which those endpoints show
// other teams' grants (the sandbox's contract test TestTeamAccess_canUpdateRule holds both to it).
func seesEveryGrant(ws *tfe.Workspace) bool {
	return ws != nil && ws.Permissions != nil && ws.Permissions.CanUpdate
}

// workspaceLabel and workspaceLabelHeld are grant_parent.go's for a workspace.
func (d *providerData) workspaceLabel(ctx context.Context, wsID string) string {
	return d.parentLabel(ctx, workspaceGrants, wsID)
}

func (d *providerData) workspaceLabelHeld(wsID string) string {
	return d.parentLabelHeld(workspaceGrants, wsID)
}

// workspaceAccessError: any member may list a workspace's grants, so a 404 is a workspace outside
// the token's organizations.
func workspaceAccessError(workspaceID string, err error) string {
	if isNotFound(err) {
		return workspaceNotFound(workspaceID)
	}
	return fmt.Sprintf("Listing the team access of workspace %s: %s", workspaceID, err)
}

func workspaceNotFound(workspaceID string) string {
	return fmt.Sprintf("Workspace %s was not found: no organization the API token belongs to has a workspace of that ID (any member may list a workspace's team access).", workspaceID)
}

// teamAccessAddError tells a missing workspace, permission (seesEveryGrant) or team apart by one
// workspace read, and a team of another organization by one team read.
func (d *providerData) teamAccessAddError(ctx context.Context, teamID, wsID string) string {
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	switch {
	case isNotFound(err):
		return fmt.Sprintf("Workspace %s was not found: no organization the API token belongs to has a workspace of that ID.", wsID)
	case err != nil || ws.Permissions == nil:
		return fmt.Sprintf("Workspace %s or team %s was not found, or the API token may not manage the workspace's team access (it needs %s, or to be an owner).", wsID, teamID, permTeamAccess)
	case !seesEveryGrant(ws):
		return fmt.Sprintf("Workspace %s (%q) exists, but the API token may not manage its team access: it needs %s, or to be an owner, or the organization token.", wsID, ws.Name, permTeamAccess)
	}
	if org := d.teamOrganization(ctx, teamID); org != "" && ws.Organization != nil && org != ws.Organization.Name {
		return fmt.Sprintf("Team %s belongs to organization %s, and workspace %s (%q) to organization %s: a team can hold access only to the workspaces of its own organization.",
			teamID, org, wsID, ws.Name, ws.Organization.Name)
	}
	return fmt.Sprintf("Team %s was not found: workspace %s (%q) exists and the API token may manage its team access, so no team of that ID is visible to it "+
		"(a secret team is visible only to its members and to owners).", teamID, wsID, ws.Name)
}

// teamAccessUpdateError tells a gone workspace, a missing permission and a grant removed outside
// Terraform apart by one workspace read.
func (d *providerData) teamAccessUpdateError(ctx context.Context, id, wsID string) string {
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	switch {
	case isNotFound(err):
		return fmt.Sprintf("Workspace %s of team access %s was not found: it was deleted, or it is in no organization the API token belongs to.", wsID, id)
	case err == nil && ws.Permissions != nil && !seesEveryGrant(ws):
		return fmt.Sprintf("Workspace %s (%q) exists, but the API token may not manage its team access: it needs %s, or to be an owner, or the organization token.", wsID, ws.Name, permTeamAccess)
	case err == nil && ws.Permissions != nil:
		return fmt.Sprintf("Team access %s was removed outside Terraform (workspace %s exists and the API token may manage its team access). Run terraform apply again to add it back.", id, wsID)
	}
	return fmt.Sprintf("Team access %s was not found, or the API token may not manage the team access of workspace %s (it needs %s). "+
		"If it was removed outside Terraform, run terraform apply again to add it back.", id, wsID, permTeamAccess)
}

// noTeamAccessDetail: "no access" only for a token that sees every grant (seesEveryGrant).
func (d *providerData) noTeamAccessDetail(ctx context.Context, teamID, wsID string) string {
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	if err == nil && seesEveryGrant(ws) {
		return fmt.Sprintf("Team %s has no access to workspace %s (%q): the API token sees every grant of the workspace, and none is the team's.", teamID, wsID, ws.Name)
	}
	return fmt.Sprintf("Team %s has no access to workspace %s that the API token may see: without %s, a token sees only the access of its own teams.", teamID, wsID, permTeamAccess)
}

// teamAccessTaken refuses an add for a team that holds g already; note says why.
func (d *providerData) teamAccessTaken(ctx context.Context, teamID, wsID string, g *tfe.TeamAccess, note string) string {
	return teamAccessTakenText(teamLabel(d.teamNames(ctx, wsID, []*tfe.TeamAccess{g}), teamID), d.workspaceLabel(ctx, wsID), g, note)
}

func teamAccessTakenText(team, workspace string, g *tfe.TeamAccess, note string) string {
	return fmt.Sprintf("Team %s already has %q access to workspace %s (team access %s), and a team can hold only one access per workspace.\n\n%s\n\n%s",
		team, g.Access, workspace, g.ID, importAdvice("tfgov_team_access", g.ID, g.ID), note)
}

// teamOrganization is the organization of team teamID, read by ID (one
// request, on teamAccessAddError's path only), or "" when the token may
// not read the team. go-tfe's Team has no organization relation.
func (d *providerData) teamOrganization(ctx context.Context, teamID string) string {
	var team struct {
		ID           string            `jsonapi:"primary,teams"`
		Organization *tfe.Organization `jsonapi:"relation,organization"`
	}
	if err := tfeclient.APIRequest(ctx, d.client, "GET", "teams/"+url.PathEscape(teamID), nil, nil, &team); err != nil || team.Organization == nil {
		return ""
	}
	return team.Organization.Name
}

// organizationWorkspaces is the shared workspace list: a request per 100 workspaces per organization and
// operation, read only for a workspace that answered 404.
func (d *providerData) organizationWorkspaces(ctx context.Context, org string) (*recordsByID[*tfe.Workspace], error) {
	return d.lists.workspaces.get(ctx, org, func(ctx context.Context) (*recordsByID[*tfe.Workspace], error) {
		return listAllPages(ctx, func(ws *tfe.Workspace) string { return ws.ID }, func(ctx context.Context, n int) ([]*tfe.Workspace, *tfe.Pagination, error) {
			// Their key/value tags come in the same pages, for a policy set's scope (policy_set_scope.go).
			l, err := d.client.Workspaces.List(ctx, org, &tfe.WorkspaceListOptions{ListOptions: listPage(n), Include: []tfe.WSIncludeOpt{tfe.WSEffectiveTagBindings}})
			if err != nil {
				return nil, nil, err
			}
			return l.Items, l.Pagination, nil
		})
	})
}

// removeCheck: a grant's DELETE, by tfgov_team_access's destroy or the exclusive resource.
var removeCheck = writeCheck("Removing", "removed")
