package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

// tests_wo of tfgov_policy and tfgov_policy_upload: an OPA
// policy's Rego tests and example inputs, run at plan with OPA's packages
// linked into the provider, so that a policy that fails them is never
// uploaded. Write-only: nothing of them is kept in plan or state but
// tests_sha256, the digest of the code, tests and examples that passed,
// which spares the evaluation to a plan where none of them changed
// (DESIGN.md, "Policy tests at plan").

// testsSchema is tests_wo; upload adds `query` (tfgov_policy_upload does
// not know its policy's query).
func testsSchema(upload bool) schema.SingleNestedAttribute {
	attrs := map[string]schema.Attribute{
		"files": schema.ListAttribute{
			ElementType: types.StringType,
			Optional:    true,
			WriteOnly:   true,
			MarkdownDescription: "Paths or globs of Rego test files, such as `\"${path.module}/policies/*_test.rego\"`, read by the provider at plan " +
				"(from the directory Terraform runs in: use `${path.module}`). Each must name at least one file.",
			Validators: []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
		},
		"code": schema.ListAttribute{
			ElementType: types.StringType,
			Optional:    true,
			WriteOnly:   true,
			MarkdownDescription: "Rego test modules given inline (a heredoc, `file(...)`, `templatefile(...)`); " +
				"error positions name them `tests_wo.code[<index>].rego`.",
		},
		"examples": schema.ListNestedAttribute{
			Optional:  true,
			WriteOnly: true,
			MarkdownDescription: "Example inputs, each evaluated against the policy's query as HCP Terraform evaluates it: the query's result must be an array, " +
				"and an empty array passes. A mismatch fails the plan and shows the violations the policy gave.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{
					Optional: true, WriteOnly: true,
					MarkdownDescription: "A name for the example, used in errors (else its index).",
				},
				"input": schema.StringAttribute{
					Required: true, WriteOnly: true,
					MarkdownDescription: "The OPA input document as JSON, as HCP Terraform builds it for a run (its `plan` is the JSON of `terraform show -json` of a saved plan; " +
						"see the guide \"Testing policies before they govern\"): `file(\"${path.module}/examples/untagged.json\")` or `jsonencode({...})`.",
				},
				"expect": schema.StringAttribute{
					Required: true, WriteOnly: true,
					MarkdownDescription: "`pass` (the query gives an empty array) or `fail` (it gives violations).",
					Validators:          []validator.String{stringvalidator.OneOf("pass", "fail")},
				},
				"violations": schema.StringAttribute{
					Optional: true, WriteOnly: true,
					MarkdownDescription: "With `expect = \"fail\"`: the violations expected, as a JSON array, such as `jsonencode([\"aws_s3_bucket.logs has no owner tag\"])`, " +
						"compared with the query's array in any order. Leave it out to accept any violations.",
				},
			}},
		},
	}
	desc := "The policy's Rego tests and example inputs (OPA policies only), run at plan with OPA's own test runner and evaluator, linked into the provider; " +
		"no request is made. A test that fails or errors, or an example whose outcome differs, fails the plan naming the test (its file and line, and the expression that failed) " +
		"or the example (and the violations the policy gave), and nothing is uploaded. " +
		"They run together with the code as this plan knows it (`content`, `content_wo`, `source`); code known only at apply is tested at apply, before the upload. " +
		"Write-only (Terraform 1.11 or later): state keeps `tests_sha256`, so that a plan where neither the code, the tests nor the examples changed runs nothing. " +
		"A Sentinel policy cannot have tests here: Sentinel's runtime is a separate closed-source binary the provider does not run; test it with `sentinel test` in CI. " +
		"See the guide \"Testing policies before they govern\"."
	if upload {
		attrs["query"] = schema.StringAttribute{
			Optional: true, WriteOnly: true,
			MarkdownDescription: "The policy's query, which the examples evaluate: `tfgov_policy.<name>.query`; required with `examples`. " +
				"It must be the policy's own query, which HCP Terraform evaluates: another one fails the plan (or, for a policy this apply creates, the apply, before the upload), " +
				"whenever the provider knows the policy's query (the `tfgov_policy` is in this configuration, or the refresh listed it).",
			Validators: []validator.String{regoQueryValidator{}},
		}
	}
	return schema.SingleNestedAttribute{
		Optional:            true,
		WriteOnly:           true,
		MarkdownDescription: desc,
		Attributes:          attrs,
	}
}

// testsSHA256Schema is tests_sha256.
func testsSHA256Schema() schema.StringAttribute {
	return schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "SHA-256 of the code, tests and examples of `tests_wo` that last passed (null without `tests_wo`). " +
			"A plan runs the tests only when it changes, and shows the change: an edit of the tests alone plans an update that records it and makes no request.",
	}
}

var exampleAttrTypes = map[string]attr.Type{
	"name": types.StringType, "input": types.StringType, "expect": types.StringType, "violations": types.StringType,
}

// testsObjectType is tests_wo's type in a model.
func testsObjectType(upload bool) types.ObjectType {
	t := map[string]attr.Type{
		"files":    types.ListType{ElemType: types.StringType},
		"code":     types.ListType{ElemType: types.StringType},
		"examples": types.ListType{ElemType: types.ObjectType{AttrTypes: exampleAttrTypes}},
	}
	if upload {
		t["query"] = types.StringType
	}
	return types.ObjectType{AttrTypes: t}
}

// policyExample is one of tests_wo.examples.
type policyExample struct {
	name       string
	input      []byte
	fail       bool
	violations []json.RawMessage // nil: any
}

// policyTests is tests_wo as read from the configuration and its files.
type policyTests struct {
	modules  []policyeval.Module
	examples []policyExample
	query    string // tfgov_policy_upload's; "" on tfgov_policy
}

// configTests is tests_wo as configured (write-only: never in a plan).
func configTests(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) types.Object {
	var obj types.Object
	diags.Append(config.GetAttribute(ctx, path.Root("tests_wo"), &obj)...)
	return obj
}

// readPolicyTests reads tests_wo, from the configuration: nil without it; known is
// false while a value is unknown (the tests then run at apply). Files are
// read now; a glob matching nothing, a file that cannot be read, an input
// that is not JSON and violations that are not an array are errors.
func readPolicyTests(obj types.Object, diags *diag.Diagnostics) (t *policyTests, known bool) {
	root := path.Root("tests_wo")
	if obj.IsNull() {
		return nil, true
	}
	if obj.IsUnknown() {
		return &policyTests{}, false
	}
	attrs := obj.Attributes()
	t, known = &policyTests{}, true
	strs := func(name string) []types.String {
		l, _ := attrs[name].(types.List)
		if l.IsUnknown() {
			known = false
		}
		var out []types.String
		for _, e := range l.Elements() {
			s, _ := e.(types.String)
			if s.IsUnknown() {
				known = false
			}
			out = append(out, s)
		}
		return out
	}
	if q, ok := attrs["query"].(types.String); ok {
		known = known && !q.IsUnknown()
		t.query = q.ValueString()
	}
	for i, f := range strs("files") {
		if f.IsUnknown() {
			continue
		}
		at := root.AtName("files").AtListIndex(i)
		names, err := filepath.Glob(f.ValueString())
		if err == nil && len(names) == 0 {
			if strings.ContainsAny(f.ValueString(), "*?[") {
				err = fmt.Errorf("no file matches %q (from the directory Terraform runs in: a module's own files need \"${path.module}/...\")", f.ValueString())
			} else {
				_, err = readPolicySource(f.ValueString())
			}
		}
		if err != nil {
			diags.AddAttributeError(at, "Cannot read the policy's tests", err.Error())
			continue
		}
		for _, name := range names {
			code, err := readPolicySource(name)
			if err != nil {
				diags.AddAttributeError(at, "Cannot read the policy's tests", err.Error())
				continue
			}
			t.modules = append(t.modules, policyeval.Module{Name: filepath.ToSlash(name), Code: code})
		}
	}
	for i, c := range strs("code") {
		t.modules = append(t.modules, policyeval.Module{Name: fmt.Sprintf("tests_wo.code[%d].rego", i), Code: []byte(c.ValueString())})
	}
	ex, _ := attrs["examples"].(types.List)
	if ex.IsUnknown() {
		return t, false
	}
	for i, e := range ex.Elements() {
		o, _ := e.(types.Object)
		if o.IsUnknown() {
			known = false
			continue
		}
		at := root.AtName("examples").AtListIndex(i)
		ea := o.Attributes()
		str := func(k string) types.String { s, _ := ea[k].(types.String); return s }
		name, input, expect, viol := str("name"), str("input"), str("expect"), str("violations")
		if name.IsUnknown() || input.IsUnknown() || expect.IsUnknown() || viol.IsUnknown() {
			known = false
			continue
		}
		x := policyExample{name: name.ValueString(), input: []byte(input.ValueString()), fail: expect.ValueString() == "fail"}
		if !json.Valid(x.input) {
			diags.AddAttributeError(at.AtName("input"), "Invalid example input", fmt.Sprintf("Example %s: input is not a JSON document. Give the input document as JSON, such as file(\"plan-input.json\") or jsonencode({...}).", x.label(i)))
			continue
		}
		if !viol.IsNull() {
			if !x.fail {
				diags.AddAttributeError(at.AtName("violations"), "Violations expected of a passing example",
					fmt.Sprintf("Example %s expects pass, which is an empty array of violations: give violations only with expect = \"fail\".", x.label(i)))
				continue
			}
			if err := json.Unmarshal([]byte(viol.ValueString()), &x.violations); err != nil || x.violations == nil {
				diags.AddAttributeError(at.AtName("violations"), "Invalid expected violations",
					fmt.Sprintf("Example %s: violations must be a JSON array, such as jsonencode([\"aws_s3_bucket.logs has no owner tag\"]).", x.label(i)))
				continue
			}
		}
		t.examples = append(t.examples, x)
	}
	if known && len(t.modules) == 0 && len(t.examples) == 0 && !diags.HasError() {
		diags.AddAttributeError(root, "No policy tests", "tests_wo gives no test: set files, code or examples (or leave tests_wo out).")
	}
	return t, known
}

// label names example i in messages: its index and name.
func (x policyExample) label(i int) string {
	if x.name == "" {
		return fmt.Sprintf("[%d]", i)
	}
	return fmt.Sprintf("[%d] (%q)", i, x.name)
}

// digest is the SHA-256 of what a run of the tests depends on: the code
// (its name appears in messages, its digest is what is checked), the query
// and the tests and examples. Only the digest reaches state.
func (t *policyTests) digest(code policyeval.Module, query string) string {
	type mod struct{ N, S string }
	type ex struct {
		N, I, E string
		V       []json.RawMessage
	}
	d := struct {
		C  mod
		Q  string
		T  []mod
		Ex []ex
	}{C: mod{code.Name, sha256Hex(code.Code)}, Q: query}
	for _, m := range t.modules {
		d.T = append(d.T, mod{m.Name, sha256Hex(m.Code)})
	}
	for _, x := range t.examples {
		d.Ex = append(d.Ex, ex{x.name, sha256Hex(x.input), fmt.Sprint(x.fail), x.violations})
	}
	return sha256Hex(privateValue(d))
}

// policyTestRuns counts the runs of policy tests by the name of the
// policy's code module: tests prove an unchanged plan runs none.
var policyTestRuns sync.Map // string → *atomic.Int64

func countTestRun(name string) {
	n, _ := policyTestRuns.LoadOrStore(name, new(atomic.Int64))
	if c, ok := n.(*atomic.Int64); ok {
		c.Add(1)
	}
}

// run runs the tests and examples against code with query ("": the
// policy's, for tfgov_policy), reporting each failure on tests_wo. who
// names the policy; done is "will be" at plan, "was" at apply.
func (t *policyTests) run(ctx context.Context, who string, code policyeval.Module, query, done string, diags *diag.Diagnostics) {
	countTestRun(code.Name)
	root := path.Root("tests_wo")
	modules := []policyeval.Module{code}
	if len(t.modules) > 0 {
		res, err := policyeval.RunTests(ctx, modules, t.modules)
		if err != nil {
			diags.AddAttributeError(root, "Policy tests did not finish", fmt.Sprintf("%s: %s. Nothing %s uploaded.", who, err, done))
			return
		}
		if n := len(res.Failures); n > 0 {
			lines := make([]string, n)
			for i, f := range res.Failures {
				lines[i] = "  " + f.String()
			}
			diags.AddAttributeError(root.AtName("files"), "Policy test failed",
				fmt.Sprintf("%s: OPA's test runner found %d failure(s) (%d test(s) passed), so nothing %s uploaded:\n%s",
					who, n, res.Passed, done, strings.Join(lines, "\n")))
		}
	}
	if len(t.examples) == 0 {
		return
	}
	p, err := policyeval.Prepare(ctx, modules, query)
	if err != nil {
		diags.AddAttributeError(root.AtName("examples"), "Policy examples cannot be evaluated",
			fmt.Sprintf("%s: compiling the policy with query %q failed: %s. Nothing %s uploaded.", who, query, err, done))
		return
	}
	for i, x := range t.examples {
		at := root.AtName("examples").AtListIndex(i)
		got, err := p.Eval(ctx, x.input)
		if err != nil {
			diags.AddAttributeError(at, "Policy example failed to evaluate",
				fmt.Sprintf("%s: example %s: %s. Nothing %s uploaded.", who, x.label(i), err, done))
			continue
		}
		if why, list := x.mismatch(got); why != "" {
			diags.AddAttributeError(at, "Policy example disagrees",
				fmt.Sprintf("%s: example %s expects %s, but query %s %s, so nothing %s uploaded%s", who, x.label(i), x.expected(), query, why, done, list))
		}
	}
}

func (x policyExample) expected() string {
	if x.fail {
		return "fail"
	}
	return "pass"
}

// mismatch says how got differs from what x expects ("" when it does
// not), and lists the violations (the message's end).
func (x policyExample) mismatch(got policyeval.Outcome) (why, list string) {
	n := len(got.Violations)
	switch {
	case !x.fail && !got.Pass:
		return fmt.Sprintf("gives %d violation(s)", n), ":" + listViolations(got.Violations)
	case x.fail && got.Pass:
		return "gives an empty array: the policy passes this input", "."
	case x.fail && x.violations != nil && !sameViolations(x.violations, got.Violations):
		return fmt.Sprintf("gives %d violation(s) other than the %d the example lists", n, len(x.violations)),
			":" + listViolations(got.Violations) + "\nThe example lists:" + listViolations(x.violations)
	}
	return "", ""
}

// listViolations shows violations one a line, each shortened to 300 bytes.
func listViolations(v []json.RawMessage) string {
	var b strings.Builder
	for _, e := range v {
		b.WriteString("\n  - " + truncateText(string(e), 300))
	}
	return b.String()
}

// sameViolations compares two arrays of JSON values in any order, each
// value compacted (key order is JSON's, as OPA sorts keys).
func sameViolations(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	norm := func(v []json.RawMessage) []string {
		out := make([]string, len(v))
		for i, e := range v {
			var x any
			if json.Unmarshal(e, &x) == nil {
				e, _ = json.Marshal(x) // Go sorts object keys
			}
			var buf bytes.Buffer
			if json.Compact(&buf, e) == nil {
				e = buf.Bytes()
			}
			out[i] = string(e)
		}
		sort.Strings(out)
		return out
	}
	na, nb := norm(a), norm(b)
	for i := range na {
		if na[i] != nb[i] {
			return false
		}
	}
	return true
}

func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
