package provider

import (
	"context"
	"errors"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// isNotFound reports whether err is the API's 404, which means "missing"
// and "not allowed to see it" alike.
func isNotFound(err error) bool {
	return errors.Is(err, tfe.ErrResourceNotFound)
}

// configureData unwraps the provider's data in a resource's or data
// source's Configure. It returns nil before the provider is configured
// (validation, for example), when there is nothing to do yet, and nil with
// the error when the provider found no token (every type but
// tfgov_policy_evaluation needs one).
func configureData(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	d, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	if d.missingToken != "" {
		// The whole list once; every other type says so in a line, so
		// that a plan of many resources is not one long error each.
		detail := "No API token was found: another error of this run lists every place the provider looked."
		d.missingTokenOnce.Do(func() { detail = d.missingToken })
		diags.AddError("Missing API token", detail)
		return nil
	}
	return d
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

// agentPoolError explains a failed call on an agent pool's tokens. A 404
// is a missing pool or a token without permission: one read of the pool,
// which every member of its organization may read, says which.
func (d *providerData) agentPoolError(ctx context.Context, poolID string, err error) string {
	if !isNotFound(err) {
		return fmt.Sprintf("Agent pool %s: %s", poolID, err)
	}
	pool, rerr := d.agentPoolSeen(ctx, poolID)
	switch {
	case rerr != nil:
		return fmt.Sprintf("Agent pool %s was not found, or the API token may not manage agent pools (it needs %s); reading the pool to tell which failed: %s.", poolID, permManageAgentPools, rerr)
	case pool.missing:
		return fmt.Sprintf("Agent pool %s was not found: no organization the API token belongs to has an agent pool of that ID.", poolID)
	}
	return fmt.Sprintf("Agent pool %s (%q) exists, but the API token may not manage its tokens: it needs %s, or to be an owner.", poolID, pool.name, permManageAgentPools)
}

// organizationPoliciesError explains a failed call on an organization's
// policies (list, create). A 404 is a missing organization or a token
// without "Manage policies": one read of the organization, which every
// member may read, says which.
func (d *providerData) organizationPoliciesError(ctx context.Context, org string, err error) string {
	if !isNotFound(err) {
		return fmt.Sprintf("Organization %s: %s", org, err)
	}
	seen, rerr := d.organizationSeen(ctx, org)
	switch {
	case rerr != nil:
		return policyNotFound("Organization "+org) + fmt.Sprintf(" Reading the organization to tell which failed: %s.", rerr)
	case seen.missing:
		return fmt.Sprintf("Organization %s was not found, or the API token belongs to no team of it.", org)
	}
	return fmt.Sprintf("Organization %s exists, but the API token may not manage its policies: it needs %s, or to be an owner, or the organization token.", org, permManagePolicies)
}

// policyByNameError explains a failed look-up of a policy by name: the
// organization's list, which the token could read, has no such name; or
// the list itself failed (organizationPoliciesError says why, with one
// more read on a 404).
func (d *providerData) policyByNameError(ctx context.Context, org, name string, err error) string {
	var none noPolicyNamedError
	if !errors.As(err, &none) {
		return d.organizationPoliciesError(ctx, org, err)
	}
	return fmt.Sprintf("Organization %s has no policy named %q: its policies, which the API token may list, do not include it.", org, name)
}

// policyByIDError explains a failed read of policy id. A 404 is a missing
// policy or a token without "Manage policies" on the policy's
// organization; with an organization to look in (org, "" for none), its
// shared policy list says which: it answers 404 too (the organization's
// read then says why), or it lacks the policy, which is then in no
// organization whose policies the token may manage.
func (d *providerData) policyByIDError(ctx context.Context, org, id string, err error) string {
	if !isNotFound(err) || org == "" {
		return policyError("Policy "+id, err)
	}
	pols, lerr := d.organizationPolicies(ctx, org)
	switch {
	case lerr != nil:
		return policyError("Policy "+id, err)
	case pols.parentMissing:
		return fmt.Sprintf("Policy %s was not found. ", id) + d.organizationPoliciesError(ctx, org, tfe.ErrResourceNotFound)
	}
	return fmt.Sprintf("Policy %s was not found: organization %s, whose policies the API token may list, has none with that ID, "+
		"and no other organization whose policies the token may manage has it.", id, org)
}

// moduleTestsDenied says why a module's test endpoint answered 404, from
// one read of the module (which every member of its organization may
// read): the module is missing; or it exists, so the token may not manage
// its tests (they need the owners team), or, for an operation on one
// variable (ofVariable), that variable was removed outside Terraform.
func (d *providerData) moduleTestsDenied(ctx context.Context, mod moduleRef, ofVariable bool) string {
	seen, err := d.moduleSeen(ctx, mod)
	switch {
	case err == nil && seen.missing:
		return fmt.Sprintf("the module was not found in the private registry of organization %s, or the API token belongs to no team of it.", mod.Organization)
	case err != nil:
		return fmt.Sprintf("the module or the variable was not found, or the API token may not manage the module's tests (%s); reading the module to tell which failed: %s.", permTextTests, err)
	case ofVariable:
		return "the module exists, so the variable was removed outside Terraform, or the API token may not manage the module's tests: " + permTextTests
	}
	return "the module exists, so the API token may not manage its tests: they need " + permTextTests
}
