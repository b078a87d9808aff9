package provider

import (
	"context"
	"fmt"
	"net/url"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Team access: gone or cannot see (DESIGN.md, "Gone or cannot see"). A
// workspace's list of grants shows a member only the grants of their own
// teams; its admins (the workspace's can-update) and owners see all. So a
// grant missing from the list is gone only when the token may update the
// workspace: one read of the workspace, shared by every grant of it in the
// operation, says so. Without that, the refresh fails and state keeps the
// grant.

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

// exclusiveCannotSee says why a token may not refresh the exclusive access
// of workspace wsID ("" when it may): only a token that sees every grant
// of the workspace can say which teams hold access.
func (d *providerData) exclusiveCannotSee(ctx context.Context, wsID string) string {
	what := "The exclusive team access of workspace " + wsID
	seen, err := d.seeWorkspace(ctx, wsID)
	switch {
	case err != nil:
		return fmt.Sprintf("%s cannot be refreshed: reading the workspace to tell whether the API token sees every grant failed: %s.", what, err)
	case seen.missing:
		return workspaceMissing(what, wsID)
	case !seen.canUpdate:
		return fmt.Sprintf("%s cannot be refreshed: %s State keeps it; refresh with a token that has the permission.", what, exclusiveNotAllGrants(wsID, seen.name))
	}
	return ""
}

// exclusiveNotAllGrants says that the token may not see every grant of
// workspace wsID (called name).
func exclusiveNotAllGrants(wsID, name string) string {
	return fmt.Sprintf("workspace %s (%q) exists, but the API token may not see every team's access to it: it needs %s, or to be an owner. "+
		"Without it a token sees only the access of its own teams, and could not tell which other teams hold access.", wsID, name, permTeamAccess)
}

func grantRecordOf(grants *recordsByID[*tfe.TeamAccess]) grantRecord {
	rec := grantRecord{}
	for _, g := range grants.byID {
		if g.Team != nil && g.Team.ID != "" {
			rec[g.Team.ID] = g.ID
		}
	}
	return rec
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
