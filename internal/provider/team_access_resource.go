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

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
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
	return &teamAccessResource{resourceBase{typ: teamAccessType}}
}

type teamAccessResource struct{ resourceBase }

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
	if req.State.Raw.IsNull() {
		r.planTaken(ctx, req, resp)
	}
	var plan teamAccessResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.planFlap(ctx, plan, resp)
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
	teamID, wsID := plan.TeamID.ValueString(), plan.WorkspaceID.ValueString()
	po := customTeamAccessPermissionOptions(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := tfe.TeamAccessAddOptions{
		Access:    tfe.Access(tfe.AccessType(plan.Access.ValueString())),
		Team:      &tfe.Team{ID: teamID},
		Workspace: &tfe.Workspace{ID: wsID},

		Runs:             po.runs,
		Variables:        po.variables,
		StateVersions:    po.stateVersions,
		SentinelMocks:    po.sentinelMocks,
		WorkspaceLocking: po.workspaceLocking,
		RunTasks:         po.runTasks,
		PolicyOverrides:  po.policyOverrides,
	}
	tflog.Debug(ctx, "Adding team access", map[string]any{"team_id": teamID, "workspace_id": wsID, "access": plan.Access.ValueString()})
	defer r.data.lists.teamAccess.invalidate(wsID)
	ta, err := reconcileCreate(ctx, "tfgov_team_access",
		func() (*tfe.TeamAccess, error) {
			ta, err := r.data.client.TeamAccess.Add(ctx, opts)
			if err == nil {
				r.data.owned.receive(ta.ID)
			}
			return ta, err
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*tfe.TeamAccess, bool, error) {
			return r.lostAdd(ctx, opts, amb)
		})
	if _, ok := err.(*conflictError); ok { //nolint:errorlint // reconcileCreate returns it unwrapped
		resp.Diagnostics.AddError("Error adding team access", err.Error())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error adding team access", r.addError(ctx, teamID, wsID, err))
		return
	}
	tflog.Info(ctx, "Added team access", map[string]any{"id": ta.ID, "team_id": teamID, "workspace_id": wsID, "access": string(ta.Access)})
	resp.Diagnostics.Append(resp.State.Set(ctx, r.applied(ctx, ta, plan))...)
}

// Read finds the grant in its workspace's shared list (one request per 100 grants a plan); one
// missing is gone only as teamAccessGone says. An import by ID has no workspace yet: read by ID.
func (r *teamAccessResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state teamAccessResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	id, wsID := state.ID.ValueString(), state.WorkspaceID.ValueString()
	var ta *tfe.TeamAccess
	listMissing := false
	if wsID == "" {
		var err error
		ta, err = r.data.client.TeamAccess.Read(ctx, id)
		if isNotFound(err) {
			ta = nil
		} else if err != nil {
			resp.Diagnostics.AddError("Error reading team access", fmt.Sprintf("Reading team access %s: %s", id, err))
			return
		}
	} else {
		grants, err := r.data.workspaceTeamAccess(ctx, wsID)
		if err != nil {
			resp.Diagnostics.AddError("Error reading team access", fmt.Sprintf("Listing the team access of workspace %s: %s", wsID, err))
			return
		}
		listMissing = grants.parentMissing
		var ok bool
		if ta, ok = grants.lookup(id); !ok && !grants.definite() {
			// Make sure (shared_lists.go): read by ID.
			if ta, err = r.data.client.TeamAccess.Read(ctx, id); isNotFound(err) {
				ta = nil
			} else if err != nil {
				resp.Diagnostics.AddError("Error reading team access", fmt.Sprintf("Reading team access %s: %s", id, err))
				return
			}
		}
	}
	if ta == nil && importing {
		importedMissing(&resp.Diagnostics, "team access", fmt.Sprintf("Team access %s was not found: no team holds a grant of that ID, or the API token may not see it "+
			"(members see only the access of their own teams; owners, the workspace's admins and teams with \"Manage workspaces\" see all).", id))
		return
	}
	if ta == nil && wsID == "" {
		resp.Diagnostics.AddError("Error reading team access", fmt.Sprintf("Team access %s was not found, and state names no workspace to tell whether it was removed "+
			"or the API token may not see it. State keeps it; refresh with a token that has %s, or an owner's.", id, permTeamAccess))
		return
	}
	if ta == nil {
		gone, why := r.data.teamAccessGone(ctx, refreshCheck, id, state.TeamID.ValueString(), wsID, listMissing)
		if !gone {
			resp.Diagnostics.AddError("Cannot refresh team access", why)
			return
		}
		if why != "" {
			resp.Diagnostics.AddWarning("Workspace deleted: team access removed from state",
				fmt.Sprintf("Team access %s of team %s left state: its workspace %s was deleted. %s", id, teamLabelOf(state), wsID, why))
		}
		tflog.Info(ctx, "Team access no longer exists; removing it from state", map[string]any{"id": id, "workspace_id": wsID})
		resp.State.RemoveResource(ctx)
		return
	}
	m := teamAccessModel(ta, state)
	if (ta.Team == nil || ta.Team.Name == "") && m.TeamName.IsNull() {
		// Read by ID, as an import is: the answer names no team.
		m.TeamName = r.data.teamNameValue(ctx, m.WorkspaceID.ValueString(), m.TeamID.ValueString())
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
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
	id := state.ID.ValueString()
	tflog.Debug(ctx, "Updating team access", map[string]any{"id": id, "access": plan.Access.ValueString()})
	defer r.data.lists.teamAccess.invalidate(state.WorkspaceID.ValueString())
	ta, err := r.data.client.TeamAccess.Update(ctx, id, opts)
	if err != nil {
		detail := fmt.Sprintf("Updating team access %s: %s", id, err)
		if isNotFound(err) {
			detail = r.data.teamAccessUpdateError(ctx, id, state.WorkspaceID.ValueString())
		}
		resp.Diagnostics.AddError("Error updating team access", detail)
		return
	}
	tflog.Info(ctx, "Updated team access", map[string]any{"id": id, "access": string(ta.Access)})
	resp.Diagnostics.Append(resp.State.Set(ctx, r.applied(ctx, ta, plan))...)
}

func (r *teamAccessResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state teamAccessResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	defer r.data.lists.teamAccess.invalidate(state.WorkspaceID.ValueString())
	err := r.data.client.TeamAccess.Remove(ctx, id)
	if isNotFound(err) {
		if why := confirmGone(ctx, removeCheck, "Team access "+id, permTeamAccess, r.data.locateTeamAccess(id, state.TeamID.ValueString(), state.WorkspaceID.ValueString())); why != "" {
			resp.Diagnostics.AddError("Cannot remove team access", why)
			return
		}
		err = nil
	}
	if err != nil {
		resp.Diagnostics.AddError("Error removing team access", fmt.Sprintf("Removing team access %s: %s", id, err))
		return
	}
	tflog.Info(ctx, "Removed team access", map[string]any{"id": id})
}

// ImportState takes the `tws-` ID, or `<organization>/<workspace_name>/<team_name>` resolved by
// three reads, on import only.
func (r *teamAccessResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	const forms = "tws-<id> or <organization>/<workspace_name>/<team_name>"
	if strings.HasPrefix(req.ID, "tws-") {
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
		resp.Diagnostics.AddError("Error importing team access", err.Error())
		return
	}
	tflog.Debug(ctx, "Resolved team access import ID", map[string]any{"import_id": req.ID, "id": id})
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	markImporting(ctx, resp)
}

// planFlap refuses a grant that a planned exclusive set of its workspace leaves out (team_access_plans.go).
func (r *teamAccessResource) planFlap(ctx context.Context, plan teamAccessResourceModel, resp *resource.ModifyPlanResponse) {
	if r.data == nil || !isKnown(plan.TeamID) || !isKnown(plan.WorkspaceID) {
		return
	}
	teamID, wsID := plan.TeamID.ValueString(), plan.WorkspaceID.ValueString()
	parent := accessParent{workspaceGrants, wsID}
	if r.data.lists.plannedAccess.planGrant(parent, teamID) {
		resp.Diagnostics.AddAttributeError(path.Root("team_id"), "Team access and exclusive team access disagree", r.data.accessFlap(ctx, parent, []string{teamID}))
	}
}

// planTeamName keeps the refreshed name of an unchanged team, else reads the shared team list.
func (r *teamAccessResource) planTeamName(ctx context.Context, req resource.ModifyPlanRequest, plan teamAccessResourceModel, resp *resource.ModifyPlanResponse) {
	if !plan.TeamName.IsUnknown() || !isKnown(plan.TeamID) {
		return
	}
	name := types.StringUnknown()
	if !req.State.Raw.IsNull() {
		var state teamAccessResourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if state.TeamID.Equal(plan.TeamID) {
			name = state.TeamName
		}
	}
	if name.IsUnknown() && r.data != nil {
		wsID := ""
		if isKnown(plan.WorkspaceID) {
			wsID = plan.WorkspaceID.ValueString()
		}
		if n := r.data.teamNameValue(ctx, wsID, plan.TeamID.ValueString()); !n.IsNull() {
			name = n
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("team_name"), name)...)
}

// planTaken refuses a grant for a team holding one already, when this plan listed the workspace
// anyway: listing for every create would triple a lone grant's requests, so otherwise the apply
// refuses it, with the same advice.
func (r *teamAccessResource) planTaken(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.data == nil {
		return
	}
	var teamID, wsID types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("team_id"), &teamID)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("workspace_id"), &wsID)...)
	if resp.Diagnostics.HasError() || teamID.IsUnknown() || wsID.IsUnknown() || teamID.IsNull() || wsID.IsNull() {
		return
	}
	grants, ok := r.data.lists.teamAccess.held(wsID.ValueString())
	if !ok || grants.parentMissing {
		return
	}
	for _, g := range sortedByKey(grants.byID) {
		if g.Team != nil && g.Team.ID == teamID.ValueString() {
			resp.Diagnostics.AddAttributeError(path.Root("team_id"), "Team access already exists",
				r.data.teamAccessTaken(ctx, teamID.ValueString(), wsID.ValueString(), g, "Found at plan, in the workspace's team access this plan read: nothing was sent."))
			return
		}
	}
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

// lostAdd looks for the grant a lost add may have made. One found is never adopted: a grant has no
// creation time or mark to prove it is this add's (DESIGN.md "Lost creates"), so it fails as taken.
func (r *teamAccessResource) lostAdd(ctx context.Context, sent tfe.TeamAccessAddOptions, amb *tfeclient.AmbiguousWriteError) (*tfe.TeamAccess, bool, error) {
	grants, err := listTeamAccess(ctx, r.data.client, sent.Workspace.ID)
	if err != nil {
		return nil, false, err
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == sent.Team.ID {
			return nil, false, &conflictError{r.data.teamAccessTaken(ctx, sent.Team.ID, sent.Workspace.ID, g, lostAnswerFound(amb))}
		}
	}
	return nil, false, nil
}

// addError looks for the existing grant rather than match the service's 422 wording, and says how to
// import it.
func (r *teamAccessResource) addError(ctx context.Context, teamID, wsID string, err error) string {
	if isNotFound(err) {
		return r.data.teamAccessAddError(ctx, teamID, wsID)
	}
	grants, lerr := listTeamAccess(ctx, r.data.client, wsID)
	if lerr != nil {
		return fmt.Sprintf("Adding access for team %s to workspace %s: %s", teamID, wsID, err)
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == teamID {
			return r.data.teamAccessTaken(ctx, teamID, wsID, g, "The service said: "+err.Error())
		}
	}
	return fmt.Sprintf("Adding access for team %s to workspace %s: %s", teamID, wsID, err)
}

func (r *teamAccessResource) findByNames(ctx context.Context, org, wsName, teamName string) (string, error) {
	c := r.data.client
	ws, err := c.Workspaces.Read(ctx, org, wsName)
	if isNotFound(err) {
		return "", fmt.Errorf("workspace %q was not found in organization %q, or the API token may not see it", wsName, org)
	}
	if err != nil {
		return "", fmt.Errorf("reading workspace %s/%s: %w", org, wsName, err)
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
