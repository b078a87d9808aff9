package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestProjectPermissionGroups: a fixed level accepts exactly what it implies and names every value
// that differs; a custom grant plans the configured values over the defaults; every fixed level
// gives a value to each attribute of both groups.
func TestProjectPermissionGroups(t *testing.T) {
	t.Parallel()
	obj := func(g projectPermissionGroup, set map[string]attr.Value) types.Object {
		vals := map[string]attr.Value{}
		for name, typ := range g.attrs {
			vals[name] = types.StringNull()
			if typ == types.BoolType {
				vals[name] = types.BoolNull()
			}
		}
		for k, v := range set {
			vals[k] = v
		}
		return types.ObjectValueMust(g.attrs, vals)
	}
	for _, tc := range []struct {
		name  string
		level string
		group projectPermissionGroup
		set   map[string]attr.Value
		want  []string // in the error; nil: none
	}{
		{"implied values", "admin", projectAccessGroup, map[string]attr.Value{"teams": types.StringValue("manage"), "settings": types.StringValue("delete")}, nil},
		{"nothing set", "read", workspaceAccessGroup, nil, nil},
		{"a flag the level does not imply", "write", workspaceAccessGroup, map[string]attr.Value{"create": types.BoolValue(true)},
			[]string{"workspace_access can be chosen only", "create = true (write implies false)", `"custom"`}},
		{"two values, sorted", "read", projectAccessGroup, map[string]attr.Value{"variable_sets": types.StringValue("write"), "settings": types.StringValue("update")},
			[]string{`settings = "update" (read implies "read"), variable_sets = "write" (read implies "none")`}},
		{"an unknown value", "maintain", workspaceAccessGroup, map[string]attr.Value{"runs": types.StringUnknown()}, []string{"runs = <unknown>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var diags diag.Diagnostics
			implied := fixedProjectPermissions[tc.level][0]
			if tc.group.name == "workspace_access" {
				implied = fixedProjectPermissions[tc.level][1]
			}
			tc.group.checkFixed(tc.level, obj(tc.group, tc.set), implied, &diags)
			if len(tc.want) == 0 && diags.HasError() {
				t.Fatalf("unexpected error: %v", diags)
			}
			for _, w := range tc.want {
				if !diags.HasError() || !strings.Contains(diags[0].Detail(), w) {
					t.Errorf("error %v lacks %q", diags, w)
				}
			}
		})
	}
	for level, groups := range fixedProjectPermissions {
		for i, g := range []projectPermissionGroup{projectAccessGroup, workspaceAccessGroup} {
			if _, d := types.ObjectValue(g.attrs, groups[i]); d.HasError() {
				t.Errorf("%s's %s: %v", level, g.name, d)
			}
		}
	}
	planned, d := workspaceAccessGroup.planned(obj(workspaceAccessGroup, map[string]attr.Value{"runs": types.StringValue("apply"), "move": types.BoolValue(true)}))
	if d.HasError() {
		t.Fatal(d)
	}
	got := planned.Attributes()
	if got["runs"].String() != `"apply"` || got["move"].String() != "true" || got["variables"].String() != `"none"` || got["create"].String() != "false" {
		t.Errorf("planned custom workspace_access: %v", got)
	}
	po, wo := projectPermissionOptions(types.ObjectValueMust(projectAccessGroup.attrs, projectAccessGroup.defaults), planned)
	if po == nil || wo == nil || *po.Teams != "none" || *wo.Runs != "apply" || !*wo.Move || *wo.Create {
		t.Errorf("options sent: %+v %+v", po, wo)
	}
}
