package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tfgov_policy: the check of a write's answer, the helpers of Update, and
// Delete and ImportState (policy_resource.go keeps the schema, plan,
// create, read and update).

// configuresCode reports whether the configuration gives this policy's
// code (content, source, or content_wo, which only the configuration
// holds), not only a digest kept in state.
func (r *policyResource) configuresCode(ctx context.Context, plan policyResourceModel, config tfsdk.Config) bool {
	if !plan.Content.IsNull() || !plan.Source.IsNull() {
		return true
	}
	var wo types.String
	_ = config.GetAttribute(ctx, path.Root("content_wo"), &wo)
	return !wo.IsNull()
}

// serviceHasCode downloads policy id's code (one request) and reports
// whether its SHA-256 is sum; a failed download reports false, so that the
// caller writes.
func (d *providerData) serviceHasCode(ctx context.Context, id, sum string) bool {
	code, gone, err := d.fetchCode(ctx, id)
	has := err == nil && !gone && sha256Hex(code) == sum
	tflog.Debug(ctx, "Confirmed at apply whether the policy still has the code its import found", map[string]any{"policy_id": id, "has": has})
	return has
}

// checkPolicyWritten compares the policy the API returned after a write
// (got) with the planned one (want) and reports every configured value the
// API did not take. The caller saves got, so state tells the truth.
func checkPolicyWritten(want, got policyResourceModel, diags *diag.Diagnostics) {
	for _, f := range []struct {
		attr      string
		want, got types.String
	}{
		{"organization", want.Organization, got.Organization},
		{"name", want.Name, got.Name},
		{"kind", want.Kind, got.Kind},
		{"description", want.Description, got.Description},
		{"query", want.Query, got.Query},
		{"enforcement_level", want.EnforcementLevel, got.EnforcementLevel},
	} {
		if f.want.IsUnknown() || f.want.Equal(f.got) {
			continue
		}
		diags.AddAttributeError(path.Root(f.attr), "The API did not apply a policy attribute",
			fmt.Sprintf("Policy %s: %s was sent as %s but the API returned %s. The state records what the API returned; check the token's permissions and the service's rules for this attribute.",
				got.ID.ValueString(), f.attr, f.want, f.got))
	}
}

func (r *policyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state policyResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	defer r.data.lists.policies.invalidate(state.Organization.ValueString())
	err := r.data.client.Policies.Delete(ctx, id)
	if err != nil && !isNotFound(err) {
		resp.Diagnostics.AddError("Error deleting policy", fmt.Sprintf("Deleting policy %s: %s", id, err))
		return
	}
	tflog.Info(ctx, "Deleted policy", map[string]any{"id": id})
}

// ImportState takes the policy ID (`pol-<id>`) or `<organization>/<name>`,
// which is looked up by name.
func (r *policyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	const forms = "pol-<id> or <organization>/<policy name>"
	if strings.HasPrefix(req.ID, "pol-") {
		resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
		markImporting(ctx, resp)
		return
	}
	parts, err := splitImportID(req.ID, 2, forms)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error())
		return
	}
	pol, err := policyClient{r.data.client}.findByName(ctx, parts[0], parts[1])
	if err != nil {
		resp.Diagnostics.AddError("Error importing policy", r.data.policyByNameError(ctx, parts[0], parts[1], err))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), pol.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("organization"), parts[0])...)
	markImporting(ctx, resp)
}
