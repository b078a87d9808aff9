package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

type policyIdentity struct {
	kind         tfe.PolicyKind
	name         string
	organization string
	query        string // "" when not known (and for Sentinel)
}

func identityOf(pol *policyAPI) policyIdentity {
	pi := policyIdentity{kind: pol.Kind, name: pol.Name}
	if pol.Query != nil {
		pi.query = *pol.Query
	}
	if pol.Organization != nil {
		pi.organization = pol.Organization.Name
	}
	return pi
}

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

func (d *providerData) rememberPolicy(pol *policyAPI) {
	d.rememberPolicyIdentity(pol.ID, identityOf(pol))
}

// policyIdentities: policy ID → what is known of it. A map of values under a lock, not a
// sync.Map of boxed ones: a walk keeps one for each policy of the organization's list.
type policyIdentities struct {
	mu sync.RWMutex
	m  map[string]policyIdentity
}

// rememberPolicyIdentity: a partial identity (a plan may not know the name yet) never
// replaces a complete one.
func (d *providerData) rememberPolicyIdentity(id string, pi policyIdentity) {
	if d == nil || id == "" || pi.kind == "" {
		return
	}
	ids := &d.lists.policyIdentities
	ids.mu.Lock()
	defer ids.mu.Unlock()
	if old, ok := ids.m[id]; ok && old.complete() && !pi.complete() {
		return
	}
	if ids.m == nil {
		ids.m = map[string]policyIdentity{}
	}
	ids.m[id] = pi
}

func (pi policyIdentity) complete() bool {
	return pi.kind != "" && pi.name != "" && pi.organization != ""
}

func (d *providerData) policyIdentity(id string) (policyIdentity, bool) {
	ids := &d.lists.policyIdentities
	ids.mu.RLock()
	defer ids.mu.RUnlock()
	pi, ok := ids.m[id]
	return pi, ok
}

func (d *providerData) knownPolicy(id string) (policyIdentity, bool) {
	pi, ok := d.policyIdentity(id)
	return pi, ok && pi.complete()
}

func (d *providerData) policyKind(id string) tfe.PolicyKind {
	pi, _ := d.policyIdentity(id)
	return pi.kind
}

// refreshPolicy returns policy id from its organization's shared list, nil when gone (the
// list shows every policy); a 404 on the list is a cannotSeeError. With no organization (just
// imported by ID) it looks in the provider's organization's list, else reads by ID.
func (d *providerData) refreshPolicy(ctx context.Context, org, id string) (*policyAPI, error) {
	return d.findPolicy(ctx, refreshCheck, org, id)
}

// findPolicy is refreshPolicy for check: a refresh, or a write's 404 (locatePolicy).
func (d *providerData) findPolicy(ctx context.Context, check goneCheck, org, id string) (*policyAPI, error) {
	if org == "" && d.organization != "" {
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
		return nil, &cannotSeeError{d.policyCannotSee(ctx, check, org, "Policy "+id)}
	}
	pol, ok := pols.lookup(id)
	if !ok && !pols.definite() {
		return d.findPolicy(ctx, check, "", id) // make sure: read by ID
	}
	return pol, nil
}

// locatePolicy is the refresh of policy id of org after a write's 404, with the organization's
// list and read made afresh.
func (d *providerData) locatePolicy(org, id string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		for _, o := range []string{org, d.organization} {
			d.lists.policies.invalidate(o)
			d.lists.parents.invalidate("organization:" + o)
		}
		pol, err := d.findPolicy(ctx, check, org, id)
		var hidden *cannotSeeError
		switch {
		case errors.As(err, &hidden):
			return false, hidden.detail
		case err != nil:
			return false, fmt.Sprintf("Policy %s cannot be %s: reading it to tell whether it is gone failed: %s. State keeps it.", id, check.done, err)
		}
		return pol != nil, ""
	}
}
