package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Moving a tfe_policy_set from hashicorp/tfe (the mechanism: move_state_tfe.go).

var _ resource.ResourceWithMoveState = (*policySetResource)(nil)

var tfePolicySetMove = tfeMove{
	source: "tfe_policy_set", target: "tfgov_policy_set",
	versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: movePolicySetV0},
}

func (r *policySetResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfePolicySetMove.stateMover()}
}

// movePolicySetV0: `global` and `workspace_ids` become `scope`, `policy_ids` stays; the refresh after
// the move reads the rest of the scope (projects, exclusions, tags) and what the set governs. A set
// from a VCS repository cannot move: tfgov uploads versions from a directory instead.
func movePolicySetV0(s tfeState, _ *diag.Diagnostics) any {
	m := &policySetResourceModel{}
	m.ID = s.required("id")
	m.Name = s.required("name")
	m.Organization = s.optionalStr("organization")
	m.Description = s.optionalStr("description")
	m.Kind = s.optionalStr("kind")
	if m.Kind.IsNull() {
		m.Kind = types.StringValue("sentinel")
	}
	m.Overridable = s.boolean("overridable")
	if m.Overridable.IsNull() {
		m.Overridable = types.BoolValue(false)
	}
	m.AgentEnabled = s.boolean("agent_enabled")
	m.PolicyToolVersion = s.optionalStr("policy_tool_version")
	var vcs []any
	if s.value("vcs_repo", &vcs, false) && len(vcs) > 0 {
		s.fail("vcs_repo", "is set: tfgov_policy_set uploads versions from a `source` directory and does not manage VCS-backed sets")
		return nil
	}
	var ids []string
	m.PolicyIDs = types.SetNull(types.StringType)
	if s.value("policy_ids", &ids, false) && len(ids) > 0 {
		m.PolicyIDs = stringSet(ids)
	}
	var wss []string
	s.value("workspace_ids", &wss, false)
	global := s.boolean("global").ValueBool()
	m.Scope = setScope{Global: global, WorkspaceIDs: wss}.object()
	m.Source, m.SourceSHA256, m.VersionID = types.StringNull(), types.StringNull(), types.StringNull()
	m.GovernedWorkspaces = types.MapNull(types.StringType)
	return m
}
