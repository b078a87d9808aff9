package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// planOrganization (ModifyPlan) fills a null `organization` with the provider's default, and
// replaces the resource when that default moved away from the organization in state.
func (d *providerData) planOrganization(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || d == nil {
		return // destroy, or the provider is not configured yet
	}
	var cfg types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("organization"), &cfg)...)
	if resp.Diagnostics.HasError() || !cfg.IsNull() {
		return
	}
	if d.organizationUnknown {
		// The provider's organization is known only after apply, so is a new resource's;
		// an existing one keeps its own (the provider's is checked again at apply).
		if req.State.Raw.IsNull() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("organization"), types.StringUnknown())...)
		}
		return
	}
	if d.organization == "" {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Missing organization",
			"Set organization on this resource, or organization on the provider (or the TFE_ORGANIZATION environment variable).")
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("organization"), d.organization)...)
	if req.State.Raw.IsNull() {
		return
	}
	var state types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("organization"), &state)...)
	if !state.IsNull() && state.ValueString() != d.organization {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("organization"))
	}
}

// organizationOr (data sources) is v, else the provider's organization, else an error naming the attribute.
func (d *providerData) organizationOr(v types.String, diags *diag.Diagnostics) string {
	if !v.IsNull() && v.ValueString() != "" {
		return v.ValueString()
	}
	switch {
	case d.organizationUnknown:
		diags.AddAttributeError(path.Root("organization"), "Organization unknown until apply",
			"The provider's organization is known only after apply, and this data source needs one to read. Set organization here to a value known at plan, or make the provider's known at plan.")
	case d.organization == "":
		diags.AddAttributeError(path.Root("organization"), "Missing organization",
			"Set organization here, or organization on the provider (or the TFE_ORGANIZATION environment variable).")
	}
	return d.organization
}
