package sandbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

func TestPing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, w.inst.URL+"/api/v2/ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("TFP-API-Version") == "" || resp.Header.Get("TFP-AppName") == "" {
		t.Errorf("ping headers = %v", resp.Header)
	}
	if w.owner.RemoteAPIVersion() == "" {
		t.Error("go-tfe did not read the API version")
	}
}

// TestUnknownRoutes answers 404 (never 405 or 5xx, which go-tfe retries).
func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/v2/nothing-here"},
		{http.MethodPut, "/api/v2/authentication-tokens/at-x"},
		{http.MethodGet, "/"},
	} {
		req, err := http.NewRequestWithContext(context.Background(), c.method, w.inst.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+w.inst.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s = %d, want 404", c.method, c.path, resp.StatusCode)
		}
	}
}

func TestRateLimitHeader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		limit   int
		want    string
		wantErr bool
	}{{30, "30", false}, {0, "", false}, {3, "", true}} {
		s, err := sandbox.New(sandbox.Options{RateLimit: tc.limit})
		if tc.wantErr {
			if err == nil {
				t.Errorf("rate limit %d accepted", tc.limit)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequestWithContext(context.Background(), http.MethodGet, "/api/v2/ping", nil))
		_ = s.Close()
		if got := rec.Header().Get("X-RateLimit-Limit"); got != tc.want {
			t.Errorf("limit %d: header %q, want %q", tc.limit, got, tc.want)
		}
	}
}
