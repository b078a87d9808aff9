package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The access levels and the `permissions` object, shared by tfgov_team_access and its data sources.

// teamAccessLevels are the values of `access`; the fixed ones imply read-only permissions.
var (
	teamAccessLevels      = []string{"read", "plan", "write", "admin", "custom"}
	fixedTeamAccessLevels = teamAccessLevels[:4]
)

// fixedTeamAccessPermissions are what each fixed level implies, as the service reports them
// (go-tfe-notes for `admin`); overriding policies is granted separately.
var fixedTeamAccessPermissions = map[string]map[string]attr.Value{
	"read":  fixedPermissions(tfe.RunsPermissionRead, tfe.VariablesPermissionRead, tfe.StateVersionsPermissionRead, tfe.SentinelMocksPermissionNone, false, false),
	"plan":  fixedPermissions(tfe.RunsPermissionPlan, tfe.VariablesPermissionRead, tfe.StateVersionsPermissionRead, tfe.SentinelMocksPermissionNone, false, false),
	"write": fixedPermissions(tfe.RunsPermissionApply, tfe.VariablesPermissionWrite, tfe.StateVersionsPermissionWrite, tfe.SentinelMocksPermissionRead, true, false),
	"admin": fixedPermissions(tfe.RunsPermissionApply, tfe.VariablesPermissionWrite, tfe.StateVersionsPermissionWrite, tfe.SentinelMocksPermissionRead, true, true),
}

func fixedPermissions(runs tfe.RunsPermissionType, vars tfe.VariablesPermissionType, states tfe.StateVersionsPermissionType, mocks tfe.SentinelMocksPermissionType, locking, runTasks bool) map[string]attr.Value {
	return map[string]attr.Value{
		"runs":              types.StringValue(string(runs)),
		"variables":         types.StringValue(string(vars)),
		"state_versions":    types.StringValue(string(states)),
		"sentinel_mocks":    types.StringValue(string(mocks)),
		"workspace_locking": types.BoolValue(locking),
		"run_tasks":         types.BoolValue(runTasks),
		"policy_overrides":  types.BoolValue(false),
	}
}

// Allowed values of each permission, from go-tfe's constants.
var (
	teamAccessRunsValues          = []string{string(tfe.RunsPermissionRead), string(tfe.RunsPermissionPlan), string(tfe.RunsPermissionApply)}
	teamAccessVariablesValues     = []string{string(tfe.VariablesPermissionNone), string(tfe.VariablesPermissionRead), string(tfe.VariablesPermissionWrite)}
	teamAccessStateVersionsValues = []string{string(tfe.StateVersionsPermissionNone), string(tfe.StateVersionsPermissionReadOutputs), string(tfe.StateVersionsPermissionRead), string(tfe.StateVersionsPermissionWrite)}
	teamAccessSentinelMocksValues = []string{string(tfe.SentinelMocksPermissionNone), string(tfe.SentinelMocksPermissionRead)}
)

type teamAccessPermissionsModel struct {
	Runs             types.String `tfsdk:"runs"`
	Variables        types.String `tfsdk:"variables"`
	StateVersions    types.String `tfsdk:"state_versions"`
	SentinelMocks    types.String `tfsdk:"sentinel_mocks"`
	WorkspaceLocking types.Bool   `tfsdk:"workspace_locking"`
	RunTasks         types.Bool   `tfsdk:"run_tasks"`
	PolicyOverrides  types.Bool   `tfsdk:"policy_overrides"`
}

var teamAccessPermissionsAttrTypes = map[string]attr.Type{
	"runs":              types.StringType,
	"variables":         types.StringType,
	"state_versions":    types.StringType,
	"sentinel_mocks":    types.StringType,
	"workspace_locking": types.BoolType,
	"run_tasks":         types.BoolType,
	"policy_overrides":  types.BoolType,
}

// teamAccessPermissionsDescriptions describe each permission; the resource adds its default.
var teamAccessPermissionsDescriptions = map[string]string{
	"runs":              "Permission on runs: `read`, `plan` (queue plans) or `apply` (also approve and apply them).",
	"variables":         "Permission on the workspace's variables: `none`, `read` or `write`.",
	"state_versions":    "Permission on state versions: `none`, `read-outputs` (outputs only), `read` or `write`.",
	"sentinel_mocks":    "Permission to download Sentinel mocks: `none` or `read`.",
	"workspace_locking": "Whether the team may lock and unlock the workspace manually.",
	"run_tasks":         "Whether the team may manage the workspace's run tasks.",
	"policy_overrides":  "Whether the team may override failed soft-mandatory policy checks on the workspace (a beta permission of the service).",
}

func teamAccessPermissionsObject(ta *tfe.TeamAccess) basetypes.ObjectValue {
	return types.ObjectValueMust(teamAccessPermissionsAttrTypes, map[string]attr.Value{
		"runs":              types.StringValue(string(ta.Runs)),
		"variables":         types.StringValue(string(ta.Variables)),
		"state_versions":    types.StringValue(string(ta.StateVersions)),
		"sentinel_mocks":    types.StringValue(string(ta.SentinelMocks)),
		"workspace_locking": types.BoolValue(ta.WorkspaceLocking),
		"run_tasks":         types.BoolValue(ta.RunTasks),
		"policy_overrides":  types.BoolValue(ta.PolicyOverrides),
	})
}

// teamAccessPermissionsFrom reads `permissions`; ok is false when it is null or unknown.
func teamAccessPermissionsFrom(ctx context.Context, obj types.Object, diags *diag.Diagnostics) (m teamAccessPermissionsModel, ok bool) {
	if obj.IsNull() || obj.IsUnknown() {
		return m, false
	}
	diags.Append(obj.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	return m, !diags.HasError()
}
