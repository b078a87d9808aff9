package sandbox_test

import (
	"context"
	"fmt"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// BenchmarkAgentTokenRead measures one token read through go-tfe: the
// request a refresh of tfgov_agent_token costs.
func BenchmarkAgentTokenRead(b *testing.B) {
	ctx := context.Background()
	w := newWorld(b)
	pool := w.agentPool(b)
	tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("bench")})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.owner.AgentTokens.Read(ctx, tok.ID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAgentTokenList measures a full page of 100 tokens, the page size
// the tfgov_agent_tokens data source asks for.
func BenchmarkAgentTokenList(b *testing.B) {
	ctx := context.Background()
	w := newWorld(b)
	pool := w.agentPool(b)
	for range 100 {
		if _, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("bench")}); err != nil {
			b.Fatal(err)
		}
	}
	opts := &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageSize: 100}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.owner.AgentTokens.ListWithOptions(ctx, pool.ID, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModuleTestRun measures a trivial module test run from end to
// end: a configuration version, its upload, the run, and polls (every
// 50 ms) until the engine's `terraform test` has finished: what a
// tfgov_module_test_run with wait_for_completion costs, less the
// provider's coarser polling.
func BenchmarkModuleTestRun(b *testing.B) {
	w := newWorld(b)
	m, id := w.testModule(b, "bench")
	b.ReportAllocs()
	for b.Loop() {
		cv := uploadedVersion(b, w.owner, id, "../testdata/module-tests/pass")
		tr := createRun(b, w.owner, m, cv, tfe.TestRunCreateOptions{})
		if got := waitRun(b, w.owner, id, tr.ID, tfe.TestRunFinished, tfe.TestRunErrored); got.TestStatus != tfe.TestPass {
			b.Fatalf("run %s: %s %s", got.ID, got.Status, got.TestStatus)
		}
	}
}

// BenchmarkTeamList measures the first page of an organization of 2,000
// teams, as a member of one of them sees it (the visibility of each team
// is the member's teams' and the organization access's).
func BenchmarkTeamList(b *testing.B) {
	ctx := context.Background()
	w := newWorld(b)
	var mine *tfe.Team
	for i := range 2000 {
		visibility := "secret"
		if i%2 == 0 {
			visibility = "organization"
		}
		t, err := w.owner.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("bench-%d", i)), Visibility: tfe.String(visibility)})
		if err != nil {
			b.Fatal(err)
		}
		mine = t
	}
	for name, c := range map[string]*tfe.Client{"owner": w.owner, "member": w.member(b, "bench@example.invalid", mine)} {
		b.Run(name, func(b *testing.B) {
			opts := &tfe.TeamListOptions{ListOptions: tfe.ListOptions{PageSize: 100}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Teams.List(ctx, w.org, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
