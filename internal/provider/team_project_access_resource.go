package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ resource.ResourceWithConfigure      = (*teamProjectAccessResource)(nil)
	_ resource.ResourceWithImportState    = (*teamProjectAccessResource)(nil)
	_ resource.ResourceWithValidateConfig = (*teamProjectAccessResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*teamProjectAccessResource)(nil)
	_ resource.ResourceWithIdentity       = (*teamProjectAccessResource)(nil)
)

// NewTeamProjectAccessResource is the tfgov_team_project_access resource.
func NewTeamProjectAccessResource() resource.Resource {
	return &teamProjectAccessResource{resourceBase{typ: teamProjectAccessType}}
}

type teamProjectAccessResource struct{ resourceBase }

// teamProjectAccessIdentityAttrs is the grant's ID, which alone finds it (identity.go).
var teamProjectAccessIdentityAttrs = []identityAttr{{"id", "ID of the team's access to the project (`tprj-<id>`)."}}

type teamProjectAccessResourceModel struct {
	ID              types.String `tfsdk:"id"`
	TeamID          types.String `tfsdk:"team_id"`
	TeamName        types.String `tfsdk:"team_name"`
	ProjectID       types.String `tfsdk:"project_id"`
	Access          types.String `tfsdk:"access"`
	ProjectAccess   types.Object `tfsdk:"project_access"`
	WorkspaceAccess types.Object `tfsdk:"workspace_access"`
}

func (r *teamProjectAccessResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, teamProjectAccessType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "A team's access to a project, and through it to every workspace in the project (HCP Terraform's permissions add up: " +
			"a team keeps what a project grant gives on each of its workspaces, whatever the workspace's own team access says). A team holds at most one access per project.\n\n" +
			"With a fixed level (`read`, `write`, `maintain`, `admin`) the service decides the permissions, and `project_access` and `workspace_access` show them; " +
			"a configuration may leave them out or write exactly what the level implies, nothing else. " +
			"With `custom` you choose each permission; those you leave out get the service's defaults, so removing one plans its default.\n\n" +
			"**A grant that exists already** fails with its ID and an `import` block: at plan when the plan listed the project's grants anyway " +
			"(another grant of the project in state, refreshed first), else at apply.\n\n" +
			"**Refresh and destroy.** A member sees only the grants of their own teams; the project's admins, teams whose grant reads or manages the project's teams, " +
			"teams with \"Manage projects\" and owners see all. A grant missing from the project's list leaves state only when the API token may see every grant " +
			"(one read of the project, shared by its grants); otherwise the refresh fails, naming the grant, its team, the project and the permission it needs (" + permProjectTeamAccess + "), " +
			"and state keeps it. A project that answers 404 was deleted, or is in no organization the token belongs to: when the API token's user sees every project of the provider's organization " +
			"(an owner, or a team with \"Manage projects\" or \"View all projects\"), the grant's team is of that organization and the organization's project list lacks the project, " +
			"the grant leaves state with a warning; otherwise the refresh fails. A destroy whose removal answers 404 is done only by the same rule.\n\n" +
			"**Lost answers.** When the add request ends without a definite answer, the provider lists the project's access for the team before adding it again: " +
			"no grant, the add is sent again; a grant fails the add exactly as an existing grant does (with its ID and an `import` block), since nothing the API returns " +
			"proves the lost request made it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the team project access (`tprj-<id>`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"team_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the team (`team-<id>`). Changing it replaces the grant.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{idValidator("team-")},
			},
			"team_name": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Name of the team, so that a plan names it: read with the project's grants (no extra request); a plan that adds a grant reads the organization's team list " +
					"(once per plan). Null when the API token may not see the team.",
			},
			"project_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the project (`prj-<id>`). Changing it replaces the grant.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{idValidator("prj-")},
			},
			"access": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Access level: one of `" + strings.Join(projectAccessLevels, "`, `") + "`. " +
					"`custom` lets you set each permission in `project_access` and `workspace_access`.",
				Validators: []validator.String{stringvalidator.OneOf(projectAccessLevels...)},
			},
			"project_access": schema.SingleNestedAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The team's permissions on the project itself. Choose them only with `access = \"custom\"`; with a fixed level they show what the level implies.",
				Attributes:          projectAccessGroup.resourceAttributes(),
			},
			"workspace_access": schema.SingleNestedAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The team's permissions on every workspace of the project. Choose them only with `access = \"custom\"`; with a fixed level they show what the level implies.",
				Attributes:          workspaceAccessGroup.resourceAttributes(),
			},
		},
	}
}

// ValidateConfig rejects permissions with a fixed level unless they are exactly what it implies.
func (r *teamProjectAccessResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var access types.String
	var po, wo types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("access"), &access)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("project_access"), &po)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("workspace_access"), &wo)...)
	if resp.Diagnostics.HasError() || !isKnown(access) {
		return
	}
	implied, fixed := fixedProjectPermissions[access.ValueString()]
	if !fixed {
		return
	}
	projectAccessGroup.checkFixed(access.ValueString(), po, implied[0], &resp.Diagnostics)
	workspaceAccessGroup.checkFixed(access.ValueString(), wo, implied[1], &resp.Diagnostics)
}

// ModifyPlan plans the team's name and both permission objects: a fixed level's are what it
// implies, a custom grant's the defaults for those left out, so a change outside Terraform is put back.
func (r *teamProjectAccessResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan teamProjectAccessResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		r.planTaken(ctx, plan, resp)
	}
	r.planFlap(ctx, plan, resp)
	r.planTeamName(ctx, req, plan, resp)
	var access types.String
	var po, wo types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("access"), &access)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("project_access"), &po)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("workspace_access"), &wo)...)
	if resp.Diagnostics.HasError() || !isKnown(access) {
		return
	}
	groups := []struct {
		g       projectPermissionGroup
		cfg     types.Object
		planned types.Object
	}{{projectAccessGroup, po, plan.ProjectAccess}, {workspaceAccessGroup, wo, plan.WorkspaceAccess}}
	for i, gr := range groups {
		var obj types.Object
		switch implied, fixed := fixedProjectPermissions[access.ValueString()]; {
		case fixed:
			// Only where the framework would plan them unknown: a refreshed grant keeps what the service says.
			if !gr.planned.IsUnknown() && !slices.ContainsFunc(slices.Collect(maps.Values(gr.planned.Attributes())), attr.Value.IsUnknown) {
				continue
			}
			obj = types.ObjectValueMust(gr.g.attrs, implied[i])
		case gr.cfg.IsUnknown():
			continue
		default:
			planned, diags := gr.g.planned(gr.cfg)
			resp.Diagnostics.Append(diags...)
			obj = planned
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(gr.g.name), obj)...)
	}
}

func (r *teamProjectAccessResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan teamProjectAccessResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	teamID, prjID := plan.TeamID.ValueString(), plan.ProjectID.ValueString()
	opts := tfe.TeamProjectAccessAddOptions{
		Access:  tfe.TeamProjectAccessType(plan.Access.ValueString()),
		Team:    &tfe.Team{ID: teamID},
		Project: &tfe.Project{ID: prjID},
	}
	if opts.Access == tfe.TeamProjectAccessCustom {
		opts.ProjectAccess, opts.WorkspaceAccess = projectPermissionOptions(plan.ProjectAccess, plan.WorkspaceAccess)
	}
	tflog.Debug(ctx, "Adding team project access", map[string]any{"team_id": teamID, "project_id": prjID, "access": plan.Access.ValueString()})
	defer r.data.lists.teamProjectAccess.invalidate(prjID)
	g, err := reconcileCreate(ctx, "tfgov_team_project_access",
		func() (*tfe.TeamProjectAccess, error) {
			g, err := r.data.client.TeamProjectAccess.Add(ctx, opts)
			if err == nil {
				r.data.owned.receive(g.ID)
			}
			return g, err
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*tfe.TeamProjectAccess, bool, error) {
			return r.lostAdd(ctx, teamID, prjID, amb)
		})
	if _, ok := err.(*conflictError); ok { //nolint:errorlint // reconcileCreate returns it unwrapped
		resp.Diagnostics.AddError("Error adding team project access", err.Error())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error adding team project access", r.addError(ctx, teamID, prjID, err))
		return
	}
	tflog.Info(ctx, "Added team project access", map[string]any{"id": g.ID, "team_id": teamID, "project_id": prjID, "access": string(g.Access)})
	resp.Diagnostics.Append(resp.State.Set(ctx, r.applied(ctx, g, plan))...)
}

// Read finds the grant in its project's shared list (one request per 100 grants a plan); one missing
// is gone only as grantGone says. An import by ID has no project yet: read by ID.
func (r *teamProjectAccessResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state teamProjectAccessResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	id, prjID := state.ID.ValueString(), state.ProjectID.ValueString()
	var g *tfe.TeamProjectAccess
	listMissing := false
	if prjID == "" {
		var err error
		if g, err = r.data.client.TeamProjectAccess.Read(ctx, id); isNotFound(err) {
			g = nil
		} else if err != nil {
			resp.Diagnostics.AddError("Error reading team project access", fmt.Sprintf("Reading team project access %s: %s", id, err))
			return
		}
	} else {
		grants, err := r.data.projectTeamAccess(ctx, prjID)
		if err != nil {
			resp.Diagnostics.AddError("Error reading team project access", fmt.Sprintf("Listing the team access of project %s: %s", prjID, err))
			return
		}
		listMissing = grants.parentMissing
		var ok bool
		if g, ok = grants.lookup(id); !ok && !grants.definite() {
			// Make sure (shared_lists.go): read by ID.
			if g, err = r.data.client.TeamProjectAccess.Read(ctx, id); isNotFound(err) {
				g = nil
			} else if err != nil {
				resp.Diagnostics.AddError("Error reading team project access", fmt.Sprintf("Reading team project access %s: %s", id, err))
				return
			}
		}
	}
	if g == nil && importing {
		importedMissing(&resp.Diagnostics, "team project access", fmt.Sprintf("Team project access %s was not found: no team holds a grant of that ID, or the API token may not see it "+
			"(members see only the access of their own teams; owners, the project's admins and teams with \"Manage projects\" see all).", id))
		return
	}
	if g == nil && prjID == "" {
		resp.Diagnostics.AddError("Error reading team project access", fmt.Sprintf("Team project access %s was not found, and state names no project to tell whether it was removed "+
			"or the API token may not see it. State keeps it; refresh with a token that has %s, or an owner's.", id, permProjectTeamAccess))
		return
	}
	if g == nil {
		gone, why := r.data.grantGone(ctx, projectGrants, refreshCheck, id, state.TeamID.ValueString(), prjID, listMissing)
		if !gone {
			resp.Diagnostics.AddError("Cannot refresh team project access", why)
			return
		}
		if why != "" {
			resp.Diagnostics.AddWarning("Project deleted: team project access removed from state",
				fmt.Sprintf("Team project access %s of team %s left state: its project %s was deleted. %s", id, state.TeamID.ValueString(), prjID, why))
		}
		tflog.Info(ctx, "Team project access no longer exists; removing it from state", map[string]any{"id": id, "project_id": prjID})
		resp.State.RemoveResource(ctx)
		return
	}
	m := teamProjectAccessModel(g, state)
	if m.TeamName.IsNull() {
		// Read by ID, as an import is: the answer names no team.
		m.TeamName = r.data.grantTeamName(ctx, projectGrants, m.ProjectID.ValueString(), m.TeamID.ValueString())
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Update sends the level always (go-tfe's Update dereferences it) and, for a custom grant, every
// permission: one request.
func (r *teamProjectAccessResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state teamProjectAccessResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	access := tfe.TeamProjectAccessType(plan.Access.ValueString())
	opts := tfe.TeamProjectAccessUpdateOptions{Access: &access}
	if access == tfe.TeamProjectAccessCustom {
		opts.ProjectAccess, opts.WorkspaceAccess = projectPermissionOptions(plan.ProjectAccess, plan.WorkspaceAccess)
	}
	id, prjID := state.ID.ValueString(), state.ProjectID.ValueString()
	tflog.Debug(ctx, "Updating team project access", map[string]any{"id": id, "access": string(access)})
	defer r.data.lists.teamProjectAccess.invalidate(prjID)
	g, err := r.data.client.TeamProjectAccess.Update(ctx, id, opts)
	if err != nil {
		detail := fmt.Sprintf("Updating team project access %s: %s", id, err)
		if isNotFound(err) {
			detail = r.data.teamProjectAccessUpdateError(ctx, id, prjID)
		}
		resp.Diagnostics.AddError("Error updating team project access", detail)
		return
	}
	tflog.Info(ctx, "Updated team project access", map[string]any{"id": id, "access": string(g.Access)})
	resp.Diagnostics.Append(resp.State.Set(ctx, r.applied(ctx, g, plan))...)
}

func (r *teamProjectAccessResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state teamProjectAccessResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, prjID := state.ID.ValueString(), state.ProjectID.ValueString()
	defer r.data.lists.teamProjectAccess.invalidate(prjID)
	err := r.data.client.TeamProjectAccess.Remove(ctx, id)
	if isNotFound(err) {
		locate := r.data.locateGrant(projectGrants, id, state.TeamID.ValueString(), prjID)
		if why := confirmGone(ctx, removeCheck, "Team project access "+id, permProjectTeamAccess, locate); why != "" {
			resp.Diagnostics.AddError("Cannot remove team project access", why)
			return
		}
		err = nil
	}
	if err != nil {
		resp.Diagnostics.AddError("Error removing team project access", fmt.Sprintf("Removing team project access %s: %s", id, err))
		return
	}
	tflog.Info(ctx, "Removed team project access", map[string]any{"id": id})
}

// ImportState takes the `tprj-` ID, or `<organization>/<project name>/<team name>` resolved by three
// reads, on import only.
func (r *teamProjectAccessResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	const forms = "tprj-<id> or <organization>/<project_name>/<team_name>"
	if strings.HasPrefix(req.ID, "tprj-") {
		resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
		markImporting(ctx, resp)
		return
	}
	parts, err := splitImportID(req.ID, 3, forms)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error())
		return
	}
	id, err := r.findByNames(ctx, parts[0], parts[1], parts[2])
	if err != nil {
		resp.Diagnostics.AddError("Error importing team project access", err.Error())
		return
	}
	tflog.Debug(ctx, "Resolved team project access import ID", map[string]any{"import_id": req.ID, "id": id})
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	markImporting(ctx, resp)
}

// planTaken refuses a grant for a team holding one already, when this plan listed the project
// anyway (team_access_resource.go's rule): otherwise the apply refuses it, with the same advice.
func (r *teamProjectAccessResource) planTaken(ctx context.Context, plan teamProjectAccessResourceModel, resp *resource.ModifyPlanResponse) {
	if r.data == nil || !isKnown(plan.TeamID) || !isKnown(plan.ProjectID) {
		return
	}
	grants, ok := r.data.lists.teamProjectAccess.held(plan.ProjectID.ValueString())
	if !ok || grants.parentMissing {
		return
	}
	for _, g := range sortedByKey(grants.byID) {
		if g.Team != nil && g.Team.ID == plan.TeamID.ValueString() {
			resp.Diagnostics.AddAttributeError(path.Root("team_id"), "Team project access already exists",
				r.data.teamProjectAccessTaken(ctx, plan.TeamID.ValueString(), plan.ProjectID.ValueString(), g, "Found at plan, in the project's team access this plan read: nothing was sent."))
			return
		}
	}
}

// planFlap refuses a grant that a planned exclusive set of its project leaves out (team_access_plans.go).
func (r *teamProjectAccessResource) planFlap(ctx context.Context, plan teamProjectAccessResourceModel, resp *resource.ModifyPlanResponse) {
	if r.data == nil || !isKnown(plan.TeamID) || !isKnown(plan.ProjectID) {
		return
	}
	parent := accessParent{projectGrants, plan.ProjectID.ValueString()}
	if r.data.lists.plannedAccess.planGrant(parent, plan.TeamID.ValueString()) {
		resp.Diagnostics.AddAttributeError(path.Root("team_id"), "Team project access and exclusive team access disagree",
			r.data.accessFlap(ctx, parent, []string{plan.TeamID.ValueString()}))
	}
}

// planTeamName keeps the refreshed name of an unchanged team, else reads the shared team list.
func (r *teamProjectAccessResource) planTeamName(ctx context.Context, req resource.ModifyPlanRequest, plan teamProjectAccessResourceModel, resp *resource.ModifyPlanResponse) {
	if !plan.TeamName.IsUnknown() || !isKnown(plan.TeamID) {
		return
	}
	name := types.StringUnknown()
	if !req.State.Raw.IsNull() {
		var state teamProjectAccessResourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if state.TeamID.Equal(plan.TeamID) {
			name = state.TeamName
		}
	}
	if name.IsUnknown() && r.data != nil {
		prjID := ""
		if isKnown(plan.ProjectID) {
			prjID = plan.ProjectID.ValueString()
		}
		if n := r.data.grantTeamName(ctx, projectGrants, prjID, plan.TeamID.ValueString()); !n.IsNull() {
			name = n
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("team_name"), name)...)
}

// lostAdd looks for the grant a lost add may have made. One found is never adopted: a grant has no
// creation time or mark to prove it is this add's (DESIGN.md "Lost creates"), so it fails as taken.
func (r *teamProjectAccessResource) lostAdd(ctx context.Context, teamID, prjID string, amb *tfeclient.AmbiguousWriteError) (*tfe.TeamProjectAccess, bool, error) {
	grants, err := listTeamProjectAccess(ctx, r.data.client, prjID)
	if err != nil {
		return nil, false, err
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == teamID {
			return nil, false, &conflictError{r.data.teamProjectAccessTaken(ctx, teamID, prjID, g, lostAnswerFound(amb))}
		}
	}
	return nil, false, nil
}

// addError looks for the existing grant rather than match the service's 422 wording.
func (r *teamProjectAccessResource) addError(ctx context.Context, teamID, prjID string, err error) string {
	if isNotFound(err) {
		return r.data.teamProjectAccessAddError(ctx, teamID, prjID)
	}
	grants, lerr := listTeamProjectAccess(ctx, r.data.client, prjID)
	if lerr != nil {
		return fmt.Sprintf("Adding access for team %s to project %s: %s", teamID, prjID, err)
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == teamID {
			return r.data.teamProjectAccessTaken(ctx, teamID, prjID, g, "The service said: "+err.Error())
		}
	}
	return fmt.Sprintf("Adding access for team %s to project %s: %s", teamID, prjID, err)
}

// findByNames resolves an import's names: the project by filter[names], the team by name, then the
// project's grants.
func (r *teamProjectAccessResource) findByNames(ctx context.Context, org, prjName, teamName string) (string, error) {
	c := r.data.client
	prjs, err := c.Projects.List(ctx, org, &tfe.ProjectListOptions{Name: prjName})
	if err != nil {
		return "", fmt.Errorf("looking up project %q in organization %q: %w", prjName, org, err)
	}
	var prj *tfe.Project
	for _, p := range prjs.Items {
		if p.Name == prjName {
			prj = p
		}
	}
	if prj == nil {
		return "", fmt.Errorf("project %q was not found in organization %q, or the API token may not see it", prjName, org)
	}
	teams, err := c.Teams.List(ctx, org, &tfe.TeamListOptions{Names: []string{teamName}})
	if err != nil {
		return "", fmt.Errorf("looking up team %q in organization %q: %w", teamName, org, err)
	}
	var team *tfe.Team
	for _, t := range teams.Items {
		if t.Name == teamName {
			team = t
		}
	}
	if team == nil {
		return "", fmt.Errorf("team %q was not found in organization %q, or the API token may not see it (secret teams are visible only to their members and owners)", teamName, org)
	}
	grants, err := listTeamProjectAccess(ctx, c, prj.ID)
	if err != nil {
		return "", fmt.Errorf("listing the team access of project %q (%s): %w", prjName, prj.ID, err)
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == team.ID {
			return g.ID, nil
		}
	}
	return "", fmt.Errorf("team %q (%s): %s", teamName, team.ID, lowerFirst(r.data.noProjectGrantDetail(ctx, team.ID, prj.ID)))
}

// applied is a create's or update's state: the plan's team name, and a fixed level's planned
// permissions (a service that implies more shows it at the next refresh, not as an error after apply).
func (r *teamProjectAccessResource) applied(ctx context.Context, g *tfe.TeamProjectAccess, plan teamProjectAccessResourceModel) *teamProjectAccessResourceModel {
	m := teamProjectAccessModel(g, plan)
	if _, fixed := fixedProjectPermissions[string(g.Access)]; fixed {
		if isKnown(plan.ProjectAccess) && !m.ProjectAccess.Equal(plan.ProjectAccess) || isKnown(plan.WorkspaceAccess) && !m.WorkspaceAccess.Equal(plan.WorkspaceAccess) {
			tflog.Warn(ctx, "The service reports other permissions than the access level implied at plan; the next refresh records them", map[string]any{"id": g.ID, "access": string(g.Access)})
			m.ProjectAccess, m.WorkspaceAccess = plan.ProjectAccess, plan.WorkspaceAccess
		}
	}
	if m.TeamName.IsUnknown() {
		m.TeamName = r.data.grantTeamName(ctx, projectGrants, m.ProjectID.ValueString(), m.TeamID.ValueString())
	}
	return m
}

// teamProjectAccessModel is g's state; team and project from the answer when it names them, else prior.
func teamProjectAccessModel(g *tfe.TeamProjectAccess, prior teamProjectAccessResourceModel) *teamProjectAccessResourceModel {
	po, wo := projectAccessObjects(g)
	m := &teamProjectAccessResourceModel{
		ID: types.StringValue(g.ID), TeamID: prior.TeamID, TeamName: prior.TeamName, ProjectID: prior.ProjectID,
		Access: types.StringValue(string(g.Access)), ProjectAccess: po, WorkspaceAccess: wo,
	}
	if g.Team != nil && g.Team.ID != "" {
		m.TeamID = types.StringValue(g.Team.ID)
	}
	if g.Team != nil && g.Team.Name != "" {
		m.TeamName = types.StringValue(g.Team.Name)
	}
	if g.Project != nil && g.Project.ID != "" {
		m.ProjectID = types.StringValue(g.Project.ID)
	}
	return m
}
