package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// policyIdentity is what never changes about a policy.
type policyIdentity struct {
	kind         tfe.PolicyKind
	name         string
	organization string
}

func identityOf(pol *policyAPI) policyIdentity {
	pi := policyIdentity{kind: pol.Kind, name: pol.Name}
	if pol.Organization != nil {
		pi.organization = pol.Organization.Name
	}
	return pi
}

// organizationPolicies returns the policies of an organization, from the
// shared list.
func (d *providerData) organizationPolicies(ctx context.Context, org string) (*recordsByID[*policyAPI], error) {
	return d.lists.policies.get(ctx, org, func(ctx context.Context) (*recordsByID[*policyAPI], error) {
		l, err := listAllPages(ctx, func(p *policyAPI) string { return p.ID }, policyClient{d.client}.pages(org, "", ""))
		if err != nil {
			return nil, err
		}
		for _, p := range l.byID {
			d.rememberPolicy(p)
		}
		tflog.Debug(ctx, "Listed policies", map[string]any{"organization": org, "count": len(l.byID), "organization_missing": l.parentMissing})
		return l, nil
	})
}

// rememberPolicy records the identity of pol, as the API returned it.
func (d *providerData) rememberPolicy(pol *policyAPI) {
	d.rememberPolicyIdentity(pol.ID, identityOf(pol))
}

// rememberPolicyIdentity records the identity of policy id; one with no
// kind is not kept, and a partial one (a plan may not know the name or
// organization yet) never replaces a complete one.
func (d *providerData) rememberPolicyIdentity(id string, pi policyIdentity) {
	if d == nil || id == "" || pi.kind == "" {
		return
	}
	if !pi.complete() {
		if old, ok := d.policyIdentity(id); ok && old.complete() {
			return
		}
	}
	d.lists.policyIdentities.Store(id, pi)
}

func (pi policyIdentity) complete() bool {
	return pi.kind != "" && pi.name != "" && pi.organization != ""
}

func (d *providerData) policyIdentity(id string) (policyIdentity, bool) {
	v, ok := d.lists.policyIdentities.Load(id)
	if !ok {
		return policyIdentity{}, false
	}
	pi, ok := v.(policyIdentity)
	return pi, ok
}

// knownPolicy returns the kind, name and organization of a policy this
// process has seen, when it knows all three.
func (d *providerData) knownPolicy(id string) (policyIdentity, bool) {
	pi, ok := d.policyIdentity(id)
	return pi, ok && pi.complete()
}

// policyKind returns the kind of a policy this process has seen or
// planned; "" when unknown.
func (d *providerData) policyKind(id string) tfe.PolicyKind {
	pi, _ := d.policyIdentity(id)
	return pi.kind
}

// refreshPolicy returns policy id of org from the organization's shared
// list, or nil when it no longer exists: a list of the organization's
// policies needs the permission that sees them all, so absence from it is
// gone; a 404 on the list is a cannotSeeError (gone.go). With no organization (right after
// an import by ID) it looks in the provider's organization's list, and
// reads the policy by ID when it is not there.
func (d *providerData) refreshPolicy(ctx context.Context, org, id string) (*policyAPI, error) {
	if org == "" && d.organization != "" {
		// Just imported by ID: the policy is most likely in the provider's
		// organization, whose list every import shares.
		if pols, err := d.organizationPolicies(ctx, d.organization); err == nil {
			if pol, ok := pols.lookup(id); ok {
				return pol, nil
			}
		}
	}
	if org == "" {
		pol, err := policyClient{d.client}.read(ctx, id)
		if isNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		d.rememberPolicy(pol)
		return pol, nil
	}
	pols, err := d.organizationPolicies(ctx, org)
	if err != nil {
		return nil, fmt.Errorf("listing the policies of organization %s: %w", org, err)
	}
	if pols.parentMissing {
		return nil, &cannotSeeError{d.policyCannotSee(ctx, org, "Policy "+id)}
	}
	pol, ok := pols.lookup(id)
	if !ok && !pols.definite() {
		return d.refreshPolicy(ctx, "", id) // make sure: read by ID
	}
	return pol, nil
}
