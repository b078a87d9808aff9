package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Shared by tfgov_team_access and the team-access data sources: the access
// levels, the permissions object and its conversions, and listing a
// workspace's grants.

// teamAccessLevels are the values of `access`; fixedTeamAccessLevels those whose
// permissions are implied and read-only.
var (
	teamAccessLevels      = []string{"read", "plan", "write", "admin", "custom"}
	fixedTeamAccessLevels = teamAccessLevels[:4]
)

// fixedTeamAccessPermissions are the permissions each fixed level implies,
// as the service reports them (go-tfe-notes: `admin` on the real service;
// the API reference's table for the others). policy_overrides is false for
// every fixed level: overriding policies is granted separately.
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

// teamAccessPermissionsModel is the `permissions` object.
type teamAccessPermissionsModel struct {
	Runs             types.String `tfsdk:"runs"`
	Variables        types.String `tfsdk:"variables"`
	StateVersions    types.String `tfsdk:"state_versions"`
	SentinelMocks    types.String `tfsdk:"sentinel_mocks"`
	WorkspaceLocking types.Bool   `tfsdk:"workspace_locking"`
	RunTasks         types.Bool   `tfsdk:"run_tasks"`
	PolicyOverrides  types.Bool   `tfsdk:"policy_overrides"`
}

// teamAccessPermissionsAttrTypes is the object type of `permissions`.
var teamAccessPermissionsAttrTypes = map[string]attr.Type{
	"runs":              types.StringType,
	"variables":         types.StringType,
	"state_versions":    types.StringType,
	"sentinel_mocks":    types.StringType,
	"workspace_locking": types.BoolType,
	"run_tasks":         types.BoolType,
	"policy_overrides":  types.BoolType,
}

// teamAccessPermissionsDescriptions describe each permission for the schemas; the
// resource adds its default.
var teamAccessPermissionsDescriptions = map[string]string{
	"runs":              "Permission on runs: `read`, `plan` (queue plans) or `apply` (also approve and apply them).",
	"variables":         "Permission on the workspace's variables: `none`, `read` or `write`.",
	"state_versions":    "Permission on state versions: `none`, `read-outputs` (outputs only), `read` or `write`.",
	"sentinel_mocks":    "Permission to download Sentinel mocks: `none` or `read`.",
	"workspace_locking": "Whether the team may lock and unlock the workspace manually.",
	"run_tasks":         "Whether the team may manage the workspace's run tasks.",
	"policy_overrides":  "Whether the team may override failed soft-mandatory policy checks on the workspace (a beta permission of the service).",
}

// teamAccessPermissionsObject converts the API's permissions into the `permissions`
// object.
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

// teamAccessPermissionsFrom reads a known, non-null `permissions` object; ok is false
// when it is null or unknown.
func teamAccessPermissionsFrom(ctx context.Context, obj types.Object, diags *diag.Diagnostics) (m teamAccessPermissionsModel, ok bool) {
	if obj.IsNull() || obj.IsUnknown() {
		return m, false
	}
	diags.Append(obj.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	return m, !diags.HasError()
}

// listTeamAccess returns every grant of a workspace that the token may see.
// The API does not paginate this list unless asked to; should a server
// paginate it anyway, the further pages are followed.
func listTeamAccess(ctx context.Context, client *tfe.Client, workspaceID string) ([]*tfe.TeamAccess, error) {
	return tfeclient.ListAll(ctx, teamAccessPages(client, workspaceID, 0))
}

// teamAccessPages fetches the pages of a workspace's grants, size a page
// (0: the API's default, which is no pagination at all for page 1).
func teamAccessPages(client *tfe.Client, workspaceID string, size int) func(context.Context, int) ([]*tfe.TeamAccess, *tfe.Pagination, error) {
	return func(ctx context.Context, n int) ([]*tfe.TeamAccess, *tfe.Pagination, error) {
		opts := &tfe.TeamAccessListOptions{WorkspaceID: workspaceID, ListOptions: tfe.ListOptions{PageSize: size}}
		if n > 1 || size > 0 {
			opts.PageNumber = n
		}
		l, err := client.TeamAccess.List(ctx, opts)
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	}
}

// workspaceAccessError explains a 404 on a workspace's team access list.
// Any member of the workspace's organization may list it (seeing the
// grants of their own teams), so the 404 means the workspace is not in an
// organization the token belongs to.
func workspaceAccessError(workspaceID string, err error) string {
	if isNotFound(err) {
		return workspaceNotFound(workspaceID)
	}
	return fmt.Sprintf("Listing the team access of workspace %s: %s", workspaceID, err)
}

// workspaceNotFound is workspaceAccessError's 404.
func workspaceNotFound(workspaceID string) string {
	return fmt.Sprintf("Workspace %s was not found: no organization the API token belongs to has a workspace of that ID (any member may list a workspace's team access).", workspaceID)
}

// organizationTeams returns the teams of an organization that the token
// may see, from the shared list: one request per 100 teams, per
// organization and operation, for every grant that names a team (its
// name, the lock-out guard). Secret teams the token may not see are
// missing from it.
func (d *providerData) organizationTeams(ctx context.Context, org string) (*recordsByID[*tfe.Team], error) {
	return d.lists.teams.get(ctx, org, func(ctx context.Context) (*recordsByID[*tfe.Team], error) {
		l, err := listAllPages(ctx, func(t *tfe.Team) string { return t.ID }, func(ctx context.Context, n int) ([]*tfe.Team, *tfe.Pagination, error) {
			p, err := d.client.Teams.List(ctx, org, &tfe.TeamListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}})
			if err != nil {
				return nil, nil, err
			}
			return p.Items, p.Pagination, nil
		})
		if err == nil {
			tflog.Debug(ctx, "Listed teams", map[string]any{"organization": org, "count": len(l.byID), "organization_missing": l.parentMissing})
		}
		return l, err
	})
}

// workspaceOrganizationTeams returns the teams of the workspace's
// organization. The provider's organization is taken when its team list
// holds teamID, a team with a grant on the workspace (a team can hold
// access only to a workspace of its own organization); otherwise the
// workspace is read for its organization.
func (d *providerData) workspaceOrganizationTeams(ctx context.Context, wsID, teamID string) (*recordsByID[*tfe.Team], error) {
	if d.organization != "" {
		teams, err := d.organizationTeams(ctx, d.organization)
		if err == nil {
			if _, ok := teams.lookup(teamID); ok {
				return teams, nil
			}
		}
	}
	ws, err := d.client.Workspaces.ReadByID(ctx, wsID)
	if err != nil {
		return nil, err
	}
	if ws.Organization == nil || ws.Organization.Name == "" {
		return nil, fmt.Errorf("workspace %s names no organization", wsID)
	}
	return d.organizationTeams(ctx, ws.Organization.Name)
}

// teamNames returns the names of the teams of grants, by team ID: the name
// the list's answer included (include=team), else the one in the
// workspace's organization's team list (one request per 100 teams, shared
// by every grant of the organization in the operation; never a read per
// grant). A team the token may not see (a secret team of which the
// token's user is no member) has no name here.
func (d *providerData) teamNames(ctx context.Context, wsID string, grants []*tfe.TeamAccess) map[string]string {
	names := map[string]string{}
	missing := ""
	for _, g := range grants {
		switch {
		case g.Team == nil || g.Team.ID == "":
		case g.Team.Name != "":
			names[g.Team.ID] = g.Team.Name
		case missing == "":
			missing = g.Team.ID
		}
	}
	if missing == "" {
		return names
	}
	teams, err := d.workspaceOrganizationTeams(ctx, wsID, missing)
	if err != nil {
		tflog.Warn(ctx, "Could not list the teams of the workspace's organization: team names left out", map[string]any{"workspace_id": wsID, "error": err.Error()})
		return names
	}
	for _, g := range grants {
		if g.Team == nil || names[g.Team.ID] != "" {
			continue
		}
		if t, ok := teams.lookup(g.Team.ID); ok {
			names[g.Team.ID] = t.Name
		}
	}
	return names
}
