package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// One uploader per policy: the checks at plan that refuse a second
// tfgov_policy_upload, or one next to a tfgov_policy with inline code.

// refuseInlineCode refuses an upload to a policy whose tfgov_policy has
// inline code (content), as far as this process has seen: two
// resources would upload over each other's code.
func (d *providerData) refuseInlineCode(policyID string, diags *diag.Diagnostics) {
	if _, ok := d.lists.inlineCode.Load(policyID); ok {
		diags.AddAttributeError(path.Root("policy_id"), "Policy code managed twice",
			fmt.Sprintf("The tfgov_policy of %s sets its code inline (content), so a tfgov_policy_upload may not upload code to it too. "+
				"Remove this tfgov_policy_upload, or remove content from the tfgov_policy.", policyID))
	}
}

// uploadClaim is a tfgov_policy_upload planned for a policy in this
// process, described by its code (the provider is not told resource
// addresses; Terraform names the one whose plan fails).
type uploadClaim struct{ sha256, what string }

// describeUpload names an upload by its code, for the error that refuses a
// second one: its source file, or its inline content's SHA-256.
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

// claimPolicyCode refuses a second tfgov_policy_upload for one policy.
//
// A provider never sees the configuration of other resource instances, and
// Terraform starts a fresh provider for every graph walk (the plan, the
// apply): what one walk learns is gone in the next, and nothing of ours is
// on the service to mark a policy's uploader (the API has no field for it).
// But within one walk Terraform plans every instance of the configuration
// through this one provider, and in the apply walk it plans again every
// instance it applies. So each plan of a tfgov_policy_upload whose
// policy_id is known claims that policy in this process (codeUploads); the
// plan of a second claim fails naming both, by their code. With policy_id
// known at plan (an existing policy) the plan fails; with a policy created
// in the same apply, the apply walk's plan of the second upload fails, and
// the next plan fails again until one is removed. Only a claim of other
// code conflicts: Terraform may plan one instance twice in a walk (an
// import that generates configuration does), and two uploads of the same
// code do not undo each other. Two configurations (two
// states) uploading to one policy cannot see each other this way: each
// then finds the other's upload as drift on its next plan (code_proof.go),
// which the plan shows.
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
