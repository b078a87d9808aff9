package provider

import (
	"context"
	"fmt"
	"net/url"
	"slices"

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

// teamNameValue names team teamID from the shared team list of workspace wsID's organization
// (wsID "": the provider's): null when the token may not see the team or the list fails.
func (d *providerData) teamNameValue(ctx context.Context, wsID, teamID string) types.String {
	var teams *recordsByID[*tfe.Team]
	var err error
	switch {
	case teamID == "":
		return types.StringNull()
	case wsID != "":
		teams, err = d.workspaceOrganizationTeams(ctx, wsID, teamID)
	case d.organization != "":
		teams, err = d.organizationTeams(ctx, d.organization)
	default:
		return types.StringNull()
	}
	if err != nil {
		tflog.Debug(ctx, "Could not list the teams to name a team", map[string]any{"team_id": teamID, "error": err.Error()})
		return types.StringNull()
	}
	if t, ok := teams.lookup(teamID); ok && t.Name != "" {
		return types.StringValue(t.Name)
	}
	return types.StringNull()
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

// workspaceOrganizationTeams takes the provider's organization when it holds teamID (a team has
// access only in its own organization); else it reads the workspace.
func (d *providerData) workspaceOrganizationTeams(ctx context.Context, wsID, teamID string) (*recordsByID[*tfe.Team], error) {
	if d.organization != "" {
		teams, err := d.organizationTeams(ctx, d.organization)
		if err == nil {
			if _, ok := teams.lookup(teamID); ok {
				return teams, nil
			}
		}
	}
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	if err != nil {
		return nil, err
	}
	if ws.Organization == nil || ws.Organization.Name == "" {
		return nil, fmt.Errorf("workspace %s names no organization", wsID)
	}
	return d.organizationTeams(ctx, ws.Organization.Name)
}

// teamNames names the grants' teams from include=team, else from the shared team list: never a
// read per grant. A secret team the token may not see has no name.
func (d *providerData) teamNames(ctx context.Context, wsID string, grants []*tfe.TeamAccess) map[string]string {
	names := map[string]string{}
	missing := ""
	for _, g := range grants {
		switch {
		case g.Team == nil || g.Team.ID == "":
		case g.Team.Name != "":
			names[g.Team.ID] = g.Team.Name
		case missing == "":
			missing = g.Team.ID
		}
	}
	if missing == "" {
		return names
	}
	teams, err := d.workspaceOrganizationTeams(ctx, wsID, missing)
	if err != nil {
		tflog.Warn(ctx, "Could not list the teams of the workspace's organization: team names left out", map[string]any{"workspace_id": wsID, "error": err.Error()})
		return names
	}
	for _, g := range grants {
		if g.Team == nil || names[g.Team.ID] != "" {
			continue
		}
		if t, ok := teams.lookup(g.Team.ID); ok {
			names[g.Team.ID] = t.Name
		}
	}
	return names
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

// seeWorkspace reads a workspace's name and seesEveryGrant once per operation (seeParent).
func (d *providerData) seeWorkspace(ctx context.Context, wsID string) (*parentSeen, error) {
	return d.seeParent(ctx, "workspace:"+wsID, func(ctx context.Context) (parentSeen, error) {
		ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
		if err != nil {
			return parentSeen{}, err
		}
		return parentSeen{name: ws.Name, allGrants: seesEveryGrant(ws)}, nil
	})
}

// workspaceLabel is "name" (ws-id) from seeWorkspace, or the ID alone.
func (d *providerData) workspaceLabel(ctx context.Context, wsID string) string {
	if seen, err := d.seeWorkspace(ctx, wsID); err == nil && seen.name != "" {
		return fmt.Sprintf("%q (%s)", seen.name, wsID)
	}
	return wsID
}

// workspaceLabelHeld is workspaceLabel from a read already made: no request.
func (d *providerData) workspaceLabelHeld(wsID string) string {
	if seen, ok := d.lists.parents.held("workspace:" + wsID); ok && seen.name != "" {
		return fmt.Sprintf("%q (%s)", seen.name, wsID)
	}
	return wsID
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

func workspaceMissing(check goneCheck, what, wsID string) string {
	return fmt.Sprintf("%s cannot be %s: workspace %s was not found. It was deleted, or the API token belongs to no team of its organization: "+
		"the service answers the same to both. %s", what, check.done, wsID, stateRmAdvice)
}

// teamAccessGone: a grant missing from the list is gone only for a token that sees every grant, or
// whose workspace is gone (workspaceGone; why is then the warning); otherwise why names what it cannot see.
func (d *providerData) teamAccessGone(ctx context.Context, check goneCheck, id, teamID, wsID string, listMissing bool) (bool, string) {
	what := "Team access " + id
	if teamID != "" {
		what += " (team " + teamID + ")"
	}
	seen, err := d.seeWorkspace(ctx, wsID)
	switch {
	case err != nil:
		return false, fmt.Sprintf("%s cannot be %s: it is not in the team access of workspace %s that the API token sees, and reading the workspace to tell whether it was removed failed: %s. State keeps it.", what, check.done, wsID, err)
	case seen.missing && d.workspaceGone(ctx, wsID, []string{teamID}):
		return true, d.workspaceGoneProof()
	case seen.missing:
		return false, workspaceMissing(check, what, wsID)
	case listMissing:
		return false, fmt.Sprintf("%s cannot be %s: workspace %s (%q) exists, but the list of its team access answered 404. State keeps it; %s.", what, check.done, wsID, seen.name, check.again)
	case !seen.allGrants:
		return false, fmt.Sprintf("%s cannot be %s: the API token may not see it. Workspace %s (%q) exists, but without %s, a token sees only the access of its own teams, "+
			"so the workspace's list does not tell whether the grant was removed. State keeps it; %s with a token that has the permission, or an owner's.",
			what, check.done, wsID, seen.name, permTeamAccess, check.again)
	}
	return true, ""
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

// workspaceGone: workspace wsID, which answered 404, is gone when the grant of one of teamIDs ties it
// to the provider's organization (a team holds access only there), the token's user sees every
// workspace of it, and its complete list lacks wsID. DESIGN.md "Gone or cannot see".
func (d *providerData) workspaceGone(ctx context.Context, wsID string, teamIDs []string) bool {
	org := d.organization
	if org == "" || d.caller == nil || d.caller.ID == "" || d.caller.IsServiceAccount {
		return false // a team or organization token names no user, whose teams would tell
	}
	teams, err := d.organizationTeams(ctx, org)
	if err != nil || teams.parentMissing {
		return false
	}
	if !slices.ContainsFunc(teamIDs, func(id string) bool { _, ok := teams.lookup(id); return ok }) {
		return false
	}
	sees := false
	for _, t := range teams.byID {
		if slices.ContainsFunc(t.Users, func(u *tfe.User) bool { return u != nil && u.ID == d.caller.ID }) &&
			(t.Name == "owners" || (t.OrganizationAccess != nil && (t.OrganizationAccess.ManageWorkspaces || t.OrganizationAccess.ReadWorkspaces))) {
			sees = true
		}
	}
	if !sees {
		return false
	}
	all, err := d.organizationWorkspaces(ctx, org)
	if err != nil || all.parentMissing {
		return false
	}
	_, listed := all.lookup(wsID)
	tflog.Debug(ctx, "Workspace answered 404; looked for in the organization's complete list", map[string]any{"workspace_id": wsID, "organization": org, "listed": listed})
	return !listed
}

// workspaceGoneProof says why a workspace that answered 404 is gone.
func (d *providerData) workspaceGoneProof() string {
	return fmt.Sprintf("The API token's user sees every workspace of organization %s (an owner, or a team with \"Manage workspaces\" or \"View all workspaces\"), "+
		"and the workspace is neither in its list nor readable by ID. Remove the resource from the configuration, or the next plan proposes creating it again.", d.organization)
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

// locateTeamAccess is the refresh of grant id (team teamID) of workspace wsID after a write's 404
// (Read's reads, made afresh): gone only as teamAccessGone says.
func (d *providerData) locateTeamAccess(id, teamID, wsID string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		d.lists.teamAccess.invalidate(wsID)
		d.lists.parents.invalidate("workspace:" + wsID)
		d.lists.workspaces.invalidate(d.organization)
		grants, err := d.workspaceTeamAccess(ctx, wsID)
		if err != nil {
			return false, fmt.Sprintf("Team access %s cannot be %s: listing the team access of workspace %s to tell whether it is gone failed: %s. State keeps it.", id, check.done, wsID, err)
		}
		if _, ok := grants.lookup(id); ok {
			return true, ""
		}
		if !grants.definite() {
			// Make sure (shared_lists.go): read by ID.
			_, err := d.client.TeamAccess.Read(ctx, id)
			switch {
			case err == nil:
				return true, ""
			case !isNotFound(err):
				return false, fmt.Sprintf("Team access %s cannot be %s: reading it to tell whether it is gone failed: %s. State keeps it.", id, check.done, err)
			}
		}
		if gone, why := d.teamAccessGone(ctx, check, id, teamID, wsID, grants.parentMissing); !gone {
			return false, why
		}
		return false, ""
	}
}
