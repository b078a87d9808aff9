package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// exclusiveModel is an exclusive form's model: the set both forms share, and what the form adds.
type exclusiveModel interface{ set() exclusiveSet }

// exclusiveResource is an exclusive form's CRUD over its exclusiveParent; the form's file holds its
// schema and what it keeps beyond the set (hooks). DESIGN.md "One grant resource, two parents".
type exclusiveResource[M exclusiveModel] struct {
	resourceBase
	parent *exclusiveParent
	take   func(m *M, s exclusiveSet)
	// planMore plans the form's own attributes once the set is planned; state is zero with no prior.
	planMore func(d *providerData, ctx context.Context, plan, state M, prior bool, resp *resource.ModifyPlanResponse)
	// refreshed and applied fill the form's own attributes after a refresh and after an apply.
	refreshed, applied func(d *providerData, ctx context.Context, m *M)
}

// ModifyPlan plans removed_team_ids and removed_grant_ids (exclusiveParent.plan), then the form's own.
func (r *exclusiveResource[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var prior *exclusiveSet
	var state M
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		s := state.set()
		prior = &s
	}
	out := r.parent.plan(ctx, r.data, plan.set(), prior, req.Private, &resp.Diagnostics)
	if !out.ok {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_team_ids"), out.removedTeams)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("removed_grant_ids"), out.removedGrants)...)
	if r.planMore != nil {
		r.planMore(r.data, ctx, plan, state, prior != nil, resp)
	}
}

// Create removes the grants of the plan's removed_team_ids, one DELETE each.
func (r *exclusiveResource[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, plan, nil, nil, &resp.State, resp.Private, &resp.Diagnostics)
}

// Read adds every team holding access to team_ids (exclusiveParent.refresh) and records the grants it saw.
func (r *exclusiveResource[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	out, remove := r.parent.refresh(ctx, r.data, state.set(), importing, resp.Private, &resp.Diagnostics)
	if remove {
		resp.State.RemoveResource(ctx)
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	r.take(&state, out)
	if r.refreshed != nil {
		r.refreshed(r.data, ctx, &state)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update removes the grants of the teams leaving team_ids that its plan's refresh recorded.
func (r *exclusiveResource[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	prior := priorTeams(ctx, state.set().TeamIDs)
	// The refresh's record, carried in the plan's private state.
	seen := readGrantRecord(ctx, req.Private, r.parent.kind.grantPrefix, &resp.Diagnostics)
	r.apply(ctx, plan, prior, seen, &resp.State, resp.Private, &resp.Diagnostics)
}

// Delete removes the resource from state only: no access is removed.
func (r *exclusiveResource[M]) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	k := r.parent.kind
	var id types.String
	_ = req.State.GetAttribute(ctx, path.Root(k.idAttr), &id)
	tflog.Info(ctx, "Removed exclusive "+strings.ToLower(k.what)+" from state; no access was removed", map[string]any{k.idAttr: id.ValueString()})
}

// ImportState takes the parent's ID; why these types are importable: DESIGN.md "Exclusive team
// access: the grants a plan saw".
func (r *exclusiveResource[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	r.parent.importParent(ctx, r.importID(ctx, req, &resp.Diagnostics), req, resp)
}

// apply is exclusiveParent.apply, then the form's own attributes.
func (r *exclusiveResource[M]) apply(ctx context.Context, plan M, prior map[string]bool, seen grantRecord,
	state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	out, ok := r.parent.apply(ctx, r.data, plan.set(), prior, seen, private, diags)
	if !ok {
		return
	}
	r.take(&plan, out)
	if r.applied != nil {
		r.applied(r.data, ctx, &plan)
	}
	diags.Append(state.Set(ctx, &plan)...)
}
