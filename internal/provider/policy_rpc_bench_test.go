package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tfgov/terraform-provider-tfgov/internal/policysample"
)

// BenchmarkPolicyRefreshPlan is the provider's share of a plan of one
// tfgov_policy with `source`, RPC by RPC as Terraform sends them (validate,
// upgrade, refresh, plan), against an in-process sandbox: the per-instance
// CPU and allocations a plan of many policies multiplies. The organization's
// list is read once and kept, as in a plan of many policies.
//
// tested: the policy has tests_wo (a test file of two tests, and two
// examples), unchanged since the last apply, so the plan runs none of them;
// tested-changed: the same, with tests_sha256 dropped from the prior state
// before each plan, so that each plan runs them (issue 45: the cost of a
// policy whose code, tests or examples changed).
func BenchmarkPolicyRefreshPlan(b *testing.B) {
	for _, mode := range []string{"source", "tested", "tested-changed"} {
		b.Run(mode, func(b *testing.B) { benchmarkPolicyRefreshPlan(b, mode) })
	}
}

func benchmarkPolicyRefreshPlan(b *testing.B, mode string) {
	ctx := context.Background()
	_, _, p := protoSandbox(b, "bench-rpc", nil)
	const typ = "tfgov_policy"
	schema := p.schema.ResourceSchemas[typ]
	objType := schema.ValueType()
	file := filepath.Join(b.TempDir(), "median.rego")
	if err := os.WriteFile(file, []byte(policysample.RegoCode("terraform.policies.bench", 0, 0, int(policysample.Rego.Median))), 0o600); err != nil {
		b.Fatal(err)
	}
	stringValue := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	vals := map[string]tftypes.Value{
		"name": stringValue("bench-rpc-policy"), "kind": stringValue("opa"), "query": stringValue("data.terraform.policies.bench.deny"),
		"description": stringValue("a policy"), "source": stringValue(file),
	}
	if mode != "source" {
		vals["tests_wo"] = benchTests(b, objType.(tftypes.Object).AttributeTypes["tests_wo"], filepath.Dir(file))
	}
	config := p.value(schema, vals)
	cfgVals := p.decode(objType, config)

	// proposed is Terraform's proposed new state for this flat schema: the
	// configuration, with computed attributes it leaves null from prior.
	proposed := func(prior map[string]tftypes.Value) *tfprotov6.DynamicValue {
		vals := map[string]tftypes.Value{}
		for _, a := range schema.Block.Attributes {
			v := cfgVals[a.Name]
			if v.IsNull() && a.Computed && prior != nil {
				v = prior[a.Name]
			}
			vals[a.Name] = v
		}
		return p.dynamic(objType, vals)
	}
	check := func(name string, diags []*tfprotov6.Diagnostic, err error) {
		if err != nil || hasErrors(diags) {
			b.Fatalf("%s: %v %s", name, err, diagText(diags))
		}
	}
	none, err := tfprotov6.NewDynamicValue(objType, tftypes.NewValue(objType, nil))
	if err != nil {
		b.Fatal(err)
	}
	pr, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typ, PriorState: &none, ProposedNewState: proposed(nil), Config: config})
	check("plan (create)", pr.Diagnostics, err)
	ar, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: typ, PriorState: &none, PlannedState: pr.PlannedState, Config: config, PlannedPrivate: pr.PlannedPrivate})
	check("apply (create)", ar.Diagnostics, err)
	state, private := ar.NewState, ar.Private
	rawState := map[string]any{}
	for k, v := range p.decode(objType, state) {
		rawState[k] = nil
		if !v.IsNull() {
			var s string
			if err := v.As(&s); err != nil {
				b.Fatal(err)
			}
			rawState[k] = s
		}
	}
	rawJSON, err := json.Marshal(rawState)
	if err != nil {
		b.Fatal(err)
	}

	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		vr, err := p.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typ, Config: config,
			ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}})
		check("validate", vr.Diagnostics, err)
		ur, err := p.srv.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: typ, Version: schema.Version, RawState: &tfprotov6.RawState{JSON: rawJSON}})
		check("upgrade", ur.Diagnostics, err)
		rr, err := p.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typ, CurrentState: ur.UpgradedState, Private: private})
		check("read", rr.Diagnostics, err)
		if mode == "tested-changed" {
			refreshed := p.decode(objType, rr.NewState)
			refreshed["tests_sha256"] = tftypes.NewValue(tftypes.String, nil)
			rr.NewState = p.dynamic(objType, refreshed)
		}
		pr, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typ, PriorState: rr.NewState,
			ProposedNewState: proposed(p.decode(objType, rr.NewState)), Config: config, PriorPrivate: rr.Private})
		check("plan", pr.Diagnostics, err)
		if len(pr.RequiresReplace) > 0 {
			b.Fatalf("the plan replaces the policy: %v", pr.RequiresReplace)
		}
	}
}

// benchTests writes a test file of two tests beside the policy (package
// terraform.policies.bench) in dir and returns tests_wo (of type typ)
// with it and two examples, one passing and one failing.
func benchTests(b *testing.B, typ tftypes.Type, dir string) tftypes.Value {
	fail := `{"plan": {"resource_changes": [{"address": "x.y", "type": "` + policysample.RegoFirstType(0) + `", "change": {"after": {"tags": {}}}}]}}`
	test := "package terraform.policies.bench_test\n\nimport rego.v1\n\nimport data.terraform.policies.bench\n\n" +
		"test_denied if { count(bench.deny) > 0 with input as " + fail + " }\n\n" +
		"test_empty if { count(bench.deny) == 0 with input as {\"plan\": {\"resource_changes\": []}} }\n"
	if err := os.WriteFile(filepath.Join(dir, "bench_test.rego"), []byte(test), 0o600); err != nil {
		b.Fatal(err)
	}
	obj := typ.(tftypes.Object)
	exType := obj.AttributeTypes["examples"].(tftypes.List).ElementType
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	example := func(input, expect string) tftypes.Value {
		return tftypes.NewValue(exType, map[string]tftypes.Value{"name": str(expect), "input": str(input), "expect": str(expect), "violations": tftypes.NewValue(tftypes.String, nil)})
	}
	return tftypes.NewValue(obj, map[string]tftypes.Value{
		"files":    tftypes.NewValue(obj.AttributeTypes["files"], []tftypes.Value{str(filepath.Join(dir, "*_test.rego"))}),
		"code":     tftypes.NewValue(obj.AttributeTypes["code"], nil),
		"examples": tftypes.NewValue(obj.AttributeTypes["examples"], []tftypes.Value{example(`{"plan": {"resource_changes": []}}`, "pass"), example(fail, "fail")}),
	})
}
