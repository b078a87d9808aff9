package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Moving a tfe_team_access from hashicorp/tfe (the mechanism: move_state_tfe.go).

var _ resource.ResourceWithMoveState = (*teamAccessResource)(nil)

var tfeTeamAccessMove = tfeMove{
	source: "tfe_team_access", target: "tfgov_team_access",
	versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: moveTeamAccessV0, 1: moveTeamAccessV1},
}

func (r *teamAccessResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfeTeamAccessMove.stateMover()}
}

// moveTeamAccessV1: hashicorp/tfe's `permissions` is a list of one object; a permission an older
// state lacks (policy_overrides) is null until the refresh reads it.
func moveTeamAccessV1(s tfeState, diags *diag.Diagnostics) any {
	m := &teamAccessResourceModel{
		ID:          s.required("id"),
		TeamID:      s.required("team_id"),
		WorkspaceID: s.required("workspace_id"),
		Access:      s.required("access"),
		Permissions: types.ObjectNull(teamAccessPermissionsAttrTypes),
	}
	var perms []map[string]json.RawMessage
	if !s.value("permissions", &perms, false) || len(perms) == 0 {
		return m // computed: the refresh fills it
	}
	if len(perms) > 1 {
		s.fail("permissions", fmt.Sprintf("holds %d blocks; hashicorp/tfe writes one", len(perms)))
		return nil
	}
	p := tfeState{source: s.source, version: s.version, attrs: perms[0], diags: diags}
	vals := make(map[string]attr.Value, len(teamAccessPermissionsAttrTypes))
	for name, typ := range teamAccessPermissionsAttrTypes {
		if typ == types.BoolType {
			vals[name] = p.boolean(name)
		} else {
			vals[name] = p.optionalStr(name)
		}
	}
	obj, d := types.ObjectValue(teamAccessPermissionsAttrTypes, vals)
	diags.Append(d...)
	m.Permissions = obj
	return m
}

// moveTeamAccessV0: hashicorp/tfe's first schema held `workspace_id` as "<organization>/<name>";
// the move leaves it null, and the refresh reads the grant by ID, which names its workspace.
func moveTeamAccessV0(s tfeState, _ *diag.Diagnostics) any {
	m := &teamAccessResourceModel{
		ID:          s.required("id"),
		TeamID:      s.required("team_id"),
		WorkspaceID: types.StringNull(),
		Access:      s.required("access"),
		Permissions: types.ObjectNull(teamAccessPermissionsAttrTypes),
	}
	if ws := s.required("workspace_id"); !ws.IsNull() && !strings.Contains(ws.ValueString(), "/") {
		s.fail("workspace_id", fmt.Sprintf("is %q, not <organization>/<workspace name> as schema version 0 holds it", ws.ValueString()))
	}
	return m
}
