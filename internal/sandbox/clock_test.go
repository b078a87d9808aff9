package sandbox_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestClockOffset: with the sandbox's clock an hour ahead, through go-tfe,
// an agent token's created-at and every answer's Date header are an hour
// ahead of the machine's clock; switched at run time (Server method and
// admin endpoint) to an hour behind, they follow; a bad offset is refused.
func TestClockOffset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorldWith(t, sandbox.Options{ClockOffset: time.Hour})
	pool, err := w.owner.AgentPools.Create(ctx, w.org, tfe.AgentPoolCreateOptions{Name: tfe.String("clock")})
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got time.Time, off time.Duration) {
		t.Helper()
		if d := got.Sub(time.Now().Add(off)); d < -5*time.Second || d > 5*time.Second {
			t.Errorf("%s is %s off the machine's clock, want %s", what, time.Until(got).Round(time.Second), off)
		}
	}
	date := func() time.Time {
		t.Helper()
		r, _ := http.NewRequestWithContext(ctx, http.MethodGet, w.inst.URL+"/api/v2/ping", nil)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		d, err := http.ParseTime(resp.Header.Get("Date"))
		if err != nil {
			t.Fatalf("Date header %q: %v", resp.Header.Get("Date"), err)
		}
		return d
	}
	for _, off := range []time.Duration{time.Hour, -time.Hour, 10 * time.Second} {
		switch off {
		case -time.Hour:
			w.inst.Server.SetClockOffset(off)
		case 10 * time.Second:
			r, _ := http.NewRequestWithContext(ctx, http.MethodPut, w.inst.URL+"/_sandbox/clock-offset", strings.NewReader(`{"offset":"10s"}`))
			r.Header.Set("Authorization", "Bearer "+w.inst.Token)
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"offset":"10s"`) {
				t.Fatalf("PUT /_sandbox/clock-offset: %d %s", resp.StatusCode, b)
			}
		}
		tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("clock")})
		if err != nil {
			t.Fatal(err)
		}
		near("created-at", tok.CreatedAt, off)
		near("the Date header", date(), off)
	}
	r, _ := http.NewRequestWithContext(ctx, http.MethodPut, w.inst.URL+"/_sandbox/clock-offset", strings.NewReader(`{"offset":"ten seconds"}`))
	r.Header.Set("Authorization", "Bearer "+w.inst.Token)
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "not a duration") {
		t.Errorf("a bad offset: %d %s", resp.StatusCode, b)
	}
}
