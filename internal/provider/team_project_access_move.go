package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Moving a tfe_team_project_access from hashicorp/tfe (the mechanism: move_state_tfe.go).

var _ resource.ResourceWithMoveState = (*teamProjectAccessResource)(nil)

// tfeTeamProjectAccessMove: versions 0 and 1 hold the same attributes (v0.79.0 has no upgrader).
var tfeTeamProjectAccessMove = tfeMove{
	source: "tfe_team_project_access", target: "tfgov_team_project_access",
	versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: moveTeamProjectAccess, 1: moveTeamProjectAccess},
}

func (r *teamProjectAccessResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfeTeamProjectAccessMove.stateMover()}
}

// moveTeamProjectAccess: hashicorp/tfe's `project_access` and `workspace_access` are lists of one
// object; one missing is null until the refresh reads it.
func moveTeamProjectAccess(s tfeState, diags *diag.Diagnostics) any {
	m := &teamProjectAccessResourceModel{
		ID:              s.required("id"),
		TeamID:          s.required("team_id"),
		TeamName:        types.StringNull(),
		ProjectID:       s.required("project_id"),
		Access:          s.required("access"),
		ProjectAccess:   types.ObjectNull(projectAccessGroup.attrs),
		WorkspaceAccess: types.ObjectNull(workspaceAccessGroup.attrs),
	}
	for _, g := range []struct {
		group projectPermissionGroup
		into  *types.Object
	}{{projectAccessGroup, &m.ProjectAccess}, {workspaceAccessGroup, &m.WorkspaceAccess}} {
		var blocks []map[string]json.RawMessage
		if !s.value(g.group.name, &blocks, false) || len(blocks) == 0 {
			continue // computed: the refresh fills it
		}
		if len(blocks) > 1 {
			s.fail(g.group.name, fmt.Sprintf("holds %d blocks; hashicorp/tfe writes one", len(blocks)))
			return nil
		}
		b := tfeState{source: s.source, version: s.version, attrs: blocks[0], diags: diags}
		vals := make(map[string]attr.Value, len(g.group.attrs))
		for name, typ := range g.group.attrs {
			if typ == types.BoolType {
				vals[name] = b.boolean(name)
			} else {
				vals[name] = b.optionalStr(name)
			}
		}
		obj, d := types.ObjectValue(g.group.attrs, vals)
		diags.Append(d...)
		*g.into = obj
	}
	return m
}
