package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Moving a tfe_agent_token from hashicorp/tfe (the mechanism: move_state_tfe.go).

var _ resource.ResourceWithMoveState = (*agentTokenResource)(nil)

var tfeAgentTokenMove = tfeMove{
	source: "tfe_agent_token", target: "tfgov_agent_token",
	versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: moveAgentTokenV0},
}

func (r *agentTokenResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfeAgentTokenMove.stateMover()}
}

// moveAgentTokenV0 keeps the secret, which the API returns only at creation (an import would lose it).
func moveAgentTokenV0(s tfeState, _ *diag.Diagnostics) any {
	m := &agentTokenResourceModel{
		ID:               s.required("id"),
		AgentPoolID:      s.required("agent_pool_id"),
		Description:      s.required("description"),
		Token:            s.required("token"),
		RotationTriggers: types.MapNull(types.StringType),
	}
	return m
}
