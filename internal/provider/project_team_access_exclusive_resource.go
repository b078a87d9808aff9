package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ resource.ResourceWithConfigure   = (*projectTeamAccessExclusiveResource)(nil)
	_ resource.ResourceWithImportState = (*projectTeamAccessExclusiveResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*projectTeamAccessExclusiveResource)(nil)
	_ resource.ResourceWithIdentity    = (*projectTeamAccessExclusiveResource)(nil)
)

// NewProjectTeamAccessExclusiveResource is tfgov_project_team_access_exclusive: the teams that
// may hold a grant on a project, the workspace form's mechanism on another parent
// (grant_exclusive.go; DESIGN.md "Exclusive team access: the grants a plan saw").
func NewProjectTeamAccessExclusiveResource() resource.Resource {
	return &projectTeamAccessExclusiveResource{exclusiveResource[projectTeamAccessExclusiveModel]{
		resourceBase: resourceBase{typ: projectTeamAccessExclusiveType}, parent: projectExclusive,
		take: func(m *projectTeamAccessExclusiveModel, s exclusiveSet) {
			m.ProjectID, m.TeamIDs, m.RemovedTeamIDs, m.RemovedGrants = s.ParentID, s.TeamIDs, s.RemovedTeamIDs, s.RemovedGrants
		},
	}}
}

// projectTeamAccessExclusiveResource is the set alone: grant_exclusive_shell.go holds its plan and CRUD.
type projectTeamAccessExclusiveResource struct {
	exclusiveResource[projectTeamAccessExclusiveModel]
}

// projectTeamAccessExclusiveIdentityAttrs is the project (identity.go).
var projectTeamAccessExclusiveIdentityAttrs = []identityAttr{{"project_id", "ID of the project (`prj-<id>`)."}}

type projectTeamAccessExclusiveModel struct {
	ProjectID      types.String `tfsdk:"project_id"`
	TeamIDs        types.Set    `tfsdk:"team_ids"`
	RemovedTeamIDs types.Set    `tfsdk:"removed_team_ids"`
	RemovedGrants  types.Set    `tfsdk:"removed_grant_ids"`
}

func (m projectTeamAccessExclusiveModel) set() exclusiveSet {
	return exclusiveSet{ParentID: m.ProjectID, TeamIDs: m.TeamIDs, RemovedTeamIDs: m.RemovedTeamIDs, RemovedGrants: m.RemovedGrants}
}

func (r *projectTeamAccessExclusiveResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, projectTeamAccessExclusiveType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete set of teams that may hold a grant on a project (team project access). On apply, the access of every team of the project " +
			"that `team_ids` does not name is removed; no access is ever added. A refresh lists the project's team access (one request per 100 grants) and adds " +
			"every team holding access to `team_ids` in state, so `terraform plan` shows each team that would lose access as an element leaving `team_ids`, " +
			"and an empty plan means the project has no grant the configuration does not declare. A team named in `team_ids` without a grant is allowed and costs nothing.\n\n" +
			"A team's access to a project reaches every workspace of the project, those made later included, whatever a workspace's own grants say: " +
			"with `tfgov_workspace_team_access_exclusive` on the project's workspaces, this is what makes a lock-down hold. Organization-level access " +
			"(the owners team, \"Manage all projects\", \"Manage all workspaces\") is the teams' settings, not a grant: this resource does not govern it.\n\n" +
			"Only a token that sees every grant of the project can tell which teams hold access: a member sees only the grants of their own teams. " +
			"So a refresh, and the plan of a new resource, also read the project (one request) and fail, rather than plan \"No changes\" or remove only some grants, " +
			"when the API token lacks " + permProjectTeamAccess + " (owners and the organization token see all). A project that answers 404 (deleted, or in no " +
			"organization the token belongs to) fails the refresh too, unless the API token's user sees every project of the provider's organization, a team of " +
			"`team_ids` is of it, and its project list lacks the project: then the resource leaves state with a warning. Otherwise, if it was deleted, remove the " +
			"resource from state (`terraform state rm`, or a `removed` block).\n\n" +
			"Destroying this resource removes it from state only: no access is removed. Import it by project ID.\n\n" +
			"**Lock-out guard.** The plan fails when it would remove the admin access (`admin`, or `custom` that manages the project's teams) through which " +
			"the API token's own user administers the project: the user belongs to the team losing it, holds such access through no team that keeps it, " +
			"and is neither in the owners team nor in a team that may manage all projects (from the organization's team list, read only when a plan " +
			"removes such a grant). Organization tokens act as an owner and are never locked out; with a team token the guard cannot tell, and does not refuse.",
		Attributes: projectExclusive.attributes(nil),
	}
}

// projectExclusive is the exclusive mechanism on a project (grant_exclusive.go).
var projectExclusive = &exclusiveParent{
	kind: projectGrants,
	see: func(d *providerData, ctx context.Context, id string) (*parentSeen, error) {
		return d.seeGrantParent(ctx, projectGrants, id)
	},
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
	remove: func(d *providerData, ctx context.Context, id string) error {
		return d.client.TeamProjectAccess.Remove(ctx, id)
	},
	orgAdmin: func(t *tfe.Team) bool {
		return t.Name == "owners" || (t.OrganizationAccess != nil && t.OrganizationAccess.ManageProjects)
	},
	listError: func(id string, err error) string {
		if isNotFound(err) {
			return projectNotFound(id)
		}
		return fmt.Sprintf("Listing the team access of project %s: %s", id, err)
	},
}
