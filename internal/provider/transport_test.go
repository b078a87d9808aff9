package provider

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRetryTransport(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		statuses  []int // answered in order; the last repeats
		max       int
		wantCalls int32
		wantCode  int
		wantErr   string
	}{
		"success at once":           {statuses: []int{200}, max: 3, wantCalls: 1, wantCode: 200},
		"503 then success":          {statuses: []int{503, 503, 200}, max: 3, wantCalls: 3, wantCode: 200},
		"500 exhausted":             {statuses: []int{500}, max: 2, wantCalls: 3, wantCode: 500},
		"429 exhausted is an error": {statuses: []int{429}, max: 1, wantCalls: 2, wantErr: "still rate limited"},
		"404 not retried":           {statuses: []int{404}, max: 3, wantCalls: 1, wantCode: 404},
		"501 not retried":           {statuses: []int{501}, max: 3, wantCalls: 1, wantCode: 501},
		"no retries configured":     {statuses: []int{503}, max: 0, wantCalls: 1, wantCode: 503},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1))
				body, _ := io.ReadAll(r.Body)
				if string(body) != "payload" {
					t.Errorf("attempt %d sent body %q", n, body)
				}
				w.WriteHeader(tc.statuses[min(n, len(tc.statuses))-1])
			}))
			defer srv.Close()
			c := &http.Client{Transport: &retryTransport{next: http.DefaultTransport, max: tc.max, minWait: time.Millisecond, maxWait: 5 * time.Millisecond}}
			req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL, strings.NewReader("payload"))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Do(req)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != tc.wantCode {
					t.Errorf("status %d, want %d", resp.StatusCode, tc.wantCode)
				}
			}
			if got := calls.Load(); got != tc.wantCalls {
				t.Errorf("%d calls, want %d", got, tc.wantCalls)
			}
		})
	}
}
