package provider

import "strings"

// Required permissions as HCP Terraform names them; registry entries hold them.

const (
	permTextPolicies = `the organization's "Manage policies" permission: an owner, the organization token, or a team with that permission.`
	permTextAgents   = `the organization's "Manage agent pools" permission: an owner, the organization token, or a team with that permission.`
	permTextTests    = `membership of the owners team: a token of the owners team or of one of its members, as the API requires for a module's tests ` +
		`(creating a test run also needs permission on the module).`
	permTextManageAccess        = `admin access to the workspace, or the organization's "Manage workspaces" permission (an owner and the organization token have both).`
	permTextSeeAccess           = `any member of the organization: a member sees the access of their own teams, and owners, the workspace's admins and teams with "Manage workspaces" see every grant.`
	permTextManageProjectAccess = `admin access to the project (or a custom grant that manages its teams), or the organization's "Manage projects" permission (an owner and the organization token have both).`
	permTextSeeProjectAccess    = `any member of the organization: a member sees the access of their own teams, and owners, the project's admins, teams whose grant reads its teams and teams with "Manage projects" see every grant.`
	permTextDeprecation         = `the organization's "Manage private registry" permission (an owner, the organization token, or a team with that permission), and the Plus edition.`
	permTextRegistry            = `any member of the organization: every member may read its private registry.`
	permTextSeeWorkspaces       = `any member of the organization: a member finds the workspaces it may read (owners, and teams with "View all workspaces" or "Manage workspaces", find all).`
	permTextSeeProjects         = `any member of the organization: a member finds the projects it may read (owners, and teams with "View all projects", "Manage projects", "View all workspaces" or "Manage workspaces", find all; other members the projects their teams hold access to).`
	permTextSeeAgentPools       = `any member of the organization: every member may read its agent pools (their tokens need "Manage agent pools").`
	permTextSeeTeams            = `any member of the organization: a secret team is found only by its members, owners, and teams with "View all secret teams".`
)

// permissionsPrefix opens the line on every page.
const permissionsPrefix = "**Required permissions:** "

// withPermissions ends *desc with the "Required permissions" paragraph;
// Schema methods defer it, so it comes last.
func withPermissions(desc *string, perms string) {
	if perms != "" {
		*desc = strings.TrimRight(*desc, "\n") + "\n\n" + permissionsPrefix + strings.ToUpper(perms[:1]) + perms[1:]
	}
}

func (t resourceType) permissions() string { return t.registered().permissions }

func (t resourceType) listPermissions() string { return t.registered().listPermissions }

func (t resourceType) registered() registeredResource {
	for _, r := range resourceRegistry {
		if r.typ == t {
			return r
		}
	}
	return registeredResource{}
}

func (t dataSourceType) permissions() string {
	for _, r := range dataSourceRegistry {
		if r.typ == t {
			return r.permissions
		}
	}
	return ""
}

func (t actionType) permissions() string {
	for _, r := range actionRegistry {
		if r.typ == t {
			return r.permissions
		}
	}
	return ""
}
