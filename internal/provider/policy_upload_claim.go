package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// refuseInlineCode refuses an upload to a policy whose tfgov_policy manages its code.
func (d *providerData) refuseInlineCode(policyID string, diags *diag.Diagnostics) {
	if _, ok := d.lists.inlineCode.Load(policyID); ok {
		diags.AddAttributeError(path.Root("policy_id"), "Policy code managed twice",
			fmt.Sprintf("The tfgov_policy of %s sets its code inline (content), so a tfgov_policy_upload may not upload code to it too. "+
				"Remove this tfgov_policy_upload, or remove content from the tfgov_policy.", policyID))
	}
}

// uploadClaim is an upload planned in this process, named by its code (the provider sees no addresses).
type uploadClaim struct{ sha256, what string }

func describeUpload(cfg policyUploadResourceModel, sum types.String) string {
	hash := "not known yet"
	if !sum.IsUnknown() && !sum.IsNull() {
		hash = sum.ValueString()
	}
	switch {
	case !cfg.Source.IsNull() && !cfg.Source.IsUnknown():
		return fmt.Sprintf("source %q (SHA-256 %s)", cfg.Source.ValueString(), hash)
	case !cfg.Content.IsNull():
		return "content with SHA-256 " + hash
	}
	return "code not known yet"
}

// claimPolicyCode refuses a second tfgov_policy_upload of other code for one policy, as far as
// this process plans: DESIGN.md "Policy code proofs" (One uploader per policy).
func (d *providerData) claimPolicyCode(policyID string, claim uploadClaim, diags *diag.Diagnostics) {
	prev, loaded := d.lists.codeUploads.LoadOrStore(policyID, claim)
	other, _ := prev.(uploadClaim)
	if !loaded || other.sha256 == claim.sha256 {
		return
	}
	what := claim.what
	diags.AddAttributeError(path.Root("policy_id"), "Policy code managed twice",
		fmt.Sprintf("Two tfgov_policy_upload resources upload code to policy %s: this one (%s) and another one of this configuration (%s). "+
			"A policy has one code, and each upload would replace the other's: keep one tfgov_policy_upload per policy.", policyID, what, other.what))
}
