// Package sandbox is a local, faithful emulator of the HCP Terraform API that tfgov manages,
// built so that the unmodified go-tfe client works against it. Acceptance tests and the
// quickstart run against it when no live endpoint is configured. README.md maps the package.
//
// One file serves each section of the API reference the sandbox emulates ("the reference" in
// comments: agent_tokens.go, ...), and one file each area of supporting endpoints, shaped as
// go-tfe expects them (organizations.go, teams.go, ...). Where the reference is silent, README.md
// "Where the reference is silent: the sandbox's choices" records what the sandbox does and why.
package sandbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
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
	// TLS, when set (with a certificate), makes both listeners serve HTTPS:
	// ListenAndServe and the upload listener, whose addresses then start
	// with https://. SelfSignedCertificate makes one.
	TLS *tls.Config
	// Latency delays every request (API and upload listener, not the
	// /_sandbox/ admin endpoints) by this long before it is served, outside
	// the state lock: parallel requests wait concurrently, as over a slow
	// network. SetLatency changes it later.
	Latency time.Duration
	// Chaos, when enabled, injects random faults (see Chaos); SetChaos
	// changes it later.
	Chaos Chaos
	// PolicyUpdatedAt is which writes move a policy's `updated-at` (see
	// PolicyUpdatedAt; "" is both upload and update); SetPolicyUpdatedAt
	// changes it later.
	PolicyUpdatedAt PolicyUpdatedAt
	// ClockOffset shifts the sandbox's clock from the machine's (ahead
	// when positive): the times it stores and the Date header of its
	// answers (clock.go); SetClockOffset changes it later.
	ClockOffset time.Duration
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
	// policyUpdatedAt is Options.PolicyUpdatedAt, as switched since (mu).
	policyUpdatedAt PolicyUpdatedAt

	mux     *http.ServeMux
	uploads *uploadServer
	engine  *testEngine

	statsMu   sync.Mutex
	stats     map[string]int // by route pattern
	pathStats map[string]int // by "METHOD /actual/path"

	faultsMu sync.Mutex
	faults   []*Fault

	chaos chaosEngine
	hooks requestHooks // SetLatency, OnRequest (hooks.go)

	patterns []string // every pattern registered with route, in order
}

// handlerFunc is the shape of every API handler: it either writes a
// response or returns an error for the wrapper to write.
type handlerFunc func(w http.ResponseWriter, r *http.Request, p principal) *apiError

// New builds a Server and starts its upload listener. Close releases it.
func New(opts Options) (*Server, error) {
	if opts.RateLimit != 0 && opts.RateLimit <= 3 {
		return nil, fmt.Errorf("rate limit %d would stop go-tfe clients: use 0 (none) or more than 3", opts.RateLimit)
	}
	if opts.Latency < 0 {
		return nil, fmt.Errorf("latency must not be negative, got %s", opts.Latency)
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
	s.SetClockOffset(opts.ClockOffset)
	s.hooks.latency.Store(int64(opts.Latency))
	if err := s.SetChaos(opts.Chaos); err != nil {
		return nil, err
	}
	policyUpdatedAt, err := ParsePolicyUpdatedAt(string(opts.PolicyUpdatedAt))
	if err != nil {
		return nil, err
	}
	s.policyUpdatedAt = policyUpdatedAt
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

// ServeHTTP serves the API. Every request but the admin ones (/_sandbox/)
// first waits the latency (Options.Latency, SetLatency), outside any lock, as network latency would.
// A panic in a handler is answered as a 500 JSON:API error, never a dropped
// connection (except the deliberate drop of a lost answer).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if !strings.HasPrefix(r.URL.Path, "/_sandbox/") && !sleepCtx(r, s.Latency()) {
		return
	}
	// The service's clock, not the machine's (net/http sets Date only
	// when the handler has not).
	w.Header().Set("Date", s.st.now().Format(http.TimeFormat))
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if v := recover(); v != nil {
			s.recovered(rec, r, v)
		}
		s.logger.Printf("%s %s %d %s", r.Method, r.URL.RequestURI(), rec.status, time.Since(start).Round(time.Microsecond))
	}()
	if !cleanPath(r.URL.Path) {
		// net/http's mux would redirect to the cleaned path; the API
		// has no such addresses, and a redirect is no JSON:API answer.
		s.count("unmatched")
		writeError(rec, errNotFound())
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// cleanPath reports whether p has no "." or ".." segment and no empty one
// but a trailing slash's. An ID holding an escaped slash or dot (%2F, %2E)
// is unescaped into p and judged the same way.
func cleanPath(p string) bool {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, seg := range segs {
		if seg == "." || seg == ".." || (seg == "" && i != len(segs)-1) {
			return false
		}
	}
	return true
}

// recovered answers a request whose handler panicked with v: a 500
// JSON:API error if nothing was written yet. http.ErrAbortHandler (a lost
// answer's dropped connection) is passed on for net/http to drop the
// connection.
func (s *Server) recovered(w *statusRecorder, r *http.Request, v any) {
	if v == http.ErrAbortHandler { //nolint:errorlint // the sentinel is panicked as is
		w.status = 0
		s.logger.Printf("%s %s dropped the connection (lost answer)", r.Method, r.URL.RequestURI())
		panic(v)
	}
	s.logger.Printf("%s %s panic: %v\n%s", r.Method, r.URL.RequestURI(), v, debug.Stack())
	if !w.wrote {
		writeError(w, &apiError{Status: http.StatusInternalServerError, Title: "internal server error", Detail: "the sandbox failed on this request (a bug: see its log)"})
	}
}

// routes registers every endpoint. Each section of the reference has one
// register function in its own file.
func (s *Server) routes() {
	s.mux.HandleFunc("GET /api/v2/ping", s.ping)
	// The /_sandbox/ control switches (admin token only), one file each.
	s.registerStatsRoutes()
	s.registerFaultRoutes()
	s.registerChaosRoutes()
	s.registerPolicyUpdatedAtRoutes()
	s.registerClockOffsetRoutes()
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// Unknown routes answer 404, never 405 or 501: go-tfe retries 5xx.
		s.count("unmatched")
		writeError(w, errNotFound())
	})
	s.registerDiscovery()
	s.registerOrganizations()
	s.registerAdminSubscriptions()
	s.registerUserTokens()
	s.registerMemberships()
	s.registerTeams()
	s.registerTeamTokens()
	s.registerOrganizationTokens()
	s.registerWorkspaces()
	s.registerProjects()
	s.registerTeamProjectAccess()
	s.registerWorkspaceTags()
	s.registerAgentPools()
	s.registerRegistryModules()
	s.registerPolicySets()
	s.registerPolicySetVersions()
	s.registerPolicySetParameters()
	s.registerWorkspaceTagBindings()
	s.registerAdminToolVersions()
	s.registerOAuthClients()
	s.registerAgentTokens()
	s.registerModuleDeprecation()
	s.registerTeamAccess()
	s.registerPolicies()
	s.registerModuleTestRuns()
	s.registerModuleTestVars()
}

// route registers an authenticated API handler. The wrapper counts the
// request under its pattern, reads its body (bounded) before taking any
// lock, so that a client sending slowly delays only itself (a bad body is
// answered after authentication), and draws its chaos (a 429 or 503 here ends it
// unprocessed); then, holding the state lock, it answers 401 without a valid
// token, answers an injected Fault when one matches, runs the handler and,
// after a successful change, writes the snapshot. The answer is held in a
// buffer and leaves only after the lock is released and the snapshot is
// written, so a client never sees a change that a crash could lose.
func (s *Server) route(pattern string, h handlerFunc) {
	s.patterns = append(s.patterns, pattern)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		s.count(pattern)
		s.countPath(r)
		bodyErr := readBodyFirst(r, pattern)
		s.serve(w, r, func(w http.ResponseWriter) (answerMode, *apiError) {
			return s.processLocked(pattern, h, w, r, bodyErr)
		})
	})
}

// processLocked runs h for route with the state lock held. bodyErr, what
// readBodyFirst found wrong with the body, is answered once the caller is
// authenticated.
func (s *Server) processLocked(pattern string, h handlerFunc, w http.ResponseWriter, r *http.Request, bodyErr *apiError) (answerMode, *apiError) {
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
		return answerAsWritten, nil
	}
	if bodyErr != nil {
		writeError(w, bodyErr)
		return answerAsWritten, nil
	}
	mode := answerAsWritten
	f, fe := s.takeFault(pattern, r)
	switch {
	case f == nil:
	case f.Drop:
		mode = answerDropped
	case f.After:
		mode = answerStatus
	default:
		writeFault(w, fe)
		return answerAsWritten, nil
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	if e := h(rec, r, p); e != nil {
		writeError(rec, e)
		return mode, fe
	}
	if write && rec.status < 400 {
		s.persistLocked()
	}
	return mode, fe
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

// ListenAndServe serves the API on ln until ctx ends, over HTTPS when
// Options.TLS is set.
func (s *Server) ListenAndServe(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: apiReadTimeout, IdleTimeout: idleTimeout}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown) // ctx is already done here
	}()
	err := serveOn(srv, ln, s.opts.TLS)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("serving the sandbox: %w", err)
}

// Timeouts of the listeners. A request (headers and body) must arrive within
// apiReadTimeout (bodies are at most 10 MB), or uploadReadTimeout on the
// upload listener (archives of up to 100 MB); an idle keep-alive connection
// is closed after idleTimeout. There is no write timeout: a slow answer of
// chaos may be held back for minutes.
const (
	apiReadTimeout    = 2 * time.Minute
	uploadReadTimeout = 10 * time.Minute
	idleTimeout       = 2 * time.Minute
)

// readBodyFirst reads r's body before the handler and any lock, so that a slow client delays
// only itself; its limits and answers: README.md "Request bodies".
func readBodyFirst(r *http.Request, pattern string) *apiError {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	upload := strings.HasSuffix(pattern, "/upload")
	limit := int64(maxJSONBody)
	if upload {
		limit = MaxPolicyCodeSize
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	over := err == nil && int64(len(raw)) > limit
	if over {
		_, err = io.Copy(io.Discard, io.LimitReader(r.Body, 8*limit))
	}
	switch {
	case err != nil:
		return &apiError{Status: http.StatusBadRequest, Title: "bad request", Detail: "could not read the request body: " + err.Error()}
	case over && !upload:
		return &apiError{Status: http.StatusRequestEntityTooLarge, Title: "request too large", Detail: "a JSON:API body may not exceed 1 MB"}
	case !upload && len(raw) > 0 && isJSON(r.Header.Get("Content-Type")) && !json.Valid(raw):
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "the body is not a JSON:API document: it is not valid JSON", Pointer: "/data"}
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	return nil
}

// isJSON reports whether a Content-Type is JSON (JSON:API's included).
func isJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || mt == mediaType || strings.HasSuffix(mt, "+json")
}

// serveOn serves srv on ln, over HTTPS (with HTTP/2) when cfg is set.
func serveOn(srv *http.Server, ln net.Listener, cfg *tls.Config) error {
	if cfg == nil {
		return srv.Serve(ln)
	}
	srv.TLSConfig = cfg.Clone()
	return srv.ServeTLS(ln, "", "")
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(p)
}
