package provider

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	tfe "github.com/hashicorp/go-tfe"

	"golang.org/x/sync/singleflight"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Refreshing in bulk.
//
// The API reads most records by ID, but a configuration often holds many
// records under one parent (the tokens of an agent pool, the grants of a
// workspace, the policies of an organization, the test variables of a
// module), and Terraform refreshes each resource on its own: reading them
// one by one costs one request per resource on every plan. Instead a
// refresh looks its record up in its parent's list, which a sharedLists
// fetches once and shares:
//
//   - one list per parent per configured provider. Terraform configures
//     the provider afresh for every operation (the plan, the apply), so a
//     list never outlives the operation that fetched it;
//   - concurrent refreshes under one parent wait for the same request
//     (singleflight) instead of each sending their own;
//   - every create, update and delete under a parent drops its list
//     (invalidate), and a list fetched while such a write was under way is
//     not kept, so nothing read after a write is older than the write.
//
// A record missing from a fresh list whose reading needs the permission to
// see every such record was deleted outside Terraform, and leaves state; a
// 404 on the list is not "gone" (DESIGN.md, "Gone or cannot see").
// Lists are fetched 100 records a page, the largest page the service serves.

// bulkPageSize is the page size of every list the provider reads.
const bulkPageSize = 100

// sharedLists holds the lists of one configured provider, one V per parent
// key K. A list is shared between goroutines: read it, never change it.
// The zero value is ready to use.
type sharedLists[K comparable, V any] struct {
	mu    sync.Mutex
	lists map[K]*V
	// gens counts the invalidations of each parent: a fetch keeps its list
	// only if no invalidation happened since it started, and fetches of
	// different generations never share a request.
	gens  map[K]uint64
	group singleflight.Group
}

// get returns the list of parent key, fetching it when it is not held. An
// error is returned to every caller waiting for that fetch, and not kept.
func (c *sharedLists[K, V]) get(ctx context.Context, key K, fetch func(context.Context) (*V, error)) (*V, error) {
	c.mu.Lock()
	if l, ok := c.lists[key]; ok {
		c.mu.Unlock()
		return l, nil
	}
	gen, ok := c.gens[key]
	if !ok { // so that invalidateWhere sees a key being fetched
		if c.gens == nil {
			c.gens = map[K]uint64{}
		}
		c.gens[key] = 0
	}
	c.mu.Unlock()
	v, err, _ := c.group.Do(fmt.Sprint(key)+"#"+strconv.FormatUint(gen, 10), func() (any, error) {
		// A fetch of this key may have ended between the look above and
		// this call: its list is kept, so use it (a list kept now is never
		// older than the invalidations this caller has seen).
		c.mu.Lock()
		if l, ok := c.lists[key]; ok {
			c.mu.Unlock()
			return l, nil
		}
		c.mu.Unlock()
		l, err := fetch(ctx)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.gens[key] == gen {
			if c.lists == nil {
				c.lists = map[K]*V{}
			}
			c.lists[key] = l
		}
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	l, ok := v.(*V)
	if !ok {
		return nil, fmt.Errorf("internal error: shared list holds %T, want %T", v, l)
	}
	return l, nil
}

// held returns the list of parent key when a fetch of this operation
// already holds it, without fetching: for a check worth no request of its
// own (tfgov_team_access's plan).
func (c *sharedLists[K, V]) held(key K) (*V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.lists[key]
	return l, ok
}

// invalidate drops the list of parent key, and any list of it being
// fetched right now.
func (c *sharedLists[K, V]) invalidate(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.lists, key)
	if c.gens == nil {
		c.gens = map[K]uint64{}
	}
	c.gens[key]++
}

// invalidateWhere drops the lists of every parent key for which match is
// true, held or being fetched.
func (c *sharedLists[K, V]) invalidateWhere(match func(K) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key := range c.gens {
		if match(key) {
			delete(c.lists, key)
			c.gens[key]++
		}
	}
}

// recordsByID is the list of one parent, indexed by record ID.
// parentMissing is set when listing the parent was a 404: the parent is
// gone, or the token may not see it or its records (gone.go says which).
//
// pages counts the pages the list took. With offset paging, a record
// deleted from an earlier page while a later one is fetched moves a record
// of the later page onto the earlier one, unseen: so a record missing from
// a list of more than one page is only probably gone, and the caller makes
// sure with a read by ID (definite reports whether that is needed).
type recordsByID[T any] struct {
	parentMissing bool
	byID          map[string]T
	pages         int
}

// definite reports whether a record missing from the list is surely gone:
// the list was one consistent answer.
func (l *recordsByID[T]) definite() bool { return l.parentMissing || l.pages <= 1 }

// lookup returns the record with id, and whether it exists.
func (l *recordsByID[T]) lookup(id string) (T, bool) {
	v, ok := l.byID[id]
	return v, ok
}

// listAllPages collects every page of a paginated list into recordsByID,
// through the pager (tfeclient.WalkPages). A 404 on the first page marks the parent
// missing.
func listAllPages[T any](ctx context.Context, id func(T) string, fetch func(ctx context.Context, page int) ([]T, *tfe.Pagination, error)) (*recordsByID[T], error) {
	l := &recordsByID[T]{byID: map[string]T{}}
	pages, err := tfeclient.WalkPages(ctx, fetch, func(items []T) bool {
		for _, it := range items {
			l.byID[id(it)] = it
		}
		return false
	})
	if isNotFound(err) && pages == 0 {
		return &recordsByID[T]{parentMissing: true}, nil
	}
	if err != nil {
		return nil, err
	}
	l.pages = pages
	return l, nil
}
