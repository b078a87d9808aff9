package provider

import (
	"context"
	"fmt"
	"unicode/utf8"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tfgov_policy's own code (content, content_wo, source, content_sha256):
// which code the model gives, its digest, and code found on the service.

// hasCode reports whether the policy's code is managed by this resource:
// content, content_wo or source (in a plan or state, content_sha256).
func (m *policyResourceModel) hasCode() bool {
	return !m.Content.IsNull() || !m.ContentWO.IsNull() || !m.Source.IsNull() || !m.ContentSHA256.IsNull()
}

// lean reports whether the code is managed through content_wo or source:
// state and plan then keep only content_sha256.
func (m *policyResourceModel) lean() bool {
	return !m.ContentWO.IsNull() || !m.Source.IsNull() || !m.ContentSHA256.IsNull()
}

// codeSum is the SHA-256 of the managed code: content_sha256, or that of
// the code in content; null without code, unknown when the code is not
// known yet.
func (m *policyResourceModel) codeSum() types.String {
	if !m.ContentSHA256.IsNull() {
		return m.ContentSHA256
	}
	if m.Content.IsNull() || m.Content.IsUnknown() {
		return m.Content
	}
	return types.StringValue(sha256Hex([]byte(m.Content.ValueString())))
}

// foundCode takes code, downloaded from the service (gone: it has none),
// for the code in content. Changed code shows in the next plan: content
// becomes the downloaded text, or null when it is not text or the policy
// has none, so that the plan uploads the configured code.
func (m *policyResourceModel) foundCode(ctx context.Context, id string, code []byte, gone bool) {
	sum := m.codeSum()
	switch got := sha256Hex(code); {
	case gone:
		m.Content, m.ContentSHA256 = types.StringNull(), types.StringNull()
	case got == sum.ValueString():
	case m.lean():
		tflog.Info(ctx, "Policy code changed outside Terraform", map[string]any{"policy_id": id, "sha256": got, "state_sha256": sum.ValueString()})
		m.ContentSHA256 = types.StringValue(got)
	default:
		tflog.Info(ctx, "Policy code changed outside Terraform", map[string]any{"policy_id": id, "sha256": got, "state_sha256": sum.ValueString()})
		m.Content = types.StringNull()
		if utf8.Valid(code) {
			m.Content = types.StringValue(string(code))
		}
	}
}

// codeInState reports whether the code whose SHA-256 is sum, of kind, is
// the code in state, which its own plan checked already: its checks (OPA's
// parser takes about a millisecond for a policy of real size) run again
// only for changed code.
func codeInState(prior *policyResourceModel, sum string, kind types.String) bool {
	if prior == nil || !prior.Kind.Equal(kind) {
		return false
	}
	was := prior.codeSum()
	return !was.IsNull() && !was.IsUnknown() && was.ValueString() == sum
}

// knownCode is the policy's code when the configuration gives it, known,
// inline (content, content_wo) or in a readable source file; else nil.
func (m *policyResourceModel) knownCode() []byte {
	if code, _ := m.configuredCode(); !code.IsNull() && !code.IsUnknown() {
		return []byte(code.ValueString())
	}
	if !m.Source.IsNull() && !m.Source.IsUnknown() {
		if b, err := readPolicySource(m.Source.ValueString()); err == nil {
			return b
		}
	}
	return nil
}

// configuredCode is the code a configuration (or plan) gives inline, and
// the attribute that gives it: content_wo or content (null: none).
func (m *policyResourceModel) configuredCode() (types.String, string) {
	if !m.ContentWO.IsNull() {
		return m.ContentWO, "content_wo"
	}
	return m.Content, "content"
}

// contentCode is the code to upload for plan: its content, the source
// file, or content_wo from the configuration (content_wo is never in a
// plan), checked as the plan checks it (size, and Rego for OPA). The
// plan's content_sha256 is that of content_wo already: Terraform plans
// again at apply, with the configuration as it is then, and stops the
// apply itself when a digest known at plan changed. A source file is
// checked against a known planned content_sha256 (codeFor), and an unknown
// one becomes the file's.
func contentCode(ctx context.Context, plan *policyResourceModel, config tfsdk.Config, id string, diags *diag.Diagnostics) []byte {
	code, attr := plan.Content, "content"
	switch {
	case !plan.Source.IsNull():
		b := codeFor(types.StringNull(), plan.Source, plan.ContentSHA256, diags)
		if diags.HasError() {
			return nil
		}
		plan.ContentSHA256 = types.StringValue(sha256Hex(b))
		checkCodeOfKind(id, policyIdentity{kind: tfe.PolicyKind(plan.Kind.ValueString()), name: plan.Name.ValueString()}, b, "source", diags)
		return b
	case plan.lean():
		diags.Append(config.GetAttribute(ctx, path.Root("content_wo"), &code)...)
		attr = "content_wo"
	}
	if diags.HasError() {
		return nil
	}
	b := []byte(code.ValueString())
	if len(b) > maxPolicyCodeSize {
		diags.AddAttributeError(path.Root(attr), "Policy code too large", tooLarge(len(b)))
		return nil
	}
	checkCodeOfKind(id, policyIdentity{kind: tfe.PolicyKind(plan.Kind.ValueString()), name: plan.Name.ValueString()}, b, attr, diags)
	return b
}

// undoCreate deletes pol, just created, whose code upload failed (put):
// nothing refers to it yet, and a policy left without its code would be
// tainted by Terraform, which replaces it on the next apply anyway. It
// reports the failure either way, and whether the policy is gone (then the
// create leaves no state, and the next apply creates it with its code).
func (r *policyResource) undoCreate(ctx context.Context, pol *policyAPI, put diag.Diagnostics, diags *diag.Diagnostics) bool {
	why := ""
	for _, d := range put.Errors() {
		why = d.Detail()
	}
	tflog.Info(ctx, "Code upload failed; deleting the policy just created", map[string]any{"id": pol.ID})
	defer r.data.lists.policies.invalidate(identityOf(pol).organization)
	err := r.data.client.Policies.Delete(ctx, pol.ID)
	if err == nil || isNotFound(err) {
		r.data.lists.inlineCode.Delete(pol.ID)
		diags.AddError("Error uploading policy code",
			fmt.Sprintf("Policy %q was created (%s), but uploading its code failed: %s\n\n"+
				"The policy was deleted again, so nothing is left half-made and nothing is recorded in state: the next apply creates the policy and uploads its code.",
				pol.Name, pol.ID, why))
		return true
	}
	diags.AddError("Error uploading policy code",
		fmt.Sprintf("Policy %q was created (%s), but uploading its code failed: %s\n\n"+
			"Deleting the policy again failed too (%s), so it is recorded in state without its code, and Terraform marks it tainted: "+
			"the next apply deletes it and creates it again with its code. To keep this policy instead, run terraform untaint on it: the next apply then uploads its code.",
			pol.Name, pol.ID, why, policyError("Policy "+pol.ID, err)))
	return false
}
