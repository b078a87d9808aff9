package sandbox

import (
	"fmt"
	"sync/atomic"
	"time"
)

// Run-time switches for tests that steer a client by what the service
// sees: the latency of every request, and a hook called as each request
// arrives (evidence, not a timer, of how far a client has gone).

// requestHooks holds the latency in force and the request hook.
type requestHooks struct {
	latency   atomic.Int64 // a time.Duration
	onRequest atomic.Pointer[func(route string)]
}

// SetLatency changes the delay of every later request (API and upload
// listener, not the /_sandbox/ admin endpoints), Options.Latency at start.
func (s *Server) SetLatency(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("latency must not be negative, got %s", d)
	}
	s.hooks.latency.Store(int64(d))
	return nil
}

// Latency returns the delay of every request now.
func (s *Server) Latency() time.Duration { return time.Duration(s.hooks.latency.Load()) }

// OnRequest calls f as each API or upload request arrives (after its
// latency, before it is processed), with the route it is counted under in
// Stats ("POST /api/v2/organizations/{org}/policies", "PUT {upload_url}",
// "GET /api/v2/ping", "unmatched"); nil removes it. f runs on the
// request's goroutine and must return quickly. A test uses it to act once
// a client has sent its k-th request, such as interrupting Terraform.
func (s *Server) OnRequest(f func(route string)) {
	if f == nil {
		s.hooks.onRequest.Store(nil)
		return
	}
	s.hooks.onRequest.Store(&f)
}

// requestArrived calls the request hook, if any.
func (s *Server) requestArrived(route string) {
	if f := s.hooks.onRequest.Load(); f != nil {
		(*f)(route)
	}
}
