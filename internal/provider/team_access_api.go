package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Team access's requests and what their errors mean. A member sees only
// their own teams' grants, so a grant missing from a workspace's list is gone
// only for a token that may update the workspace (DESIGN.md "Gone or cannot see").

// listTeamAccess returns every grant of a workspace that the token may see.
// The API does not paginate this list unless asked to; should a server
// paginate it anyway, the further pages are followed.
func listTeamAccess(ctx context.Context, client *tfe.Client, workspaceID string) ([]*tfe.TeamAccess, error) {
	return tfeclient.ListAll(ctx, teamAccessPages(client, workspaceID, 0))
}

// teamAccessPages fetches the pages of a workspace's grants, size a page
// (0: the API's default, which is no pagination at all for page 1).
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

// teamAccessListQuery is go-tfe's TeamAccessListOptions plus `include`,
// which go-tfe does not offer for this list: with include=team the teams'
// names come in the same response instead of one request per team.
type teamAccessListQuery struct {
	tfe.ListOptions
	WorkspaceID string `url:"filter[workspace][id]"`
	Include     string `url:"include,omitempty"`
}

// listTeamAccessWithTeams is listTeamAccess with the teams included.
func listTeamAccessWithTeams(ctx context.Context, c *tfe.Client, wsID string) ([]*tfe.TeamAccess, error) {
	return tfeclient.ListAll(ctx, func(ctx context.Context, n int) ([]*tfe.TeamAccess, *tfe.Pagination, error) {
		q := &teamAccessListQuery{WorkspaceID: wsID, Include: "team"}
		if n > 1 {
			q.PageNumber = n
		}
		l := &tfe.TeamAccessList{}
		if err := tfeclient.APIRequest(ctx, c, "GET", "team-workspaces", q, nil, l); err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	})
}

// organizationTeams returns the teams of an organization that the token
// may see, from the shared list: one request per 100 teams, per
// organization and operation, for every grant that names a team (its
// name, the lock-out guard). Secret teams the token may not see are
// missing from it.
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

// workspaceOrganizationTeams returns the teams of the workspace's
// organization. The provider's organization is taken when its team list
// holds teamID, a team with a grant on the workspace (a team can hold
// access only to a workspace of its own organization); otherwise the
// workspace is read for its organization.
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

// teamNames returns the names of the teams of grants, by team ID: the name
// the list's answer included (include=team), else the one in the
// workspace's organization's team list (one request per 100 teams, shared
// by every grant of the organization in the operation; never a read per
// grant). A team the token may not see (a secret team of which the
// token's user is no member) has no name here.
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

// teamLabel names a team by name and ID ("platform" (team-abc)), or by
// ID alone when the token may not see its name.
func teamLabel(names map[string]string, id string) string {
	if n := names[id]; n != "" {
		return fmt.Sprintf("%q (%s)", n, id)
	}
	return id
}

// seeWorkspace reads workspace wsID once per configured provider (its
// name and can-update), as seeParent reads every parent.
func (d *providerData) seeWorkspace(ctx context.Context, wsID string) (*parentSeen, error) {
	return d.seeParent(ctx, "workspace:"+wsID, func(ctx context.Context) (parentSeen, error) {
		ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
		if err != nil {
			return parentSeen{}, err
		}
		return parentSeen{name: ws.Name, canUpdate: ws.Permissions != nil && ws.Permissions.CanUpdate}, nil
	})
}

// workspaceLabel names workspace wsID by name and ID ("prod" (ws-abc)),
// from its one read (seeWorkspace, shared with the refreshes), or by ID
// alone when that read fails or finds nothing.
func (d *providerData) workspaceLabel(ctx context.Context, wsID string) string {
	if seen, err := d.seeWorkspace(ctx, wsID); err == nil && seen.name != "" {
		return fmt.Sprintf("%q (%s)", seen.name, wsID)
	}
	return wsID
}

// workspaceLabelHeld is workspaceLabel from a read this operation already
// made (the refresh's), or the ID alone: no request.
func (d *providerData) workspaceLabelHeld(wsID string) string {
	if seen, ok := d.lists.parents.held("workspace:" + wsID); ok && seen.name != "" {
		return fmt.Sprintf("%q (%s)", seen.name, wsID)
	}
	return wsID
}

// workspaceAccessError explains a 404 on a workspace's team access list.
// Any member of the workspace's organization may list it (seeing the
// grants of their own teams), so the 404 means the workspace is not in an
// organization the token belongs to.
func workspaceAccessError(workspaceID string, err error) string {
	if isNotFound(err) {
		return workspaceNotFound(workspaceID)
	}
	return fmt.Sprintf("Listing the team access of workspace %s: %s", workspaceID, err)
}

// workspaceNotFound is workspaceAccessError's 404.
func workspaceNotFound(workspaceID string) string {
	return fmt.Sprintf("Workspace %s was not found: no organization the API token belongs to has a workspace of that ID (any member may list a workspace's team access).", workspaceID)
}

// teamAccessAddError explains a 404 from adding team access: a missing
// workspace, a missing team, or a token that may not manage the
// workspace's team access. One read of the workspace says which: it is
// missing; or the token's permissions on it (can-update, which admin
// access and "Manage workspaces" give) show it may not manage its access;
// or else the team is what is missing.
func (d *providerData) teamAccessAddError(ctx context.Context, teamID, wsID string) string {
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	switch {
	case isNotFound(err):
		return fmt.Sprintf("Workspace %s was not found: no organization the API token belongs to has a workspace of that ID.", wsID)
	case err != nil || ws.Permissions == nil:
		return fmt.Sprintf("Workspace %s or team %s was not found, or the API token may not manage the workspace's team access (it needs %s, or to be an owner).", wsID, teamID, permTeamAccess)
	case !ws.Permissions.CanUpdate:
		return fmt.Sprintf("Workspace %s (%q) exists, but the API token may not manage its team access: it needs %s, or to be an owner, or the organization token.", wsID, ws.Name, permTeamAccess)
	}
	if org := d.teamOrganization(ctx, teamID); org != "" && ws.Organization != nil && org != ws.Organization.Name {
		return fmt.Sprintf("Team %s belongs to organization %s, and workspace %s (%q) to organization %s: a team can hold access only to the workspaces of its own organization.",
			teamID, org, wsID, ws.Name, ws.Organization.Name)
	}
	return fmt.Sprintf("Team %s was not found: workspace %s (%q) exists and the API token may manage its team access, so no team of that ID is visible to it "+
		"(a secret team is visible only to its members and to owners).", teamID, wsID, ws.Name)
}

// teamAccessUpdateError explains a 404 from updating grant id of workspace
// wsID: one read of the workspace says whether it is gone, the token may
// not manage its team access (its can-update), or the grant itself was
// removed outside Terraform.
func (d *providerData) teamAccessUpdateError(ctx context.Context, id, wsID string) string {
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	switch {
	case isNotFound(err):
		return fmt.Sprintf("Workspace %s of team access %s was not found: it was deleted, or it is in no organization the API token belongs to.", wsID, id)
	case err == nil && ws.Permissions != nil && !ws.Permissions.CanUpdate:
		return fmt.Sprintf("Workspace %s (%q) exists, but the API token may not manage its team access: it needs %s, or to be an owner, or the organization token.", wsID, ws.Name, permTeamAccess)
	case err == nil && ws.Permissions != nil:
		return fmt.Sprintf("Team access %s was removed outside Terraform (workspace %s exists and the API token may manage its team access). Run terraform apply again to add it back.", id, wsID)
	}
	return fmt.Sprintf("Team access %s was not found, or the API token may not manage the team access of workspace %s (it needs %s). "+
		"If it was removed outside Terraform, run terraform apply again to add it back.", id, wsID, permTeamAccess)
}

// noTeamAccessDetail explains a team absent from a workspace's team access
// list. Members see only the grants of their own teams; admins of the
// workspace (its can-update) and owners see all: one read of the workspace
// says whether the team has no access or the token may not see it.
func (d *providerData) noTeamAccessDetail(ctx context.Context, teamID, wsID string) string {
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	if err == nil && ws.Permissions != nil && ws.Permissions.CanUpdate {
		return fmt.Sprintf("Team %s has no access to workspace %s (%q): the API token sees every grant of the workspace, and none is the team's.", teamID, wsID, ws.Name)
	}
	return fmt.Sprintf("Team %s has no access to workspace %s that the API token may see: without %s, a token sees only the access of its own teams.", teamID, wsID, permTeamAccess)
}

// teamAccessTaken is the error for an add refused because the team already
// holds grant g on the workspace (note: what the service answered, or why
// a grant found after a lost answer is not taken over).
// The team and the workspace are named beside their IDs when the token
// may see them (teamNames, workspaceLabel: reads of an error's path).
func (d *providerData) teamAccessTaken(ctx context.Context, teamID, wsID string, g *tfe.TeamAccess, note string) string {
	return teamAccessTakenText(teamLabel(d.teamNames(ctx, wsID, []*tfe.TeamAccess{g}), teamID), d.workspaceLabel(ctx, wsID), g, note)
}

func teamAccessTakenText(team, workspace string, g *tfe.TeamAccess, note string) string {
	return fmt.Sprintf("Team %s already has %q access to workspace %s (team access %s), and a team can hold only one access per workspace.\n\n%s\n\n%s",
		team, g.Access, workspace, g.ID, importAdvice("tfgov_team_access", g.ID, g.ID), note)
}

// workspaceMissing is the refresh error of what (a grant, or a workspace's
// exclusive access) whose workspace wsID answered 404.
func workspaceMissing(what, wsID string) string {
	return fmt.Sprintf("%s cannot be refreshed: workspace %s was not found. It was deleted, or the API token belongs to no team of its organization: "+
		"the service answers the same to both. %s", what, wsID, stateRmAdvice)
}

// teamAccessGone reports whether grant id (of team teamID) missing from
// the list of workspace wsID is gone; when it cannot tell, the error says
// why (the grant, its team, the workspace, the permission) and the refresh
// fails.
// listMissing: the list itself answered 404.
func (d *providerData) teamAccessGone(ctx context.Context, id, teamID, wsID string, listMissing bool) (bool, string) {
	what := "Team access " + id
	if teamID != "" {
		what += " (team " + teamID + ")"
	}
	seen, err := d.seeWorkspace(ctx, wsID)
	switch {
	case err != nil:
		return false, fmt.Sprintf("%s cannot be refreshed: it is not in the team access of workspace %s that the API token sees, and reading the workspace to tell whether it was removed failed: %s. State keeps it.", what, wsID, err)
	case seen.missing:
		return false, workspaceMissing(what, wsID)
	case listMissing:
		return false, fmt.Sprintf("%s cannot be refreshed: workspace %s (%q) exists, but the list of its team access answered 404. State keeps it; refresh again.", what, wsID, seen.name)
	case !seen.canUpdate:
		return false, fmt.Sprintf("%s cannot be refreshed: the API token may not see it. Workspace %s (%q) exists, but without %s, a token sees only the access of its own teams, "+
			"so the workspace's list does not tell whether the grant was removed. State keeps it; refresh with a token that has the permission, or an owner's.",
			what, wsID, seen.name, permTeamAccess)
	}
	return true, ""
}
