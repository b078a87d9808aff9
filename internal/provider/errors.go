package provider

import (
	"errors"

	tfe "github.com/hashicorp/go-tfe"
)

// isNotFound reports whether err is the API's 404, which means "missing"
// and "not allowed to see it" alike.
func isNotFound(err error) bool {
	return errors.Is(err, tfe.ErrResourceNotFound)
}

// Errors that say which. The API answers 404 for a missing object and for
// a token without the permission alike; where a message would say "A was
// not found, or the token may not ...", the provider spends one read, on
// that error path only, to say which, and names the permission.

// Permissions as HCP Terraform names them (organization permissions of a
// team; owners and the organization token hold them all).
const (
	permManagePolicies   = `the organization's "Manage policies" permission`
	permManageAgentPools = `the organization's "Manage agent pools" permission`
	permManageRegistry   = `the organization's "Manage private registry" permission`
	permTeamAccess       = `admin access to the workspace, or the organization's "Manage workspaces" permission`
)
