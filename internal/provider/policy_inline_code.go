package provider

import (
	"context"
	"unicode/utf8"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tfgov_policy's inline code (content, content_wo, content_sha256):
// which code the model gives, its digest, and code found on the service.

// hasCode reports whether the policy's code is managed inline, by
// content or content_wo (in a plan or state, content_sha256).
func (m *policyResourceModel) hasCode() bool {
	return !m.Content.IsNull() || !m.ContentWO.IsNull() || !m.ContentSHA256.IsNull()
}

// lean reports whether the code is managed through content_wo: state
// and plan then keep only content_sha256.
func (m *policyResourceModel) lean() bool { return !m.ContentWO.IsNull() || !m.ContentSHA256.IsNull() }

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

// codeInState reports whether code, of kind, is the code in state, which
// its own plan checked already: its checks (OPA's parser takes about a
// millisecond for a policy of real size) run again only for changed code.
func (r *policyResource) codeInState(ctx context.Context, state tfsdk.State, code, kind types.String) bool {
	if state.Raw.IsNull() {
		return false
	}
	var prior policyResourceModel
	if d := getInto(ctx, state, &prior); d.HasError() || !prior.Kind.Equal(kind) {
		return false
	}
	sum := prior.codeSum()
	return !sum.IsNull() && sum.ValueString() == sha256Hex([]byte(code.ValueString()))
}

// configuredCode is the code a configuration (or plan) gives inline, and
// the attribute that gives it: content_wo or content (null: none).
func (m *policyResourceModel) configuredCode() (types.String, string) {
	if !m.ContentWO.IsNull() {
		return m.ContentWO, "content_wo"
	}
	return m.Content, "content"
}

// contentCode is the code to upload for plan: its content, or content_wo
// from the configuration (content_wo is never in a plan), checked as the
// plan checks it (size, and Rego for OPA). The plan's content_sha256 is
// that of content_wo already: Terraform plans again at apply, with the
// configuration as it is then, and stops the apply itself when a digest
// known at plan changed.
func contentCode(ctx context.Context, plan *policyResourceModel, config tfsdk.Config, id string, diags *diag.Diagnostics) []byte {
	code, attr := plan.Content, "content"
	if plan.lean() {
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
