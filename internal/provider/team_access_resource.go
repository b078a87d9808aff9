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
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	_ resource.ResourceWithConfigure      = (*teamAccessResource)(nil)
	_ resource.ResourceWithImportState    = (*teamAccessResource)(nil)
	_ resource.ResourceWithValidateConfig = (*teamAccessResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*teamAccessResource)(nil)
	_ resource.ResourceWithIdentity       = (*teamAccessResource)(nil)
)

// NewTeamAccessResource is the tfgov_team_access resource.
func NewTeamAccessResource() resource.Resource {
	return &teamAccessResource{grantResource[*tfe.TeamAccess, teamAccessResourceModel]{resourceBase{typ: teamAccessType}, teamAccessShell}}
}

// teamAccessResource is a grant on a workspace; grant_shell.go holds its read, delete and import.
type teamAccessResource struct {
	grantResource[*tfe.TeamAccess, teamAccessResourceModel]
}

// teamAccessShell is what the grant shell needs of a workspace's grants.
var teamAccessShell = &grantShell[*tfe.TeamAccess, teamAccessResourceModel]{
	kind: workspaceGrants,
	fields: func(m *teamAccessResourceModel) grantFields {
		return grantFields{&m.ID, &m.TeamID, &m.TeamName, &m.WorkspaceID, &m.Access}
	},
	model: teamAccessModel, goneTeam: teamLabelOf,
	grantID: func(g *tfe.TeamAccess) string { return g.ID },
	access:  func(g *tfe.TeamAccess) string { return string(g.Access) },
	team:    func(g *tfe.TeamAccess) *tfe.Team { return g.Team },
	shared:  (*providerData).workspaceTeamAccess,
	held: func(d *providerData, wsID string) (*recordsByID[*tfe.TeamAccess], bool) {
		return d.lists.teamAccess.held(wsID)
	},
	afresh: listTeamAccess,
	read: func(ctx context.Context, c *tfe.Client, id string) (*tfe.TeamAccess, error) {
		return c.TeamAccess.Read(ctx, id)
	},
	remove: func(ctx context.Context, c *tfe.Client, id string) error { return c.TeamAccess.Remove(ctx, id) },
	taken:  (*providerData).teamAccessTaken, addMissing: (*providerData).teamAccessAddError, updMissing: (*providerData).teamAccessUpdateError,
	byNames: findTeamAccessByNames,
}

// teamAccessIdentityAttrs is the grant's ID, which alone finds it (identity.go).
var teamAccessIdentityAttrs = []identityAttr{{"id", "ID of the team's access to the workspace (`tws-<id>`)."}}

type teamAccessResourceModel struct {
	ID          types.String `tfsdk:"id"`
	TeamID      types.String `tfsdk:"team_id"`
	TeamName    types.String `tfsdk:"team_name"`
	WorkspaceID types.String `tfsdk:"workspace_id"`
	Access      types.String `tfsdk:"access"`
	Permissions types.Object `tfsdk:"permissions"`
}

// customPermissionDefaults are the service's defaults, planned for what a custom grant leaves out.
var customPermissionDefaults = map[string]attr.Value{
	"runs":              types.StringValue(string(tfe.RunsPermissionRead)),
	"variables":         types.StringValue(string(tfe.VariablesPermissionNone)),
	"state_versions":    types.StringValue(string(tfe.StateVersionsPermissionNone)),
	"sentinel_mocks":    types.StringValue(string(tfe.SentinelMocksPermissionNone)),
	"workspace_locking": types.BoolValue(false),
	"run_tasks":         types.BoolValue(false),
	"policy_overrides":  types.BoolValue(false),
}

func (r *teamAccessResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, teamAccessType.permissions())
	permissionDescription := func(name, def string) string {
		return teamAccessPermissionsDescriptions[name] + " Settable only with `access = \"custom\"`, where it defaults to `" + def + "`; with a fixed level it shows what the level implies."
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A team's access to a workspace. A team holds at most one access per workspace.\n\n" +
			"With a fixed level (`read`, `plan`, `write`, `admin`) the service decides the permissions, and `permissions` shows them; " +
			"a configuration may leave `permissions` out or write exactly the permissions the level implies (as `terraform plan -generate-config-out` does for an imported grant), nothing else. " +
			"With `custom` you choose each permission in `permissions`; those you leave out get the service's defaults. " +
			"The organization-level permissions of the team still apply: the team's effective access to the workspace is the more restrictive of the two.\n\n" +
			"**A grant that exists already** fails with its ID and an `import` block: at plan when the plan listed the workspace's grants anyway " +
			"(another grant of the workspace in state, refreshed first), else at apply (a plan never lists a workspace for a create alone).\n\n" +
			"**Refresh and destroy.** A member sees only the grants of their own teams; the workspace's admins, teams with \"Manage workspaces\" and owners see all. A grant missing from the workspace's list leaves state " +
			"only when the API token may see every grant (one read of the workspace, shared by its grants); otherwise the refresh fails, naming the grant, its team, " +
			"the workspace and the permission it needs (" + permTeamAccess + "), and state keeps it. A workspace that answers 404 was deleted, or is in no organization the token belongs to: " +
			"when the API token's user sees every workspace of the provider's organization (an owner, or a team with \"Manage workspaces\" or \"View all workspaces\"), the grant's team is of that organization " +
			"and the organization's workspace list (read only then, once per plan) lacks the workspace, the grant leaves state with a warning naming it; " +
			"otherwise the refresh fails, and if the workspace was deleted, remove the grant from state (`terraform state rm`, or a `removed` block). " +
			"A destroy whose removal answers 404 (the service's answer for a removed grant and for one the token may not manage) is done only by the same rule; " +
			"otherwise the apply fails, naming the grant and the permission, and state keeps it.\n\n" +
			"**With `tfgov_workspace_team_access_exclusive`.** A grant whose team the workspace's exclusive resource leaves out of `team_ids` would be added and removed on alternate applies: " +
			"the plan fails, naming both and the team.\n\n" +
			"**Lost answers.** When the add request ends without a definite answer (a 5xx, or a connection lost once the request was sent), " +
			"the provider looks up the workspace's access for the team before adding it again. No grant: the add is sent again. " +
			"A grant fails the add exactly as an existing grant does with no fault (\"already has access\", with its ID and an `import` block): " +
			"the API returns no creation time and nothing an add could mark, so the grant the lost request made and one that someone else made before it or while it was in flight look the same, " +
			"and the provider never takes over a grant it cannot prove it made. Import the grant if it is the one you want managed; the next apply then has nothing to do.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the team access (`tws-<id>`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"team_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the team (`team-<id>`). Changing it replaces the team access.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{idValidator("team-")},
			},
			"team_name": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Name of the team, so that a plan names it. A refresh reads it with the workspace's team access (no extra request); " +
					"a plan that adds a grant or changes its team reads the organization's team list (once per plan, for all its grants). " +
					"Null when the API token may not see the team (a secret team is seen by its members and owners).",
			},
			"workspace_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the workspace (`ws-<id>`). Changing it replaces the team access.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{idValidator("ws-")},
			},
			"access": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Access level: one of `" + strings.Join(teamAccessLevels, "`, `") + "`. " +
					"`read`, `plan`, `write` and `admin` are fixed sets of permissions; `custom` lets you set each permission in `permissions`.",
				Validators: []validator.String{stringvalidator.OneOf(teamAccessLevels...)},
			},
			"permissions": schema.SingleNestedAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "The team's permissions on the workspace. Choose them only with `access = \"custom\"`; with a fixed level they are read-only and show the permissions the level implies " +
					"(a configuration may repeat exactly those, as a generated configuration does). " +
					"With `custom`, leaving it out (or any permission in it) plans the defaults named below, so removing it from the configuration resets the permissions.",
				Attributes: map[string]schema.Attribute{
					"runs": schema.StringAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: permissionDescription("runs", "read"),
						Validators:          []validator.String{stringvalidator.OneOf(teamAccessRunsValues...)},
					},
					"variables": schema.StringAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: permissionDescription("variables", "none"),
						Validators:          []validator.String{stringvalidator.OneOf(teamAccessVariablesValues...)},
					},
					"state_versions": schema.StringAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: permissionDescription("state_versions", "none"),
						Validators:          []validator.String{stringvalidator.OneOf(teamAccessStateVersionsValues...)},
					},
					"sentinel_mocks": schema.StringAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: permissionDescription("sentinel_mocks", "none"),
						Validators:          []validator.String{stringvalidator.OneOf(teamAccessSentinelMocksValues...)},
					},
					"workspace_locking": schema.BoolAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: permissionDescription("workspace_locking", "false"),
					},
					"run_tasks": schema.BoolAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: permissionDescription("run_tasks", "false"),
					},
					"policy_overrides": schema.BoolAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: permissionDescription("policy_overrides", "false"),
					},
				},
			},
		},
	}
}

// ValidateConfig rejects permissions with a fixed level unless they are exactly what it implies
// (as -generate-config-out writes them): the service refuses any other.
func (r *teamAccessResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var access types.String
	var perms types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("access"), &access)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("permissions"), &perms)...)
	if resp.Diagnostics.HasError() || access.IsNull() || access.IsUnknown() || perms.IsNull() || perms.IsUnknown() {
		return
	}
	level := access.ValueString()
	if !slices.Contains(fixedTeamAccessLevels, level) {
		return
	}
	implied := fixedTeamAccessPermissions[level]
	var differ []string
	for name, v := range perms.Attributes() {
		if !v.IsNull() && (v.IsUnknown() || !v.Equal(implied[name])) {
			differ = append(differ, fmt.Sprintf("%s = %s (%s implies %s)", name, v, level, implied[name]))
		}
	}
	if len(differ) == 0 {
		return
	}
	slices.Sort(differ)
	resp.Diagnostics.AddAttributeError(path.Root("permissions"), "Permissions set with a fixed access level",
		fmt.Sprintf("permissions can be chosen only when access is \"custom\". With access = %q the permissions are the ones that level implies, and they are read-only; "+
			"these differ from them: %s. "+
			"Set access = \"custom\" to choose each permission, or remove the permissions attribute (or write exactly what the level implies).",
			level, strings.Join(differ, ", ")))
}

// ModifyPlan plans the team's name and the permissions: a fixed level's are the ones it implies, a
// custom grant's are the service's defaults for those left out, so a change outside Terraform is put back.
func (r *teamAccessResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan teamAccessResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if req.State.Raw.IsNull() {
		r.planTaken(ctx, plan.TeamID, plan.WorkspaceID, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	r.planFlap(ctx, plan, &resp.Diagnostics)
	r.planTeamName(ctx, req, plan, resp)
	var access types.String
	var cfg types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("access"), &access)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("permissions"), &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if implied, ok := fixedTeamAccessPermissions[access.ValueString()]; ok && !access.IsUnknown() {
		// Only where the framework would plan them unknown: a refreshed grant keeps what the service says.
		if planned := plan.Permissions; planned.IsUnknown() || slices.ContainsFunc(slices.Collect(maps.Values(planned.Attributes())), attr.Value.IsUnknown) {
			obj, diags := types.ObjectValue(teamAccessPermissionsAttrTypes, implied)
			resp.Diagnostics.Append(diags...)
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("permissions"), obj)...)
		}
		return
	}
	if access.ValueString() != string(tfe.AccessCustom) || cfg.IsUnknown() {
		return
	}
	// A permission left out, or the whole block, plans its default.
	planned := make(map[string]attr.Value, len(teamAccessPermissionsAttrTypes))
	for name, v := range customPermissionDefaults {
		if c, ok := cfg.Attributes()[name]; ok && !c.IsNull() {
			v = c
		}
		planned[name] = v
	}
	obj, diags := types.ObjectValue(teamAccessPermissionsAttrTypes, planned)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("permissions"), obj)...)
}

func (r *teamAccessResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan teamAccessResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	po := customTeamAccessPermissionOptions(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := tfe.TeamAccessAddOptions{
		Access:    tfe.Access(tfe.AccessType(plan.Access.ValueString())),
		Team:      &tfe.Team{ID: plan.TeamID.ValueString()},
		Workspace: &tfe.Workspace{ID: plan.WorkspaceID.ValueString()},

		Runs:             po.runs,
		Variables:        po.variables,
		StateVersions:    po.stateVersions,
		SentinelMocks:    po.sentinelMocks,
		WorkspaceLocking: po.workspaceLocking,
		RunTasks:         po.runTasks,
		PolicyOverrides:  po.policyOverrides,
	}
	r.create(ctx, plan, func() (*tfe.TeamAccess, error) { return r.data.client.TeamAccess.Add(ctx, opts) },
		func(ta *tfe.TeamAccess) *teamAccessResourceModel { return r.applied(ctx, ta, plan) }, resp)
}

// Update sends the level and, for a known custom grant, every permission: one request.
func (r *teamAccessResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state teamAccessResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	po := customTeamAccessPermissionOptions(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := tfe.TeamAccessUpdateOptions{
		Access: tfe.Access(tfe.AccessType(plan.Access.ValueString())),

		Runs:             po.runs,
		Variables:        po.variables,
		StateVersions:    po.stateVersions,
		SentinelMocks:    po.sentinelMocks,
		WorkspaceLocking: po.workspaceLocking,
		RunTasks:         po.runTasks,
		PolicyOverrides:  po.policyOverrides,
	}
	r.update(ctx, plan, state, func(id string) (*tfe.TeamAccess, error) { return r.data.client.TeamAccess.Update(ctx, id, opts) },
		func(ta *tfe.TeamAccess) *teamAccessResourceModel { return r.applied(ctx, ta, plan) }, resp)
}

// teamAccessPermissionOptions are what a create or update sends: all for a known custom grant, else
// none (the service decides).
type teamAccessPermissionOptions struct {
	runs             *tfe.RunsPermissionType
	variables        *tfe.VariablesPermissionType
	stateVersions    *tfe.StateVersionsPermissionType
	sentinelMocks    *tfe.SentinelMocksPermissionType
	workspaceLocking *bool
	runTasks         *bool
	policyOverrides  *bool
}

func customTeamAccessPermissionOptions(ctx context.Context, plan teamAccessResourceModel, diags *diag.Diagnostics) teamAccessPermissionOptions {
	p, ok := teamAccessPermissionsFrom(ctx, plan.Permissions, diags)
	if !ok || plan.Access.ValueString() != string(tfe.AccessCustom) {
		return teamAccessPermissionOptions{}
	}
	return teamAccessPermissionOptions{
		runs:             (*tfe.RunsPermissionType)(p.Runs.ValueStringPointer()),
		variables:        (*tfe.VariablesPermissionType)(p.Variables.ValueStringPointer()),
		stateVersions:    (*tfe.StateVersionsPermissionType)(p.StateVersions.ValueStringPointer()),
		sentinelMocks:    (*tfe.SentinelMocksPermissionType)(p.SentinelMocks.ValueStringPointer()),
		workspaceLocking: p.WorkspaceLocking.ValueBoolPointer(),
		runTasks:         p.RunTasks.ValueBoolPointer(),
		policyOverrides:  p.PolicyOverrides.ValueBoolPointer(),
	}
}

// findTeamAccessByNames resolves an import's names: the workspace by name, the team by name, then the
// workspace's grants.
func findTeamAccessByNames(d *providerData, ctx context.Context, org, wsName, teamName string) (string, error) {
	c := d.client
	ws, err := c.Workspaces.Read(ctx, org, wsName)
	if isNotFound(err) {
		return "", fmt.Errorf("workspace %q was not found in organization %q, or the API token may not see it", wsName, org)
	}
	if err != nil {
		return "", fmt.Errorf("reading workspace %s/%s: %w", org, wsName, err)
	}
	team, err := teamByName(ctx, c, org, teamName)
	if err != nil {
		return "", err
	}
	grants, err := listTeamAccess(ctx, c, ws.ID)
	if err != nil {
		return "", fmt.Errorf("%s", workspaceAccessError(ws.ID, err))
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == team.ID {
			return g.ID, nil
		}
	}
	if seesEveryGrant(ws) {
		return "", fmt.Errorf("team %q (%s) has no access to workspace %q (%s): the API token sees every grant of the workspace, and none is the team's", teamName, team.ID, wsName, ws.ID)
	}
	return "", fmt.Errorf("team %q (%s) has no access to workspace %q (%s) that the API token may see: without %s, a token sees only the access of its own teams", teamName, team.ID, wsName, ws.ID, permTeamAccess)
}

// applied is a create's or update's state: the plan's team name, and a fixed level's planned
// permissions (a service that implies more shows it at the next refresh, not as an error after apply).
func (r *teamAccessResource) applied(ctx context.Context, ta *tfe.TeamAccess, plan teamAccessResourceModel) *teamAccessResourceModel {
	m := teamAccessModel(ta, plan)
	if _, fixed := fixedTeamAccessPermissions[string(ta.Access)]; fixed && isKnown(plan.Permissions) && !m.Permissions.Equal(plan.Permissions) {
		tflog.Warn(ctx, "The service reports other permissions than the access level implied at plan; the next refresh records them", map[string]any{"id": ta.ID, "access": string(ta.Access)})
		m.Permissions = plan.Permissions
	}
	if m.TeamName.IsUnknown() {
		m.TeamName = r.data.teamNameValue(ctx, m.WorkspaceID.ValueString(), m.TeamID.ValueString())
	}
	return m
}

// teamLabelOf names the state's team: `"name" (team-id)` once a refresh named it.
func teamLabelOf(m teamAccessResourceModel) string {
	if isKnown(m.TeamName) {
		return teamLabel(map[string]string{m.TeamID.ValueString(): m.TeamName.ValueString()}, m.TeamID.ValueString())
	}
	return m.TeamID.ValueString()
}

// teamAccessModel is ta's state; team and workspace from the answer when it names them, else prior.
func teamAccessModel(ta *tfe.TeamAccess, prior teamAccessResourceModel) *teamAccessResourceModel {
	m := &teamAccessResourceModel{
		ID:          types.StringValue(ta.ID),
		TeamID:      prior.TeamID,
		TeamName:    prior.TeamName,
		WorkspaceID: prior.WorkspaceID,
		Access:      types.StringValue(string(ta.Access)),
		Permissions: teamAccessPermissionsObject(ta),
	}
	if ta.Team != nil && ta.Team.ID != "" {
		m.TeamID = types.StringValue(ta.Team.ID)
	}
	if ta.Team != nil && ta.Team.Name != "" {
		m.TeamName = types.StringValue(ta.Team.Name)
	}
	if ta.Workspace != nil && ta.Workspace.ID != "" {
		m.WorkspaceID = types.StringValue(ta.Workspace.ID)
	}
	return m
}
