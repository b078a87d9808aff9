package provider

import (
	"sync"
)

// Never touch what you did not make: what the API can prove about who
// made an object, type by type, is in DESIGN.md, "Lost creates".
//
// ownership records what this provider knows for sure: the IDs of every
// object whose create answer it received (a sibling's object is never
// adopted, and is never named as an orphan), the objects it adopted (one
// object is adopted by at most one resource instance: claim), and locks
// that order agent token creates with the look-ups after their lost
// answers.
type ownership struct {
	received sync.Map // object ID → true: created or adopted by this provider
	locks    sync.Map // name → *sync.RWMutex
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

// receive records the ID of an object whose create answer arrived.
func (o *ownership) receive(id string) { o.received.Store(id, true) }

// wasReceived reports whether a create answer of this provider named id,
// or a create of this provider adopted it.
func (o *ownership) wasReceived(id string) bool {
	_, ok := o.received.Load(id)
	return ok
}

// claim records that a create adopts id, and reports whether it may: false
// when a create answer named it or another create adopted it already.
func (o *ownership) claim(id string) bool {
	_, taken := o.received.LoadOrStore(id, true)
	return !taken
}

// identityTakenError is a lost create's identity (a name, a key) found on
// an object after the answer was lost: the resource fails with the same
// "already exists" error, naming the attribute, that the create's own 422
// gets without a fault. It is a refusal to adopt (a *conflictError) for
// reconcileCreate.
type identityTakenError struct{ conflict *conflictError }

func (e *identityTakenError) Error() string { return e.conflict.Error() }
func (e *identityTakenError) Unwrap() error { return e.conflict }
