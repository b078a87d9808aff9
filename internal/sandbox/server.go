// Package sandbox is a local, faithful emulator of the API described in
// shared/api-reference.md, built so that the unmodified go-tfe client works
// against it. Acceptance tests and the quickstart run against it when no live
// endpoint is configured.
//
// One file serves each section of the reference (agent_tokens.go, ...),
// and one file each area of supporting endpoints that the reference names
// but does not document (organizations.go, teams.go, workspaces.go, ...),
// shaped as go-tfe expects them. Where the reference says "not shown", the handler's
// doc comment records what the sandbox does and why.
package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Options configure a Server.
type Options struct {
	// Token is the admin token, a site-admin credential for bootstrapping
	// organizations. A random one is generated when empty.
	Token string
	// DataFile, when set, persists the whole state: it is loaded at start
	// and rewritten atomically after every successful change.
	DataFile string
	// UploadListen is the address of the second listener that serves
	// one-time upload URLs (the reference says they are on another host).
	// Defaults to 127.0.0.1 on a free port.
	UploadListen string
	// Logger receives one line per request; nil discards them.
	Logger *log.Logger
	// RateLimit is the X-RateLimit-Limit the ping advertises. go-tfe paces
	// itself to two thirds of it (the real service sends 30, so 20 requests
	// a second). Zero sends no header, and go-tfe does not pace itself: what
	// in-process tests use, since the sandbox enforces no limit.
	RateLimit int
	// TestRunWorkers is how many module test runs execute at once; more
	// wait in the queue. Zero means 2.
	TestRunWorkers int
	// Terraform is the Terraform CLI that module test runs execute: a path,
	// or a name looked up on PATH when a run starts. Empty means
	// "terraform".
	Terraform string
}

// Server is the sandbox: an http.Handler for the API plus the upload
// listener. All state lives behind mu; handlers registered with route run
// with it held (shared for GET, exclusive otherwise), so they need no
// locking of their own.
type Server struct {
	opts       Options
	adminToken string
	logger     *log.Logger

	mu sync.RWMutex
	st *state

	mux     *http.ServeMux
	uploads *uploadServer
	engine  *testEngine

	statsMu   sync.Mutex
	stats     map[string]int // by route pattern
	pathStats map[string]int // by "METHOD /actual/path"

	faultsMu sync.Mutex
	faults   []*Fault
}

// handlerFunc is the shape of every API handler: it either writes a
// response or returns an error for the wrapper to write.
type handlerFunc func(w http.ResponseWriter, r *http.Request, p principal) *apiError

// New builds a Server and starts its upload listener. Close releases it.
func New(opts Options) (*Server, error) {
	if opts.RateLimit != 0 && opts.RateLimit <= 3 {
		return nil, fmt.Errorf("rate limit %d would stop go-tfe clients: use 0 (none) or more than 3", opts.RateLimit)
	}
	s := &Server{opts: opts, adminToken: opts.Token, logger: opts.Logger, stats: map[string]int{}, pathStats: map[string]int{}}
	if s.adminToken == "" {
		s.adminToken = "sandbox." + randomString(32)
	}
	if s.logger == nil {
		s.logger = log.New(io.Discard, "", 0)
	}
	st := newState()
	if opts.DataFile != "" {
		var err error
		if st, err = loadSnapshot(opts.DataFile); err != nil {
			return nil, err
		}
	}
	s.st = st
	if s.st.AdminUserID == "" || s.st.Users[s.st.AdminUserID] == nil {
		admin := &user{record: s.st.newRecord("user-"), Username: "admin", Email: "admin@sandbox.invalid", SiteAdmin: true}
		s.st.Users[admin.ID] = admin
		s.st.AdminUserID = admin.ID
	}
	uploads, err := newUploadServer(s, opts.UploadListen)
	if err != nil {
		return nil, err
	}
	s.uploads = uploads
	s.engine = newTestEngine(s, opts.TestRunWorkers, opts.Terraform)
	s.mu.Lock()
	s.engine.resume(s.st)
	s.persistLocked()
	s.mu.Unlock()
	s.mux = http.NewServeMux()
	s.routes()
	return s, nil
}

// AdminToken is the admin token the server accepts.
func (s *Server) AdminToken() string { return s.adminToken }

// Close stops the test engine (killing the test runs in progress, which
// end errored, and waiting for it) and the upload listener.
func (s *Server) Close() error {
	s.engine.close()
	return s.uploads.close()
}

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	s.mux.ServeHTTP(rec, r)
	s.logger.Printf("%s %s %d %s", r.Method, r.URL.RequestURI(), rec.status, time.Since(start).Round(time.Microsecond))
}

// routes registers every endpoint. Each section of the reference has one
// register function in its own file.
func (s *Server) routes() {
	s.mux.HandleFunc("GET /api/v2/ping", s.ping)
	s.mux.HandleFunc("GET /_sandbox/stats", s.adminOnly(s.getStats))
	s.mux.HandleFunc("DELETE /_sandbox/stats", s.adminOnly(s.resetStats))
	s.mux.HandleFunc("POST /_sandbox/faults", s.adminOnly(s.createFault))
	s.mux.HandleFunc("GET /_sandbox/faults", s.adminOnly(s.listFaults))
	s.mux.HandleFunc("DELETE /_sandbox/faults", s.adminOnly(s.clearFaults))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// Unknown routes answer 404, never 405 or 501: go-tfe retries 5xx.
		s.count("unmatched")
		writeError(w, errNotFound())
	})
	s.registerOrganizations()
	s.registerUserTokens()
	s.registerMemberships()
	s.registerTeams()
	s.registerTeamTokens()
	s.registerOrganizationTokens()
	s.registerWorkspaces()
	s.registerAgentPools()
	s.registerRegistryModules()
	s.registerPolicySets()
	s.registerOAuthClients()
	s.registerAgentTokens()
	s.registerModuleDeprecation()
	s.registerTeamAccess()
	s.registerPolicies()
	s.registerModuleTestRuns()
	s.registerModuleTestVars()
}

// route registers an authenticated API handler. The wrapper counts the
// request under its pattern, answers 401 without a valid token, answers an
// injected Fault when one matches, takes the state lock and, after a
// successful change, writes the snapshot.
func (s *Server) route(pattern string, h handlerFunc) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		s.count(pattern)
		s.countPath(r)
		write := r.Method != http.MethodGet && r.Method != http.MethodHead
		if write {
			s.mu.Lock()
			defer s.mu.Unlock()
		} else {
			s.mu.RLock()
			defer s.mu.RUnlock()
		}
		p, ok := s.authenticate(r)
		if !ok {
			// The reference leaves the failed-authentication status "not
			// shown"; the real service answers 401, which go-tfe maps to
			// ErrUnauthorized.
			writeError(w, &apiError{Status: http.StatusUnauthorized, Title: "unauthorized", Detail: "a valid bearer token is required"})
			return
		}
		if e := s.takeFault(pattern, r); e != nil {
			writeFault(w, e)
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		if e := h(rec, r, p); e != nil {
			writeError(rec, e)
			return
		}
		if write && rec.status < 400 {
			s.persistLocked()
		}
	})
}

// ping is go-tfe's start-up request. It sends the headers go-tfe reads:
// the API version, the application name and, unless Options.RateLimit is
// zero, the rate limit (a value of 3 or less would make every later go-tfe
// request fail, so New refuses one).
func (s *Server) ping(w http.ResponseWriter, _ *http.Request) {
	s.count("GET /api/v2/ping")
	w.Header().Set("TFP-API-Version", "2.6")
	w.Header().Set("TFP-AppName", "HCP Terraform")
	if s.opts.RateLimit > 0 {
		w.Header().Set("X-RateLimit-Limit", strconv.Itoa(s.opts.RateLimit))
	}
	w.Header().Set("Content-Type", mediaType)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) adminOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.RLock()
		p, ok := s.authenticate(r)
		s.mu.RUnlock()
		if !ok || !p.admin {
			writeError(w, errNotFound())
			return
		}
		h(w, r)
	}
}

func (s *Server) count(key string) {
	s.statsMu.Lock()
	s.stats[key]++
	s.statsMu.Unlock()
}

func (s *Server) countPath(r *http.Request) {
	s.statsMu.Lock()
	s.pathStats[r.Method+" "+r.URL.Path]++
	s.statsMu.Unlock()
}

// RequestsTo counts the requests made to one concrete path (such as
// "/api/v2/authentication-tokens/at-123") with method. Unlike Stats, it is
// not mixed up by other tests sharing the sandbox.
func (s *Server) RequestsTo(method, path string) int {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	return s.pathStats[method+" "+path]
}

// Stats returns a copy of the request counter: requests by route pattern
// (such as "GET /api/v2/authentication-tokens/{id}").
func (s *Server) Stats() map[string]int {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	out := make(map[string]int, len(s.stats))
	for k, v := range s.stats {
		out[k] = v
	}
	return out
}

// ResetStats zeroes the request counter.
func (s *Server) ResetStats() {
	s.statsMu.Lock()
	s.stats = map[string]int{}
	s.pathStats = map[string]int{}
	s.statsMu.Unlock()
}

// getStats serves the counter at GET /_sandbox/stats (admin token only),
// outside /api/v2 so it can never be mistaken for part of the API.
func (s *Server) getStats(w http.ResponseWriter, _ *http.Request) {
	stats := s.Stats()
	total := 0
	for _, v := range stats {
		total += v
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"requests": stats, "total": total})
}

func (s *Server) resetStats(w http.ResponseWriter, _ *http.Request) {
	s.ResetStats()
	w.WriteHeader(http.StatusNoContent)
}

// persistLocked writes the snapshot; the caller holds mu. A failure is
// logged, not returned: the change has been made in memory already.
func (s *Server) persistLocked() {
	if s.opts.DataFile == "" {
		return
	}
	raw, err := json.Marshal(s.st)
	if err == nil {
		err = saveSnapshot(s.opts.DataFile, raw)
	}
	if err != nil {
		s.logger.Printf("writing snapshot %s: %v", s.opts.DataFile, err)
	}
}

// ListenAndServe serves the API on addr until ctx ends.
func (s *Server) ListenAndServe(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown) //nolint:contextcheck // ctx is already done here
	}()
	err := srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("serving the sandbox: %w", err)
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}
