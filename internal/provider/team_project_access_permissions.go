package provider

import (
	"fmt"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The levels and the `project_access` and `workspace_access` objects, shared by
// tfgov_team_project_access and its data source.

// projectAccessLevels are the values of `access`; all but custom imply read-only permissions.
var projectAccessLevels = []string{"read", "write", "maintain", "admin", "custom"}

// projectPermissionGroup is one of the two objects: its attributes, allowed values (nil: a bool),
// descriptions and the defaults of a custom grant.
type projectPermissionGroup struct {
	name     string
	allowed  map[string][]string
	defaults map[string]attr.Value
	describe map[string]string
	attrs    map[string]attr.Type
}

var projectAccessGroup = projectPermissionGroup{
	name: "project_access",
	allowed: map[string][]string{
		"settings":      {"read", "update", "delete"},
		"teams":         {"none", "read", "manage"},
		"variable_sets": {"none", "read", "write"},
	},
	defaults: map[string]attr.Value{"settings": types.StringValue("read"), "teams": types.StringValue("none"), "variable_sets": types.StringValue("none")},
	describe: map[string]string{
		"settings":      "Permission on the project's settings: `read`, `update` or `delete`.",
		"teams":         "Permission on the project's team access: `none`, `read` (see every grant) or `manage` (change them).",
		"variable_sets": "Permission on the project's variable sets: `none`, `read` or `write`.",
	},
}

var workspaceAccessGroup = projectPermissionGroup{
	name: "workspace_access",
	allowed: map[string][]string{
		"runs":           {"read", "plan", "apply"},
		"sentinel_mocks": {"none", "read"},
		"state_versions": {"none", "read-outputs", "read", "write"},
		"variables":      {"none", "read", "write"},
		"create":         nil, "locking": nil, "move": nil, "delete": nil, "run_tasks": nil, "policy_overrides": nil,
	},
	defaults: map[string]attr.Value{
		"runs": types.StringValue("read"), "sentinel_mocks": types.StringValue("none"), "state_versions": types.StringValue("none"), "variables": types.StringValue("none"),
		"create": types.BoolValue(false), "locking": types.BoolValue(false), "move": types.BoolValue(false), "delete": types.BoolValue(false),
		"run_tasks": types.BoolValue(false), "policy_overrides": types.BoolValue(false),
	},
	describe: map[string]string{
		"runs":             "Permission on runs of the project's workspaces: `read`, `plan` or `apply`.",
		"sentinel_mocks":   "Permission to download Sentinel mocks: `none` or `read`.",
		"state_versions":   "Permission on state versions: `none`, `read-outputs`, `read` or `write`.",
		"variables":        "Permission on workspace variables: `none`, `read` or `write`.",
		"create":           "Whether the team may create workspaces in the project.",
		"locking":          "Whether the team may lock and unlock the project's workspaces.",
		"move":             "Whether the team may move workspaces into and out of the project.",
		"delete":           "Whether the team may delete the project's workspaces.",
		"run_tasks":        "Whether the team may manage run tasks of the project's workspaces.",
		"policy_overrides": "Whether the team may override failed soft-mandatory policy checks.",
	},
}

func init() {
	for _, g := range []*projectPermissionGroup{&projectAccessGroup, &workspaceAccessGroup} {
		g.attrs = map[string]attr.Type{}
		for name, allowed := range g.allowed {
			g.attrs[name] = types.StringType
			if allowed == nil {
				g.attrs[name] = types.BoolType
			}
		}
	}
}

// fixedProjectPermissions are what each fixed level implies, as the service reports them
// (internal/sandbox/README.md "Team project access").
var fixedProjectPermissions = map[string][2]map[string]attr.Value{
	"read":     {projectPerms("read", "none", "none"), workspacePerms("read", "none", "read", "read", false, false, false, false, false)},
	"write":    {projectPerms("read", "none", "none"), workspacePerms("apply", "read", "write", "write", false, true, false, false, false)},
	"maintain": {projectPerms("read", "none", "none"), workspacePerms("apply", "read", "write", "write", true, true, false, true, true)},
	"admin":    {projectPerms("delete", "manage", "write"), workspacePerms("apply", "read", "write", "write", true, true, true, true, true)},
}

func projectPerms(settings, teams, varsets string) map[string]attr.Value {
	return map[string]attr.Value{"settings": types.StringValue(settings), "teams": types.StringValue(teams), "variable_sets": types.StringValue(varsets)}
}

func workspacePerms(runs, mocks, states, vars string, create, locking, move, del, runTasks bool) map[string]attr.Value {
	return map[string]attr.Value{
		"runs": types.StringValue(runs), "sentinel_mocks": types.StringValue(mocks), "state_versions": types.StringValue(states), "variables": types.StringValue(vars),
		"create": types.BoolValue(create), "locking": types.BoolValue(locking), "move": types.BoolValue(move), "delete": types.BoolValue(del),
		"run_tasks": types.BoolValue(runTasks), "policy_overrides": types.BoolValue(false),
	}
}

// projectAccessObjects are a grant's two objects as the service reports them.
func projectAccessObjects(g *tfe.TeamProjectAccess) (basetypes.ObjectValue, basetypes.ObjectValue) {
	p := g.ProjectAccess
	if p == nil {
		p = &tfe.TeamProjectAccessProjectPermissions{}
	}
	w := g.WorkspaceAccess
	if w == nil {
		w = &tfe.TeamProjectAccessWorkspacePermissions{}
	}
	po := types.ObjectValueMust(projectAccessGroup.attrs, projectPerms(string(p.ProjectSettingsPermission), string(p.ProjectTeamsPermission), string(p.ProjectVariableSetsPermission)))
	wo := types.ObjectValueMust(workspaceAccessGroup.attrs, workspacePerms(string(w.WorkspaceRunsPermission), string(w.WorkspaceSentinelMocksPermission),
		string(w.WorkspaceStateVersionsPermission), string(w.WorkspaceVariablesPermission), w.WorkspaceCreatePermission, w.WorkspaceLockingPermission,
		w.WorkspaceMovePermission, w.WorkspaceDeletePermission, w.WorkspaceRunTasksPermission))
	if w.WorkspacePolicyOverridesPermission {
		vals := wo.Attributes()
		vals["policy_overrides"] = types.BoolValue(true)
		wo = types.ObjectValueMust(workspaceAccessGroup.attrs, vals)
	}
	return po, wo
}

// checkFixed names each value of group's configured object that differs from what a fixed level
// implies: only `custom` chooses permissions.
func (g projectPermissionGroup) checkFixed(level string, cfg types.Object, implied map[string]attr.Value, diags *diag.Diagnostics) {
	if cfg.IsNull() || cfg.IsUnknown() {
		return
	}
	var differ []string
	for name, v := range cfg.Attributes() {
		if !v.IsNull() && (v.IsUnknown() || !v.Equal(implied[name])) {
			differ = append(differ, fmt.Sprintf("%s = %s (%s implies %s)", name, v, level, implied[name]))
		}
	}
	if len(differ) == 0 {
		return
	}
	slices.Sort(differ)
	diags.AddAttributeError(path.Root(g.name), "Permissions set with a fixed access level",
		fmt.Sprintf("%s can be chosen only when access is \"custom\" (access is one of %s). With access = %q the permissions are the ones that level implies, and they are read-only; "+
			"these differ from them: %s. Set access = \"custom\" to choose each permission, or remove %s (or write exactly what the level implies).",
			g.name, strings.Join(quoteAll(projectAccessLevels), ", "), level, strings.Join(differ, ", "), g.name))
}

// planned is a custom grant's object: the configured values, the defaults for those left out.
func (g projectPermissionGroup) planned(cfg types.Object) (basetypes.ObjectValue, diag.Diagnostics) {
	vals := make(map[string]attr.Value, len(g.attrs))
	for name, v := range g.defaults {
		if !cfg.IsNull() {
			if c, ok := cfg.Attributes()[name]; ok && !c.IsNull() {
				v = c
			}
		}
		vals[name] = v
	}
	return types.ObjectValue(g.attrs, vals)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// projectPermissionOptions are what a create or update sends for a custom grant: every value.
func projectPermissionOptions(po, wo types.Object) (*tfe.TeamProjectAccessProjectPermissionsOptions, *tfe.TeamProjectAccessWorkspacePermissionsOptions) {
	if !isKnown(po) || !isKnown(wo) {
		return nil, nil
	}
	str := func(o types.Object, n string) string {
		v, _ := o.Attributes()[n].(types.String)
		return v.ValueString()
	}
	flag := func(o types.Object, n string) *bool {
		v, _ := o.Attributes()[n].(types.Bool)
		return v.ValueBoolPointer()
	}
	settings, teams, varsets := tfe.ProjectSettingsPermissionType(str(po, "settings")), tfe.ProjectTeamsPermissionType(str(po, "teams")), tfe.ProjectVariableSetsPermissionType(str(po, "variable_sets"))
	runs, mocks := tfe.WorkspaceRunsPermissionType(str(wo, "runs")), tfe.WorkspaceSentinelMocksPermissionType(str(wo, "sentinel_mocks"))
	states, vars := tfe.WorkspaceStateVersionsPermissionType(str(wo, "state_versions")), tfe.WorkspaceVariablesPermissionType(str(wo, "variables"))
	return &tfe.TeamProjectAccessProjectPermissionsOptions{Settings: &settings, Teams: &teams, VariableSets: &varsets},
		&tfe.TeamProjectAccessWorkspacePermissionsOptions{
			Runs: &runs, SentinelMocks: &mocks, StateVersions: &states, Variables: &vars,
			Create: flag(wo, "create"), Locking: flag(wo, "locking"), Move: flag(wo, "move"), Delete: flag(wo, "delete"),
			RunTasks: flag(wo, "run_tasks"), PolicyOverrides: flag(wo, "policy_overrides"),
		}
}

// resourceAttributes is a permission group's schema: each value settable only with custom.
func (g projectPermissionGroup) resourceAttributes() map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for name, allowed := range g.allowed {
		desc := g.describe[name] + " Settable only with `access = \"custom\"`, where it defaults to `" + strings.Trim(g.defaults[name].String(), `"`) + "`; with a fixed level it shows what the level implies."
		if allowed == nil {
			out[name] = schema.BoolAttribute{Optional: true, Computed: true, MarkdownDescription: desc}
			continue
		}
		out[name] = schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc, Validators: []validator.String{stringvalidator.OneOf(allowed...)}}
	}
	return out
}
