package policyeval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/tfgov/terraform-provider-tfgov/internal/policysample"
)

// The agreement table: policies in the shapes public libraries use
// (HashiCorp's OPA tutorial and policy docs, Scalr's sample-tf-opa-policies,
// conftest-style deny sets, policysample's generated library policies),
// each written here, with inputs shaped as HCP Terraform's
// (input.plan = `terraform show -json`). The oracle is OPA itself:
// rego.New(...).Eval with each module parsed at its declared Rego version,
// opa eval's defaults (no strict builtin errors); its raw result set goes
// through hcpRule, written apart from Read, and must agree with Evaluate.
// want pins the HCP outcome where it is a fixed property of the pair.

// agreementCase is one policy/input pair.
type agreementCase struct {
	name    string
	modules []caseModule
	query   string
	input   string // JSON; "" for none
	want    string // "pass", "fail" or "error"
	errHas  []string
}

type caseModule struct {
	name string
	v0   bool
	code string
}

// Plans, as input.plan.
const (
	planOpenSSH = `{"plan": {"format_version": "1.2", "resource_changes": [
		{"address": "aws_security_group.web", "type": "aws_security_group", "mode": "managed", "change": {"actions": ["create"],
		 "after": {"ingress": [{"from_port": 22, "to_port": 22, "cidr_blocks": ["0.0.0.0/0"]}, {"from_port": 443, "to_port": 443, "cidr_blocks": ["10.0.0.0/8"]}]}}},
		{"address": "aws_instance.app", "type": "aws_instance", "mode": "managed", "change": {"actions": ["create"],
		 "after": {"instance_type": "m5.24xlarge", "tags": {"owner": "platform"}}}}]}, "run": {"workspace": {"name": "app-prod"}, "organization": {"name": "acme"}}}`
	planClean = `{"plan": {"format_version": "1.2", "resource_changes": [
		{"address": "aws_security_group.web", "type": "aws_security_group", "mode": "managed", "change": {"actions": ["update"],
		 "after": {"ingress": [{"from_port": 443, "to_port": 443, "cidr_blocks": ["10.0.0.0/8"]}]}}},
		{"address": "aws_instance.app", "type": "aws_instance", "mode": "managed", "change": {"actions": ["create"],
		 "after": {"instance_type": "t3.micro", "tags": {"owner": "platform", "cost-center": "42"}}}},
		{"address": "aws_iam_role.old", "type": "aws_iam_role", "mode": "managed", "change": {"actions": ["delete"], "after": null}}]},
		"run": {"workspace": {"name": "dev-app"}, "organization": {"name": "acme"}}}`
	planEmpty = `{"plan": {"format_version": "1.2", "resource_changes": []}}`
)

// Policies.
const (
	// HashiCorp's OPA tutorial shape: v1, import of input.plan.resource_changes.
	regoPublicIngress = `package terraform.policies.public_ingress

import input.plan.resource_changes

deny contains msg if {
	some rc in resource_changes
	rc.type == "aws_security_group"
	some rule in rc.change.after.ingress
	"0.0.0.0/0" in rule.cidr_blocks
	msg := sprintf("%s allows ingress from 0.0.0.0/0 on port %d", [rc.address, rule.from_port])
}
`
	// Scalr sample-tf-opa-policies shape: v0, an import alias, a helper.
	regoDeniedTypes = `package terraform

import input.plan as tfplan

denied_resources = ["aws_iam_role", "aws_iam_policy"]

array_contains(arr, elem) {
	arr[_] = elem
}

deny[reason] {
	resource := tfplan.resource_changes[_]
	action := resource.change.actions[count(resource.change.actions) - 1]
	array_contains(["create", "update"], action)
	array_contains(denied_resources, resource.type)
	reason := sprintf("%s: resource type %q is not allowed", [resource.address, resource.type])
}
`
	// Required tags, conftest style, v0 with future keywords.
	regoRequiredTags = `package terraform.policies.tags

import future.keywords.contains
import future.keywords.if
import future.keywords.in

required := {"owner", "cost-center"}

deny contains msg if {
	some rc in input.plan.resource_changes
	rc.type == "aws_instance"
	missing := required - {k | rc.change.after.tags[k]}
	count(missing) > 0
	msg := sprintf("%s lacks tags %v", [rc.address, sort(missing)])
}
`
	// Allowed instance types, violations as objects (v1).
	regoInstanceTypes = `package terraform.policies.instance_types

allowed := {"t3.micro", "t3.small", "m5.large"}

deny contains {"address": rc.address, "instance_type": rc.change.after.instance_type} if {
	some rc in input.plan.resource_changes
	rc.type == "aws_instance"
	not rc.change.after.instance_type in allowed
}
`
	// Run data: workspace naming (input.run), v1.
	regoWorkspaceName = `package terraform.policies.workspace

deny contains msg if {
	not startswith(input.run.workspace.name, "dev-")
	not endswith(input.run.workspace.name, "-prod")
	msg := sprintf("workspace %s is neither dev- nor -prod", [input.run.workspace.name])
}
`
	// HCP's doc example shape: an array rule built by a comprehension.
	regoArrayRule = `package terraform.policies.deletes

deny := [msg |
	some rc in input.plan.resource_changes
	"delete" in rc.change.actions
	msg := sprintf("%s would be deleted", [rc.address])
]
`
	// Two files: a library package and the policy that imports it.
	regoLib = `package terraform.lib

import rego.v1

creates(rcs) := [rc | some rc in rcs; "create" in rc.change.actions]
`
	regoUsesLib = `package terraform.policies.creates

import data.terraform.lib

deny contains sprintf("%s is created", [rc.address]) if {
	some rc in lib.creates(input.plan.resource_changes)
	rc.type == "aws_instance"
}
`
	// matt-se/OPA-TFE's deny_all shape: no input needed.
	regoDenyAll = `package terraform.policies.deny_all

deny[reason] {
	reason = "All Terraform plans are denied by policy."
}
`
	// An allow boolean (the shape HCP cannot use).
	regoAllow = `package terraform.policies.allow

default allow := false

allow if count(input.plan.resource_changes) == 0
`
	// A map rule: deny[address] := message, an object, not an array.
	regoMapRule = `package terraform.policies.map

deny[rc.address] := "no" if {
	some rc in input.plan.resource_changes
}
`
	// A complete rule with two values for one input: eval_conflict_error.
	regoConflict = `package terraform.policies.tier

tier := "large" if {
	some rc in input.plan.resource_changes
	startswith(rc.change.after.instance_type, "m5")
}

tier := "small" if {
	some rc in input.plan.resource_changes
	rc.type == "aws_instance"
}

deny contains tier if tier == "large"
`
	// A builtin error (to_number of a non-number): undefined under opa eval's
	// defaults, so the rule never fires.
	regoBuiltinError = `package terraform.policies.ports

deny contains msg if {
	some rc in input.plan.resource_changes
	to_number(rc.address) > 0
	msg := "never"
}
`
	// A function with two outputs for one input: eval_conflict_error.
	regoFuncConflict = `package terraform.policies.func

f(x) := 1 if x
f(x) := 2 if x

deny contains f(true) if true
`
	// A type error the compiler finds: count of a number.
	regoTypeError = `package terraform.policies.types

deny contains msg if {
	count(5) > 1
	msg := "x"
}
`
	// A v1 syntax error (missing closing bracket).
	regoParseError = `package terraform.policies.broken

deny contains msg if {
	msg := ["a", "b"
}
`
	// A complete rule undefined when the plan has no resource changes.
	regoUndefinedComplete = `package terraform.policies.first

deny := [input.plan.resource_changes[0].address] if count(input.plan.resource_changes) > 0
`
	// Duplicate messages: a set keeps one, sorted.
	regoDuplicates = `package terraform.policies.dups

deny contains "has changes" if some rc in input.plan.resource_changes
deny contains sprintf("%d changes", [count(input.plan.resource_changes)]) if true
`
)

func agreementCases() []agreementCase {
	sample := policysample.RegoCode("terraform.policies.sample", 3, 1, policysample.Rego.Size(0.9))
	return []agreementCase{
		{name: "tutorial public ingress, fails", modules: []caseModule{{"public_ingress.rego", false, regoPublicIngress}},
			query: "data.terraform.policies.public_ingress.deny", input: planOpenSSH, want: "fail"},
		{name: "tutorial public ingress, passes", modules: []caseModule{{"public_ingress.rego", false, regoPublicIngress}},
			query: "data.terraform.policies.public_ingress.deny", input: planClean, want: "pass"},
		{name: "v0 denied types, passes on delete", modules: []caseModule{{"denied.rego", true, regoDeniedTypes}},
			query: "data.terraform.deny", input: planClean, want: "pass"},
		{name: "v0 denied types, fails on create",
			modules: []caseModule{{"denied.rego", true, regoDeniedTypes}}, query: "data.terraform.deny",
			input: `{"plan": {"resource_changes": [{"address": "aws_iam_role.x", "type": "aws_iam_role", "change": {"actions": ["create"]}}]}}`, want: "fail"},
		{name: "v0 future keywords tags, fails", modules: []caseModule{{"tags.rego", true, regoRequiredTags}},
			query: "data.terraform.policies.tags.deny", input: planOpenSSH, want: "fail"},
		{name: "v0 future keywords tags, passes", modules: []caseModule{{"tags.rego", true, regoRequiredTags}},
			query: "data.terraform.policies.tags.deny", input: planClean, want: "pass"},
		{name: "object violations", modules: []caseModule{{"types.rego", false, regoInstanceTypes}},
			query: "data.terraform.policies.instance_types.deny", input: planOpenSSH, want: "fail"},
		{name: "run data, passes", modules: []caseModule{{"ws.rego", false, regoWorkspaceName}},
			query: "data.terraform.policies.workspace.deny", input: planClean, want: "pass"},
		{name: "run data, absent: not fires", modules: []caseModule{{"ws.rego", false, regoWorkspaceName}},
			query: "data.terraform.policies.workspace.deny", input: planEmpty, want: "pass"},
		{name: "array rule, fails", modules: []caseModule{{"deletes.rego", false, regoArrayRule}},
			query: "data.terraform.policies.deletes.deny", input: planClean, want: "fail"},
		{name: "array rule, empty passes", modules: []caseModule{{"deletes.rego", false, regoArrayRule}},
			query: "data.terraform.policies.deletes.deny", input: planOpenSSH, want: "pass"},
		{name: "two modules, a library", modules: []caseModule{{"lib.rego", false, regoLib}, {"creates.rego", false, regoUsesLib}},
			query: "data.terraform.policies.creates.deny", input: planOpenSSH, want: "fail"},
		{name: "v0 and v1 modules together", modules: []caseModule{{"denied.rego", true, regoDeniedTypes}, {"public_ingress.rego", false, regoPublicIngress}},
			query: "data.terraform.deny", input: `{"plan": {"resource_changes": [{"address": "aws_iam_policy.p", "type": "aws_iam_policy", "change": {"actions": ["update"]}}]}}`, want: "fail"},
		{name: "deny all, no input", modules: []caseModule{{"deny_all.rego", true, regoDenyAll}},
			query: "data.terraform.policies.deny_all.deny", want: "fail"},
		{name: "policysample library policy", modules: []caseModule{{"sample.rego", false, sample}},
			query: "data.terraform.policies.sample.deny", input: planOpenSSH},
		{name: "duplicates collapse, sorted", modules: []caseModule{{"dups.rego", false, regoDuplicates}},
			query: "data.terraform.policies.dups.deny", input: planClean, want: "fail"},
		{name: "builtin error is undefined, passes", modules: []caseModule{{"ports.rego", false, regoBuiltinError}},
			query: "data.terraform.policies.ports.deny", input: planOpenSSH, want: "pass"},
		{name: "undefined: wrong package", modules: []caseModule{{"public_ingress.rego", false, regoPublicIngress}},
			query: "data.terraform.policies.public_ingres.deny", input: planOpenSSH, want: "error",
			errHas: []string{`query "data.terraform.policies.public_ingres.deny" is undefined`}},
		{name: "undefined: complete rule whose body fails", modules: []caseModule{{"first.rego", false, regoUndefinedComplete}},
			query: "data.terraform.policies.first.deny", input: planEmpty, want: "error",
			errHas: []string{`query "data.terraform.policies.first.deny" is undefined`}},
		{name: "complete rule defined, fails", modules: []caseModule{{"first.rego", false, regoUndefinedComplete}},
			query: "data.terraform.policies.first.deny", input: planOpenSSH, want: "fail"},
		{name: "non-array: boolean", modules: []caseModule{{"allow.rego", false, regoAllow}},
			query: "data.terraform.policies.allow.allow", input: planOpenSSH, want: "error",
			errHas: []string{`query "data.terraform.policies.allow.allow" gives a boolean (false), not an array`}},
		{name: "non-array: object", modules: []caseModule{{"map.rego", false, regoMapRule}},
			query: "data.terraform.policies.map.deny", input: planOpenSSH, want: "error",
			errHas: []string{`query "data.terraform.policies.map.deny" gives an object`}},
		{name: "non-array: the package", modules: []caseModule{{"public_ingress.rego", false, regoPublicIngress}},
			query: "data.terraform.policies.public_ingress", input: planClean, want: "error",
			errHas: []string{`query "data.terraform.policies.public_ingress" gives an object`}},
		{name: "non-array: one violation's elements", modules: []caseModule{{"public_ingress.rego", false, regoPublicIngress}},
			query: "data.terraform.policies.public_ingress.deny[x]", input: planOpenSSH, want: "error",
			errHas: []string{`query "data.terraform.policies.public_ingress.deny[x]"`}},
		{name: "two expressions", modules: []caseModule{{"public_ingress.rego", false, regoPublicIngress}},
			query: "data.terraform.policies.public_ingress.deny; true", input: planOpenSSH, want: "error",
			errHas: []string{`query "data.terraform.policies.public_ingress.deny; true" has 2 expressions`}},
		{name: "runtime: conflicting rule values", modules: []caseModule{{"tier.rego", false, regoConflict}},
			query: "data.terraform.policies.tier.deny", input: planOpenSSH, want: "error",
			errHas: []string{"tier.rego:8: eval_conflict_error"}},
		{name: "runtime: conflict not reached, passes", modules: []caseModule{{"tier.rego", false, regoConflict}},
			query: "data.terraform.policies.tier.deny", input: planEmpty, want: "pass"},
		{name: "runtime: function conflict", modules: []caseModule{{"func.rego", false, regoFuncConflict}},
			query: "data.terraform.policies.func.deny", want: "error", errHas: []string{"func.rego:", "eval_conflict_error"}},
		{name: "compile: type error", modules: []caseModule{{"types.rego", false, regoTypeError}},
			query: "data.terraform.policies.types.deny", want: "error", errHas: []string{"types.rego:4: rego_type_error"}},
		{name: "parse error", modules: []caseModule{{"broken.rego", false, regoParseError}},
			query: "data.terraform.policies.broken.deny", want: "error", errHas: []string{"broken.rego:5: rego_parse_error"}},
	}
}

// TestAgreement: Evaluate agrees with OPA's own evaluation read by
// HCP Terraform's rule, and with the fixed outcome where there is one.
func TestAgreement(t *testing.T) {
	ctx := context.Background()
	cases := agreementCases()
	if len(cases) < 20 {
		t.Fatalf("%d cases; the table needs at least 20", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var modules []Module
			for _, m := range c.modules {
				modules = append(modules, Module{Name: m.name, Code: []byte(m.code)})
			}
			var input []byte
			if c.input != "" {
				input = []byte(c.input)
			}
			got, err := Evaluate(ctx, modules, c.query, input)
			want, wantErr := opaOracle(ctx, c)
			switch {
			case wantErr != nil:
				if err == nil {
					t.Fatalf("OPA: error %v; Evaluate: %+v", wantErr, got)
				}
				// An evaluation error's text is OPA's own.
				var evalErr *topdown.Error
				if errors.As(wantErr, &evalErr) && err.Error() != evalErr.Error() {
					t.Errorf("error:\n%v\nOPA's:\n%v", err, evalErr)
				}
			case err != nil:
				t.Fatalf("OPA gives %s; Evaluate: %v", outcomeString(want), err)
			default:
				if outcomeString(got) != outcomeString(want) {
					t.Errorf("Evaluate: %s\nOPA by HCP's rule: %s", outcomeString(got), outcomeString(want))
				}
			}
			switch {
			case c.want == "error" && err == nil, c.want == "pass" && (err != nil || !got.Pass), c.want == "fail" && (err != nil || got.Pass):
				t.Errorf("want %s; got %s, %v", c.want, outcomeString(got), err)
			}
			for _, s := range c.errHas {
				if err == nil || !strings.Contains(err.Error(), s) {
					t.Errorf("the error %v lacks %q", err, s)
				}
			}
			t.Logf("%s, %v", outcomeString(got), err)
		})
	}
}

// opaOracle is `opa eval` of the case (each module at its declared Rego
// version) read by hcpRule.
func opaOracle(ctx context.Context, c agreementCase) (Outcome, error) {
	opts := []func(*rego.Rego){rego.Query(c.query)}
	for _, m := range c.modules {
		v := ast.RegoV1
		if m.v0 {
			v = ast.RegoV0
		}
		mod, err := ast.ParseModuleWithOpts(m.name, m.code, ast.ParserOptions{RegoVersion: v})
		if err != nil {
			return Outcome{}, err
		}
		opts = append(opts, rego.ParsedModule(mod))
	}
	if c.input != "" {
		var in any
		if err := json.Unmarshal([]byte(c.input), &in); err != nil {
			return Outcome{}, err
		}
		opts = append(opts, rego.Input(in))
	}
	rs, err := rego.New(opts...).Eval(ctx)
	if err != nil {
		return Outcome{}, err
	}
	return hcpRule(rs)
}

// hcpRule reads a raw result set as HCP Terraform's docs say: the query's
// result must be an array, and an empty array passes.
func hcpRule(rs rego.ResultSet) (Outcome, error) {
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return Outcome{}, fmt.Errorf("not one array: %d results", len(rs))
	}
	arr, ok := rs[0].Expressions[0].Value.([]any)
	if !ok {
		return Outcome{}, fmt.Errorf("not an array: %T", rs[0].Expressions[0].Value)
	}
	out := Outcome{Pass: len(arr) == 0}
	for _, v := range arr {
		b, _ := json.Marshal(v)
		out.Violations = append(out.Violations, b)
	}
	return out, nil
}

func outcomeString(o Outcome) string {
	vs := make([]string, len(o.Violations))
	for i, v := range o.Violations {
		vs[i] = string(v)
	}
	if o.Pass {
		return "pass"
	}
	return "fail [" + strings.Join(vs, ", ") + "]"
}
