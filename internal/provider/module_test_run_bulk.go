package provider

import (
	"context"
	"errors"
	"slices"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

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
	// missing: the first page answered 404 (the module is gone, or the
	// token may not see its tests).
	missing bool
}

// errTestRunsHidden is moduleTestRun's answer when the module's runs
// answered 404: the run may exist (gone.go).
var errTestRunsHidden = errors.New("the module's test runs answered 404")

// moduleTestRun finds run id of module m in the shared pages of its runs
// (through the pager, each page fetched once for every run): nil when the
// module's runs do not hold it; errTestRunsHidden on a 404 on the first
// page (on a later page a 404 is an error like any other).
func (d *providerData) moduleTestRun(ctx context.Context, m moduleRef, id string) (*testRunRecord, error) {
	var found *testRunRecord
	_, err := tfeclient.WalkPages(ctx, func(ctx context.Context, n int) ([]*testRunRecord, *tfe.Pagination, error) {
		page, err := d.lists.testRunPages.get(ctx, testRunPageKey{m.String(), n}, func(ctx context.Context) (*testRunPage, error) {
			opts := &testRunListOptions{ListOptions: tfe.ListOptions{PageSize: testRunListPageSize, PageNumber: n}}
			l := &testRunRecordList{}
			err := tfeclient.APIRequest(ctx, d.client, "GET", m.testRunsPath(), opts, nil, l)
			if isNotFound(err) && n == 1 {
				return &testRunPage{missing: true}, nil
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
		if page.missing {
			return nil, nil, errTestRunsHidden
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
