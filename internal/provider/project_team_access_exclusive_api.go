package provider

import (
	"context"
	"fmt"
	"net/url"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// A project's team access as the exclusive set needs it: the project's read (its name and
// whether the token sees every grant), its shared grant list, and what their errors mean
// (DESIGN.md "Gone or cannot see").

// permProjectTeamAccess is what sees and changes every team access of a project.
const permProjectTeamAccess = `admin access to the project, or the organization's "Manage projects" permission`

// projectGrants: team project access and tfgov_project_team_access_exclusive, on projects.
var projectGrants = &grantParentKind{
	noun: "project", grant: resourceType("team_project_access"), exclusive: projectTeamAccessExclusiveType,
	label: (*providerData).projectLabel, teamNames: (*providerData).projectTeamNames,
}

// projectExclusive is the exclusive mechanism on a project.
var projectExclusive = &exclusiveParent{
	kind: projectGrants, idAttr: "project_id", idPrefix: "prj-", grantNoun: "team project access", grantPrefix: "tprj-", perm: permProjectTeamAccess,
	see: (*providerData).seeProject,
	list: func(d *providerData, ctx context.Context, id string) (*exclusiveGrants, error) {
		l, err := d.projectTeamAccess(ctx, id)
		if err != nil {
			return nil, err
		}
		return exclusiveGrantsOf(l, func(g *tfe.TeamProjectAccess) *exclusiveGrant {
			if g.Team == nil {
				return nil
			}
			manages := g.ProjectAccess != nil && g.ProjectAccess.ProjectTeamsPermission == tfe.ProjectTeamsPermissionManage
			return &exclusiveGrant{ID: g.ID, TeamID: g.Team.ID, TeamName: g.Team.Name, Access: string(g.Access),
				admin: g.Access == tfe.TeamProjectAccessAdmin || (g.Access == tfe.TeamProjectAccessCustom && manages)}
		}), nil
	},
	invalidate: func(d *providerData, id string) { d.lists.projectAccess.invalidate(id) },
	remove: func(d *providerData, ctx context.Context, id string) error {
		return d.client.TeamProjectAccess.Remove(ctx, id)
	},
	locate:   (*providerData).locateProjectAccess,
	orgTeams: (*providerData).projectOrganizationTeams,
	orgAdmin: func(t *tfe.Team) bool {
		return t.Name == "owners" || (t.OrganizationAccess != nil && t.OrganizationAccess.ManageProjects)
	},
	notFound: projectNotFound,
	listError: func(id string, err error) string {
		if isNotFound(err) {
			return projectNotFound(id)
		}
		return fmt.Sprintf("Listing the team access of project %s: %s", id, err)
	},
}

func projectNotFound(id string) string {
	return fmt.Sprintf("Project %s was not found: no organization the API token belongs to has a project of that ID that the token may see.", id)
}

// projectRead is a project's read with the caller's permissions, which go-tfe's Project lacks.
type projectRead struct {
	ID           string            `jsonapi:"primary,projects"`
	Name         string            `jsonapi:"attr,name"`
	Permissions  *projectPerms     `jsonapi:"attr,permissions"`
	Organization *tfe.Organization `jsonapi:"relation,organization"`
}

type projectPerms struct {
	CanReadTeams   bool `jsonapi:"attr,can-read-teams" json:"can-read-teams"`
	CanManageTeams bool `jsonapi:"attr,can-manage-teams" json:"can-manage-teams"`
}

// readProject reads project id with its permissions (one request).
func (d *providerData) readProject(ctx context.Context, id string) (*projectRead, error) {
	p := &projectRead{}
	if err := tfeclient.APIRequest(ctx, d.client, "GET", "projects/"+url.PathEscape(id), nil, nil, p); err != nil {
		return nil, err
	}
	return p, nil
}

// seeProject reads a project's name and whether the token sees every grant of it (can-read-teams:
// the project's admins, custom grants that read its teams, owners and "Manage projects") once per
// operation (seeParent).
func (d *providerData) seeProject(ctx context.Context, id string) (*parentSeen, error) {
	return d.seeParent(ctx, "project:"+id, func(ctx context.Context) (parentSeen, error) {
		p, err := d.readProject(ctx, id)
		if err != nil {
			return parentSeen{}, err
		}
		all := p.Permissions != nil && (p.Permissions.CanReadTeams || p.Permissions.CanManageTeams)
		return parentSeen{name: p.Name, allGrants: all}, nil
	})
}

// projectLabel is "name" (prj-id) from seeProject, or the ID alone.
func (d *providerData) projectLabel(ctx context.Context, id string) string {
	if seen, err := d.seeProject(ctx, id); err == nil && seen.name != "" {
		return fmt.Sprintf("%q (%s)", seen.name, id)
	}
	return id
}

// projectTeamAccess is a project's shared grant list: a request per 100 grants per operation.
func (d *providerData) projectTeamAccess(ctx context.Context, id string) (*recordsByID[*tfe.TeamProjectAccess], error) {
	return d.lists.projectAccess.get(ctx, id, func(ctx context.Context) (*recordsByID[*tfe.TeamProjectAccess], error) {
		l, err := listAllPages(ctx, func(g *tfe.TeamProjectAccess) string { return g.ID }, func(ctx context.Context, n int) ([]*tfe.TeamProjectAccess, *tfe.Pagination, error) {
			p, err := d.client.TeamProjectAccess.List(ctx, tfe.TeamProjectAccessListOptions{ListOptions: listPage(n), ProjectID: id})
			if err != nil {
				return nil, nil, err
			}
			return p.Items, p.Pagination, nil
		})
		if err == nil {
			tflog.Debug(ctx, "Listed team project access", map[string]any{"project_id": id, "count": len(l.byID), "project_missing": l.parentMissing})
		}
		return l, err
	})
}

// projectOrganizationTeams takes the provider's organization when it holds teamID; else it reads
// the project for its organization.
func (d *providerData) projectOrganizationTeams(ctx context.Context, id, teamID string) (*recordsByID[*tfe.Team], error) {
	if d.organization != "" {
		if teams, err := d.organizationTeams(ctx, d.organization); err == nil {
			if _, ok := teams.lookup(teamID); ok {
				return teams, nil
			}
		}
	}
	p, err := d.readProject(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Organization == nil || p.Organization.Name == "" {
		return nil, fmt.Errorf("project %s names no organization", id)
	}
	return d.organizationTeams(ctx, p.Organization.Name)
}

// projectTeamNames names the grants' teams from the answer, else from the shared team list.
func (d *providerData) projectTeamNames(ctx context.Context, id string, grants []*tfe.TeamAccess) map[string]string {
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
	teams, err := d.projectOrganizationTeams(ctx, id, missing)
	if err != nil {
		tflog.Warn(ctx, "Could not list the teams of the project's organization: team names left out", map[string]any{"project_id": id, "error": err.Error()})
		return names
	}
	for _, g := range grants {
		if t, ok := teams.lookup(g.Team.ID); ok && names[g.Team.ID] == "" {
			names[g.Team.ID] = t.Name
		}
	}
	return names
}

// locateProjectAccess is the refresh of grant id (team teamID) of project prjID after a write's
// 404, its reads made afresh: gone only for a token that sees every grant of a project it sees.
func (d *providerData) locateProjectAccess(id, teamID, prjID string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		d.lists.projectAccess.invalidate(prjID)
		d.lists.parents.invalidate("project:" + prjID)
		what := fmt.Sprintf("Team project access %s (team %s)", id, teamID)
		grants, err := d.projectTeamAccess(ctx, prjID)
		if err != nil {
			return false, fmt.Sprintf("%s cannot be %s: listing the team access of project %s to tell whether it is gone failed: %s. State keeps it.", what, check.done, prjID, err)
		}
		if _, ok := grants.lookup(id); ok {
			return true, ""
		}
		if !grants.definite() {
			// Make sure (shared_lists.go): read by ID.
			_, err := d.client.TeamProjectAccess.Read(ctx, id)
			switch {
			case err == nil:
				return true, ""
			case !isNotFound(err):
				return false, fmt.Sprintf("%s cannot be %s: reading it to tell whether it is gone failed: %s. State keeps it.", what, check.done, err)
			}
		}
		seen, err := d.seeProject(ctx, prjID)
		switch {
		case err != nil:
			return false, fmt.Sprintf("%s cannot be %s: reading project %s to tell whether it was removed failed: %s. State keeps it.", what, check.done, prjID, err)
		case seen.missing || grants.parentMissing:
			return false, fmt.Sprintf("%s cannot be %s: project %s was not found. It was deleted, or the API token belongs to no team of its organization: "+
				"the service answers the same to both. %s", what, check.done, prjID, stateRmAdvice)
		case !seen.allGrants:
			return false, fmt.Sprintf("%s cannot be %s: the API token may not see it. Project %s (%q) exists, but without %s, a token sees only the access of its own teams. "+
				"State keeps it; %s with a token that has the permission, or an owner's.", what, check.done, prjID, seen.name, permProjectTeamAccess, check.again)
		}
		return false, ""
	}
}
