package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
)

// Team project access's requests, and what their errors mean (DESIGN.md "Gone or cannot see"); the
// gone-or-cannot-see rule is grant_parent.go's, with projectGrants.

// projectGrantTeams is the grants' teams, for the names grantTeamNames finds.
func projectGrantTeams(grants ...*tfe.TeamProjectAccess) []*tfe.TeamAccess {
	out := make([]*tfe.TeamAccess, 0, len(grants))
	for _, g := range grants {
		out = append(out, &tfe.TeamAccess{Team: g.Team})
	}
	return out
}

// teamProjectAccessAddError tells a missing project, permission or team apart by one project read,
// and a team of another organization by one team read.
func (d *providerData) teamProjectAccessAddError(ctx context.Context, teamID, prjID string) string {
	p, err := readProjectPermissions(ctx, d.client, prjID)
	switch {
	case isNotFound(err):
		return fmt.Sprintf("Project %s was not found: no organization the API token belongs to has a project of that ID that the token may see.", prjID)
	case err != nil || p.Permissions == nil:
		return fmt.Sprintf("Project %s or team %s was not found, or the API token may not manage the project's team access (it needs %s, or to be an owner).", prjID, teamID, permProjectTeamAccess)
	case !p.Permissions.CanManageTeams:
		return fmt.Sprintf("Project %s (%q) exists, but the API token may not manage its team access: it needs %s, or to be an owner, or the organization token.", prjID, p.Name, permProjectTeamAccess)
	}
	if org := d.teamOrganization(ctx, teamID); org != "" && p.Organization != nil && org != p.Organization.Name {
		return fmt.Sprintf("Team %s belongs to organization %s, and project %s (%q) to organization %s: a team can hold access only to the projects of its own organization.",
			teamID, org, prjID, p.Name, p.Organization.Name)
	}
	return fmt.Sprintf("Team %s was not found: project %s (%q) exists and the API token may manage its team access, so no team of that ID is visible to it "+
		"(a secret team is visible only to its members and to owners).", teamID, prjID, p.Name)
}

// teamProjectAccessUpdateError tells a gone project, a missing permission and a grant removed
// outside Terraform apart by one project read.
func (d *providerData) teamProjectAccessUpdateError(ctx context.Context, id, prjID string) string {
	p, err := readProjectPermissions(ctx, d.client, prjID)
	switch {
	case isNotFound(err):
		return fmt.Sprintf("Project %s of team project access %s was not found: it was deleted, or the API token may not see it.", prjID, id)
	case err == nil && p.Permissions != nil && !p.Permissions.CanManageTeams:
		return fmt.Sprintf("Project %s (%q) exists, but the API token may not manage its team access: it needs %s, or to be an owner, or the organization token.", prjID, p.Name, permProjectTeamAccess)
	case err == nil && p.Permissions != nil:
		return fmt.Sprintf("Team project access %s was removed outside Terraform (project %s exists and the API token may manage its team access). Run terraform apply again to add it back.", id, prjID)
	}
	return fmt.Sprintf("Team project access %s was not found, or the API token may not manage the team access of project %s (it needs %s). "+
		"If it was removed outside Terraform, run terraform apply again to add it back.", id, prjID, permProjectTeamAccess)
}

// teamProjectAccessTaken refuses an add for a team that holds g already; note says why.
func (d *providerData) teamProjectAccessTaken(ctx context.Context, teamID, prjID string, g *tfe.TeamProjectAccess, note string) string {
	team := teamLabel(d.grantTeamNames(ctx, projectGrants, prjID, projectGrantTeams(g)), teamID)
	return fmt.Sprintf("Team %s already has %q access to project %s (team project access %s), and a team can hold only one access per project.\n\n%s\n\n%s",
		team, g.Access, d.parentLabel(ctx, projectGrants, prjID), g.ID, importAdvice("tfgov_team_project_access", g.ID, g.ID), note)
}

// noProjectGrantDetail: "no access" only for a token that sees every grant of the project.
func (d *providerData) noProjectGrantDetail(ctx context.Context, teamID, prjID string) string {
	seen, err := d.seeGrantParent(ctx, projectGrants, prjID)
	if err == nil && !seen.missing && seen.allGrants {
		return fmt.Sprintf("Team %s has no access to project %s (%q): the API token sees every grant of the project, and none is the team's.", teamID, prjID, seen.name)
	}
	return fmt.Sprintf("Team %s has no access to project %s that the API token may see: without %s, a token sees only the access of its own teams.", teamID, prjID, permProjectTeamAccess)
}

// projectNotFound: a project's list answered 404, so the token may not see the project.
func projectNotFound(prjID string) string {
	return fmt.Sprintf("Project %s was not found: no organization the API token belongs to has a project of that ID that the token may see "+
		"(a member sees the projects its teams have access to; owners and teams with \"View all projects\" or \"Manage projects\" see all).", prjID)
}
