package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// The sandbox's clock. The real service's clock is not the machine's that
// runs Terraform: it may be seconds ahead or behind. Every time the sandbox
// stores (created-at, updated-at, last-used-at) and the Date header of
// every answer come from one clock, the machine's shifted by ClockOffset,
// so that a client comparing its own clock with the service's times can be
// tried against a service whose clock is off (--clock-offset 10s).

// serviceClock is the offset of the sandbox's clock from the machine's.
// It is a pointer held by the state, so that the store's methods read it
// without the Server.
type serviceClock struct{ offset atomic.Int64 }

// now is the sandbox's time, truncated to the millisecond precision that
// the API's timestamps carry, so a value read back equals the value stored.
func (st *state) now() time.Time {
	var off time.Duration
	if st.clock != nil {
		off = time.Duration(st.clock.offset.Load())
	}
	return time.Now().Add(off).UTC().Truncate(time.Millisecond)
}

// SetClockOffset shifts the sandbox's clock by d from the machine's (ahead
// when positive) from now on (Options.ClockOffset at start): the times it
// stores and the Date header of its answers.
func (s *Server) SetClockOffset(d time.Duration) {
	s.st.clock.offset.Store(int64(d))
}

// ClockOffset returns the offset of the sandbox's clock now.
func (s *Server) ClockOffset() time.Duration {
	return time.Duration(s.st.clock.offset.Load())
}

// clockOffsetSwitch is the body of /_sandbox/clock-offset: a Go duration
// such as "10s" or "-1m30s".
type clockOffsetSwitch struct {
	Offset string `json:"offset"`
}

// putClockOffset serves PUT /_sandbox/clock-offset (admin token only):
// the body is {"offset": "<duration>"}; 200 echoes the offset in force,
// 400 names what is wrong.
func (s *Server) putClockOffset(w http.ResponseWriter, r *http.Request) {
	var b clockOffsetSwitch
	dec := json.NewDecoder(io.LimitReader(r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		http.Error(w, "the body must be {\"offset\": \"<duration such as 10s or -10s>\"}: "+err.Error(), http.StatusBadRequest)
		return
	}
	d, err := time.ParseDuration(b.Offset)
	if err != nil {
		http.Error(w, fmt.Sprintf("offset %q is not a duration such as 10s or -1m30s", b.Offset), http.StatusBadRequest)
		return
	}
	s.SetClockOffset(d)
	s.getClockOffset(w, r)
}

// getClockOffset serves GET /_sandbox/clock-offset.
func (s *Server) getClockOffset(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(clockOffsetSwitch{Offset: s.ClockOffset().String()})
}

// registerClockOffsetRoutes registers PUT and GET /_sandbox/clock-offset.
func (s *Server) registerClockOffsetRoutes() {
	s.mux.HandleFunc("PUT /_sandbox/clock-offset", s.adminOnly(s.putClockOffset))
	s.mux.HandleFunc("GET /_sandbox/clock-offset", s.adminOnly(s.getClockOffset))
}
