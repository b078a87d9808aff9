package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestVariableValue: what an update sends, and what a plan and a refresh keep, for a value set
// with value and with value_wo (shared by test variables and policy set parameters).
func TestVariableValue(t *testing.T) {
	t.Parallel()
	plain := func(v string) variableValue {
		return variableValue{Value: types.StringValue(v), ValueWO: types.StringNull(), ValueWOVersion: types.Int64Null(), Sensitive: types.BoolValue(false)}
	}
	wo := func(v string, version int64) variableValue {
		return variableValue{Value: types.StringNull(), ValueWO: types.StringValue(v), ValueWOVersion: types.Int64Value(version), Sensitive: types.BoolValue(true)}
	}
	stateWO := func(version int64) variableValue {
		m := wo("", version)
		m.ValueWO = types.StringNull()
		return m
	}
	for name, tc := range map[string]struct {
		cfg, plan, state variableValue
		want             *string
	}{
		"value unchanged":                 {plain("a"), plain("a"), plain("a"), nil},
		"value changed":                   {plain("b"), plain("b"), plain("a"), ptr("b")},
		"write-only, same version":        {wo("new", 1), stateWO(1), stateWO(1), nil},
		"write-only, new version":         {wo("new", 2), stateWO(2), stateWO(1), ptr("new")},
		"value to write-only":             {wo("new", 1), stateWO(1), plain("a"), ptr("new")},
		"write-only to value, same value": {plain(""), plain(""), stateWO(1), ptr("")},
	} {
		t.Run(name, func(t *testing.T) {
			got := tc.cfg.updateValue(tc.plan, tc.state)
			if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
				t.Errorf("updateValue = %v, want %v", deref0(got), deref0(tc.want))
			}
		})
	}

	// A refresh never brings a write-only value into state, and keeps a sensitive one.
	m := stateWO(1)
	m.fromService("from the service", false)
	if !m.Value.IsNull() || !m.ReadableValue.IsNull() {
		t.Errorf("refresh of a write-only value: value %v, readable %v, want both null", m.Value, m.ReadableValue)
	}
	m = plain("kept")
	m.Sensitive = types.BoolValue(true)
	m.fromService("", true)
	if m.Value.ValueString() != "kept" || !m.ReadableValue.IsNull() {
		t.Errorf("refresh of a sensitive value: value %v, readable %v", m.Value, m.ReadableValue)
	}

	// A new object without a value fails the plan; one that exists keeps the service's.
	var diags diag.Diagnostics
	none := variableValue{Value: types.StringNull(), ValueWO: types.StringNull(), ValueWOVersion: types.Int64Null(), Sensitive: types.BoolValue(false)}
	planned := none
	none.plan("parameter", nil, &planned, &diags)
	if !diags.HasError() {
		t.Error("a new parameter without a value planned without error")
	}
	diags = nil
	state := plain("on the service")
	planned = none
	none.plan("parameter", &state, &planned, &diags)
	if diags.HasError() || planned.Value.ValueString() != "on the service" || planned.ReadableValue.ValueString() != "on the service" {
		t.Errorf("an existing parameter without a value: %v, planned %v", diags, planned)
	}
}

func ptr(s string) *string { return &s }

func deref0(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}
