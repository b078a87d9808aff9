package tfeclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// countingTransport counts the attempts the retry transport makes.
type countingTransport struct {
	next  http.RoundTripper
	calls atomic.Int32
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.calls.Add(1)
	return c.next.RoundTrip(req)
}

func TestRetryTransport(t *testing.T) {
	t.Parallel()
	type want struct {
		calls     int32
		code      int    // the status handed back, when no error
		body      string // a part of the body handed back
		err       string // a part of the error, when one
		ambiguous bool   // the error is an *AmbiguousWriteError
	}
	tests := map[string]struct {
		method   string
		statuses []int // answered in order; the last repeats; 0 drops the connection after reading the request
		max      int
		want     want
	}{
		"GET success at once":               {method: "GET", statuses: []int{200}, max: 3, want: want{calls: 1, code: 200}},
		"GET 503 then success":              {method: "GET", statuses: []int{503, 503, 200}, max: 3, want: want{calls: 3, code: 200}},
		"GET 500 exhausted names retry_max": {method: "GET", statuses: []int{500}, max: 2, want: want{calls: 3, code: 500, body: "after 2 retries (the provider's retry_max is 2)"}},
		"PATCH 502 retried":                 {method: "PATCH", statuses: []int{502, 200}, max: 3, want: want{calls: 2, code: 200}},
		"DELETE 503 retried":                {method: "DELETE", statuses: []int{503, 204}, max: 3, want: want{calls: 2, code: 204}},
		"PUT dropped connection retried":    {method: "PUT", statuses: []int{0, 200}, max: 3, want: want{calls: 2, code: 200}},
		"GET 429 exhausted is an error":     {method: "GET", statuses: []int{429}, max: 1, want: want{calls: 2, err: "still rate limited (429) after 1 retries (retry_max = 1)"}},
		"GET 404 not retried":               {method: "GET", statuses: []int{404}, max: 3, want: want{calls: 1, code: 404}},
		"GET 501 not retried":               {method: "GET", statuses: []int{501}, max: 3, want: want{calls: 1, code: 501}},
		"GET no retries configured":         {method: "GET", statuses: []int{503}, max: 0, want: want{calls: 1, code: 503, body: "after 0 retries"}},
		"POST 429 replayed":                 {method: "POST", statuses: []int{429, 201}, max: 3, want: want{calls: 2, code: 201}},
		"POST 503 is ambiguous":             {method: "POST", statuses: []int{503, 201}, max: 3, want: want{calls: 1, ambiguous: true, err: "may or may not have processed it"}},
		"POST 500 is ambiguous":             {method: "POST", statuses: []int{500}, max: 3, want: want{calls: 1, ambiguous: true}},
		"POST dropped connection ambiguous": {method: "POST", statuses: []int{0, 201}, max: 3, want: want{calls: 1, ambiguous: true}},
		"POST 501 not retried":              {method: "POST", statuses: []int{501}, max: 3, want: want{calls: 1, code: 501}},
		"POST 422 explained":                {method: "POST", statuses: []int{422}, max: 3, want: want{calls: 1, code: 422, body: `(422 invalid attribute): name \"x\" has already been taken (attribute \"name\")`}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var served atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(served.Add(1))
				body, _ := io.ReadAll(r.Body)
				if string(body) != "payload" {
					t.Errorf("attempt %d sent body %q", n, body)
				}
				status := tc.statuses[min(n, len(tc.statuses))-1]
				switch status {
				case 0:
					conn, _, err := w.(http.Hijacker).Hijack()
					if err == nil {
						conn.Close()
					}
				case 422:
					w.Header().Set("Content-Type", "application/vnd.api+json")
					w.WriteHeader(422)
					_, _ = io.WriteString(w, `{"errors":[{"status":"422","title":"invalid attribute","detail":"name \"x\" has already been taken","source":{"pointer":"/data/attributes/name"}}]}`)
				default:
					w.WriteHeader(status)
				}
			}))
			defer srv.Close()
			counter := &countingTransport{next: srv.Client().Transport}
			c := &http.Client{Transport: &retryTransport{next: counter, max: tc.max, minWait: time.Millisecond, maxWait: 5 * time.Millisecond}}
			req, err := http.NewRequestWithContext(context.Background(), tc.method, srv.URL+"/api/v2/thing", strings.NewReader("payload"))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Do(req)
			var amb *AmbiguousWriteError
			if errors.As(err, &amb) != tc.want.ambiguous {
				t.Errorf("ambiguous = %v, want %v (err %v)", !tc.want.ambiguous, tc.want.ambiguous, err)
			}
			switch {
			case tc.want.err != "" || tc.want.ambiguous:
				if err == nil || !strings.Contains(err.Error(), tc.want.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.want.err)
				}
				if amb != nil && (amb.Start.IsZero() || amb.End.Before(amb.Start)) {
					t.Errorf("window %v..%v", amb.Start, amb.End)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.want.code {
					t.Errorf("status %d, want %d", resp.StatusCode, tc.want.code)
				}
				if !strings.Contains(string(b), tc.want.body) {
					t.Errorf("body %s, want one containing %s", b, tc.want.body)
				}
			}
			if got := counter.calls.Load(); got != tc.want.calls {
				t.Errorf("%d attempts, want %d", got, tc.want.calls)
			}
		})
	}
}

// TestRetryTransportPermanent: failures no retry can mend fail at once,
// with a message naming what to fix; a refused connection (nothing sent)
// is retried, POST included.
func TestRetryTransportPermanent(t *testing.T) {
	t.Parallel()
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) }))
	t.Cleanup(tlsSrv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(tlsSrv.Certificate())
	trusting := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	_, port, _ := net.SplitHostPort(tlsSrv.Listener.Addr().String())

	closed, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "http://" + closed.Addr().String()
	closed.Close()

	tests := map[string]struct {
		url       string
		next      http.RoundTripper
		method    string
		wantCalls int32
		wantErr   []string
		permanent bool
	}{
		"untrusted certificate": {url: tlsSrv.URL, next: &http.Transport{}, method: "GET", wantCalls: 1, permanent: true,
			wantErr: []string{"certificate", "ssl_skip_verify", "SSL_CERT_FILE", "Not retried"}},
		"untrusted certificate, POST": {url: tlsSrv.URL, next: &http.Transport{}, method: "POST", wantCalls: 1, permanent: true,
			wantErr: []string{"ssl_skip_verify"}},
		"hostname mismatch": {url: "https://localhost:" + port, next: trusting, method: "GET", wantCalls: 1, permanent: true,
			wantErr: []string{"does not name that host", "`hostname` or `address`"}},
		"unknown host": {url: "http://tfgov-no-such-host.invalid", next: &http.Transport{}, method: "GET", wantCalls: 1, permanent: true,
			wantErr: []string{"tfgov-no-such-host.invalid does not resolve", "`hostname` or `address`"}},
		"http:// to an HTTPS server": {url: "http://" + strings.TrimPrefix(tlsSrv.URL, "https://"), next: &http.Transport{}, method: "GET", wantCalls: 1, permanent: true,
			wantErr: []string{"the server speaks HTTPS, not plain HTTP", "`address` (or TFE_ADDRESS) to " + tlsSrv.URL, "Not retried"}},
		"connection refused, POST retried": {url: refusedURL, next: &http.Transport{}, method: "POST", wantCalls: 3,
			wantErr: []string{"refused", "gave up after 2 retries", "retry_max"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			counter := &countingTransport{next: tc.next}
			// The provider's own backoff: a retried permanent failure
			// would take seconds.
			c := &http.Client{Transport: &retryTransport{next: counter, max: 2, minWait: 250 * time.Millisecond, maxWait: 5 * time.Second}}
			req, err := http.NewRequestWithContext(context.Background(), tc.method, tc.url+"/api/v2/ping", strings.NewReader("x"))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			resp, err := c.Do(req)
			elapsed := time.Since(start)
			if err == nil {
				resp.Body.Close()
				t.Fatal("no error")
			}
			t.Logf("%s: failed after %s: %v", name, elapsed, err)
			var perr *permanentError
			if errors.As(err, &perr) != tc.permanent {
				t.Errorf("permanent = %v, want %v", !tc.permanent, tc.permanent)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q", w)
				}
			}
			if got := counter.calls.Load(); got != tc.wantCalls {
				t.Errorf("%d attempts, want %d", got, tc.wantCalls)
			}
		})
	}
}

// TestProviderUntrustedCertificateFailsFast: a go-tfe client built as
// Configure builds it, against a server whose certificate is not trusted,
// fails at its first request after one attempt (it took 7.4 s of retries
// before retries were classified). Attempts are counted, not timed.
func TestProviderUntrustedCertificateFailsFast(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) }))
	defer srv.Close()
	counter := &countingTransport{next: &http.Transport{}}
	hc := &http.Client{Transport: &retryTransport{next: counter, max: DefaultRetryMax, minWait: 250 * time.Millisecond, maxWait: 5 * time.Second}}
	_, err := tfe.NewClient(&tfe.Config{Address: srv.URL, Token: "t", HTTPClient: hc, RetryServerErrors: false})
	t.Logf("untrusted certificate: %v", err)
	if err == nil || !strings.Contains(err.Error(), "ssl_skip_verify") {
		t.Fatalf("err = %v, want one naming ssl_skip_verify", err)
	}
	if got := counter.calls.Load(); got != 1 {
		t.Errorf("%d attempts, want 1: a certificate that is not trusted is not retried", got)
	}
}

func TestPointerAttribute(t *testing.T) {
	t.Parallel()
	for pointer, want := range map[string]string{
		"/data/attributes/name":                          "name",
		"/data/attributes/enforcement-level":             "enforcement_level",
		"/data/attributes/deprecation/deprecated-status": "deprecation.deprecated_status",
		"/data/relationships/team":                       "team_id",
		"/data/relationships/policy-sets":                "policy_set_ids",
		"/data/id":                                       "",
		"":                                               "",
		"/meta/x/y":                                      "",
	} {
		if got := pointerAttribute(pointer); got != want {
			t.Errorf("pointerAttribute(%q) = %q, want %q", pointer, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	// What net/http returns for its response-header timeout: it matches
	// context.DeadlineExceeded although no context ended.
	timeoutAwaitingHeaders := fmt.Errorf("net/http: timeout awaiting response headers: %w", context.DeadlineExceeded)
	for _, tc := range []struct {
		method string
		status int
		err    error
		wrote  bool
		want   verdict
		// canceled: the caller's context is done
		canceled bool
	}{
		{"POST", 0, dial, false, verdictRetry, false},
		{"POST", 0, dial, true, verdictRetry, false},
		{"POST", 0, reset, true, verdictAmbiguous, false},
		{"POST", 0, reset, false, verdictRetry, false},
		{"GET", 0, reset, true, verdictRetry, false},
		{"POST", 0, context.Canceled, true, verdictFail, true},
		{"GET", 0, context.DeadlineExceeded, true, verdictFail, true},
		{"POST", 0, timeoutAwaitingHeaders, true, verdictAmbiguous, false},
		{"GET", 0, timeoutAwaitingHeaders, true, verdictRetry, false},
		{"GET", 0, &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}, false, verdictFail, false},
		{"POST", 503, nil, true, verdictAmbiguous, false},
		{"POST", 429, nil, true, verdictRetry, false},
		{"DELETE", 503, nil, true, verdictRetry, false},
		{"PUT", 500, nil, true, verdictRetry, false},
		{"GET", 501, nil, true, verdictDone, false},
		{"POST", 422, nil, true, verdictDone, false},
	} {
		var resp *http.Response
		if tc.err == nil {
			resp = &http.Response{StatusCode: tc.status}
		}
		if got := classify(tc.method, resp, tc.err, tc.wrote, tc.canceled); got != tc.want {
			t.Errorf("classify(%s, %d, %v, wrote=%v, canceled=%v) = %d, want %d", tc.method, tc.status, tc.err, tc.wrote, tc.canceled, got, tc.want)
		}
	}
}

// TestRetryTransportHungService: a service that reads a request and never
// answers ends it after the transport's response-header timeout, as a
// transport error after sending: a GET is retried, a POST is ambiguous (the
// service may have acted) and not replayed.
func TestRetryTransportHungService(t *testing.T) {
	t.Parallel()
	var hang atomic.Bool
	hang.Store(true)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if hang.Swap(false) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(func() { close(release); srv.Close() })

	for _, tc := range []struct {
		method        string
		wantAmbiguous bool
		wantCalls     int32
	}{
		{method: "GET", wantCalls: 2},
		{method: "POST", wantAmbiguous: true, wantCalls: 1},
	} {
		hang.Store(true)
		counter := &countingTransport{next: &http.Transport{ResponseHeaderTimeout: 100 * time.Millisecond}}
		c := &http.Client{Transport: &retryTransport{next: counter, max: 2, minWait: time.Millisecond, maxWait: 5 * time.Millisecond}}
		req, err := http.NewRequestWithContext(context.Background(), tc.method, srv.URL+"/api/v2/x", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if resp != nil {
			resp.Body.Close()
		}
		var amb *AmbiguousWriteError
		if got := errors.As(err, &amb); got != tc.wantAmbiguous {
			t.Errorf("%s: ambiguous = %v, want %v (err %v)", tc.method, got, tc.wantAmbiguous, err)
		}
		if !tc.wantAmbiguous && err != nil {
			t.Errorf("%s: %v, want the retry's answer", tc.method, err)
		}
		if got := counter.calls.Load(); got != tc.wantCalls {
			t.Errorf("%s: %d attempts, want %d", tc.method, got, tc.wantCalls)
		}
	}
}
