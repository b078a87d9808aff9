package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ resource.ResourceWithConfigure   = (*workspaceTeamAccessExclusiveResource)(nil)
	_ resource.ResourceWithImportState = (*workspaceTeamAccessExclusiveResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*workspaceTeamAccessExclusiveResource)(nil)
	_ resource.ResourceWithIdentity    = (*workspaceTeamAccessExclusiveResource)(nil)
)

// NewWorkspaceTeamAccessExclusiveResource is tfgov_workspace_team_access_exclusive: the teams that
// may hold a grant on a workspace. It only removes grants, in the shape of hashicorp/aws's
// `*_exclusive` types (DESIGN.md "Exclusive team access: the grants a plan saw").
func NewWorkspaceTeamAccessExclusiveResource() resource.Resource {
	return &workspaceTeamAccessExclusiveResource{exclusiveResource[workspaceTeamAccessExclusiveModel]{
		resourceBase: resourceBase{typ: workspaceTeamAccessExclusiveType}, parent: workspaceExclusive,
		take: (*workspaceTeamAccessExclusiveModel).take, planMore: planProjectTeams,
		refreshed: func(d *providerData, ctx context.Context, m *workspaceTeamAccessExclusiveModel) {
			m.ProjectTeamIDs = d.projectRoutes(ctx, m.WorkspaceID.ValueString()).set()
		},
		// A new resource's project teams are read at its apply.
		applied: func(d *providerData, ctx context.Context, m *workspaceTeamAccessExclusiveModel) {
			if m.ProjectTeamIDs.IsUnknown() {
				m.ProjectTeamIDs = d.projectRoutes(ctx, m.WorkspaceID.ValueString()).set()
			}
		},
	}}
}

// workspaceTeamAccessExclusiveResource is the set and project_team_ids: grant_exclusive_shell.go
// holds its plan and CRUD.
type workspaceTeamAccessExclusiveResource struct {
	exclusiveResource[workspaceTeamAccessExclusiveModel]
}

// workspaceTeamAccessExclusiveIdentityAttrs is the workspace (identity.go).
var workspaceTeamAccessExclusiveIdentityAttrs = []identityAttr{{"workspace_id", "ID of the workspace (`ws-<id>`)."}}

type workspaceTeamAccessExclusiveModel struct {
	WorkspaceID    types.String `tfsdk:"workspace_id"`
	TeamIDs        types.Set    `tfsdk:"team_ids"`
	RemovedTeamIDs types.Set    `tfsdk:"removed_team_ids"`
	// RemovedGrants: the grants (tws- IDs) the plan saw and the apply removes. A new resource's
	// are read from the service again at apply, so a grant made again since stops the apply.
	RemovedGrants types.Set `tfsdk:"removed_grant_ids"`
	// ProjectTeamIDs: the teams that reach the workspace through its project, which team_ids cannot lock out.
	ProjectTeamIDs types.Set `tfsdk:"project_team_ids"`
}

func (m workspaceTeamAccessExclusiveModel) set() exclusiveSet {
	return exclusiveSet{ParentID: m.WorkspaceID, TeamIDs: m.TeamIDs, RemovedTeamIDs: m.RemovedTeamIDs, RemovedGrants: m.RemovedGrants}
}

func (m *workspaceTeamAccessExclusiveModel) take(s exclusiveSet) {
	m.WorkspaceID, m.TeamIDs, m.RemovedTeamIDs, m.RemovedGrants = s.ParentID, s.TeamIDs, s.RemovedTeamIDs, s.RemovedGrants
}

func (r *workspaceTeamAccessExclusiveResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, workspaceTeamAccessExclusiveType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete set of teams that may hold a grant on a workspace (team access). On apply, the access of every team of the workspace " +
			"that `team_ids` does not name is removed; no access is ever added (that is `tfgov_team_access`'s job). A refresh lists the " +
			"workspace's team access (one request per 100 grants) and adds every team holding access to `team_ids` in state, so `terraform plan` " +
			"shows each team that would lose access as an element leaving `team_ids`, and an empty plan means the workspace has no grant the " +
			"configuration does not declare. A team named in `team_ids` without a grant is allowed and costs nothing.\n\n" +
			"Only a token that sees every grant of the workspace can tell which teams hold access: a member sees only the grants of their own teams. " +
			"So a refresh, and the plan of a new resource, also read the workspace (one request) and fail, rather than plan \"No changes\" or remove only some grants, when the API token lacks " + permTeamAccess +
			" (owners and the organization token see all). A workspace that answers 404 (deleted, or in no organization the token belongs to) fails " +
			"the refresh too, unless the API token's user sees every workspace of the provider's organization, a team of `team_ids` is of it, and its workspace list lacks the workspace: " +
			"then the resource leaves state with a warning. Otherwise, if it was deleted, remove the resource from state (`terraform state rm`, or a `removed` block).\n\n" +
			"Destroying this resource removes it from state only: no access is removed. Import it by workspace ID.\n\n" +
			"**What it governs, and what it does not.** Permissions add up: a team also reaches the workspace through a grant on the workspace's **project** " +
			"(team project access: `tfgov_team_project_access` grants it, `tfgov_project_team_access_exclusive` governs it), and through the organization (the owners team, and teams that may " +
			"\"Manage all workspaces\" or \"Manage all projects\"). This resource removes workspace grants only. So it shows the teams holding project " +
			"access in `project_team_ids`, and each plan warns naming every one of them that `team_ids` leaves out, with the project: a lock-down holds only " +
			"when the project's team access is managed exclusively too. Organization-level access is the teams' settings (hashicorp/tfe's `tfe_team`).\n\n" +
			"**Lock-out guard.** The plan fails when it would remove the `admin` access through which the API token's own user administers the " +
			"workspace: the user (from the token check every configuration makes) belongs to the team losing it, holds `admin` access through no team " +
			"that keeps it, and is neither in the owners team nor in a team that may manage all workspaces (from the organization's team list, read " +
			"only when a plan removes an `admin` grant). Organization tokens act as an owner and are never locked out. A team token names no user, " +
			"so the API does not tell which team it belongs to: with a team token the guard cannot tell, and does not refuse.\n\n" +
			"Declare each `tfgov_team_access` of the workspace in `team_ids` (for example `[for a in tfgov_team_access.app : a.team_id]`), or this resource removes it on the next apply: " +
			"in the same configuration, a plan with a `tfgov_team_access` whose team `team_ids` leaves out fails, naming both and the team, since each apply would undo the other's.",
		Attributes: workspaceExclusive.attributes(map[string]schema.Attribute{
			"project_team_ids": schema.SetAttribute{
				Computed:    true,
				ElementType: types.StringType,
				MarkdownDescription: "IDs of the teams that hold team access on the workspace's project (`tfgov_project_team_access_exclusive` governs those): " +
					"each reaches the workspace through the project whatever `team_ids` says, and every plan warns naming each that `team_ids` leaves out, and the project. " +
					"Read at each refresh (the project's read and its grant list, one each per project and operation); known after the apply for a new resource. " +
					"Null when the API token may not see every grant of the project (it needs " + permProjectTeamAccess + ", or `can-read-teams` on it): " +
					"then the plan warns that it cannot tell.",
			},
		}),
	}
}

// workspaceExclusive is the exclusive mechanism on a workspace (grant_exclusive.go).
var workspaceExclusive = &exclusiveParent{
	kind: workspaceGrants,
	see:  (*providerData).seeWorkspaceProject,
	list: func(d *providerData, ctx context.Context, id string) (*exclusiveGrants, error) {
		l, err := d.workspaceTeamAccess(ctx, id)
		if err != nil {
			return nil, err
		}
		return exclusiveGrantsOf(l, func(g *tfe.TeamAccess) *exclusiveGrant {
			if g.Team == nil {
				return nil
			}
			return &exclusiveGrant{ID: g.ID, TeamID: g.Team.ID, TeamName: g.Team.Name, Access: string(g.Access), admin: g.Access == tfe.AccessAdmin}
		}), nil
	},
	remove: func(d *providerData, ctx context.Context, id string) error {
		return d.client.TeamAccess.Remove(ctx, id)
	},
	orgAdmin: func(t *tfe.Team) bool {
		return t.Name == "owners" || (t.OrganizationAccess != nil && t.OrganizationAccess.ManageWorkspaces)
	},
	listError: workspaceAccessError,
}

// projectReach is the teams that reach a workspace through its project: teams nil when the
// token cannot tell (why says so).
type projectReach struct {
	projectID string
	teams     map[string]bool
	why       string
}

// set is project_team_ids: null when the token cannot tell.
func (p projectReach) set() types.Set {
	if p.teams == nil {
		return types.SetNull(types.StringType)
	}
	return teamIDSet(p.teams)
}

// warning names each project team that keep leaves out, and the project; or says the token
// cannot tell. Names cost the shared team list, on this path only.
func (p projectReach) warning(ctx context.Context, d *providerData, wsID string, keep map[string]bool) string {
	if p.teams == nil {
		if p.why == "" {
			return ""
		}
		return fmt.Sprintf("The plan cannot tell which teams reach workspace %s through its project: %s. A team with access to the project "+
			"has access to the workspace whatever team_ids says.", d.workspaceLabelHeld(wsID), p.why)
	}
	var out []*exclusiveGrant
	for _, id := range slices.Sorted(maps.Keys(p.teams)) {
		if !keep[id] {
			out = append(out, &exclusiveGrant{TeamID: id})
		}
	}
	if len(out) == 0 {
		return ""
	}
	names := projectExclusive.teamNames(ctx, d, p.projectID, out)
	labels := make([]string, 0, len(out))
	for _, g := range out {
		labels = append(labels, "  - team "+teamLabel(names, g.TeamID))
	}
	return fmt.Sprintf("team_ids leaves out %d team(s) that hold access to project %s, which holds workspace %s (project_team_ids):\n%s\n\n"+
		"Permissions add up: these teams keep their access to the workspace through the project whatever team_ids says, and this resource cannot remove it. "+
		"Remove their project access (a tfgov_project_team_access_exclusive of the project), or add them to team_ids.",
		len(out), d.parentLabel(ctx, projectGrants, p.projectID), d.workspaceLabelHeld(wsID), strings.Join(labels, "\n"))
}

// seeWorkspaceProject is seeWorkspace with the workspace's project, under the same key (one
// read); a read that seeWorkspace made first lacks the project, which one more read gives.
func (d *providerData) seeWorkspaceProject(ctx context.Context, wsID string) (*parentSeen, error) {
	read := func(ctx context.Context) (parentSeen, error) {
		ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
		if err != nil {
			return parentSeen{}, err
		}
		seen := parentSeen{name: ws.Name, allGrants: seesEveryGrant(ws)}
		if ws.Project != nil {
			seen.project = ws.Project.ID
		}
		return seen, nil
	}
	seen, err := d.seeParent(ctx, "workspace:"+wsID, read)
	if err != nil || seen.missing || seen.project != "" {
		return seen, err
	}
	return d.seeParent(ctx, "workspace-project:"+wsID, read)
}

// projectRoutes reads the workspace's project grants: its project's read and grant list, shared
// by every workspace of the project in the operation.
func (d *providerData) projectRoutes(ctx context.Context, wsID string) projectReach {
	ws, err := d.seeWorkspaceProject(ctx, wsID)
	switch {
	case err != nil:
		return projectReach{why: fmt.Sprintf("reading workspace %s for its project failed: %s", wsID, err)}
	case ws.missing || ws.project == "":
		return projectReach{teams: map[string]bool{}}
	}
	out := projectReach{projectID: ws.project}
	seen, err := d.seeGrantParent(ctx, projectGrants, ws.project)
	switch {
	case err != nil:
		out.why = fmt.Sprintf("reading project %s failed: %s", ws.project, err)
		return out
	case seen.missing || !seen.allGrants:
		out.why = fmt.Sprintf("the API token may not see every team's access to project %s: it needs %s, or to be an owner", d.parentLabel(ctx, projectGrants, ws.project), permProjectTeamAccess)
		return out
	}
	grants, err := d.projectTeamAccess(ctx, ws.project)
	switch {
	case err != nil:
		out.why = fmt.Sprintf("listing the team access of project %s failed: %s", ws.project, err)
		return out
	case grants.parentMissing:
		out.why = fmt.Sprintf("the list of project %s's team access answered 404", ws.project)
		return out
	}
	out.teams = map[string]bool{}
	for _, g := range grants.byID {
		if g.Team != nil && g.Team.ID != "" {
			out.teams[g.Team.ID] = true
		}
	}
	return out
}

// planProjectTeams plans project_team_ids, and warns naming each team that reaches the workspace
// through its project and team_ids leaves out.
func planProjectTeams(d *providerData, ctx context.Context, plan, state workspaceTeamAccessExclusiveModel, prior bool, resp *resource.ModifyPlanResponse) {
	keep, known := teamIDsOf(ctx, plan.TeamIDs)
	if plan.WorkspaceID.IsUnknown() {
		return
	}
	wsID := plan.WorkspaceID.ValueString()
	// An update keeps its refresh's project teams, so the apply's second plan makes the same;
	// a new resource's are known after its apply, and its plan reads them for the warning.
	projectTeams := types.SetUnknown(types.StringType)
	if prior && state.WorkspaceID.Equal(plan.WorkspaceID) && !state.ProjectTeamIDs.IsUnknown() {
		projectTeams = state.ProjectTeamIDs
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("project_team_ids"), projectTeams)...)
	if !known {
		return
	}
	// The state's teams need no request unless one is left out; the project's name then does.
	if teams, ok := teamIDsOf(ctx, projectTeams); ok && !hasRemoval(teams, keep) {
		return
	}
	reach := d.projectRoutes(ctx, wsID)
	if !projectTeams.IsUnknown() {
		reach.teams, _ = teamIDsOf(ctx, projectTeams)
	}
	if msg := reach.warning(ctx, d, wsID, keep); msg != "" {
		resp.Diagnostics.AddAttributeWarning(path.Root("team_ids"), "Teams reach the workspace through its project", msg)
	}
}
