package provider

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

// tfgov_policy_upload's tests_wo: its examples evaluate tests_wo.query (it knows no policy query).

func validateUploadTests(wo types.Object, diags *diag.Diagnostics) {
	if wo.IsNull() || wo.IsUnknown() {
		return
	}
	q, _ := wo.Attributes()["query"].(types.String)
	ex, _ := wo.Attributes()["examples"].(types.List)
	if q.IsNull() && !ex.IsNull() && (ex.IsUnknown() || len(ex.Elements()) > 0) {
		diags.AddAttributeError(path.Root("tests_wo").AtName("query"), "Missing query",
			"tests_wo.query is required with examples: the policy's query, which each example evaluates, usually tfgov_policy.<name>.query "+
				"(tfgov_policy_upload does not know its policy's query).")
	}
}

// uploadModule names the code as its tests see it: the source file's path, or content.rego.
func uploadModule(name string, code []byte) policyeval.Module {
	if name == "" || name == "content" {
		return policyeval.Module{Name: "content.rego", Code: code}
	}
	return policyeval.Module{Name: filepath.ToSlash(name), Code: code}
}

func uploadTested(policyID types.String, codeName, kind string, code []byte, sum types.String) testedCode {
	who := "The policy code"
	if !policyID.IsUnknown() {
		who = "The code of policy " + policyID.ValueString()
	}
	return testedCode{who: who, kind: kind, code: uploadModule(codeName, code), have: code != nil, sum: sum, query: types.StringNull()}
}

func (m *policyUploadResourceModel) tested(pol policyIdentity, code []byte) testedCode {
	name := "content"
	if m.Content.IsNull() {
		name = m.Source.ValueString()
	}
	return testedCode{
		who:  fmt.Sprintf("The code of policy %s (%q)", m.PolicyID.ValueString(), pol.name),
		kind: string(pol.kind), code: uploadModule(name, code), have: true, sum: m.ContentSHA256, query: types.StringNull(), policyQuery: pol.query,
	}
}

// testUnchanged runs tests known only at apply on code that stays (no upload).
func (r *policyUploadResource) testUnchanged(ctx context.Context, m *policyUploadResourceModel, config tfsdk.Config, prior privateGetter, diags *diag.Diagnostics) {
	code := m.code(diags)
	if diags.HasError() {
		return
	}
	id := m.PolicyID.ValueString()
	pol, ok := r.data.knownPolicy(id)
	if !ok {
		pol, _ = recordedPolicy(ctx, prior, id, diags)
	}
	if pol.query == "" && givesTestsQuery(ctx, config) {
		// tests_wo.query is compared with the policy's, not recorded.
		read, err := policyClient{r.data.client}.read(ctx, id)
		if err != nil {
			diags.AddAttributeError(path.Root("policy_id"), "Cannot run the policy's tests", policyError("Policy "+id, err))
			return
		}
		r.data.rememberPolicy(read)
		pol = identityOf(read)
	}
	m.TestsSHA256 = applyTests(ctx, config, r.data.withPassed(m.tested(pol, code)), m.TestsSHA256, diags)
}

// givesTestsQuery: tests_wo.query is set, so the apply compares it with the policy's query.
func givesTestsQuery(ctx context.Context, config tfsdk.Config) bool {
	var q types.String
	_ = config.GetAttribute(ctx, path.Root("tests_wo").AtName("query"), &q)
	return q.ValueString() != ""
}
