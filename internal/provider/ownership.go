package provider

import (
	"sync"
)

// ownership: what this provider knows it made or adopted (DESIGN.md "Lost creates").
type ownership struct {
	received sync.Map // object ID → true: created or adopted by this provider
	locks    sync.Map // name → *sync.RWMutex: a pool's token creates share it, a lost answer's look-up holds it alone
}

func (o *ownership) lock(name string) *sync.RWMutex {
	l, _ := o.locks.LoadOrStore(name, &sync.RWMutex{})
	mu, _ := l.(*sync.RWMutex)
	return mu
}

func (o *ownership) receive(id string) { o.received.Store(id, true) }

func (o *ownership) wasReceived(id string) bool {
	_, ok := o.received.Load(id)
	return ok
}

// claim reports whether a create may adopt id: no answer named it, no create adopted it.
func (o *ownership) claim(id string) bool {
	_, taken := o.received.LoadOrStore(id, true)
	return !taken
}

// identityTakenError: a lost create's name or key found taken, refused as the 422 would be.
type identityTakenError struct{ conflict *conflictError }

func (e *identityTakenError) Error() string { return e.conflict.Error() }
func (e *identityTakenError) Unwrap() error { return e.conflict }
