package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
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
// the move reads the rest of the scope (projects, exclusions, tags) and what the set governs;
// `vcs_repo`'s one block becomes the attribute, `policies_path` stays.
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
	m.VCSRepo, m.PoliciesPath = types.ObjectNull(vcsRepoAttrTypes), s.optionalStr("policies_path")
	var vcs []struct {
		Identifier        string `json:"identifier"`
		Branch            string `json:"branch"`
		IngressSubmodules bool   `json:"ingress_submodules"`
		OAuthTokenID      string `json:"oauth_token_id"`
		GHAInstallationID string `json:"github_app_installation_id"`
	}
	if s.value("vcs_repo", &vcs, false) && len(vcs) > 0 {
		v := vcs[0]
		m.VCSRepo = vcsRepoObject(&tfe.VCSRepo{Identifier: v.Identifier, Branch: v.Branch, IngressSubmodules: v.IngressSubmodules, OAuthTokenID: v.OAuthTokenID, GHAInstallationID: v.GHAInstallationID})
	}
	if m.VCSRepo.IsNull() {
		m.PoliciesPath = types.StringNull() // tfe writes "" without a repository
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
