package provider

import (
	"context"
	"fmt"
	"net/url"
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
	// policyKinds remembers, by policy ID, the kind and organization of
	// every policy this process created or listed: neither can change for
	// an ID, so an upload to a policy known here needs no read of it.
	policyKinds sync.Map // string → policyIdentity
	// inlineCode holds the IDs of the policies whose tfgov_policy manages
	// their code (content or source), as planned or created by this
	// process: a tfgov_policy_upload of one of them is refused.
	inlineCode sync.Map // string → bool
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

// agentPoolTokens returns the tokens of an agent pool, from the shared list.
func (d *providerData) agentPoolTokens(ctx context.Context, poolID string) (*recordsByID[*tfe.AgentToken], error) {
	return d.lists.agentTokens.get(ctx, poolID, func(ctx context.Context) (*recordsByID[*tfe.AgentToken], error) {
		opts := &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageSize: bulkPageSize}}
		l, err := listAllPages(ctx, func(t *tfe.AgentToken) string { return t.ID }, func(ctx context.Context, n int) ([]*tfe.AgentToken, int, error) {
			opts.PageNumber = n
			p, err := d.client.AgentTokens.ListWithOptions(ctx, poolID, opts)
			if err != nil {
				return nil, 0, err
			}
			return p.Items, nextPage(p.Pagination), nil
		})
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
		opts := &tfe.TeamAccessListOptions{ListOptions: tfe.ListOptions{PageSize: bulkPageSize}, WorkspaceID: workspaceID}
		l, err := listAllPages(ctx, func(ta *tfe.TeamAccess) string { return ta.ID }, func(ctx context.Context, n int) ([]*tfe.TeamAccess, int, error) {
			opts.PageNumber = n
			p, err := d.client.TeamAccess.List(ctx, opts)
			if err != nil {
				return nil, 0, err
			}
			return p.Items, nextPage(p.Pagination), nil
		})
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
		opts := &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageSize: bulkPageSize}}
		l, err := listAllPages(ctx, func(p *policyAPI) string { return p.ID }, func(ctx context.Context, n int) ([]*policyAPI, int, error) {
			opts.PageNumber = n
			p := &policyListAPI{}
			if err := (policyClient{d.client}).do(ctx, "GET", "organizations/"+url.PathEscape(org)+"/policies", opts, p); err != nil {
				return nil, 0, err
			}
			return p.Items, nextPage(p.Pagination), nil
		})
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

// rememberPolicy records the kind and organization of pol.
func (d *providerData) rememberPolicy(pol *policyAPI) {
	if pol.Organization == nil || pol.Kind == "" || pol.Name == "" {
		return
	}
	d.lists.policyKinds.Store(pol.ID, identityOf(pol))
}

// knownPolicy returns the kind and organization of a policy this process
// has seen.
func (d *providerData) knownPolicy(id string) (policyIdentity, bool) {
	v, ok := d.lists.policyKinds.Load(id)
	if !ok {
		return policyIdentity{}, false
	}
	pi, ok := v.(policyIdentity)
	return pi, ok
}

// nextPage is the number of the page after p, or 0 after the last (or for
// an unpaginated answer).
func nextPage(p *tfe.Pagination) int {
	if p == nil {
		return 0
	}
	return p.NextPage
}

// refreshPolicy returns policy id of org from the organization's shared
// list, or nil when it no longer exists. With no organization (right after
// an import by ID) it reads the policy by ID.
func (d *providerData) refreshPolicy(ctx context.Context, org, id string) (*policyAPI, error) {
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

// testRunPage is one page of a module's runs.
type testRunPage struct {
	recordsByID[*testRunRecord]
	// last is set on the module's last page.
	last bool
}

// moduleTestRun finds run id of module m in the shared pages of its runs:
// nil when the module's runs do not hold it.
func (d *providerData) moduleTestRun(ctx context.Context, m moduleRef, id string) (*testRunRecord, error) {
	for n := 1; ; n++ {
		page, err := d.lists.testRunPages.get(ctx, testRunPageKey{m.String(), n}, func(ctx context.Context) (*testRunPage, error) {
			opts := &testRunListOptions{ListOptions: tfe.ListOptions{PageSize: testRunListPageSize, PageNumber: n}}
			req, err := d.client.NewRequest("GET", m.testRunsPath(), opts)
			if err != nil {
				return nil, err
			}
			l := &testRunRecordList{}
			err = req.Do(ctx, l)
			if isNotFound(err) {
				return &testRunPage{recordsByID: recordsByID[*testRunRecord]{parentMissing: true}, last: true}, nil
			}
			if err != nil {
				return nil, err
			}
			p := &testRunPage{recordsByID: recordsByID[*testRunRecord]{byID: make(map[string]*testRunRecord, len(l.Items))}}
			for _, r := range l.Items {
				p.byID[r.ID] = r
			}
			p.last = l.Pagination == nil || l.NextPage <= n
			tflog.Debug(ctx, "Listed module test runs", map[string]any{"module": m.String(), "page": n, "count": len(l.Items)})
			return p, nil
		})
		if err != nil {
			return nil, err
		}
		if rec, ok := page.lookup(id); ok {
			return rec, nil
		}
		if page.last {
			return nil, nil
		}
	}
}

// testRunsChanged drops the shared pages of m's runs: a new run moves every
// older one a place down.
func (d *providerData) testRunsChanged(m moduleRef) {
	d.lists.testRunPages.invalidateWhere(func(k testRunPageKey) bool { return k.module == m.String() })
}
