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

// Refreshing in bulk: a refresh finds its record in its parent's list,
// fetched once per parent per operation (Terraform configures the provider
// afresh for each) and shared by concurrent refreshes; every write under a
// parent drops the list, so nothing read after a write is older than it.

const bulkPageSize = 100 // the largest page the service serves

// sharedLists holds one list per parent key K; a list is shared, never changed.
type sharedLists[K comparable, V any] struct {
	mu    sync.Mutex
	lists map[K]*V
	// gens counts invalidations per key: a fetch keeps its list only if none happened since it began.
	gens  map[K]uint64
	group singleflight.Group
}

// get returns key's list, fetched once for every caller waiting on it.
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
		// A fetch may have ended since the look above: its list is no older than this caller's view.
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

// held returns key's list if already fetched, for a check worth no request.
func (c *sharedLists[K, V]) held(key K) (*V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.lists[key]
	return l, ok
}

func (c *sharedLists[K, V]) invalidate(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.lists, key)
	if c.gens == nil {
		c.gens = map[K]uint64{}
	}
	c.gens[key]++
}

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

// recordsByID is one parent's list by ID; parentMissing: its list was a 404 (gone.go).
// Offset paging can hide a record that moves pages, so over one page a missing record is only probably gone.
type recordsByID[T any] struct {
	parentMissing bool
	byID          map[string]T
	pages         int
}

func (l *recordsByID[T]) definite() bool { return l.parentMissing || l.pages <= 1 }

func (l *recordsByID[T]) lookup(id string) (T, bool) {
	v, ok := l.byID[id]
	return v, ok
}

// listAllPages reads every page (tfeclient.WalkPages); a 404 on the first marks the parent missing.
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
