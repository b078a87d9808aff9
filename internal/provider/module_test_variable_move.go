package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Moving a tfe_test_variable from hashicorp/tfe (the mechanism: move_state_tfe.go).

var _ resource.ResourceWithMoveState = (*moduleTestVariableResource)(nil)

var tfeTestVariableMove = tfeMove{
	source: "tfe_test_variable", target: "tfgov_module_test_variable",
	versions: map[int64]func(tfeState, *diag.Diagnostics) any{1: moveTestVariableV1},
}

func (r *moduleTestVariableResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfeTestVariableMove.stateMover()}
}

// moveTestVariableV1: a sensitive variable keeps the last value hashicorp/tfe set (the API never returns it);
// a write-only one keeps value_wo_version with `value` null, as tfgov stores it (hashicorp/tfe stores "").
// readable_value is what tfgov's refresh makes it: the value of a plain variable, null otherwise.
func moveTestVariableV1(s tfeState, _ *diag.Diagnostics) any {
	m := &moduleTestVariableResourceModel{
		ID:             s.required("id"),
		Organization:   s.required("organization"),
		ModuleName:     s.required("module_name"),
		ModuleProvider: s.required("module_provider"),
		Key:            s.required("key"),
		Category:       s.required("category"),
		Description:    s.str("description"),
		HCL:            s.boolean("hcl"),
		Sensitive:      s.boolean("sensitive"),
		ValueWO:        types.StringNull(),
		ValueWOVersion: s.int64("value_wo_version"),
		Value:          s.str("value"),
	}
	if !m.ValueWOVersion.IsNull() {
		m.Value = types.StringNull()
	}
	if m.Description.IsNull() {
		m.Description = types.StringValue("") // tfgov's default
	}
	if m.HCL.IsNull() {
		m.HCL = types.BoolValue(false)
	}
	if m.Sensitive.IsNull() {
		m.Sensitive = types.BoolValue(false)
	}
	m.ReadableValue = types.StringNull()
	if !m.Sensitive.ValueBool() {
		m.ReadableValue = m.Value
	}
	return m
}
