package provider

import (
	"errors"

	tfe "github.com/hashicorp/go-tfe"
)

// isNotFound reports the API's 404: "missing" and "not allowed to see" alike (DESIGN.md "Gone or cannot see").
func isNotFound(err error) bool {
	return errors.Is(err, tfe.ErrResourceNotFound)
}

const (
	permManagePolicies   = `the organization's "Manage policies" permission`
	permManageAgentPools = `the organization's "Manage agent pools" permission`
	permManageRegistry   = `the organization's "Manage private registry" permission`
	permTeamAccess       = `admin access to the workspace, or the organization's "Manage workspaces" permission`
	// permProjectTeamAccess: the project's team management (can-read-teams shows every grant).
	permProjectTeamAccess = `admin access to the project (or a custom grant that manages its teams), or the organization's "Manage projects" permission`
)
