package provider

import (
	"sync"
)

// Never touch what you did not make.
//
// After a create whose answer was lost (reconcile.go), the provider may
// adopt an object only on proof that this resource instance's create made
// it, proof that covers the whole time between the provider's last look at
// the service and the create. What the API offers, type by type:
//
//   - Identity alone proves nothing. Policies (a name per organization),
//     team access (a team per workspace) and test variables (a key per
//     module) are unique by identity, so after a lost answer the service
//     holds at most one object with it; but whether this create made it,
//     or someone else did (before the apply, or in the moment between any
//     look-up and the create, after which this create was refused as a
//     duplicate), leaves no trace the API shows.
//   - Equal attributes prove nothing: a person creating what the
//     configuration declares sends the same ones.
//   - A look-up before the create proves nothing about the gap between it
//     and the create, however short: issue 18's pre-write snapshot (a list
//     per parent per apply) is gone for that reason. It cost a request per
//     parent and still adopted a person's object made after it.
//   - Creation times prove nothing either. created-at (test variables,
//     agent tokens, test runs; policies and grants have none) comes from
//     the service's clock, the request's window from the provider's, and
//     even with one clock an object made by someone else inside the window
//     has a created-at inside it too. A window narrows a list of
//     candidates for a warning; it never makes an object ours.
//   - A marker only this create could have set proves it. None of these
//     APIs has a field for one that costs nothing: a nonce in a policy's or
//     a variable's description would have to be replaced by the configured
//     description with a second request on every create (doubling the
//     create's cost to save an error that needs a lost answer), and would
//     move the policy's updated-at, which the code tracking relies on.
//     Test runs have one for free: a configuration version this create made
//     and uploaded itself, whose ID only this create's answer carried.
//
// So: a test run on the create's own configuration version is adopted;
// anything else found after a lost answer is refused, and the create fails
// exactly as it does when the service refuses a duplicate, with the
// "already exists" error and the object's import block (following it
// converges). Agent tokens are never adopted (their secret was in the lost
// answer) and never revoked; they are named in a warning.
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
