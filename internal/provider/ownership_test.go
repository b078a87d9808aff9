package provider

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// TestOwnershipClaim: of concurrent creates that find one object, at most
// one adopts it (one object, one owner); an object whose create answer this
// provider received is adopted by none.
func TestOwnershipClaim(t *testing.T) {
	t.Parallel()
	var o ownership
	var won atomic.Int32
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if o.claim("a") {
				won.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := won.Load(); n != 1 {
		t.Errorf("%d creates adopted one object, want 1", n)
	}
	if !o.wasReceived("a") {
		t.Error("an adopted object is not recorded")
	}
	o.receive("x")
	if o.claim("x") {
		t.Error("an object whose create answer arrived was claimed")
	}
	if !o.wasReceived("x") || o.wasReceived("y") {
		t.Error("received IDs are not recorded")
	}
}

func TestAgentTokenOrphansWarning(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tok := func(id string) *tfe.AgentToken { return &tfe.AgentToken{ID: id, CreatedAt: at} }
	if s, w := agentTokenOrphansWarning("apool-1", "ci", "at-mine", nil); s != "" || w != "" {
		t.Errorf("no candidates: warning %q: %q", s, w)
	}
	if s, w := agentTokenOrphansWarning("apool-1", "ci", "at-mine", []*tfe.AgentToken{tok("at-mine")}); s != "" || w != "" {
		t.Errorf("only the token in state: warning %q: %q", s, w)
	}
	s, w := agentTokenOrphansWarning("apool-1", "ci-agents", "at-mine", []*tfe.AgentToken{tok("at-b"), tok("at-a"), tok("at-b"), tok("at-mine")})
	// The summary names the tokens, the pool and the description: Terraform
	// folds warnings with one summary, showing only the first's detail.
	if want := `Agent tokens may have been left behind in pool apool-1: at-a, at-b (description "ci-agents")`; s != want {
		t.Errorf("summary %q, want %q", s, want)
	}
	if s1, _ := agentTokenOrphansWarning("apool-1", "ci", "at-mine", []*tfe.AgentToken{tok("at-c")}); s1 == s || !strings.Contains(s1, "at-c") {
		t.Errorf("summaries of different tokens: %q and %q", s, s1)
	}
	for _, want := range []string{"at-a (created 2026-11-23T12:00:00Z)", "at-b", `description "ci-agents"`, "DELETE /api/v2/authentication-tokens/<id>", "revoked nothing", "apool-1", "tfgov_agent_token_prune"} {
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
