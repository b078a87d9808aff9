package tfeclient

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// retryTransport retries what may be retried, after a backoff or the wait the service
// asks for; a POST the service may have processed is an *AmbiguousWriteError instead.
// DESIGN.md "The retry rule"; why beside go-tfe's own: DESIGN.md "Decision: a retry
// transport beside go-tfe's".
type retryTransport struct {
	next     http.RoundTripper
	max      int
	minWait  time.Duration // first backoff, doubled on every retry
	maxWait  time.Duration // longest backoff the provider chooses itself
	maxAsked time.Duration // longest wait the service may ask for (0: defaultMaxAsked)
	// now and sleep are the clock (nil: the real one): tests check minute-long waits.
	now          func() time.Time
	sleep        func(ctx context.Context, d time.Duration) error
	serviceClock *ServiceClock // nil: not followed
}

// defaultMaxAsked: HCP Terraform asks for seconds; a longer ask is an outage to report.
const defaultMaxAsked = 5 * time.Minute

// askedWait is a wait the service asked for, and the header that asked.
type askedWait struct {
	d      time.Duration
	header string
}

func (a askedWait) String() string {
	return fmt.Sprintf("%s (%s)", a.d.Round(time.Millisecond), a.header)
}

func (t *retryTransport) clock() time.Time {
	if t.now != nil {
		return t.now()
	}
	return time.Now()
}

func (t *retryTransport) wait(ctx context.Context, d time.Duration) error {
	if t.sleep != nil {
		return t.sleep(ctx, d)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// retriesMade counts every retry of the process, for the chaos acceptance test.
var retriesMade atomic.Int64

// AmbiguousWriteError is a POST that may or may not have been processed (a 5xx, or a
// connection lost once sent). Start and End bound it on the local clock; OffsetLow and
// OffsetHigh bound the service clock's offset, when OffsetKnown (DESIGN.md "The service's clock").
type AmbiguousWriteError struct {
	Method, Path          string
	Status                int    // 0 for a transport error
	Reason                string // the status text or the transport error
	Start, End            time.Time
	OffsetLow, OffsetHigh time.Duration
	OffsetKnown           bool
	Err                   error // the transport error, if any
}

func (e *AmbiguousWriteError) Error() string {
	return fmt.Sprintf("%s %s ended without a definite answer (%s): the service may or may not have processed it", e.Method, e.Path, e.Reason)
}

func (e *AmbiguousWriteError) Unwrap() error { return e.Err }

// permanentError is a failure no retry can mend; Fix says what to change.
type permanentError struct {
	Err error
	Fix string
}

func (e *permanentError) Error() string { return e.Err.Error() + ". " + e.Fix }
func (e *permanentError) Unwrap() error { return e.Err }

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	start := time.Now()
	var asked askedWait // the last wait the service asked for
	for attempt := 0; ; attempt++ {
		var wrote atomic.Bool
		traced := req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			WroteHeaderField: func(string, []string) { wrote.Store(true) },
			WroteHeaders:     func() { wrote.Store(true) },
		}))
		sent := time.Now()
		resp, err := t.next.RoundTrip(traced)
		if err == nil {
			t.serviceClock.observe(resp, sent, time.Now())
		}
		switch v := classify(req.Method, resp, err, wrote.Load(), ctx.Err() != nil); v {
		case verdictDone:
			if perr := httpToHTTPSServer(req, resp); perr != nil {
				return nil, perr
			}
			resp = explainErrorBody(resp)
			noteResponse(ctx, resp)
			return resp, nil
		case verdictFail:
			if perr := permanent(err, req); perr != nil {
				return nil, perr
			}
			return resp, err
		case verdictAmbiguous:
			amb := &AmbiguousWriteError{Method: req.Method, Path: req.URL.Path, Start: start, End: time.Now(), Err: err}
			amb.OffsetLow, amb.OffsetHigh, amb.OffsetKnown = t.serviceClock.offset()
			if err != nil {
				amb.Reason = err.Error()
			} else {
				amb.Status, amb.Reason = resp.StatusCode, resp.Status
				drain(resp)
			}
			tflog.Warn(ctx, "Not replaying a POST that may have been processed", map[string]any{"method": req.Method, "path": req.URL.Path, "reason": amb.Reason})
			return nil, amb
		}
		if stopRequested(ctx) {
			// Terraform asked to stop during this write: a retry would be a new write.
			if err != nil {
				return nil, fmt.Errorf("%w (not retried: Terraform asked the provider to stop)", err)
			}
			if resp.StatusCode == http.StatusTooManyRequests {
				drain(resp) // go-tfe would retry a 429 itself
				return nil, fmt.Errorf("%s %s: rate limited (429), not retried: Terraform asked the provider to stop", req.Method, req.URL.Path)
			}
			return resp, nil
		}
		if attempt >= t.max {
			if err == nil && resp.StatusCode == http.StatusTooManyRequests {
				if a := t.asked(resp); a.d > 0 {
					asked = a
				}
				drain(resp)
				said := ""
				if asked.d > 0 {
					said = fmt.Sprintf(" (the service last asked to wait %s)", asked)
				}
				return nil, fmt.Errorf("%s %s: still rate limited (429) after %d retries (retry_max = %d)%s; raise the provider's retry_max or apply with less parallelism (-parallelism)", req.Method, req.URL.Path, t.max, t.max, said)
			}
			if err == nil {
				return exhaustedBody(resp, t.max), nil
			}
			return nil, fmt.Errorf("%w (gave up after %d retries; the provider's retry_max is %d)", err, t.max, t.max)
		}
		wait := t.backoff(attempt)
		fields := map[string]any{"method": req.Method, "path": req.URL.Path, "attempt": attempt + 1, "retry_max": t.max}
		if err != nil {
			fields["error"] = err.Error()
		} else {
			fields["status"] = resp.StatusCode
			drain(resp)
			if a := t.asked(resp); a.d > 0 {
				asked, wait = a, a.d
				fields["asked"] = a.String()
				if werr := t.waitAllowed(ctx, req, resp.StatusCode, a); werr != nil {
					return nil, werr
				}
			}
		}
		fields["wait"] = wait.String()
		retriesMade.Add(1)
		tflog.Warn(ctx, "Retrying HCP Terraform API request", fields)
		if werr := t.wait(ctx, wait); werr != nil {
			if asked.d > 0 && wait == asked.d {
				return nil, fmt.Errorf("%s %s: ended while waiting the %s the service asked for before a retry: %w", req.Method, req.URL.Path, asked, werr)
			}
			return nil, werr
		}
		if req.Body != nil && req.Body != http.NoBody {
			if req.GetBody == nil {
				return nil, fmt.Errorf("%s %s: cannot retry a request whose body cannot be replayed", req.Method, req.URL.Path)
			}
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(ctx)
			req.Body = body
		}
	}
}

// responseHeaderTimeout ends a request whose answer never comes, as a transport error
// after sending (DESIGN.md "The retry rule").
const responseHeaderTimeout = 2 * time.Minute

type verdict int

const (
	verdictDone      verdict = iota // an answer to hand back as it is
	verdictRetry                    // retry (within retry_max)
	verdictFail                     // a failure no retry mends
	verdictAmbiguous                // a POST that may have been processed
)

// classify is the retry rule (DESIGN.md "The retry rule"). canceled is the caller's context
// only: net/http's own response-header timeout is a failure after sending like any other.
func classify(method string, resp *http.Response, err error, wrote, canceled bool) verdict {
	if err != nil {
		switch {
		case canceled:
			return verdictFail
		case isPermanent(err):
			return verdictFail
		case !wrote || isDialError(err):
			return verdictRetry // nothing reached the service
		case method == http.MethodPost:
			return verdictAmbiguous
		default:
			return verdictRetry
		}
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return verdictRetry // the service refused before acting
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		if method == http.MethodPost {
			return verdictAmbiguous
		}
		return verdictRetry
	default:
		return verdictDone
	}
}

// isDialError: a failure to connect, before anything was sent.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func isPermanent(err error) bool {
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		verify           *tls.CertificateVerificationError
		dns              *net.DNSError
	)
	return errors.As(err, &unknownAuthority) || errors.As(err, &hostname) || errors.As(err, &invalid) ||
		errors.As(err, &verify) || (errors.As(err, &dns) && dns.IsNotFound)
}

// permanent explains a permanent failure, or returns nil for any other.
func permanent(err error, req *http.Request) error {
	if err == nil || !isPermanent(err) {
		return nil
	}
	host := req.URL.Hostname()
	var (
		hostname x509.HostnameError
		dns      *net.DNSError
	)
	switch {
	case errors.As(err, &dns):
		return &permanentError{Err: err, Fix: fmt.Sprintf("The host name %s does not resolve: check the provider's `hostname` or `address` attribute (or TFE_HOSTNAME / TFE_ADDRESS). Not retried.", host)}
	case errors.As(err, &hostname):
		return &permanentError{Err: err, Fix: fmt.Sprintf("The certificate of %s does not name that host: set the provider's `hostname` or `address` to a name the certificate holds, or fix the certificate. Not retried.", host)}
	default:
		return &permanentError{Err: err, Fix: fmt.Sprintf("The certificate of %s is not trusted: add its CA to the system's trust store or point SSL_CERT_FILE (or SSL_CERT_DIR) at a CA bundle that holds it; "+
			"for testing only, set the provider's `ssl_skip_verify = true` (or TFE_SSL_SKIP_VERIFY). Not retried.", host)}
	}
}

// httpToHTTPSServer makes an HTTPS server's 400 to a plain HTTP request (Go's and nginx's
// wording) a permanent error saying to use https://; nil, resp unchanged, for any other.
func httpToHTTPSServer(req *http.Request, resp *http.Response) error {
	if req.URL.Scheme != "http" || resp.StatusCode != http.StatusBadRequest {
		return nil
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close() // replaced below
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return nil //nolint:nilerr // the body could not be read: go-tfe reports the answer as it is
	}
	body := strings.TrimSpace(string(raw))
	if !strings.Contains(body, "HTTP request to an HTTPS server") && !strings.Contains(body, "plain HTTP request was sent to HTTPS") {
		return nil
	}
	https := "https://" + req.URL.Host
	return &permanentError{
		Err: fmt.Errorf("%s answered %q (400 Bad Request): the server speaks HTTPS, not plain HTTP", "http://"+req.URL.Host, body),
		Fix: fmt.Sprintf("Set the provider's `address` (or TFE_ADDRESS) to %s, or use `hostname = %q` (TFE_HOSTNAME) instead, which is always HTTPS. Not retried.", https, req.URL.Host),
	}
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close() // drained for connection reuse
}

// asked is the wait resp asks for: Retry-After (seconds or an HTTP date) or
// X-RateLimit-Reset (seconds), the longer if both; zero if neither.
func (t *retryTransport) asked(resp *http.Response) askedWait {
	var a askedWait
	if v := strings.TrimSpace(resp.Header.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs > 0 {
			a = askedWait{d: time.Duration(secs * float64(time.Second)), header: "Retry-After"}
		} else if when, err := http.ParseTime(v); err == nil {
			if d := when.Sub(t.clock()); d > 0 {
				a = askedWait{d: d, header: "Retry-After"}
			}
		}
	}
	if secs, err := strconv.ParseFloat(strings.TrimSpace(resp.Header.Get("X-RateLimit-Reset")), 64); err == nil && secs > 0 {
		// Retry-After is whole seconds: the reset rounded up is the same ask, less precise.
		if d := time.Duration(secs * float64(time.Second)); d > a.d || a.d < d+time.Second {
			a = askedWait{d: d, header: "X-RateLimit-Reset"}
		}
	}
	return a
}

// waitAllowed refuses an asked wait longer than maxAsked or than the operation has left:
// a retry before the asked time would only be refused again.
func (t *retryTransport) waitAllowed(ctx context.Context, req *http.Request, code int, asked askedWait) error {
	status := fmt.Sprintf("%d %s", code, http.StatusText(code))
	limit := t.maxAsked
	if limit <= 0 {
		limit = defaultMaxAsked
	}
	if asked.d > limit {
		return fmt.Errorf("%s %s: %s, and the service asked to wait %s before a retry, longer than the provider waits (%s); not retried: try again later", req.Method, req.URL.Path, status, asked, limit)
	}
	if deadline, ok := ctx.Deadline(); ok {
		if left := deadline.Sub(t.clock()); left < asked.d {
			return fmt.Errorf("%s %s: %s, and the service asked to wait %s before a retry, but the operation has %s left; not retried: raise the resource's timeouts or try again later", req.Method, req.URL.Path, status, asked, max(left, 0).Round(time.Millisecond))
		}
	}
	return nil
}

// backoff is the provider's own wait before retry attempt+1.
func (t *retryTransport) backoff(attempt int) time.Duration {
	wait := t.minWait << attempt
	if wait > t.maxWait || wait <= 0 {
		wait = t.maxWait
	}
	// Up to 20% jitter so parallel resources do not retry in lockstep.
	return wait - time.Duration(rand.Int64N(int64(wait)/5+1)) // jitter, not a secret
}

const maxErrorBody = 1 << 20 // the error bodies read to rewrite

type jsonapiErrors struct {
	Errors []jsonapiError `json:"errors"`
}

type jsonapiError struct {
	Status string `json:"status,omitempty"`
	Title  string `json:"title,omitempty"`
	Detail string `json:"detail,omitempty"`
	Source *struct {
		Pointer   string `json:"pointer,omitempty"`
		Parameter string `json:"parameter,omitempty"`
	} `json:"source,omitempty"`
}

// explainErrorBody rewrites the errors of a 400, 409, 413 or 422 for go-tfe, which keeps
// only title and detail, to quote the detail and name the attribute (serviceErrorText).
func explainErrorBody(resp *http.Response) *http.Response {
	switch resp.StatusCode {
	case http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
	default:
		return resp
	}
	return rewriteErrors(resp, func(e jsonapiError) string { return serviceErrorText(resp.StatusCode, e) })
}

// exhaustedBody rewrites a 5xx that outlasted the retries to say so.
func exhaustedBody(resp *http.Response, retries int) *http.Response {
	out := rewriteErrors(resp, func(e jsonapiError) string {
		return fmt.Sprintf("%s (%d) after %d retries (the provider's retry_max is %d): %s. The service may be overloaded or down: try again later, or raise retry_max.",
			cmp.Or(e.Title, http.StatusText(resp.StatusCode)), resp.StatusCode, retries, retries, cmp.Or(e.Detail, "no detail given"))
	})
	return out
}

// rewriteErrors replaces each error by one whose title is msg of it (go-tfe's whole
// message then); a body with no JSON:API errors gets one from the status.
func rewriteErrors(resp *http.Response, msg func(jsonapiError) string) *http.Response {
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close() // replaced below
	var doc jsonapiErrors
	if err != nil || json.Unmarshal(raw, &doc) != nil || len(doc.Errors) == 0 {
		doc.Errors = []jsonapiError{{Status: strconv.Itoa(resp.StatusCode), Title: http.StatusText(resp.StatusCode)}}
	}
	out := jsonapiErrors{Errors: make([]jsonapiError, len(doc.Errors))}
	for i, e := range doc.Errors {
		out.Errors[i] = jsonapiError{Status: e.Status, Title: msg(e), Source: e.Source}
	}
	b, _ := json.Marshal(out) // plain strings
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	resp.Header.Del("Content-Length")
	return resp
}
