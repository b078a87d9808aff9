package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// tfgov_policy's `source`: a file the provider reads, so that the code
// never enters Terraform's configuration, plan or state (issue 37). Its
// digest is planned as tfgov_policy_upload's is (code_hash.go): a saved
// plan applies, or fails saying the file changed.

// planSource reads the source file and plans its SHA-256 (planLocalHash). A
// file that cannot be read is an error on source.
func (r *policyResource) planSource(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, source types.String) (code []byte, have bool, sum types.String) {
	if source.IsUnknown() {
		return nil, false, types.StringUnknown()
	}
	name := source.ValueString()
	code, err := readPolicySource(name)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("source"), sourceErrorSummary(err), err.Error())
		return nil, false, types.StringUnknown()
	}
	prior := policyResourceModel{Source: types.StringNull(), ContentSHA256: types.StringNull(), Content: types.StringNull()}
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(getInto(ctx, req.State, &prior)...)
	}
	return code, true, planLocalHash(ctx, req.Private, path.Root("source"), "Policy file", name, sha256Hex(code), req.State.Raw.IsNull(), prior.codeSum(), prior.Source, &resp.Diagnostics)
}

// recordSource records in the refresh's private state, for the apply of a
// saved plan, the digest of the source file as the refresh finds it; no
// source, or a file that cannot be read (the plan reports it), records
// nothing.
func recordSource(ctx context.Context, priv privateStateSetter, source types.String, diags *diag.Diagnostics) {
	sum := ""
	if !source.IsNull() {
		if code, err := readPolicySource(source.ValueString()); err == nil {
			sum = sha256Hex(code)
		}
	}
	diags.Append(recordLocalHash(ctx, priv, sum)...)
}
