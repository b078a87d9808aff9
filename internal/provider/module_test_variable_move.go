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

// moveTestVariableV1: the value moves as movedValue says (variable_value.go).
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
		variableValue:  movedValue(s),
	}
	if m.Description.IsNull() {
		m.Description = types.StringValue("") // tfgov's default
	}
	if m.HCL.IsNull() {
		m.HCL = types.BoolValue(false)
	}
	return m
}
