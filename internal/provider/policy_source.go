package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// tfgov_policy's `source`: a file the provider reads, so that the code
// never enters Terraform's configuration, plan or state (issue 37). Its
// digest is planned as tfgov_policy_upload's is (code_hash.go): a saved
// plan applies, or fails saying the file changed.

// planSource plans the source file's SHA-256 as tfgov_policy_upload plans
// its own (planPolicyCode): read now, refused when missing or too large,
// and checked against the refresh's record for a saved plan.
func (r *policyResource) planSource(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, source types.String, prior *policyResourceModel) (code []byte, have bool, sum types.String) {
	priorSum, priorSource := types.StringNull(), types.StringNull()
	if prior != nil {
		priorSum, priorSource = prior.codeSum(), prior.Source
	}
	p := planPolicyCode(ctx, types.StringNull(), source, types.StringNull(), priorSum, priorSource, prior == nil, req.Private, &resp.Diagnostics)
	return p.Code, p.Attr != "", p.SHA256
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
