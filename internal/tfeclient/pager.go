package tfeclient

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
)

// The one pager: every paginated list of the API is read through
// WalkPages (or ListAll, which collects every page), with one stop
// condition (LastPage).

// ListAll returns the items of every page of a list, in order. fetch
// fetches page number page (1 first): its items and the answer's
// pagination (nil for an answer without one).
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

// WalkPages fetches the pages of a list in order and hands each page's
// items to visit, until the last page or until visit returns true (found:
// stop). It returns the number of pages fetched.
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

// LastPage reports whether page n, with count items and pagination p, is
// the last page of its list: no pagination, no next page, a next page that
// is not after this one (a server that repeats or goes back), n at or past
// the total page count the server gave, or an empty page. The pager reads
// pages n = 1, 2, 3... itself and never jumps to the number a server names,
// so no answer can make it loop or skip.
func LastPage(n int, p *tfe.Pagination, count int) bool {
	return p == nil || p.NextPage <= n || (p.TotalPages > 0 && n >= p.TotalPages) || count == 0
}
