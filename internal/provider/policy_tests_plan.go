package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

// When tests_wo runs: DESIGN.md "Policy tests at plan".

type testedCode struct {
	who   string // "Policy \"tags\"", for messages
	kind  string // "opa", "sentinel", or "" when not known
	code  policyeval.Module
	have  bool         // code is known
	sum   types.String // the code's planned digest: unknown when the apply may upload other bytes
	query types.String // the policy's query (tfgov_policy); null for tfgov_policy_upload's own
	// policyQuery: tfgov_policy_upload's policy's query, which tests_wo.query must equal; "" while not known.
	policyQuery string
	newPolicy   bool // tfgov_policy_upload's policy is made by this apply (its ID unknown)
	// passed: digests whose tests passed in this process, so that an apply tests its bytes once.
	passed *sync.Map
}

// runOnce runs t unless the same code, query, tests and examples (sum) passed in this process.
func (t *policyTests) runOnce(ctx context.Context, c testedCode, query, sum, done string, diags *diag.Diagnostics) {
	if c.passed != nil {
		if _, ok := c.passed.Load(sum); ok {
			return
		}
	}
	errs := diags.ErrorsCount()
	t.run(ctx, c.who, c.code, query, done, diags)
	if c.passed != nil && diags.ErrorsCount() == errs {
		c.passed.Store(sum, struct{}{})
	}
}

// planTests plans tests_sha256: null without tests_wo, the digest of what passed, or unknown
// when something is not known yet or the apply may read other code (run now all the same).
func planTests(ctx context.Context, wo types.Object, c testedCode, prior types.String, diags *diag.Diagnostics) types.String {
	t, known := readPolicyTests(wo, diags)
	if t == nil || diags.HasError() {
		return types.StringNull()
	}
	if !testableKind(c, diags) {
		return types.StringNull()
	}
	query := t.query
	if !c.query.IsNull() {
		query, known = c.query.ValueString(), known && !c.query.IsUnknown()
	}
	if !known || !c.have {
		return types.StringUnknown()
	}
	if !t.sameQuery(c, "will be", diags) {
		return types.StringNull()
	}
	sum := t.digest(c.code, query)
	if prior.ValueString() == sum {
		return prior // passed already: nothing changed
	}
	t.runOnce(ctx, c, query, sum, "will be", diags)
	if c.sum.IsUnknown() || (t.query != "" && c.newPolicy) {
		// Run again at apply: on the bytes uploaded, or against the new policy's query.
		return types.StringUnknown()
	}
	return types.StringValue(sum)
}

// sameQuery: tfgov_policy_upload's tests_wo.query, when given, is its policy's query, when known.
func (t *policyTests) sameQuery(c testedCode, done string, diags *diag.Diagnostics) bool {
	if t.query == "" || c.policyQuery == "" || sameRegoQuery(t.query, c.policyQuery) {
		return true
	}
	diags.AddAttributeError(path.Root("tests_wo").AtName("query"), "Policy tests use another query",
		fmt.Sprintf("%s: tests_wo.query is %q, but the policy's query is %q, which HCP Terraform evaluates: the examples would test another query, so nothing %s uploaded. "+
			"Set query = tfgov_policy.<name>.query.", c.who, t.query, c.policyQuery, done))
	return false
}

// sameRegoQuery compares two queries as Rego (spacing aside), else as text.
func sameRegoQuery(a, b string) bool {
	pa, errA := policyeval.ParseBody(a)
	pb, errB := policyeval.ParseBody(b)
	if errA != nil || errB != nil {
		return strings.TrimSpace(a) == strings.TrimSpace(b)
	}
	return pa.Equal(pb)
}

// applyTests runs tests_wo on the code about to be uploaded when the plan could not.
func applyTests(ctx context.Context, config tfsdk.Config, c testedCode, planned types.String, diags *diag.Diagnostics) types.String {
	if !planned.IsUnknown() {
		return planned
	}
	t, _ := readPolicyTests(configTests(ctx, config, diags), diags)
	if t == nil || diags.HasError() || !testableKind(c, diags) {
		return types.StringNull()
	}
	query := t.query
	if !c.query.IsNull() {
		query = c.query.ValueString()
	}
	if !t.sameQuery(c, "was", diags) {
		return types.StringNull()
	}
	sum := t.digest(c.code, query)
	t.runOnce(ctx, c, query, sum, "was", diags)
	return types.StringValue(sum)
}

func testableKind(c testedCode, diags *diag.Diagnostics) bool {
	switch {
	case c.kind == string(tfe.Sentinel):
		diags.AddAttributeError(path.Root("tests_wo"), "Policy tests need an OPA policy", sentinelTestsDetail(c.who))
		return false
	case c.kind == "" && c.have && !declaresRegoPackage(c.code.Code):
		diags.AddAttributeError(path.Root("tests_wo"), "Policy tests need an OPA policy",
			fmt.Sprintf("%s: tests_wo runs Rego tests and examples, and this code is not Rego (it declares no package). %s", c.who, sentinelAdvice))
		return false
	}
	return true
}

const sentinelAdvice = "For a Sentinel policy, remove tests_wo: Sentinel's runtime is a separate closed-source binary (the Sentinel CLI) that the provider does not run, " +
	"so its tests cannot run at plan. Run `sentinel test` on the policy in CI beside this configuration instead (its test cases go in test/<policy>/*.hcl)."

func sentinelTestsDetail(who string) string {
	return fmt.Sprintf("%s is a Sentinel policy; tests_wo runs Rego tests and examples with OPA, which the provider links. %s", who, sentinelAdvice)
}

func (m *policyResourceModel) tested(code []byte) testedCode {
	name := m.Name.ValueString() + ".rego"
	if !m.Source.IsNull() {
		name = filepath.ToSlash(m.Source.ValueString())
	}
	return testedCode{
		who: fmt.Sprintf("Policy %q", m.Name.ValueString()), kind: m.Kind.ValueString(),
		code: policyeval.Module{Name: name, Code: code}, have: code != nil, sum: m.codeSum(), query: m.Query,
	}
}

// planPolicyTests plans tfgov_policy's tests_sha256; tests_wo beside code that a
// tfgov_policy_upload manages belong on that upload.
func (r *policyResource) planPolicyTests(ctx context.Context, resp *resource.ModifyPlanResponse, wo types.Object, plan *policyResourceModel, prior *policyResourceModel, code []byte, have, managed bool) {
	if !wo.IsNull() && !managed {
		resp.Diagnostics.AddAttributeError(path.Root("tests_wo"), "Policy tests without code",
			fmt.Sprintf("Policy %q: tests_wo tests the code this resource uploads, and it has none (content, content_wo or source). "+
				"When a tfgov_policy_upload uploads the code, give tests_wo to that tfgov_policy_upload.", plan.Name.ValueString()))
		return
	}
	priorSum := types.StringNull()
	if prior != nil {
		priorSum = prior.TestsSHA256
	}
	if !have {
		code = nil
	}
	c := r.data.withPassed(plan.tested(code))
	if plan.Kind.IsUnknown() {
		c.kind = ""
	}
	plan.TestsSHA256 = planTests(ctx, wo, c, priorSum, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("tests_sha256"), plan.TestsSHA256)...)
}

func (d *providerData) withPassed(c testedCode) testedCode {
	if d != nil {
		c.passed = &d.testsPassed
	}
	return c
}
