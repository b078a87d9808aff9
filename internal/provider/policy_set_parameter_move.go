package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Moving a tfe_policy_set_parameter from hashicorp/tfe (the mechanism: move_state_tfe.go).

var _ resource.ResourceWithMoveState = (*policySetParameterResource)(nil)

var tfePolicySetParameterMove = tfeMove{
	source: "tfe_policy_set_parameter", target: "tfgov_policy_set_parameter",
	versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: movePolicySetParameterV0},
}

func (r *policySetParameterResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfePolicySetParameterMove.stateMover()}
}

// movePolicySetParameterV0: the value moves as movedValue says (variable_value.go). hashicorp/tfe
// keeps no value_wo_version (a write-only value is "" in its state, its digest in private state),
// so a parameter it set with value_wo moves with the value "": the configuration's value_wo and
// value_wo_version then send the value once. The organization, unknown to hashicorp/tfe, is null
// until the first refresh reads the set.
func movePolicySetParameterV0(s tfeState, _ *diag.Diagnostics) any {
	return &policySetParameterResourceModel{
		ID:            s.required("id"),
		PolicySetID:   s.required("policy_set_id"),
		Key:           s.required("key"),
		Organization:  types.StringNull(),
		variableValue: movedValue(s),
	}
}
