package provider

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// TestOwnershipSnapshot: concurrent creates under one parent share one
// list; a failed list leaves no snapshot (nothing is adopted then), and
// the next create tries again; the snapshot is never replaced.
func TestOwnershipSnapshot(t *testing.T) {
	t.Parallel()
	var o ownership
	var lists atomic.Int32
	release := make(chan struct{})
	var listErr error // the list succeeds
	list := func(context.Context) (map[string]bool, error) {
		lists.Add(1)
		<-release
		return map[string]bool{"a": true}, listErr
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.snapshot(context.Background(), "p", list)
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := lists.Load(); n != 1 {
		t.Errorf("10 concurrent creates listed %d times, want 1", n)
	}
	o.snapshot(context.Background(), "p", func(context.Context) (map[string]bool, error) {
		t.Error("a held snapshot was listed again")
		return nil, nil
	})
	for _, tc := range []struct {
		key, id           string
		existed, snapshot bool
	}{{"p", "a", true, true}, {"p", "b", false, true}, {"q", "a", false, false}} {
		existed, snapshot := o.existedBefore(tc.key, tc.id)
		if existed != tc.existed || snapshot != tc.snapshot {
			t.Errorf("existedBefore(%s, %s) = %v, %v, want %v, %v", tc.key, tc.id, existed, snapshot, tc.existed, tc.snapshot)
		}
	}
	o.snapshot(context.Background(), "q", func(context.Context) (map[string]bool, error) { return nil, errors.New("503") })
	if _, snapshot := o.existedBefore("q", "a"); snapshot {
		t.Error("a failed list left a snapshot")
	}
	o.snapshot(context.Background(), "q", func(context.Context) (map[string]bool, error) { return map[string]bool{}, nil })
	if _, snapshot := o.existedBefore("q", "a"); !snapshot {
		t.Error("the list after a failed one left no snapshot")
	}
	o.receive("x")
	if !o.wasReceived("x") || o.wasReceived("y") {
		t.Error("received IDs are not recorded")
	}
}

func TestAgentTokenOrphansWarning(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tok := func(id string) *tfe.AgentToken { return &tfe.AgentToken{ID: id, CreatedAt: at} }
	if w := agentTokenOrphansWarning("apool-1", "ci", "at-mine", nil); w != "" {
		t.Errorf("no candidates: warning %q", w)
	}
	if w := agentTokenOrphansWarning("apool-1", "ci", "at-mine", []*tfe.AgentToken{tok("at-mine")}); w != "" {
		t.Errorf("only the token in state: warning %q", w)
	}
	w := agentTokenOrphansWarning("apool-1", "ci-agents", "at-mine", []*tfe.AgentToken{tok("at-b"), tok("at-a"), tok("at-b"), tok("at-mine")})
	for _, want := range []string{"at-a (created 2026-11-23T12:00:00Z)", "at-b", `description "ci-agents"`, "DELETE /api/v2/authentication-tokens/<id>", "revoked nothing", "apool-1"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning lacks %q:\n%s", want, w)
		}
	}
	if strings.Count(w, "at-b") != 1 || strings.Contains(w, "  - at-mine") {
		t.Errorf("warning lists a token twice, or the one in state:\n%s", w)
	}
	if strings.Index(w, "at-a") > strings.Index(w, "at-b") {
		t.Errorf("candidates not sorted:\n%s", w)
	}
}

func TestTestRunOrphansWarning(t *testing.T) {
	t.Parallel()
	m := moduleRef{Organization: "o", Name: "n", Provider: "aws"}
	run := func(id string) *testRunRecord { return &testRunRecord{ID: id, Status: "queued"} }
	if w := testRunOrphansWarning(m, "cv-1", "trun-mine", "which is in state", nil); w != "" {
		t.Errorf("no candidates: warning %q", w)
	}
	w := testRunOrphansWarning(m, "cv-1", "trun-mine", "which is in state", []*testRunRecord{run("trun-x"), run("trun-x"), run("trun-mine")})
	if strings.Count(w, "trun-x") != 1 || strings.Contains(w, "  - trun-mine") || !strings.Contains(w, "cv-1") || !strings.Contains(w, "/cancel") {
		t.Errorf("warning:\n%s", w)
	}
}
