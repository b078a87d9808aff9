package tfeclient

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
// is moved onto the service's clock with them (AmbiguousWriteError.Within).
//
// An answer sent at local time s and received at r was dated D during its
// processing, at some local p in [s, r], when the service's clock read
// p+offset; Date is that time cut to the second, so D <= p+offset < D+1s,
// and offset lies in (D-r, D+1s-s). The bounds come from one answer, not an
// intersection of many: a service whose clock is reset (or a sandbox
// shifted mid-test) must not leave an empty range behind.

// ServiceClock holds the bounds of the service's clock offset, from the
// latest answer with a Date header. The zero value knows nothing.
type ServiceClock struct {
	mu        sync.Mutex
	known     bool
	low, high time.Duration // offset = service time - local time, in (low, high)
}

// observe records the Date header of resp, sent at local time sent and
// received at received; an answer without a (valid) Date changes nothing.
func (c *ServiceClock) observe(resp *http.Response, sent, received time.Time) {
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
func (c *ServiceClock) offset() (low, high time.Duration, ok bool) {
	if c == nil {
		return 0, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.low, c.high, c.known
}

// ServiceClockMargin widens a window on the service's clock: the times of
// one service may come from several machines, whose clocks agree to well
// within a second.
const ServiceClockMargin = time.Second

// Now is the service's time as well as the bounds tell it (their middle),
// the local time before any answer.
func (c *ServiceClock) Now() time.Time {
	low, high, ok := c.offset()
	if !ok {
		return time.Now()
	}
	return time.Now().Add(low + (high-low)/2)
}

// Within reports whether t (the service's creation time of an object) lies
// in the request's window on the service's clock: the local window moved by
// the bounds of the clocks' offset (service_clock.go), widened by
// ServiceClockMargin. With no Date header ever seen there is no window:
// every t is in it, so that a candidate is named rather than missed. The
// window only narrows the candidates a warning names; it never proves an
// object ours.
func (e *AmbiguousWriteError) Within(t time.Time) bool {
	if !e.OffsetKnown {
		return true
	}
	return !t.Before(e.Start.Add(e.OffsetLow-ServiceClockMargin)) && !t.After(e.End.Add(e.OffsetHigh+ServiceClockMargin))
}
