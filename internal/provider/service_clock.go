package provider

import (
	"net/http"
	"sync"
	"time"
)

// The service's clock.
//
// Times the service stores (an agent token's created-at) are on its clock,
// which may be seconds or minutes off the clock of the machine running
// Terraform; a request's window is measured on the latter. Every answer
// carries the service's time in its Date header (HTTP requires it of a
// server with a clock), so the transport keeps, from the latest answer, the
// bounds of the offset between the two clocks, and a lost write's window
// is moved onto the service's clock with them (ambiguousWriteError.within).
//
// An answer sent at local time s and received at r was dated D during its
// processing, at some local p in [s, r], when the service's clock read
// p+offset; Date is that time cut to the second, so D <= p+offset < D+1s,
// and offset lies in (D-r, D+1s-s). The bounds come from one answer, not an
// intersection of many: a service whose clock is reset (or a sandbox
// shifted mid-test) must not leave an empty range behind.

// serviceClock holds the bounds of the service's clock offset, from the
// latest answer with a Date header. The zero value knows nothing.
type serviceClock struct {
	mu        sync.Mutex
	known     bool
	low, high time.Duration // offset = service time - local time, in (low, high)
}

// observe records the Date header of resp, sent at local time sent and
// received at received; an answer without a (valid) Date changes nothing.
func (c *serviceClock) observe(resp *http.Response, sent, received time.Time) {
	if c == nil || resp == nil {
		return
	}
	d, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.known = true
	c.low, c.high = d.Sub(received), d.Add(time.Second).Sub(sent)
}

// offset returns the bounds of the offset, and whether any answer gave
// them.
func (c *serviceClock) offset() (low, high time.Duration, ok bool) {
	if c == nil {
		return 0, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.low, c.high, c.known
}

// serviceClockMargin widens a window on the service's clock: the times of
// one service may come from several machines, whose clocks agree to well
// within a second.
const serviceClockMargin = time.Second

// now is the service's time as well as the bounds tell it (their middle),
// the local time before any answer.
func (c *serviceClock) now() time.Time {
	low, high, ok := c.offset()
	if !ok {
		return time.Now()
	}
	return time.Now().Add(low + (high-low)/2)
}
