package provider

import (
	"context"
	"fmt"
	"slices"
	"sync"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// The shared lists (shared_lists.go) of each resource refreshed in bulk.
type bulkLists struct {
	// agentTokens by agent pool ID.
	agentTokens sharedLists[string, recordsByID[*tfe.AgentToken]]
	// teamAccess by workspace ID.
	teamAccess sharedLists[string, recordsByID[*tfe.TeamAccess]]
	// policies by organization name.
	policies sharedLists[string, recordsByID[*policyAPI]]
	// testRunPages by module and page number (testRunPageKey).
	testRunPages sharedLists[testRunPageKey, testRunPage]
	// policyIdentities remembers, by policy ID, what never changes about
	// every policy this process planned, created or listed (its kind, name
	// and organization): tfgov_policy_upload's plan checks Rego with the
	// kind, and an upload to a policy known here needs no read of it.
	policyIdentities sync.Map // string → policyIdentity
	// inlineCode holds the IDs of the policies whose tfgov_policy manages
	// their code (content or source), as planned or created by this
	// process: a tfgov_policy_upload of one of them is refused.
	inlineCode sync.Map // string → bool
	// writes holds, by policy ID, updated-at as this process's last write
	// of the policy answered (code_proof.go).
	writes policyWrites
	// codeUploads holds, by policy ID, the tfgov_policy_upload planned for
	// it in this process (uploadClaim): a second one is refused.
	codeUploads sync.Map // string → uploadClaim
}

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

// agentTokenPages fetches the pages of an agent pool's tokens, 100 a page
// (the pager's fetch).
func (d *providerData) agentTokenPages(poolID string) func(context.Context, int) ([]*tfe.AgentToken, *tfe.Pagination, error) {
	return func(ctx context.Context, n int) ([]*tfe.AgentToken, *tfe.Pagination, error) {
		p, err := d.client.AgentTokens.ListWithOptions(ctx, poolID, &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}})
		if err != nil {
			return nil, nil, err
		}
		return p.Items, p.Pagination, nil
	}
}

// agentPoolTokens returns the tokens of an agent pool, from the shared list.
func (d *providerData) agentPoolTokens(ctx context.Context, poolID string) (*recordsByID[*tfe.AgentToken], error) {
	return d.lists.agentTokens.get(ctx, poolID, func(ctx context.Context) (*recordsByID[*tfe.AgentToken], error) {
		l, err := listAllPages(ctx, func(t *tfe.AgentToken) string { return t.ID }, d.agentTokenPages(poolID))
		if err == nil {
			tflog.Debug(ctx, "Listed agent tokens", map[string]any{"agent_pool_id": poolID, "count": len(l.byID), "pool_missing": l.parentMissing})
		}
		return l, err
	})
}

// workspaceTeamAccess returns the grants of a workspace, from the shared
// list.
func (d *providerData) workspaceTeamAccess(ctx context.Context, workspaceID string) (*recordsByID[*tfe.TeamAccess], error) {
	return d.lists.teamAccess.get(ctx, workspaceID, func(ctx context.Context) (*recordsByID[*tfe.TeamAccess], error) {
		l, err := listAllPages(ctx, func(ta *tfe.TeamAccess) string { return ta.ID }, teamAccessPages(d.client, workspaceID, bulkPageSize))
		if err == nil {
			tflog.Debug(ctx, "Listed team access", map[string]any{"workspace_id": workspaceID, "count": len(l.byID), "workspace_missing": l.parentMissing})
		}
		return l, err
	})
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
// list, or nil when it no longer exists. With no organization (right after
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
	pol, ok := pols.lookup(id)
	if !ok && !pols.definite() {
		return d.refreshPolicy(ctx, "", id) // make sure: read by ID
	}
	return pol, nil
}

// Test runs are listed newest first, and a module keeps every run it ever
// had, while a configuration usually holds its newest few: a refresh looks
// for its run page by page, each page shared like the other lists, and
// stops at the page that has it. A configuration's runs on the first page
// of their module (its newest 100 runs) cost one request between them; an
// older run costs the pages down to it, at most a request per 100 runs of
// the module.

// testRunPageKey names one page of a module's runs.
type testRunPageKey struct {
	module string
	page   int
}

// testRunPage is one page of a module's runs, as listed.
type testRunPage struct {
	runs       []*testRunRecord
	pagination *tfe.Pagination
}

// moduleTestRun finds run id of module m in the shared pages of its runs
// (through the pager, each page fetched once for every run): nil when the
// module's runs do not hold it, or the module is gone.
func (d *providerData) moduleTestRun(ctx context.Context, m moduleRef, id string) (*testRunRecord, error) {
	var found *testRunRecord
	_, err := walkPages(ctx, func(ctx context.Context, n int) ([]*testRunRecord, *tfe.Pagination, error) {
		page, err := d.lists.testRunPages.get(ctx, testRunPageKey{m.String(), n}, func(ctx context.Context) (*testRunPage, error) {
			opts := &testRunListOptions{ListOptions: tfe.ListOptions{PageSize: testRunListPageSize, PageNumber: n}}
			req, err := d.client.NewRequest("GET", m.testRunsPath(), opts)
			if err != nil {
				return nil, err
			}
			l := &testRunRecordList{}
			err = req.Do(ctx, l)
			if isNotFound(err) {
				return &testRunPage{}, nil // the module is gone: an empty last page
			}
			if err != nil {
				return nil, err
			}
			tflog.Debug(ctx, "Listed module test runs", map[string]any{"module": m.String(), "page": n, "count": len(l.Items)})
			return &testRunPage{runs: l.Items, pagination: l.Pagination}, nil
		})
		if err != nil {
			return nil, nil, err
		}
		return page.runs, page.pagination, nil
	}, func(runs []*testRunRecord) bool {
		i := slices.IndexFunc(runs, func(r *testRunRecord) bool { return r.ID == id })
		if i >= 0 {
			found = runs[i]
		}
		return found != nil
	})
	return found, err
}

// testRunsChanged drops the shared pages of m's runs: a new run moves every
// older one a place down.
func (d *providerData) testRunsChanged(m moduleRef) {
	d.lists.testRunPages.invalidateWhere(func(k testRunPageKey) bool { return k.module == m.String() })
}
