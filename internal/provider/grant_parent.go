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

// One grant mechanism, two parents: a team's access to a workspace and to a project. A parent kind
// (grantParentKind) says how to see a parent, list its grants and tell a deleted one; the gone-or-
// cannot-see rule, the lost-create look-up and the exclusive plans are written once, over it.
// DESIGN.md "Gone or cannot see".

// grantParentKind is what teams are granted access on, as a value.
type grantParentKind struct {
	noun             string                 // as messages name it: "workspace", "project"
	what             string                 // its grants' noun: "Team access", "Team project access"
	perm             string                 // what sees and manages every grant of a parent (errors.go)
	seesAll          string                 // the organization permissions that show every parent of the kind
	grant, exclusive resourceType           // the grant resource and the exclusive set on this kind of parent
	idAttr, idPrefix string                 // the parent's attribute and ID prefix: "workspace_id", "ws-"
	grantPrefix      string                 // its grants' ID prefix: "tws-"
	notFound         func(id string) string // a list of the parent's grants answered 404
	// see reads a parent: its name, organization and whether the token sees every grant of it.
	see func(d *providerData, ctx context.Context, id string) (parentSeen, string, error)
	// seesEvery: a team's organization access that shows it every parent of the kind.
	seesEvery func(a *tfe.OrganizationAccess) bool
	// listedInOrganization: the organization's complete list of parents (shared, read on the gone path only) holds id.
	listedInOrganization func(d *providerData, ctx context.Context, org, id string) (listed bool, ok bool)
	// grantListed: grant id in the parent's shared list; definite as recordsByID says.
	grantListed func(d *providerData, ctx context.Context, parentID, id string) (listed, definite, parentMissing bool, err error)
	readGrant   func(d *providerData, ctx context.Context, id string) error // by ID: a 404 is "not found"
	invalidate  func(d *providerData, parentID string)                      // drop the parent's shared grant list
}

// workspaceGrants: tfgov_team_access and tfgov_workspace_team_access_exclusive.
var workspaceGrants = &grantParentKind{
	noun: "workspace", what: "Team access", perm: permTeamAccess,
	seesAll: `an owner, or a team with "Manage workspaces" or "View all workspaces"`,
	grant:   teamAccessType, exclusive: workspaceTeamAccessExclusiveType,
	idAttr: "workspace_id", idPrefix: "ws-", grantPrefix: "tws-", notFound: workspaceNotFound,
	see: func(d *providerData, ctx context.Context, id string) (parentSeen, string, error) {
		ws, err := d.client.Workspaces.ReadByID(ctx, id)
		if err != nil {
			return parentSeen{}, "", err
		}
		org := ""
		if ws.Organization != nil {
			org = ws.Organization.Name
		}
		return parentSeen{name: ws.Name, allGrants: seesEveryGrant(ws)}, org, nil
	},
	seesEvery: func(a *tfe.OrganizationAccess) bool { return a.ManageWorkspaces || a.ReadWorkspaces },
	listedInOrganization: func(d *providerData, ctx context.Context, org, id string) (bool, bool) {
		all, err := d.organizationWorkspaces(ctx, org)
		if err != nil || all.parentMissing {
			return false, false
		}
		_, listed := all.lookup(id)
		return listed, true
	},
	grantListed: func(d *providerData, ctx context.Context, wsID, id string) (bool, bool, bool, error) {
		return listedIn(d.workspaceTeamAccess(ctx, wsID))(id)
	},
	readGrant: func(d *providerData, ctx context.Context, id string) error {
		_, err := d.client.TeamAccess.Read(ctx, id)
		return err
	},
	invalidate: func(d *providerData, wsID string) { d.lists.teamAccess.invalidate(wsID) },
}

// projectGrants: tfgov_team_project_access and tfgov_project_team_access_exclusive.
var projectGrants = &grantParentKind{
	noun: "project", what: "Team project access", perm: permProjectTeamAccess,
	seesAll: `an owner, or a team with "Manage projects" or "View all projects"`,
	grant:   teamProjectAccessType, exclusive: projectTeamAccessExclusiveType,
	idAttr: "project_id", idPrefix: "prj-", grantPrefix: "tprj-", notFound: projectNotFound,
	see: func(d *providerData, ctx context.Context, id string) (parentSeen, string, error) {
		p, err := readProjectPermissions(ctx, d.client, id)
		if err != nil {
			return parentSeen{}, "", err
		}
		org := ""
		if p.Organization != nil {
			org = p.Organization.Name
		}
		return parentSeen{name: p.Name, allGrants: p.Permissions != nil && (p.Permissions.CanReadTeams || p.Permissions.CanManageTeams)}, org, nil
	},
	seesEvery: func(a *tfe.OrganizationAccess) bool { return a.ManageProjects || a.ReadProjects },
	listedInOrganization: func(d *providerData, ctx context.Context, org, id string) (bool, bool) {
		all, err := d.organizationProjects(ctx, org)
		if err != nil || all.parentMissing {
			return false, false
		}
		_, listed := all.lookup(id)
		return listed, true
	},
	grantListed: func(d *providerData, ctx context.Context, prjID, id string) (bool, bool, bool, error) {
		return listedIn(d.projectTeamAccess(ctx, prjID))(id)
	},
	readGrant: func(d *providerData, ctx context.Context, id string) error {
		_, err := d.client.TeamProjectAccess.Read(ctx, id)
		return err
	},
	invalidate: func(d *providerData, prjID string) { d.lists.teamProjectAccess.invalidate(prjID) },
}

// listedIn adapts a shared list's answer to grantListed.
func listedIn[T any](l *recordsByID[T], err error) func(id string) (bool, bool, bool, error) {
	return func(id string) (bool, bool, bool, error) {
		if err != nil {
			return false, false, false, err
		}
		_, ok := l.lookup(id)
		return ok, l.definite(), l.parentMissing, nil
	}
}

// accessParent is one parent that holds grants.
type accessParent struct {
	kind *grantParentKind
	id   string
}

func (p accessParent) String() string { return p.kind.noun + " " + p.id }

func (k *grantParentKind) seenKey(id string) string { return k.noun + ":" + id }

// seeGrantParent reads a parent's name and whether the token sees every grant, once per operation (seeParent).
func (d *providerData) seeGrantParent(ctx context.Context, k *grantParentKind, id string) (*parentSeen, error) {
	return d.seeParent(ctx, k.seenKey(id), func(ctx context.Context) (parentSeen, error) {
		seen, _, err := k.see(d, ctx, id)
		return seen, err
	})
}

// parentLabel is "name" (id) from seeGrantParent, or the ID alone.
func (d *providerData) parentLabel(ctx context.Context, k *grantParentKind, id string) string {
	if seen, err := d.seeGrantParent(ctx, k, id); err == nil && seen.name != "" {
		return fmt.Sprintf("%q (%s)", seen.name, id)
	}
	return id
}

// parentLabelHeld is parentLabel from a read already made: no request.
func (d *providerData) parentLabelHeld(k *grantParentKind, id string) string {
	if seen, ok := d.lists.parents.held(k.seenKey(id)); ok && seen.name != "" {
		return fmt.Sprintf("%q (%s)", seen.name, id)
	}
	return id
}

// parentOrganizationTeams takes the provider's organization when it holds teamID (a team has
// access only in its own organization); else it reads the parent for its organization.
func (d *providerData) parentOrganizationTeams(ctx context.Context, k *grantParentKind, id, teamID string) (*recordsByID[*tfe.Team], error) {
	if d.organization != "" {
		teams, err := d.organizationTeams(ctx, d.organization)
		if err == nil {
			if _, ok := teams.lookup(teamID); ok {
				return teams, nil
			}
		}
	}
	_, org, err := k.see(d, ctx, id)
	if err != nil {
		return nil, err
	}
	if org == "" {
		return nil, fmt.Errorf("%s %s names no organization", k.noun, id)
	}
	return d.organizationTeams(ctx, org)
}

// grantTeamNames names the grants' teams from the answer, else from the shared team list: never a
// read per grant. A secret team the token may not see has no name.
func (d *providerData) grantTeamNames(ctx context.Context, k *grantParentKind, id string, grants []*tfe.TeamAccess) map[string]string {
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
	teams, err := d.parentOrganizationTeams(ctx, k, id, missing)
	if err != nil {
		tflog.Warn(ctx, "Could not list the teams of the parent's organization: team names left out", map[string]any{k.noun + "_id": id, "error": err.Error()})
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

// parentMissingText: a parent that answered 404 and is not proved gone.
func parentMissingText(k *grantParentKind, check goneCheck, what, id string) string {
	return fmt.Sprintf("%s cannot be %s: %s %s was not found. It was deleted, or the API token belongs to no team of its organization: "+
		"the service answers the same to both. %s", what, check.done, k.noun, id, stateRmAdvice)
}

// grantGone: a grant missing from its parent's list is gone only for a token that sees every grant, or
// whose parent is gone (parentGone; why is then the warning); otherwise why names what it cannot see.
func (d *providerData) grantGone(ctx context.Context, k *grantParentKind, check goneCheck, id, teamID, parentID string, listMissing bool) (bool, string) {
	what := k.what + " " + id
	if teamID != "" {
		what += " (team " + teamID + ")"
	}
	seen, err := d.seeGrantParent(ctx, k, parentID)
	switch {
	case err != nil:
		return false, fmt.Sprintf("%s cannot be %s: it is not in the team access of %s %s that the API token sees, and reading the %s to tell whether it was removed failed: %s. State keeps it.",
			what, check.done, k.noun, parentID, k.noun, err)
	case seen.missing && d.parentGone(ctx, k, parentID, []string{teamID}):
		return true, d.parentGoneProof(k)
	case seen.missing:
		return false, parentMissingText(k, check, what, parentID)
	case listMissing:
		return false, fmt.Sprintf("%s cannot be %s: %s %s (%q) exists, but the list of its team access answered 404. State keeps it; %s.", what, check.done, k.noun, parentID, seen.name, check.again)
	case !seen.allGrants:
		return false, fmt.Sprintf("%s cannot be %s: the API token may not see it. %s %s (%q) exists, but without %s, a token sees only the access of its own teams, "+
			"so the %s's list does not tell whether the grant was removed. State keeps it; %s with a token that has the permission, or an owner's.",
			what, check.done, upperFirst(k.noun), parentID, seen.name, k.perm, k.noun, check.again)
	}
	return true, ""
}

// parentGone: parent id, which answered 404, is gone when the grant of one of teamIDs ties it to the
// provider's organization (a team holds access only there), the token's user sees every parent of
// the kind there, and its complete list lacks id. DESIGN.md "Gone or cannot see".
func (d *providerData) parentGone(ctx context.Context, k *grantParentKind, id string, teamIDs []string) bool {
	org := d.organization
	if caller, err := d.caller.get(ctx, d.client); org == "" || err != nil || caller == nil {
		return false // a team or organization token names no user, whose teams would tell
	}
	teams, err := d.organizationTeams(ctx, org)
	if err != nil || teams.parentMissing {
		return false
	}
	if !slices.ContainsFunc(teamIDs, func(id string) bool { _, ok := teams.lookup(id); return ok }) {
		return false
	}
	if sees, _ := d.seesEveryParent(ctx, k, org); !sees {
		return false
	}
	listed, ok := k.listedInOrganization(d, ctx, org, id)
	tflog.Debug(ctx, "Parent answered 404; looked for in the organization's complete list", map[string]any{k.noun + "_id": id, "organization": org, "listed": listed})
	return ok && !listed
}

// parentGoneProof says why a parent that answered 404 is gone.
func (d *providerData) parentGoneProof(k *grantParentKind) string {
	return fmt.Sprintf("The API token's user sees every %s of organization %s (%s), "+
		"and the %s is neither in its list nor readable by ID. Remove the resource from the configuration, or the next plan proposes creating it again.", k.noun, d.organization, k.seesAll, k.noun)
}

// locateGrant is the refresh of grant id (team teamID) of a parent after a write's 404 (Read's
// reads, made afresh): gone only as grantGone says.
func (d *providerData) locateGrant(k *grantParentKind, id, teamID, parentID string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		k.invalidate(d, parentID)
		d.lists.parents.invalidate(k.seenKey(parentID))
		d.lists.workspaces.invalidate(d.organization)
		d.lists.projects.invalidate(d.organization)
		listed, definite, parentMissing, err := k.grantListed(d, ctx, parentID, id)
		if err != nil {
			return false, fmt.Sprintf("%s %s cannot be %s: listing the team access of %s %s to tell whether it is gone failed: %s. State keeps it.", k.what, id, check.done, k.noun, parentID, err)
		}
		if listed {
			return true, ""
		}
		if !definite {
			// Make sure (shared_lists.go): read by ID.
			err := k.readGrant(d, ctx, id)
			switch {
			case err == nil:
				return true, ""
			case !isNotFound(err):
				return false, fmt.Sprintf("%s %s cannot be %s: reading it to tell whether it is gone failed: %s. State keeps it.", k.what, id, check.done, err)
			}
		}
		if gone, why := d.grantGone(ctx, k, check, id, teamID, parentID, parentMissing); !gone {
			return false, why
		}
		return false, ""
	}
}

// projectWithPermissions is a project's read with the caller's permissions, which go-tfe's Project lacks.
type projectWithPermissions struct {
	ID           string             `jsonapi:"primary,projects"`
	Name         string             `jsonapi:"attr,name"`
	Permissions  *projectCallerPerm `jsonapi:"attr,permissions"`
	Organization *tfe.Organization  `jsonapi:"relation,organization"`
}

// projectCallerPerm: can-read-teams shows every grant of the project, can-manage-teams changes them.
type projectCallerPerm struct {
	CanReadTeams   bool `jsonapi:"attr,can-read-teams"`
	CanManageTeams bool `jsonapi:"attr,can-manage-teams"`
}

func readProjectPermissions(ctx context.Context, c *tfe.Client, id string) (*projectWithPermissions, error) {
	p := &projectWithPermissions{}
	if err := tfeclient.APIRequest(ctx, c, "GET", "projects/"+url.PathEscape(id), nil, nil, p); err != nil {
		return nil, err
	}
	return p, nil
}

// organizationProjects is the shared project list: a request per 100 projects per organization and
// operation, read only for a project that answered 404.
func (d *providerData) organizationProjects(ctx context.Context, org string) (*recordsByID[*tfe.Project], error) {
	return d.lists.projects.get(ctx, org, func(ctx context.Context) (*recordsByID[*tfe.Project], error) {
		return listAllPages(ctx, func(p *tfe.Project) string { return p.ID }, func(ctx context.Context, n int) ([]*tfe.Project, *tfe.Pagination, error) {
			l, err := d.client.Projects.List(ctx, org, &tfe.ProjectListOptions{ListOptions: listPage(n)})
			if err != nil {
				return nil, nil, err
			}
			return l.Items, l.Pagination, nil
		})
	})
}

// grantTeamName names team teamID from the shared team list of the parent's organization (parentID
// "": the provider's): null when the token may not see the team or the list fails.
func (d *providerData) grantTeamName(ctx context.Context, k *grantParentKind, parentID, teamID string) types.String {
	var teams *recordsByID[*tfe.Team]
	var err error
	switch {
	case teamID == "":
		return types.StringNull()
	case parentID != "":
		teams, err = d.parentOrganizationTeams(ctx, k, parentID, teamID)
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

// projectTeamAccess returns a project's grants from the shared list, with their teams' names
// (include=team): a request per 100 grants per project and operation.
func (d *providerData) projectTeamAccess(ctx context.Context, projectID string) (*recordsByID[*tfe.TeamProjectAccess], error) {
	return d.lists.teamProjectAccess.get(ctx, projectID, func(ctx context.Context) (*recordsByID[*tfe.TeamProjectAccess], error) {
		l, err := listAllPages(ctx, func(g *tfe.TeamProjectAccess) string { return g.ID }, teamProjectAccessPages(d.client, projectID, bulkPageSize))
		if err == nil {
			tflog.Debug(ctx, "Listed team project access", map[string]any{"project_id": projectID, "count": len(l.byID), "project_missing": l.parentMissing})
		}
		return l, err
	})
}

// teamProjectAccessListQuery adds include=team, which go-tfe lacks: team names in the same answer.
type teamProjectAccessListQuery struct {
	tfe.ListOptions
	ProjectID string `url:"filter[project][id]"`
	Include   string `url:"include,omitempty"`
}

// teamProjectAccessPages reads a page of size grants of a project, with their teams.
func teamProjectAccessPages(c *tfe.Client, prjID string, size int) func(context.Context, int) ([]*tfe.TeamProjectAccess, *tfe.Pagination, error) {
	return func(ctx context.Context, n int) ([]*tfe.TeamProjectAccess, *tfe.Pagination, error) {
		q := &teamProjectAccessListQuery{ProjectID: prjID, Include: "team", ListOptions: tfe.ListOptions{PageNumber: n, PageSize: size}}
		l := &tfe.TeamProjectAccessList{}
		if err := tfeclient.APIRequest(ctx, c, "GET", "team-projects", q, nil, l); err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	}
}

// listTeamProjectAccess lists every grant of a project the token sees, afresh (no shared list).
func listTeamProjectAccess(ctx context.Context, c *tfe.Client, prjID string) ([]*tfe.TeamProjectAccess, error) {
	return tfeclient.ListAll(ctx, teamProjectAccessPages(c, prjID, bulkPageSize))
}

// seesEveryParent: the token's user is, in org's shared team list, an owner or in a team whose
// organization access shows every parent of the kind. A token naming no user (team, organization)
// is not proven. DESIGN.md "Governed workspaces".
func (d *providerData) seesEveryParent(ctx context.Context, k *grantParentKind, org string) (bool, error) {
	caller, err := d.caller.get(ctx, d.client)
	if err != nil || caller == nil {
		return false, err
	}
	teams, err := d.organizationTeams(ctx, org)
	if err != nil || teams.parentMissing {
		return false, err
	}
	for _, t := range teams.byID {
		if slices.ContainsFunc(t.Users, func(u *tfe.User) bool { return u != nil && u.ID == caller.ID }) &&
			(t.Name == "owners" || (t.OrganizationAccess != nil && k.seesEvery(t.OrganizationAccess))) {
			return true, nil
		}
	}
	return false, nil
}
