package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Moving a tfe_policy from hashicorp/tfe (the mechanism: move_state_tfe.go).

var _ resource.ResourceWithMoveState = (*policyResource)(nil)

var tfePolicyMove = tfeMove{
	source: "tfe_policy", target: "tfgov_policy",
	versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: movePolicyV0},
}

func (r *policyResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfePolicyMove.stateMover()}
}

// movePolicyV0: `policy` becomes `content`, `enforce_mode` `enforcement_level`; the next
// refresh reads `query`, which hashicorp/tfe never reads back.
func movePolicyV0(s tfeState, _ *diag.Diagnostics) any {
	m := &policyResourceModel{}
	m.ID = s.required("id")
	m.Name = s.required("name")
	m.Kind = s.required("kind")
	m.Organization = s.optionalStr("organization") // null: the refresh reads the policy by ID and fills it
	m.Description = s.optionalStr("description")
	m.Query = s.optionalStr("query")
	m.EnforcementLevel = s.optionalStr("enforce_mode")
	m.Content = types.StringNull()
	var code string
	if s.value("policy", &code, true) {
		m.Content = types.StringValue(code)
	}
	return m
}
