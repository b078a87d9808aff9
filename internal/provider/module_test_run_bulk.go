package provider

import (
	"context"
	"errors"
	"slices"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// A module keeps every run, newest first, and a configuration holds its newest few: a refresh reads
// the shared pages down to its run (the newest 100 runs cost one request between them).

type testRunPageKey struct {
	module string
	page   int
}

type testRunPage struct {
	runs       []*testRunRecord
	pagination *tfe.Pagination
	missing    bool // the first page answered 404: the module is gone, or its tests are hidden
}

var errTestRunsHidden = errors.New("the module's test runs answered 404")

// moduleTestRun finds run id in the shared pages of m's runs: nil when they do not hold it,
// errTestRunsHidden on a 404 on the first page (gone.go tells which).
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

// testRunsChanged drops m's pages: a new run moves every older one a place down.
func (d *providerData) testRunsChanged(m moduleRef) {
	d.lists.testRunPages.invalidateWhere(func(k testRunPageKey) bool { return k.module == m.String() })
}
