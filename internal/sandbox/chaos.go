package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Chaos makes the sandbox misbehave at random, at a rate per kind of fault,
// the way a busy service and a lossy network do, so that clients (the
// provider, a user's pipeline) can be tried against them. It applies to every
// route registered with route (every /api/v2 endpoint except GET
// /api/v2/ping, which go-tfe sends at start-up) and to the upload listener's
// PUTs. Each request draws once: it gets at most one kind of fault.
//
// The draws come from a generator seeded with Seed, so one client making the
// same requests in the same order sees the same faults; parallel clients
// interleave their draws as the scheduler pleases.
type Chaos struct {
	// Seed seeds the random draws.
	Seed int64
	// RateLimited is the rate of 429 answers, before processing, carrying
	// Retry-After (whole seconds, as HTTP defines it) and X-RateLimit-Reset
	// (seconds as a decimal, which go-tfe reads to back off).
	RateLimited float64
	// Unavailable is the rate of 503 answers before processing: the
	// request is not acted on.
	Unavailable float64
	// LostAnswer is the rate of lost answers: the request is processed
	// (the change is made and persisted), then the answer is replaced by a
	// 503 or the connection is dropped with no answer, each half the time
	// at random.
	LostAnswer float64
	// Slow is the rate of slow answers: the request is processed, then
	// answered after SlowDelay.
	Slow float64
	// SlowDelay is how long a slow answer is held back. Zero means 1s.
	SlowDelay time.Duration
	// RateLimitReset is the wait a 429 asks for. Zero means 200ms.
	RateLimitReset time.Duration
}

// Kinds of chaos, the keys of ChaosStats.
const (
	ChaosRateLimited       = "rate_limited"        // 429 before processing
	ChaosUnavailable       = "unavailable"         // 503 before processing
	ChaosLostAnswer503     = "lost_answer_503"     // processed, answered 503
	ChaosLostAnswerDropped = "lost_answer_dropped" // processed, connection dropped
	ChaosSlow              = "slow"                // processed, answered after SlowDelay
)

const (
	defaultSlowDelay      = time.Second
	defaultRateLimitReset = 200 * time.Millisecond
	maxChaosDelay         = 10 * time.Minute
)

// Enabled reports whether any rate is above zero.
func (c Chaos) Enabled() bool {
	return c.RateLimited > 0 || c.Unavailable > 0 || c.LostAnswer > 0 || c.Slow > 0
}

func (c Chaos) validate() error {
	var errs []error
	sum := 0.0
	for _, r := range []struct {
		name string
		v    float64
	}{{"rate_limited (429)", c.RateLimited}, {"unavailable (503)", c.Unavailable}, {"lost_answer (lost)", c.LostAnswer}, {"slow", c.Slow}} {
		if math.IsNaN(r.v) || r.v < 0 || r.v > 1 {
			errs = append(errs, fmt.Errorf("%s must be a rate between 0 and 1, got %v", r.name, r.v))
		}
		sum += r.v
	}
	if sum > 1 {
		errs = append(errs, fmt.Errorf("the rates add up to %v; at most 1 is allowed (each request gets at most one fault)", sum))
	}
	if c.SlowDelay < 0 || c.SlowDelay > maxChaosDelay {
		errs = append(errs, fmt.Errorf("slow_delay must be between 0 and %s, got %s", maxChaosDelay, c.SlowDelay))
	}
	if c.RateLimitReset < 0 || c.RateLimitReset > maxChaosDelay {
		errs = append(errs, fmt.Errorf("reset must be between 0 and %s, got %s", maxChaosDelay, c.RateLimitReset))
	}
	return errors.Join(errs...)
}

func (c Chaos) withDefaults() Chaos {
	if c.SlowDelay == 0 {
		c.SlowDelay = defaultSlowDelay
	}
	if c.RateLimitReset == 0 {
		c.RateLimitReset = defaultRateLimitReset
	}
	return c
}

// String is the compact syntax that ParseChaos reads.
func (c Chaos) String() string {
	c = c.withDefaults()
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return fmt.Sprintf("seed=%d,429=%s,503=%s,lost=%s,slow=%s,slow-delay=%s,reset=%s",
		c.Seed, f(c.RateLimited), f(c.Unavailable), f(c.LostAnswer), f(c.Slow), c.SlowDelay, c.RateLimitReset)
}

// ParseChaos reads the compact syntax of --faults: comma-separated
// key=value pairs, such as
//
//	seed=7,429=0.05,503=0.05,lost=0.05,slow=0.05,slow-delay=1s
//
// Keys: seed (an integer), 429, 503, lost and slow (rates between 0 and 1,
// adding up to at most 1), slow-delay and reset (Go durations: how long a
// slow answer is held back, default 1s; the wait a 429 asks for, default
// 200ms). A key left out is zero (or its default).
func ParseChaos(spec string) (Chaos, error) {
	var c Chaos
	seen := map[string]bool{}
	for _, pair := range strings.Split(spec, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || v == "" {
			return Chaos{}, fmt.Errorf("fault spec %q: want key=value, got %q", spec, pair)
		}
		if seen[k] {
			return Chaos{}, fmt.Errorf("fault spec %q: %s given twice", spec, k)
		}
		seen[k] = true
		var err error
		switch k {
		case "seed":
			c.Seed, err = strconv.ParseInt(v, 10, 64)
		case "429":
			c.RateLimited, err = strconv.ParseFloat(v, 64)
		case "503":
			c.Unavailable, err = strconv.ParseFloat(v, 64)
		case "lost":
			c.LostAnswer, err = strconv.ParseFloat(v, 64)
		case "slow":
			c.Slow, err = strconv.ParseFloat(v, 64)
		case "slow-delay":
			c.SlowDelay, err = time.ParseDuration(v)
		case "reset":
			c.RateLimitReset, err = time.ParseDuration(v)
		default:
			return Chaos{}, fmt.Errorf("fault spec %q: unknown key %q; the keys are seed, 429, 503, lost, slow, slow-delay and reset", spec, k)
		}
		if err != nil {
			return Chaos{}, fmt.Errorf("fault spec %q: %s: %w", spec, k, err)
		}
	}
	if err := c.validate(); err != nil {
		return Chaos{}, fmt.Errorf("fault spec %q: %w", spec, err)
	}
	return c, nil
}

// chaosJSON is Chaos as the admin endpoint reads and writes it, with
// durations as Go duration strings ("1s").
type chaosJSON struct {
	Seed           int64   `json:"seed"`
	RateLimited    float64 `json:"rate_limited"`
	Unavailable    float64 `json:"unavailable"`
	LostAnswer     float64 `json:"lost_answer"`
	Slow           float64 `json:"slow"`
	SlowDelay      string  `json:"slow_delay,omitempty"`
	RateLimitReset string  `json:"rate_limit_reset,omitempty"`
}

// MarshalJSON writes the admin endpoint's form.
func (c Chaos) MarshalJSON() ([]byte, error) {
	c = c.withDefaults()
	return json.Marshal(chaosJSON{
		Seed: c.Seed, RateLimited: c.RateLimited, Unavailable: c.Unavailable, LostAnswer: c.LostAnswer, Slow: c.Slow,
		SlowDelay: c.SlowDelay.String(), RateLimitReset: c.RateLimitReset.String(),
	})
}

// UnmarshalJSON reads the admin endpoint's form.
func (c *Chaos) UnmarshalJSON(raw []byte) error {
	var j chaosJSON
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	out := Chaos{Seed: j.Seed, RateLimited: j.RateLimited, Unavailable: j.Unavailable, LostAnswer: j.LostAnswer, Slow: j.Slow}
	var err error
	if j.SlowDelay != "" {
		if out.SlowDelay, err = time.ParseDuration(j.SlowDelay); err != nil {
			return fmt.Errorf("slow_delay: %w", err)
		}
	}
	if j.RateLimitReset != "" {
		if out.RateLimitReset, err = time.ParseDuration(j.RateLimitReset); err != nil {
			return fmt.Errorf("rate_limit_reset: %w", err)
		}
	}
	*c = out
	return nil
}

// chaosEngine holds the current Chaos, its generator and the counters.
type chaosEngine struct {
	mu       sync.Mutex
	cfg      Chaos
	rnd      *rand.Rand
	injected map[string]int
}

// chaosDraw is what one request drew.
type chaosDraw struct {
	kind  string // "" for none, else one of the Chaos* kinds
	delay time.Duration
	reset time.Duration
}

func (e *chaosEngine) set(c Chaos) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg = c.withDefaults()
	e.rnd = rand.New(rand.NewPCG(uint64(c.Seed), 0x7466676f76)) // reproducible chaos, not a secret
	if e.injected == nil {
		e.injected = map[string]int{}
	}
}

func (e *chaosEngine) get() Chaos {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cfg
}

// draw picks the fault, if any, for one request and counts it.
func (e *chaosEngine) draw() chaosDraw {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.cfg
	if !c.Enabled() || e.rnd == nil {
		return chaosDraw{}
	}
	u := e.rnd.Float64()
	d := chaosDraw{delay: c.SlowDelay, reset: c.RateLimitReset}
	switch {
	case u < c.RateLimited:
		d.kind = ChaosRateLimited
	case u < c.RateLimited+c.Unavailable:
		d.kind = ChaosUnavailable
	case u < c.RateLimited+c.Unavailable+c.LostAnswer:
		d.kind = ChaosLostAnswer503
		if e.rnd.IntN(2) == 1 {
			d.kind = ChaosLostAnswerDropped
		}
	case u < c.RateLimited+c.Unavailable+c.LostAnswer+c.Slow:
		d.kind = ChaosSlow
	default:
		return chaosDraw{}
	}
	e.injected[d.kind]++
	return d
}

func (e *chaosEngine) stats() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]int{ChaosRateLimited: 0, ChaosUnavailable: 0, ChaosLostAnswer503: 0, ChaosLostAnswerDropped: 0, ChaosSlow: 0}
	for k, v := range e.injected {
		out[k] = v
	}
	return out
}

func (e *chaosEngine) reset() {
	e.mu.Lock()
	e.injected = map[string]int{}
	e.mu.Unlock()
}

// SetChaos replaces the chaos configuration and restarts its random draws
// from c.Seed; Chaos{} turns chaos off. The counters of ChaosStats keep
// counting (ResetStats zeroes them).
func (s *Server) SetChaos(c Chaos) error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("invalid chaos: %w", err)
	}
	s.chaos.set(c)
	return nil
}

// Chaos returns the chaos configuration in force, with defaults filled in.
func (s *Server) Chaos() Chaos { return s.chaos.get() }

// ChaosStats counts the faults chaos injected, by kind: the Chaos* constants
// (rate_limited, unavailable, lost_answer_503, lost_answer_dropped, slow),
// every kind present.
func (s *Server) ChaosStats() map[string]int { return s.chaos.stats() }

// errUnavailable is the 503 of chaos and lost answers.
func errUnavailable(detail string) *apiError {
	return &apiError{Status: http.StatusServiceUnavailable, Title: "service unavailable", Detail: detail}
}

// writeRateLimited writes a 429 asking the client to wait reset. go-tfe
// reads X-RateLimit-Reset as a decimal number of seconds (and stops the
// process on one it cannot parse), so it is always a well-formed decimal;
// Retry-After is whole seconds, rounded up, as HTTP defines it.
func writeRateLimited(w http.ResponseWriter, reset time.Duration) {
	w.Header().Set("X-RateLimit-Reset", strconv.FormatFloat(reset.Seconds(), 'f', 3, 64))
	w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(reset.Seconds())), 10))
	writeError(w, &apiError{Status: http.StatusTooManyRequests, Title: "too many requests", Detail: "rate limit exceeded (injected by sandbox chaos)"})
}

// sleepCtx waits d or until the request ends, and reports whether the full
// wait passed.
func sleepCtx(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// answerMode is how a processed request's answer reaches the client.
type answerMode int

const (
	answerAsWritten answerMode = iota // the handler's answer
	answerStatus                      // a targeted fault's status instead (Fault.After)
	answerDropped                     // no answer: the connection is dropped (Fault.Drop)
)

// serve runs process, which acts on the request and writes its answer to
// a buffer (with the state lock held and the snapshot written, as the route
// wrapper does), under the request's chaos draw, then sends the answer: the
// answer never leaves before the change is persisted. process returns how
// the answer is to be sent (a targeted fault may replace or drop it) and
// the fault's error for answerStatus.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, process func(w http.ResponseWriter) (answerMode, *apiError)) {
	d := s.chaos.draw()
	switch d.kind {
	case ChaosRateLimited:
		writeRateLimited(w, d.reset)
		return
	case ChaosUnavailable:
		writeError(w, errUnavailable("the service is unavailable (injected by sandbox chaos; the request was not processed)"))
		return
	}
	buf := newBufferedResponse()
	mode, fault := process(buf)
	switch {
	case d.kind == ChaosLostAnswerDropped || mode == answerDropped:
		// net/http closes the connection without an answer and logs
		// nothing for this panic value.
		panic(http.ErrAbortHandler)
	case d.kind == ChaosLostAnswer503:
		writeError(w, errUnavailable("the service is unavailable (injected by sandbox chaos; the request WAS processed)"))
		return
	case d.kind == ChaosSlow:
		if !sleepCtx(r, d.delay) {
			return
		}
	}
	if mode == answerStatus {
		writeFault(w, fault)
		return
	}
	buf.flush(w)
}

// bufferedResponse holds an answer until it may leave.
type bufferedResponse struct {
	header http.Header
	status int
	body   []byte
}

func newBufferedResponse() *bufferedResponse { return &bufferedResponse{header: http.Header{}} }

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	b.body = append(b.body, p...)
	return len(p), nil
}

// statusCode is the status written, 200 when none was.
func (b *bufferedResponse) statusCode() int {
	if b.status == 0 {
		return http.StatusOK
	}
	return b.status
}

func (b *bufferedResponse) flush(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range b.header {
		h[k] = v
	}
	w.WriteHeader(b.statusCode())
	_, _ = w.Write(b.body)
}

// putChaos serves PUT /_sandbox/chaos (admin token only): the body is a
// Chaos as JSON ({"seed":7,"rate_limited":0.05,"unavailable":0.05,
// "lost_answer":0.05,"slow":0.05,"slow_delay":"1s"}); 200 echoes it with
// defaults filled in, 400 names what is wrong.
func (s *Server) putChaos(w http.ResponseWriter, r *http.Request) {
	var c Chaos
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody))
	if err == nil {
		err = json.Unmarshal(raw, &c)
	}
	if err != nil {
		http.Error(w, "the body must be a chaos object: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.SetChaos(c); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.getChaos(w, r)
}

// getChaos serves GET /_sandbox/chaos: the configuration in force and the
// faults injected by kind.
func (s *Server) getChaos(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"chaos": s.Chaos(), "enabled": s.Chaos().Enabled(), "injected": s.ChaosStats()})
}

// deleteChaos serves DELETE /_sandbox/chaos: chaos off, counters kept.
func (s *Server) deleteChaos(w http.ResponseWriter, _ *http.Request) {
	_ = s.SetChaos(Chaos{})
	w.WriteHeader(http.StatusNoContent)
}

// registerChaosRoutes registers PUT, GET and DELETE /_sandbox/chaos.
func (s *Server) registerChaosRoutes() {
	s.mux.HandleFunc("PUT /_sandbox/chaos", s.adminOnly(s.putChaos))
	s.mux.HandleFunc("GET /_sandbox/chaos", s.adminOnly(s.getChaos))
	s.mux.HandleFunc("DELETE /_sandbox/chaos", s.adminOnly(s.deleteChaos))
}
