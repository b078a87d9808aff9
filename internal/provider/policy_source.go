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

// policySourceKey holds the refresh's record of the source file at the path
// in state: the first sourceRecordDigits hex digits of its SHA-256. They
// tell an edit apart as well as all 64 for a check between a plan and its
// apply, at about 50 bytes of state a policy instead of about 200 for a
// localHashRecord (private state is base64 twice over).
const (
	policySourceKey    = "src"
	sourceRecordDigits = 16
)

// planSource reads the source file and plans its SHA-256 (planHash). A
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
	h := localHash{Path: name, Now: sha256Hex(code), Creating: req.State.Raw.IsNull()}
	if !h.Creating {
		var prior policyResourceModel
		resp.Diagnostics.Append(getInto(ctx, req.State, &prior)...)
		h.State = prior.codeSum()
		if rec, ok := privateJSON[string](ctx, req.Private, policySourceKey, &resp.Diagnostics); ok && !prior.Source.IsNull() {
			h.Recorded = &localHashRecord{Path: prior.Source.ValueString(), SHA256: rec}
		}
	}
	return code, true, planHash(h, path.Root("source"), "Policy file", &resp.Diagnostics)
}

// recordSource records in the refresh's private state, for the apply of a
// saved plan, the digest of the source file as the refresh finds it; no
// source, or a file that cannot be read (the plan reports it), records
// nothing.
func recordSource(ctx context.Context, priv privateStateSetter, source types.String, diags *diag.Diagnostics) {
	var v []byte
	if !source.IsNull() {
		if code, err := readPolicySource(source.ValueString()); err == nil {
			v = privateValue(sha256Hex(code)[:sourceRecordDigits])
		}
	}
	diags.Append(priv.SetKey(ctx, policySourceKey, v)...)
}
