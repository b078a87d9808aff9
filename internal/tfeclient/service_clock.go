package tfeclient

import (
	"net/http"
	"sync"
	"time"
)

// ServiceClock bounds the service clock's offset (DESIGN.md "The service's clock"); zero: unknown.
type ServiceClock struct {
	mu        sync.Mutex
	known     bool
	low, high time.Duration // offset = service time - local time, in (low, high)
}

// observe takes the bounds from resp's Date; an answer without one changes nothing.
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

func (c *ServiceClock) offset() (low, high time.Duration, ok bool) {
	if c == nil {
		return 0, 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.low, c.high, c.known
}

// ServiceClockMargin widens a window: one service's times may come from several machines.
const ServiceClockMargin = time.Second

// Now is the service's time, the bounds' middle (the local time before any answer).
func (c *ServiceClock) Now() time.Time {
	low, high, ok := c.offset()
	if !ok {
		return time.Now()
	}
	return time.Now().Add(low + (high-low)/2)
}

// Within reports whether t, on the service's clock, is in the request's window (every t with
// no Date seen). It narrows the candidates a warning names; it never proves an object ours.
func (e *AmbiguousWriteError) Within(t time.Time) bool {
	if !e.OffsetKnown {
		return true
	}
	return !t.Before(e.Start.Add(e.OffsetLow-ServiceClockMargin)) && !t.After(e.End.Add(e.OffsetHigh+ServiceClockMargin))
}
