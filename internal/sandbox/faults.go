package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Fault makes the sandbox answer some requests with an error status instead
// of serving them, so tests can see what the reference lists but a healthy
// server never sends (the 500 and 503 of module deprecation, say). It is a
// test switch, not part of the emulated API: it applies to routes registered
// with route (every /api/v2 endpoint except ping), after authentication, so
// a request without a valid token still gets 401. By default the request is
// not processed and nothing changes; with After or Drop it is processed (the
// change is made and persisted) and only its answer is lost, as when a
// timeout or a proxy eats the answer of a POST that the service acted on.
// Each matching request is counted in Stats as usual.
type Fault struct {
	// Route is a route pattern exactly as registered and as Stats counts it,
	// such as "PATCH /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}".
	Route string `json:"route,omitempty"`
	// Method and Path, when set, narrow the fault to requests with that
	// method and that exact (unescaped) URL path, such as
	// "/api/v2/organizations/acme/registry-modules/private/acme/net/aws/1.0.0",
	// so that tests sharing one sandbox do not see each other's faults.
	// At least one of Route and Path is required.
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	// Status is the HTTP status to answer, 400 to 599. Not used with Drop.
	Status int `json:"status,omitempty"`
	// After processes the request, then answers Status instead of the
	// handler's answer.
	After bool `json:"after,omitempty"`
	// Drop processes the request, then drops the connection with no
	// answer at all (the client sees a transport error such as EOF).
	Drop bool `json:"drop,omitempty"`
	// Count is how many matching requests get the fault, at least 1; the
	// fault is dropped once they have been answered.
	Count int `json:"count"`
	// Detail is the error object's detail; a default naming the fault is
	// used when empty.
	Detail string `json:"detail,omitempty"`
}

func (f Fault) validate() error {
	var errs []error
	if f.Route == "" && f.Path == "" {
		errs = append(errs, errors.New("route or path is required"))
	}
	if f.Path != "" && !strings.HasPrefix(f.Path, "/") {
		errs = append(errs, fmt.Errorf("path must start with /, got %q", f.Path))
	}
	if f.After && f.Drop {
		errs = append(errs, errors.New("after and drop exclude each other"))
	}
	if (!f.Drop || f.Status != 0) && (f.Status < 400 || f.Status > 599) {
		errs = append(errs, fmt.Errorf("status must be between 400 and 599, got %d", f.Status))
	}
	if f.Count < 1 {
		errs = append(errs, fmt.Errorf("count must be at least 1, got %d", f.Count))
	}
	return errors.Join(errs...)
}

func (f Fault) matches(pattern string, r *http.Request) bool {
	return (f.Route == "" || f.Route == pattern) &&
		(f.Method == "" || strings.EqualFold(f.Method, r.Method)) &&
		(f.Path == "" || f.Path == r.URL.Path)
}

// InjectFault adds a fault. Faults are checked in the order they were
// added; the first that matches a request answers it.
func (s *Server) InjectFault(f Fault) error {
	if err := f.validate(); err != nil {
		return fmt.Errorf("invalid fault: %w", err)
	}
	s.faultsMu.Lock()
	s.faults = append(s.faults, &f)
	s.faultsMu.Unlock()
	return nil
}

// Faults returns the faults still pending, with the count each has left.
func (s *Server) Faults() []Fault {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()
	out := make([]Fault, 0, len(s.faults))
	for _, f := range s.faults {
		out = append(out, *f)
	}
	return out
}

// ClearFaults drops every pending fault.
func (s *Server) ClearFaults() {
	s.faultsMu.Lock()
	s.faults = nil
	s.faultsMu.Unlock()
}

// takeFault returns the first fault matching the request, with the error it
// answers, and uses up one of its answers; nil when no fault matches.
func (s *Server) takeFault(pattern string, r *http.Request) (*Fault, *apiError) {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()
	for i, f := range s.faults {
		if !f.matches(pattern, r) {
			continue
		}
		f.Count--
		if f.Count == 0 {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
		}
		detail := f.Detail
		if detail == "" {
			detail = "fault injected by the sandbox"
		}
		taken := *f
		return &taken, &apiError{Status: f.Status, Title: strings.ToLower(http.StatusText(f.Status)), Detail: detail}
	}
	return nil, nil
}

// writeFault writes a fault's error. A 429 carries X-RateLimit-Reset, which
// go-tfe reads to back off (and would fail on if it were missing or
// malformed).
func writeFault(w http.ResponseWriter, e *apiError) {
	if e.Status == http.StatusTooManyRequests {
		w.Header().Set("X-RateLimit-Reset", "0.2")
	}
	writeError(w, e)
}

// createFault serves POST /_sandbox/faults (admin token only): the body is
// a Fault as JSON. 201 echoes it; 400 names what is wrong.
func (s *Server) createFault(w http.ResponseWriter, r *http.Request) {
	var f Fault
	dec := json.NewDecoder(io.LimitReader(r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		http.Error(w, "the body must be a fault object: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.InjectFault(f); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(f)
}

// listFaults serves GET /_sandbox/faults: the pending faults.
func (s *Server) listFaults(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"faults": s.Faults()})
}

// clearFaults serves DELETE /_sandbox/faults.
func (s *Server) clearFaults(w http.ResponseWriter, _ *http.Request) {
	s.ClearFaults()
	w.WriteHeader(http.StatusNoContent)
}

// registerFaultRoutes registers POST, GET and DELETE /_sandbox/faults.
func (s *Server) registerFaultRoutes() {
	s.mux.HandleFunc("POST /_sandbox/faults", s.adminOnly(s.createFault))
	s.mux.HandleFunc("GET /_sandbox/faults", s.adminOnly(s.listFaults))
	s.mux.HandleFunc("DELETE /_sandbox/faults", s.adminOnly(s.clearFaults))
}
