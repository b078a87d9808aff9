package tfeclient

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
)

// ListAll returns the items of every page, in order; fetch reads page number page (1 first).
func ListAll[T any](ctx context.Context, fetch func(ctx context.Context, page int) ([]T, *tfe.Pagination, error)) ([]T, error) {
	var all []T
	_, err := WalkPages(ctx, fetch, func(items []T) bool {
		all = append(all, items...)
		return false
	})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// WalkPages hands each page to visit until the last or visit returns true; it returns pages read.
func WalkPages[T any](ctx context.Context, fetch func(ctx context.Context, page int) ([]T, *tfe.Pagination, error), visit func([]T) bool) (int, error) {
	for n := 1; ; n++ {
		items, p, err := fetch(ctx, n)
		if err != nil {
			return n - 1, err
		}
		if visit(items) || LastPage(n, p, len(items)) {
			return n, nil
		}
	}
}

// LastPage is the pager's one stop condition (DESIGN.md "The pager").
func LastPage(n int, p *tfe.Pagination, count int) bool {
	return p == nil || p.NextPage <= n || (p.TotalPages > 0 && n >= p.TotalPages) || count == 0
}
