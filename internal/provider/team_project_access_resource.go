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
	return &teamProjectAccessResource{grantResource[*tfe.TeamProjectAccess, teamProjectAccessResourceModel]{resourceBase{typ: teamProjectAccessType}, teamProjectAccessShell}}
}

// teamProjectAccessResource is a grant on a project; grant_shell.go holds its read, delete and import.
type teamProjectAccessResource struct {
	grantResource[*tfe.TeamProjectAccess, teamProjectAccessResourceModel]
}

// teamProjectAccessShell is what the grant shell needs of a project's grants. A deleted project's
// warning names the team by ID, as it always has.
var teamProjectAccessShell = &grantShell[*tfe.TeamProjectAccess, teamProjectAccessResourceModel]{
	kind: projectGrants,
	fields: func(m *teamProjectAccessResourceModel) grantFields {
		return grantFields{&m.ID, &m.TeamID, &m.TeamName, &m.ProjectID, &m.Access}
	},
	model:    teamProjectAccessModel,
	goneTeam: func(m teamProjectAccessResourceModel) string { return m.TeamID.ValueString() },
	grantID:  func(g *tfe.TeamProjectAccess) string { return g.ID },
	access:   func(g *tfe.TeamProjectAccess) string { return string(g.Access) },
	team:     func(g *tfe.TeamProjectAccess) *tfe.Team { return g.Team },
	shared:   (*providerData).projectTeamAccess,
	held: func(d *providerData, prjID string) (*recordsByID[*tfe.TeamProjectAccess], bool) {
		return d.lists.teamProjectAccess.held(prjID)
	},
	afresh: listTeamProjectAccess,
	read: func(ctx context.Context, c *tfe.Client, id string) (*tfe.TeamProjectAccess, error) {
		return c.TeamProjectAccess.Read(ctx, id)
	},
	remove: func(ctx context.Context, c *tfe.Client, id string) error { return c.TeamProjectAccess.Remove(ctx, id) },
	taken:  (*providerData).teamProjectAccessTaken, addMissing: (*providerData).teamProjectAccessAddError,
	updMissing: (*providerData).teamProjectAccessUpdateError, byNames: findTeamProjectAccessByNames,
}

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
		r.planTaken(ctx, plan.TeamID, plan.ProjectID, &resp.Diagnostics)
	}
	r.planFlap(ctx, plan, &resp.Diagnostics)
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
	opts := tfe.TeamProjectAccessAddOptions{
		Access:  tfe.TeamProjectAccessType(plan.Access.ValueString()),
		Team:    &tfe.Team{ID: plan.TeamID.ValueString()},
		Project: &tfe.Project{ID: plan.ProjectID.ValueString()},
	}
	if opts.Access == tfe.TeamProjectAccessCustom {
		opts.ProjectAccess, opts.WorkspaceAccess = projectPermissionOptions(plan.ProjectAccess, plan.WorkspaceAccess)
	}
	r.create(ctx, plan, func() (*tfe.TeamProjectAccess, error) { return r.data.client.TeamProjectAccess.Add(ctx, opts) },
		func(g *tfe.TeamProjectAccess) *teamProjectAccessResourceModel { return r.applied(ctx, g, plan) }, resp)
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
	r.update(ctx, plan, state, func(id string) (*tfe.TeamProjectAccess, error) {
		return r.data.client.TeamProjectAccess.Update(ctx, id, opts)
	},
		func(g *tfe.TeamProjectAccess) *teamProjectAccessResourceModel { return r.applied(ctx, g, plan) }, resp)
}

// findTeamProjectAccessByNames resolves an import's names: the project by filter[names], the team by
// name, then the project's grants.
func findTeamProjectAccessByNames(d *providerData, ctx context.Context, org, prjName, teamName string) (string, error) {
	c := d.client
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
	team, err := teamByName(ctx, c, org, teamName)
	if err != nil {
		return "", err
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
	return "", fmt.Errorf("team %q (%s): %s", teamName, team.ID, lowerFirst(d.noProjectGrantDetail(ctx, team.ID, prj.ID)))
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
