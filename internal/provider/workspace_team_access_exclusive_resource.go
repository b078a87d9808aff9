package provider

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
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
	return &workspaceTeamAccessExclusiveResource{resourceBase{typ: workspaceTeamAccessExclusiveType}}
}

type workspaceTeamAccessExclusiveResource struct{ resourceBase }

// workspaceTeamAccessExclusiveIdentityAttrs is the workspace (identity.go).
var workspaceTeamAccessExclusiveIdentityAttrs = []identityAttr{{"workspace_id", "ID of the workspace (`ws-<id>`)."}}

type workspaceTeamAccessExclusiveModel struct {
	WorkspaceID    types.String `tfsdk:"workspace_id"`
	TeamIDs        types.Set    `tfsdk:"team_ids"`
	RemovedTeamIDs types.Set    `tfsdk:"removed_team_ids"`
	// RemovedGrants: the grants (tws- IDs) the plan saw and the apply removes. A new resource's
	// are read from the service again at apply, so a grant made again since stops the apply.
	RemovedGrants types.Set `tfsdk:"removed_grant_ids"`
}

func (r *workspaceTeamAccessExclusiveResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, workspaceTeamAccessExclusiveType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete set of teams that may hold access to a workspace. On apply, the access of every team of the workspace " +
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
			"**Lock-out guard.** The plan fails when it would remove the `admin` access through which the API token's own user administers the " +
			"workspace: the user (from the token check every configuration makes) belongs to the team losing it, holds `admin` access through no team " +
			"that keeps it, and is neither in the owners team nor in a team that may manage all workspaces (from the organization's team list, read " +
			"only when a plan removes an `admin` grant). Organization tokens act as an owner and are never locked out. A team token names no user, " +
			"so the API does not tell which team it belongs to: with a team token the guard cannot tell, and does not refuse.\n\n" +
			"Declare each `tfgov_team_access` of the workspace in `team_ids` (for example `[for a in tfgov_team_access.app : a.team_id]`), or this resource removes it on the next apply: " +
			"in the same configuration, a plan with a `tfgov_team_access` whose team `team_ids` leaves out fails, naming both and the team, since each apply would undo the other's.",
		Attributes: map[string]schema.Attribute{
			"workspace_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the workspace (`ws-<id>`). Changing it replaces the resource (which removes no access from the former workspace).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{idValidator("ws-")},
			},
			"team_ids": schema.SetAttribute{
				Required:    true,
				ElementType: types.StringType,
				MarkdownDescription: "IDs of the teams (`team-<id>`) that may hold access to the workspace; the access of every other team is removed on apply. " +
					"An empty set removes every team's access.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(idValidator("team-"))},
			},
			"removed_team_ids": schema.SetAttribute{
				Computed:    true,
				ElementType: types.StringType,
				MarkdownDescription: "IDs of the teams whose access the plan removes, known when the plan is made (unless `team_ids` is not), so that " +
					"`terraform show` of a saved plan lists them; the apply removes the access of exactly these teams. For an update these are the teams " +
					"that leave `team_ids` and held access when the plan's refresh read the workspace's grants (a team that held none loses nothing); " +
					"the refresh records the IDs of the grants it saw in the resource's private state (not shown in plans), and the apply removes only " +
					"them: a grant made after the plan, to any team, is left alone, and the next plan shows it leaving. For a new resource, the teams " +
					"that hold access and `team_ids` does not name. After the apply it lists the teams whose access the apply removed, and a refresh " +
					"empties it.\n\n" +
					"Terraform plans a new resource again when it applies it, and does not show the provider the plan it made " +
					"before: if the workspace's grants changed in between, a new resource's apply stops before removing anything, with " +
					"\"Provider produced inconsistent final plan\" for `removed_team_ids` or `removed_grant_ids`; plan again to see them.",
			},
			"removed_grant_ids": schema.SetAttribute{
				Computed:    true,
				ElementType: types.StringType,
				MarkdownDescription: "IDs of the grants (`tws-<id>`) that the apply removes, one for each team of `removed_team_ids` that holds access, " +
					"known when the plan is made (unless `team_ids` is not). A grant revoked and made again for the same team after the plan " +
					"has a new ID: the apply of an update leaves it alone, and a new resource's apply stops before removing anything " +
					"(\"Provider produced inconsistent final plan\" for `removed_grant_ids`). A refresh empties it.",
			},
		},
	}
}

// ModifyPlan plans removed_team_ids, refuses a lock-out (lockOut), and warns with each grant the
// apply removes by team name: the diff shows bare IDs.
func (r *workspaceTeamAccessExclusiveResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	var plan, state workspaceTeamAccessExclusiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	keep, ok := teamIDsOf(ctx, plan.TeamIDs)
	if !ok || plan.WorkspaceID.IsUnknown() {
		// Known when the apply plans again with known values.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_team_ids"), types.SetUnknown(types.StringType))...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_grant_ids"), types.SetUnknown(types.StringType))...)
		return
	}
	wsID := plan.WorkspaceID.ValueString()
	parent := accessParent{workspaceGrants, wsID}
	if left := r.data.lists.plannedAccess.planExclusive(parent, keep); len(left) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root("team_ids"), "Team access and exclusive team access disagree", r.data.accessFlap(ctx, parent, left))
		return
	}
	// prior: the refreshed state's teams; nil for a new (or replaced) resource.
	var prior map[string]bool
	var seen grantRecord
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if state.WorkspaceID.Equal(plan.WorkspaceID) {
			if prior, _ = teamIDsOf(ctx, state.TeamIDs); prior == nil {
				prior = map[string]bool{}
			}
			seen = readGrantRecord(ctx, req.Private, &resp.Diagnostics)
			if len(removedTeams(nil, keep, prior, seen)) == 0 {
				// Nothing leaves team_ids: no request, and an unchanged plan keeps removed_team_ids.
				removed, grants := teamIDSet(nil), teamIDSet(nil)
				if plan.TeamIDs.Equal(state.TeamIDs) && !state.RemovedTeamIDs.IsNull() {
					removed = state.RemovedTeamIDs
					if !state.RemovedGrants.IsNull() {
						grants = state.RemovedGrants
					}
				}
				resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_team_ids"), removed)...)
				resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_grant_ids"), grants)...)
				return
			}
		}
	}
	if prior == nil {
		// A new resource's plan trusts the list alone, which must then be complete.
		seen, err := r.data.seeWorkspace(ctx, wsID)
		if err != nil {
			resp.Diagnostics.AddError("Error reading workspace", fmt.Sprintf("Reading workspace %s to tell whether the API token sees every grant of it: %s", wsID, err))
			return
		}
		if !seen.missing && !seen.allGrants { // missing: the list below says so
			resp.Diagnostics.AddAttributeError(path.Root("workspace_id"), "Cannot plan exclusive team access", exclusiveNotAllGrants(wsID, seen.name)+
				" Plan with a token that has the permission.")
			return
		}
	}
	grants, err := r.data.workspaceTeamAccess(ctx, wsID)
	if err != nil {
		resp.Diagnostics.AddError("Error listing team access", workspaceAccessError(wsID, err))
		return
	}
	if grants.parentMissing {
		resp.Diagnostics.AddAttributeError(path.Root("workspace_id"), "Workspace not found",
			workspaceNotFound(wsID))
		return
	}
	removedIDs := removedTeams(grants, keep, prior, seen)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_team_ids"), teamIDSet(removedIDs))...)
	removed := revocations(grants, keep, removedIDs, seen)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_grant_ids"), plannedGrants(prior, removedIDs, seen, removed))...)
	if len(removed) == 0 {
		return
	}
	if msg := r.data.lockOut(ctx, wsID, grants, removed); msg != "" {
		resp.Diagnostics.AddAttributeError(path.Root("team_ids"), "Removing this team access would lock the API token out of the workspace", msg)
		return
	}
	// Names from the shared team list (read only when a grant goes) and the refresh's
	// workspace read, never from state.
	names := r.data.teamNames(ctx, wsID, removed)
	lines := make([]string, 0, len(removed))
	for _, g := range removed {
		lines = append(lines, fmt.Sprintf("  - team %s: %s access (%s)", teamLabel(names, g.Team.ID), g.Access, g.ID))
	}
	if prior == nil {
		resp.Diagnostics.AddWarning("Team access will be removed",
			fmt.Sprintf("Applying removes the access of %d team(s) to workspace %s that team_ids does not name (removed_team_ids):\n%s\n\n"+
				"Add a team to team_ids to keep its access. A grant made after this plan is not removed by its apply: Terraform plans a new "+
				"resource again when it applies it, and if the grants to remove differ then, it stops with \"Provider produced inconsistent final plan\" "+
				"for removed_team_ids or removed_grant_ids before anything is removed; plan again.", len(removed), r.data.workspaceLabel(ctx, wsID), strings.Join(lines, "\n")))
		return
	}
	resp.Diagnostics.AddWarning("Team access will be removed",
		fmt.Sprintf("Applying removes the access of %d team(s) that leave team_ids from workspace %s (removed_team_ids):\n%s\n\n"+
			"Put a team back in team_ids to keep its access.", len(removed), r.data.workspaceLabelHeld(wsID), strings.Join(lines, "\n")))
}

// Create removes the grants of the plan's removed_team_ids, one DELETE each.
func (r *workspaceTeamAccessExclusiveResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan workspaceTeamAccessExclusiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, plan, nil, nil, &resp.State, resp.Private, &resp.Diagnostics)
}

// Read adds every team holding access to team_ids, so a team that would lose it shows leaving in
// the plan, and records the grants it saw (grantRecord). Without can-update it fails: only a token
// that sees every grant can say which teams hold access.
func (r *workspaceTeamAccessExclusiveResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state workspaceTeamAccessExclusiveModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	wsID := state.WorkspaceID.ValueString()
	if seen, err := r.data.seeWorkspace(ctx, wsID); err == nil && seen.missing {
		if importing {
			importedMissing(&resp.Diagnostics, "exclusive team access", workspaceNotFound(wsID))
			return
		}
		if teams, _ := teamIDsOf(ctx, state.TeamIDs); r.data.workspaceGone(ctx, wsID, slices.Sorted(maps.Keys(teams))) {
			resp.Diagnostics.AddWarning("Workspace deleted: exclusive team access removed from state",
				fmt.Sprintf("The exclusive team access of workspace %s left state: the workspace was deleted. %s", wsID, r.data.workspaceGoneProof()))
			resp.State.RemoveResource(ctx)
			return
		}
	}
	if why := r.data.exclusiveCannotSee(ctx, wsID); why != "" {
		resp.Diagnostics.AddAttributeError(path.Root("workspace_id"), "Cannot refresh exclusive team access", why)
		return
	}
	grants, err := r.data.workspaceTeamAccess(ctx, wsID)
	if err != nil {
		resp.Diagnostics.AddError("Error reading team access", workspaceAccessError(wsID, err))
		return
	}
	if grants.parentMissing {
		resp.Diagnostics.AddAttributeError(path.Root("workspace_id"), "Cannot refresh exclusive team access", workspaceMissing(refreshCheck, "The exclusive team access of workspace "+wsID, wsID))
		return
	}
	writeGrantRecord(ctx, resp.Private, grantRecordOf(grants), &resp.Diagnostics)
	ids, _ := teamIDsOf(ctx, state.TeamIDs)
	if ids == nil {
		ids = map[string]bool{}
	}
	for _, g := range grants.byID {
		if g.Team != nil && g.Team.ID != "" {
			ids[g.Team.ID] = true
		}
	}
	state.TeamIDs = teamIDSet(ids)
	state.RemovedTeamIDs, state.RemovedGrants = teamIDSet(nil), teamIDSet(nil) // nothing removed since this refresh
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update removes the grants of the teams leaving team_ids that its plan's refresh recorded.
func (r *workspaceTeamAccessExclusiveResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state workspaceTeamAccessExclusiveModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	prior, _ := teamIDsOf(ctx, state.TeamIDs)
	if prior == nil {
		prior = map[string]bool{}
	}
	// The refresh's record, carried in the plan's private state.
	seen := readGrantRecord(ctx, req.Private, &resp.Diagnostics)
	r.apply(ctx, plan, prior, seen, &resp.State, resp.Private, &resp.Diagnostics)
}

// Delete removes the resource from state only: no access is removed.
func (r *workspaceTeamAccessExclusiveResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var ws types.String
	_ = req.State.GetAttribute(ctx, path.Root("workspace_id"), &ws)
	tflog.Info(ctx, "Removed exclusive team access from state; no access was removed", map[string]any{"workspace_id": ws.ValueString()})
}

// ImportState takes the workspace's ID; why this type is importable: DESIGN.md "Exclusive team
// access: the grants a plan saw".
func (r *workspaceTeamAccessExclusiveResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	if !strings.HasPrefix(req.ID, "ws-") || strings.Contains(req.ID, "/") {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("Expected the ID of a workspace (ws-<id>), got %q.", req.ID))
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("workspace_id"), req, resp)
	markImporting(ctx, resp)
}

// apply removes the revocations once the lock-out guard passes again, and keeps in team_ids the
// teams whose removal failed, so the next plan shows them leaving again. The record becomes the
// grants left.
func (r *workspaceTeamAccessExclusiveResource) apply(ctx context.Context, plan workspaceTeamAccessExclusiveModel, prior map[string]bool, seen grantRecord,
	state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	keep, ok := teamIDsOf(ctx, plan.TeamIDs)
	if !ok {
		diags.AddAttributeError(path.Root("team_ids"), "Unknown team_ids", "team_ids must be known when the resource is applied.")
		return
	}
	wsID := plan.WorkspaceID.ValueString()
	removedIDs, planned := teamIDsOf(ctx, plan.RemovedTeamIDs)
	if (planned && !hasRemoval(removedIDs, keep)) || (!planned && prior != nil && len(removedTeams(nil, keep, prior, seen)) == 0) {
		// Nothing to remove, no request.
		if !planned {
			plan.RemovedTeamIDs = teamIDSet(nil)
		}
		if plan.RemovedGrants.IsUnknown() {
			plan.RemovedGrants = teamIDSet(nil)
		}
		diags.Append(state.Set(ctx, &plan)...)
		return
	}
	grants, err := r.data.workspaceTeamAccess(ctx, wsID)
	if err != nil {
		diags.AddError("Error listing team access", workspaceAccessError(wsID, err))
		return
	}
	if grants.parentMissing {
		diags.AddAttributeError(path.Root("workspace_id"), "Workspace not found",
			workspaceNotFound(wsID))
		return
	}
	if !planned {
		removedIDs = removedTeams(grants, keep, prior, seen)
	}
	removed := revocations(grants, keep, removedIDs, seen)
	if ids, known := teamIDsOf(ctx, plan.RemovedGrants); known {
		// Only the grants the plan named, whatever the service holds now.
		removed = slices.DeleteFunc(removed, func(g *tfe.TeamAccess) bool { return !ids[g.ID] })
	}
	// The guard again: a membership or grant may have changed since the plan (shared lists: no request).
	if msg := r.data.lockOut(ctx, wsID, grants, removed); msg != "" {
		diags.AddAttributeError(path.Root("team_ids"), "Removing this team access would lock the API token out of the workspace", msg)
		return
	}
	defer r.data.lists.teamAccess.invalidate(wsID)
	final := map[string]bool{}
	for id := range keep {
		final[id] = true
	}
	left := grantRecordOf(grants)
	for _, g := range removed {
		tflog.Debug(ctx, "Removing team access not declared in team_ids", map[string]any{"id": g.ID, "team_id": g.Team.ID, "workspace_id": wsID, "access": string(g.Access)})
		err := r.data.client.TeamAccess.Remove(ctx, g.ID)
		if isNotFound(err) {
			if why := confirmGone(ctx, removeCheck, "Team access "+g.ID+" (team "+g.Team.ID+")", permTeamAccess, r.data.locateTeamAccess(g.ID, g.Team.ID, wsID)); why != "" {
				final[g.Team.ID] = true
				diags.AddError("Cannot remove team access", why)
				continue
			}
			err = nil
		}
		if err != nil {
			final[g.Team.ID] = true
			diags.AddError("Error removing team access",
				fmt.Sprintf("Removing the %s access of team %s to workspace %s (%s): %s. Apply again to retry.",
					g.Access, teamLabel(r.data.teamNames(ctx, wsID, []*tfe.TeamAccess{g}), g.Team.ID), wsID, g.ID, err))
			continue
		}
		delete(left, g.Team.ID)
		tflog.Info(ctx, "Removed team access not declared in team_ids", map[string]any{"id": g.ID, "team_id": g.Team.ID, "workspace_id": wsID})
	}
	writeGrantRecord(ctx, private, left, diags)
	grantIDs := plan.RemovedGrants
	if grantIDs.IsUnknown() {
		grantIDs = plannedGrants(prior, removedIDs, seen, removed)
	}
	diags.Append(state.Set(ctx, &workspaceTeamAccessExclusiveModel{WorkspaceID: plan.WorkspaceID, TeamIDs: teamIDSet(final), RemovedTeamIDs: teamIDSet(removedIDs),
		RemovedGrants: grantIDs})...)
}

// plannedGrants is removed_grant_ids: an update's from the refresh's record (seen) alone, like
// removed_team_ids, so that Terraform's second plan at apply makes the same set; a new
// resource's, and an update's without a record, from the grants the plan removes (removed).
func plannedGrants(prior, teams map[string]bool, seen grantRecord, removed []*tfe.TeamAccess) types.Set {
	ids := map[string]bool{}
	if prior != nil && seen != nil {
		for team := range teams {
			if seen[team] != "" {
				ids[seen[team]] = true
			}
		}
		return teamIDSet(ids)
	}
	for _, g := range removed {
		ids[g.ID] = true
	}
	return teamIDSet(ids)
}

// removedTeams is the plan's removed_team_ids: an update's from state and the refresh's record
// (seen) alone, so that Terraform's second plan at apply makes the same set; a new resource's from
// grants.
func removedTeams(grants *recordsByID[*tfe.TeamAccess], keep, prior map[string]bool, seen grantRecord) map[string]bool {
	out := map[string]bool{}
	if prior != nil {
		for id := range prior {
			if !keep[id] && (seen == nil || seen[id] != "") {
				out[id] = true
			}
		}
		return out
	}
	for _, g := range grants.byID {
		if g.Team != nil && g.Team.ID != "" && !keep[g.Team.ID] {
			out[g.Team.ID] = true
		}
	}
	return out
}

// revocations are the removed teams' grants that, for an update, the refresh recorded (seen): a
// grant made after the plan is left for the next plan to show.
func revocations(grants *recordsByID[*tfe.TeamAccess], keep, removed map[string]bool, seen grantRecord) []*tfe.TeamAccess {
	var out []*tfe.TeamAccess
	for _, g := range sortedByKey(grants.byID) {
		if g.Team == nil || keep[g.Team.ID] || !removed[g.Team.ID] || (seen != nil && seen[g.Team.ID] != g.ID) {
			continue
		}
		out = append(out, g)
	}
	return out
}

func hasRemoval(prior, keep map[string]bool) bool {
	for id := range prior {
		if !keep[id] {
			return true
		}
	}
	return false
}

// teamIDsOf returns the elements of a known set.
func teamIDsOf(ctx context.Context, s types.Set) (map[string]bool, bool) {
	if s.IsNull() || s.IsUnknown() {
		return nil, false
	}
	var ids []string
	if d := s.ElementsAs(ctx, &ids, false); d.HasError() {
		return nil, false
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m, true
}

func teamIDSet(ids map[string]bool) types.Set {
	keys := make([]string, 0, len(ids))
	for id := range ids {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	s, _ := types.SetValueFrom(context.Background(), types.StringType, keys)
	return s
}

// lockOut says why removing these grants would take the token's user's admin access to the
// workspace away, or "" when it would not or the API cannot tell (DESIGN.md "Exclusive team
// access: the grants a plan saw").
func (d *providerData) lockOut(ctx context.Context, wsID string, grants *recordsByID[*tfe.TeamAccess], removed []*tfe.TeamAccess) string {
	var admins []*tfe.TeamAccess
	for _, g := range removed {
		if g.Access == tfe.AccessAdmin {
			admins = append(admins, g)
		}
	}
	if len(admins) == 0 {
		return ""
	}
	if d.caller == nil || d.caller.ID == "" || d.caller.IsServiceAccount {
		tflog.Debug(ctx, "Lock-out guard: the token names no user (an organization or team token), so the provider cannot tell whether it administers the workspace through a grant", map[string]any{"workspace_id": wsID})
		return ""
	}
	teams, err := d.workspaceOrganizationTeams(ctx, wsID, admins[0].Team.ID)
	if err != nil {
		return fmt.Sprintf("The provider could not check whether removing %s's admin access locks the API token out of workspace %s: listing the organization's teams: %s. Apply again later, or keep the team in team_ids.",
			admins[0].Team.ID, wsID, err)
	}
	mine := map[string]*tfe.Team{}
	for _, t := range teams.byID {
		if slices.ContainsFunc(t.Users, func(u *tfe.User) bool { return u != nil && u.ID == d.caller.ID }) {
			if t.Name == "owners" || (t.OrganizationAccess != nil && t.OrganizationAccess.ManageWorkspaces) {
				return "" // administers every workspace through the organization
			}
			mine[t.ID] = t
		}
	}
	gone := map[string]bool{}
	for _, g := range removed {
		gone[g.ID] = true
	}
	for _, g := range grants.byID {
		if g.Access == tfe.AccessAdmin && g.Team != nil && mine[g.Team.ID] != nil && !gone[g.ID] {
			return "" // another admin grant of the user's stays
		}
	}
	for _, g := range admins {
		if t := mine[g.Team.ID]; t != nil {
			return fmt.Sprintf("The API token acts as user %s, who administers workspace %s only through team %q (%s)'s admin access (%s), which this plan removes: "+
				"after it the token could no longer manage the workspace's team access, and neither could Terraform.\n\n"+
				"Keep %s (%q) in team_ids, give the user admin access through another team first, or apply with a token of an organization owner.",
				cmp.Or(d.caller.Username, d.caller.ID), d.workspaceLabel(ctx, wsID), t.Name, t.ID, g.ID, t.ID, t.Name)
		}
	}
	return ""
}

// exclusiveCannotSee says why the token may not refresh the exclusive access ("" when it may).
func (d *providerData) exclusiveCannotSee(ctx context.Context, wsID string) string {
	what := "The exclusive team access of workspace " + wsID
	seen, err := d.seeWorkspace(ctx, wsID)
	switch {
	case err != nil:
		return fmt.Sprintf("%s cannot be refreshed: reading the workspace to tell whether the API token sees every grant failed: %s.", what, err)
	case seen.missing:
		return workspaceMissing(refreshCheck, what, wsID)
	case !seen.allGrants:
		return fmt.Sprintf("%s cannot be refreshed: %s State keeps it; refresh with a token that has the permission.", what, exclusiveNotAllGrants(wsID, seen.name))
	}
	return ""
}

// exclusiveNotAllGrants says the token may not see every grant of workspace wsID (name).
func exclusiveNotAllGrants(wsID, name string) string {
	return fmt.Sprintf("workspace %s (%q) exists, but the API token may not see every team's access to it: it needs %s, or to be an owner. "+
		"Without it a token sees only the access of its own teams, and could not tell which other teams hold access.", wsID, name, permTeamAccess)
}

// grantRecordOf is the record a refresh keeps: each team's grant ID.
func grantRecordOf(grants *recordsByID[*tfe.TeamAccess]) grantRecord {
	rec := grantRecord{}
	for _, g := range grants.byID {
		if g.Team != nil && g.Team.ID != "" {
			rec[g.Team.ID] = g.ID
		}
	}
	return rec
}
