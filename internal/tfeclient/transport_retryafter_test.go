package tfeclient

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRetryTransportRetryAfterBeyondDeadline: a 429 whose Retry-After asks
// for longer than the operation has left fails at once, saying how long the
// service asked to wait, instead of retrying early and reporting "still rate
// limited" (as it once did: Retry-After: 60 got three requests in 10 s).
func TestRetryTransportRetryAfterBeyondDeadline(t *testing.T) {
	t.Parallel()
	var served atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	c := &http.Client{Transport: &retryTransport{next: srv.Client().Transport, max: 5, minWait: 250 * time.Millisecond, maxWait: 5 * time.Second}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v2/thing", http.NoBody)
	start := time.Now()
	resp, err := c.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("status %d, want an error", resp.StatusCode)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v: a wait the deadline cannot hold should fail at once, not at the deadline", d)
	}
	for _, want := range []string{"429", "asked to wait 1m0s (Retry-After)", "timeouts", "s left"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v is the deadline itself, not an explanation", err)
	}
	if n := served.Load(); n != 1 {
		t.Errorf("%d requests, want 1 (no retry before the service's time)", n)
	}
}

// TestRetryTransportHonoursAskedWait: the wait the service asks for is
// honoured in full (not cut to the provider's own 5 s backoff cap), in each
// form it may take, with a fake clock: no real waiting.
func TestRetryTransportHonoursAskedWait(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		headers  map[string]string
		dateIn   time.Duration // set Retry-After to an HTTP date this far from now
		status   int
		deadline time.Duration // 0: none
		want     time.Duration // the wait before the retry; 0: no retry
		err      string
	}{
		"Retry-After seconds":                    {headers: map[string]string{"Retry-After": "60"}, want: time.Minute},
		"Retry-After HTTP date":                  {dateIn: 90 * time.Second, want: 90 * time.Second},
		"Retry-After date in the past":           {dateIn: -time.Minute, want: -1},
		"X-RateLimit-Reset":                      {headers: map[string]string{"X-RateLimit-Reset": "42.5"}, want: 42500 * time.Millisecond},
		"reset with Retry-After its ceiling":     {headers: map[string]string{"X-RateLimit-Reset": "0.2", "Retry-After": "1"}, want: 200 * time.Millisecond},
		"Retry-After longer than the reset":      {headers: map[string]string{"X-RateLimit-Reset": "0.2", "Retry-After": "30"}, want: 30 * time.Second},
		"503 with Retry-After":                   {status: 503, headers: map[string]string{"Retry-After": "20"}, want: 20 * time.Second},
		"within the deadline":                    {headers: map[string]string{"Retry-After": "60"}, deadline: 2 * time.Minute, want: time.Minute},
		"beyond the deadline":                    {headers: map[string]string{"Retry-After": "60"}, deadline: 30 * time.Second, err: "asked to wait 1m0s (Retry-After) before a retry, but the operation has 30s left"},
		"beyond what the provider waits for one": {headers: map[string]string{"Retry-After": "3600"}, err: "asked to wait 1h0m0s (Retry-After) before a retry, longer than the provider waits (5m0s)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// Now, when the subtest runs: the deadlines are real contexts'.
			base := time.Now().UTC().Truncate(time.Second)
			headers := maps.Clone(tc.headers)
			if tc.dateIn != 0 {
				headers = map[string]string{"Retry-After": base.Add(tc.dateIn).Format(http.TimeFormat)}
			}
			var served atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				if served.Add(1) > 1 {
					w.WriteHeader(http.StatusOK)
					return
				}
				for k, v := range headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(cmp.Or(tc.status, http.StatusTooManyRequests))
			}))
			defer srv.Close()
			var slept []time.Duration
			now := base
			rt := &retryTransport{next: srv.Client().Transport, max: 3, minWait: 250 * time.Millisecond, maxWait: 5 * time.Second,
				now: func() time.Time { return now },
				sleep: func(_ context.Context, d time.Duration) error {
					slept = append(slept, d)
					now = now.Add(d)
					return nil
				},
			}
			ctx := context.Background()
			if tc.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, base.Add(tc.deadline))
				defer cancel()
			}
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v2/thing", http.NoBody)
			resp, err := (&http.Client{Transport: rt}).Do(req)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				if len(slept) != 0 || served.Load() != 1 {
					t.Errorf("slept %v over %d requests; want no retry", slept, served.Load())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if len(slept) != 1 {
				t.Fatalf("slept %v, want one wait", slept)
			}
			if tc.want < 0 { // the provider's own backoff
				if slept[0] > 250*time.Millisecond {
					t.Errorf("waited %v for a date already past, want the provider's own backoff", slept[0])
				}
			} else if slept[0] != tc.want {
				t.Errorf("waited %v, want %v", slept[0], tc.want)
			}
		})
	}
}

// TestRetryTransportAskedWaitCanceled: a context that ends while waiting
// the asked time ends the request, saying what it was waiting for.
func TestRetryTransportAskedWaitCanceled(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	rt := &retryTransport{next: srv.Client().Transport, max: 3, minWait: time.Millisecond, maxWait: time.Millisecond,
		sleep: func(ctx context.Context, _ time.Duration) error { cancel(); <-ctx.Done(); return ctx.Err() }}
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/x", http.NoBody)
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err == nil {
		resp.Body.Close()
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "waiting the 1m0s (Retry-After) the service asked for") {
		t.Fatalf("err = %v", err)
	}
}

// TestRetryTransportRateLimitExhaustedSaysAsked: a 429 that outlasts the
// retries says how long the service last asked to wait.
func TestRetryTransportRateLimitExhaustedSaysAsked(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	rt := &retryTransport{next: srv.Client().Transport, max: 2, minWait: time.Millisecond, maxWait: time.Millisecond,
		sleep: func(context.Context, time.Duration) error { return nil }}
	req, _ := http.NewRequestWithContext(context.Background(), "GET", srv.URL+"/x", http.NoBody)
	resp, err := (&http.Client{Transport: rt}).Do(req)
	if err == nil {
		resp.Body.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "still rate limited (429) after 2 retries (retry_max = 2) (the service last asked to wait 2s (Retry-After))") {
		t.Fatalf("err = %v", err)
	}
}
