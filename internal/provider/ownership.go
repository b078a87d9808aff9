package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/sync/singleflight"
)

// Never touch what you did not make.
//
// After a create whose answer was lost (reconcile.go), the provider may
// adopt an object only when this resource instance provably made it: the
// same configuration against the same service state must end the same way
// with or without a transient fault. Where the API gives no creation time
// (team access, policies), "made by this create" is proved by elimination:
//
//   - pre-write snapshot: before this provider's first create under a
//     parent (a workspace's grants, an organization's policies, a module's
//     test variables), it lists the parent's objects once, or reuses the
//     shared refresh list (bulk_lists.go) when it holds one. Concurrent
//     creates under the parent wait for the same list (singleflight), and
//     the snapshot is kept for the rest of the operation: the provider's
//     own writes never replace it. A look-up after an ambiguous create
//     refuses every object in the snapshot: it existed before the create
//     was sent, so the create cannot have made it, and the resource fails
//     with the import error it gets without a fault. The snapshot costs
//     ceil(M/100) list requests per parent per operation (M objects), not
//     per resource, and none when the refresh list is held.
//   - received: the IDs of every object whose create answer this provider
//     received. Such an object belongs to another resource of the same
//     apply (a sibling of `count` or `for_each`, or a duplicate
//     declaration) and is never adopted.
//
// What neither rule can tell apart, and is therefore refused too (with
// the import error): an object that someone else made under the same
// identity after the snapshot and before the look-up, while it matches
// what was sent. The provider cannot prove it made such an object, and
// importing it is the user's decision.
type ownership struct {
	mu        sync.Mutex
	snapshots map[string]map[string]bool
	group     singleflight.Group
	received  sync.Map // object ID → true
	locks     sync.Map // name → *sync.RWMutex
}

// lock returns the read-write lock called name (made on first use): agent
// token creates of a pool hold it shared while their request is in
// flight, and a look-up after a lost answer holds it alone, so that every
// other create of the pool has recorded what it received.
func (o *ownership) lock(name string) *sync.RWMutex {
	l, _ := o.locks.LoadOrStore(name, &sync.RWMutex{})
	mu, _ := l.(*sync.RWMutex)
	return mu
}

// snapshot makes sure the pre-write snapshot of parent key exists,
// fetching it with list when it does not (once for every create waiting
// on it). It must be called before the create's first request. A failed
// list is logged and leaves no snapshot: a look-up after an ambiguous
// create then adopts nothing (hasSnapshot is false).
func (o *ownership) snapshot(ctx context.Context, key string, list func(context.Context) (map[string]bool, error)) {
	o.mu.Lock()
	_, ok := o.snapshots[key]
	o.mu.Unlock()
	if ok {
		return
	}
	_, err, _ := o.group.Do(key, func() (any, error) {
		o.mu.Lock()
		_, ok := o.snapshots[key]
		o.mu.Unlock()
		if ok {
			return nil, nil
		}
		ids, err := list(ctx)
		if err != nil {
			return nil, err
		}
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.snapshots == nil {
			o.snapshots = map[string]map[string]bool{}
		}
		o.snapshots[key] = ids
		tflog.Debug(ctx, "Took the pre-write snapshot", map[string]any{"parent": key, "count": len(ids)})
		return nil, nil
	})
	if err != nil {
		tflog.Warn(ctx, "Could not take the pre-write snapshot: an ambiguous create under this parent will adopt nothing", map[string]any{"parent": key, "error": err.Error()})
	}
}

// existedBefore reports whether id was in the pre-write snapshot of parent
// key, and whether that snapshot exists at all.
func (o *ownership) existedBefore(key, id string) (existed, hasSnapshot bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ids, ok := o.snapshots[key]
	return ids[id], ok
}

// receive records the ID of an object whose create answer arrived.
func (o *ownership) receive(id string) { o.received.Store(id, true) }

// wasReceived reports whether a create answer of this provider named id.
func (o *ownership) wasReceived(id string) bool {
	_, ok := o.received.Load(id)
	return ok
}

// idsOf returns the IDs of a list's records (none for a missing parent).
func idsOf[T any](l *recordsByID[T]) map[string]bool {
	ids := make(map[string]bool, len(l.byID))
	for id := range l.byID {
		ids[id] = true
	}
	return ids
}

// Snapshot keys of each parent kind.
func teamAccessSnapshotKey(workspaceID string) string { return "team-workspaces " + workspaceID }
func policySnapshotKey(org string) string             { return "policies " + org }
func testVariableSnapshotKey(mod moduleRef) string    { return "vars " + mod.String() }

// snapshotTeamAccess takes the pre-write snapshot of a workspace's grants:
// the shared refresh list (fetched now when not held).
func (d *providerData) snapshotTeamAccess(ctx context.Context, workspaceID string) {
	d.owned.snapshot(ctx, teamAccessSnapshotKey(workspaceID), func(ctx context.Context) (map[string]bool, error) {
		l, err := d.workspaceTeamAccess(ctx, workspaceID)
		if err != nil {
			return nil, err
		}
		return idsOf(l), nil
	})
}

// snapshotPolicies takes the pre-write snapshot of an organization's
// policies: the shared refresh list (fetched now when not held).
func (d *providerData) snapshotPolicies(ctx context.Context, org string) {
	d.owned.snapshot(ctx, policySnapshotKey(org), func(ctx context.Context) (map[string]bool, error) {
		l, err := d.organizationPolicies(ctx, org)
		if err != nil {
			return nil, err
		}
		return idsOf(l), nil
	})
}

// snapshotTestVariables takes the pre-write snapshot of a module's test
// variables: the shared refresh list (fetched now when not held).
func (d *providerData) snapshotTestVariables(ctx context.Context, mod moduleRef) {
	d.owned.snapshot(ctx, testVariableSnapshotKey(mod), func(ctx context.Context) (map[string]bool, error) {
		l, err := d.moduleTestVariables(ctx, mod)
		if err != nil {
			return nil, err
		}
		ids := make(map[string]bool, len(l.byID))
		for id := range l.byID {
			ids[id] = true
		}
		return ids, nil
	})
}

// existedBeforeError is a lost create's identity (a name, a key) found on
// an object that existed before the create was sent: the resource fails
// with the same "already exists" error, naming the attribute, that the
// create's own 422 gets without a fault. It is a refusal to adopt (a
// *conflictError) for reconcileCreate.
type existedBeforeError struct{ conflict *conflictError }

func (e *existedBeforeError) Error() string { return e.conflict.Error() }
func (e *existedBeforeError) Unwrap() error { return e.conflict }
