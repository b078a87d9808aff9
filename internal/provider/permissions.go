package provider

import "strings"

// Required permissions. Every resource, data source, list resource and
// action page says what the API token needs, as HCP Terraform names the
// permissions (a team's organization permissions and workspace access;
// the owners team and the organization token hold every organization
// permission). Each type's Schema defers withPermissions, so the line
// ends its description, and the page tfplugindocs makes from it;
// docs/index.md (templates/index.md.tmpl) has the same as a table.
// TestPermissionPages checks every page and the table.

const (
	permTextPolicies = `the organization's "Manage policies" permission: an owner, the organization token, or a team with that permission.`
	permTextAgents   = `the organization's "Manage agent pools" permission: an owner, the organization token, or a team with that permission.`
	permTextTests    = `membership of the owners team: a token of the owners team or of one of its members, as the API requires for a module's tests ` +
		`(creating a test run also needs permission on the module).`
	permTextManageAccess = `admin access to the workspace, or the organization's "Manage workspaces" permission (an owner and the organization token have both).`
	permTextSeeAccess    = `any member of the organization: a member sees the access of their own teams, and owners and the workspace's admins see every grant.`
	permTextDeprecation  = `the organization's "Manage private registry" permission (an owner, the organization token, or a team with that permission), and the Plus edition.`
	permTextRegistry     = `any member of the organization: every member may read its private registry.`
)

// requiredPermissions is each type's line, by its docs directory and name.
var requiredPermissions = map[string]string{
	"resources/policy":                          permTextPolicies,
	"resources/policy_upload":                   permTextPolicies,
	"resources/team_access":                     permTextManageAccess,
	"resources/workspace_team_access_exclusive": permTextManageAccess + ` It reads every grant of the workspace, which only these may see.`,
	"resources/agent_token":                     permTextAgents,
	"resources/module_test_run":                 permTextTests,
	"resources/module_test_variable":            permTextTests,
	"resources/module_version_deprecation":      permTextDeprecation,
	"data-sources/policy":                       permTextPolicies,
	"data-sources/policies":                     permTextPolicies,
	"data-sources/policy_evaluation":            `none: it makes no request, and works with no token or organization configured.`,
	"data-sources/team_access":                  permTextSeeAccess,
	"data-sources/workspace_team_access":        permTextSeeAccess,
	"data-sources/agent_tokens":                 permTextAgents,
	"data-sources/module_test_run":              permTextTests,
	"data-sources/module_test_runs":             permTextTests,
	"data-sources/module_test_variables":        permTextTests,
	"data-sources/module_version":               permTextRegistry,
	"data-sources/registry_module":              permTextRegistry,
	"data-sources/agent_pool":                   `any member of the organization: every member may read its agent pools (their tokens need "Manage agent pools").`,
	"data-sources/workspace":                    `any member of the organization: a member finds the workspaces it may read (owners, and teams with "View all workspaces" or "Manage workspaces", find all).`,
	"data-sources/workspaces":                   `any member of the organization: a member finds the workspaces it may read (owners, and teams with "View all workspaces" or "Manage workspaces", find all).`,
	"data-sources/team":                         `any member of the organization: a secret team is found only by its members, owners, and teams with "View all secret teams".`,
	"data-sources/teams":                        `any member of the organization: a secret team is found only by its members, owners, and teams with "View all secret teams".`,
	"list-resources/policy":                     permTextPolicies,
	"list-resources/policy_upload":              permTextPolicies,
	"list-resources/team_access":                permTextSeeAccess,
	"list-resources/agent_token":                permTextAgents,
	"list-resources/module_test_run":            permTextTests,
	"list-resources/module_test_variable":       permTextTests,
	"list-resources/module_version_deprecation": permTextRegistry,
	"actions/agent_token_prune":                 permTextAgents,
	"actions/module_test":                       permTextTests,
}

// permissionsPrefix opens the line on every page.
const permissionsPrefix = "**Required permissions:** "

// withPermissions ends *desc with the "Required permissions" paragraph of
// the type key ("resources/policy"). Schema methods defer it, so it comes
// last whatever the description holds. An unknown key adds nothing, and
// TestPermissionPages then fails for the page.
func withPermissions(desc *string, key string) {
	if p, ok := requiredPermissions[key]; ok {
		*desc = strings.TrimRight(*desc, "\n") + "\n\n" + permissionsPrefix + strings.ToUpper(p[:1]) + p[1:]
	}
}
