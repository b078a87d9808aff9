package sandbox_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestOnRequest: the hook sees each request as it arrives, before it is
// processed, under its Stats route; nil removes it.
func TestOnRequest(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, sandbox.Options{})
	srv := w.inst.Server
	var mu sync.Mutex
	var seen []string
	srv.OnRequest(func(route string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, route)
	})
	ctx := context.Background()
	if _, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("hooked", tfe.EnforcementAdvisory)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Policies.List(ctx, w.org, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	got := slices.Clone(seen)
	mu.Unlock()
	want := []string{"POST /api/v2/organizations/{org}/policies", "GET /api/v2/organizations/{org}/policies"}
	if !slices.Equal(got, want) {
		t.Errorf("the hook saw %q, want %q", got, want)
	}
	srv.OnRequest(nil)
	if _, err := w.owner.Policies.List(ctx, w.org, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != len(want) {
		t.Errorf("the hook, removed, still saw %q", seen[len(want):])
	}
}

// TestOnRequest_beforeProcessing: a request the hook sees has not been
// acted on yet, so a test can act between a write's sending and its effect.
func TestOnRequest_beforeProcessing(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, sandbox.Options{})
	srv := w.inst.Server
	ctx := context.Background()
	found := make(chan int, 1)
	srv.OnRequest(func(route string) {
		if route == "POST /api/v2/organizations/{org}/policies" {
			l, err := w.owner.Policies.List(ctx, w.org, nil)
			if err != nil {
				t.Error(err)
			}
			found <- len(l.Items)
		}
	})
	if _, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("first", tfe.EnforcementAdvisory)); err != nil {
		t.Fatal(err)
	}
	srv.OnRequest(nil)
	if n := <-found; n != 0 {
		t.Errorf("the hook saw %d policies while the first create arrived, want 0", n)
	}
}

// TestSetLatency: the latency changes at run time, for the requests after
// it; a negative one is refused.
func TestSetLatency(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, sandbox.Options{})
	srv := w.inst.Server
	if err := srv.SetLatency(-time.Millisecond); err == nil {
		t.Error("SetLatency(-1ms) was accepted")
	}
	const latency = 200 * time.Millisecond
	if err := srv.SetLatency(latency); err != nil {
		t.Fatal(err)
	}
	if got := srv.Latency(); got != latency {
		t.Errorf("Latency() = %s, want %s", got, latency)
	}
	ctx := context.Background()
	start := time.Now()
	if _, err := w.owner.Policies.List(ctx, w.org, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < latency {
		t.Errorf("a request with latency %s answered after %s", latency, d)
	}
	if err := srv.SetLatency(0); err != nil {
		t.Fatal(err)
	}
	if got := srv.Latency(); got != 0 {
		t.Errorf("Latency() = %s after SetLatency(0)", got)
	}
}
