package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// countingTransport counts the requests a client sends and the 5xx it
// gets.
type countingTransport struct {
	requests, serverErrors *atomic.Int64
}

func (c countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.requests.Add(1)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && resp.StatusCode >= 500 {
		c.serverErrors.Add(1)
	}
	return resp, err
}

// TestParallelClients runs 16 go-tfe clients, four in each of four
// organizations, for 10 seconds (3 with -short): each loops over creates,
// reads, updates, lists and deletes of policies, agent tokens, test
// variables and team access. No request fails and none gets a 5xx; under
// -race, no data race. Not parallel with other tests: it loads both cores.
func TestParallelClients(t *testing.T) {
	duration := 10 * time.Second
	if testing.Short() {
		duration = 3 * time.Second
	}
	ctx := context.Background()
	w := newWorld(t)
	var requests, serverErrors atomic.Int64
	httpClient := &http.Client{Transport: countingTransport{&requests, &serverErrors}}

	type orgFixture struct {
		w    *world
		tok  string
		pool *tfe.AgentPool
		mod  tfe.RegistryModuleID
		ws   *tfe.Workspace
	}
	var orgs []orgFixture
	for i := range 4 {
		o, tok := sibling(t, w, fmt.Sprintf("org%d", i))
		orgs = append(orgs, orgFixture{w: o, tok: tok, pool: o.agentPool(t), mod: o.module(t, "net", "aws"), ws: taWorkspace(t, o, "ws")})
	}

	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	var ops atomic.Int64
	errs := make(chan error, 64)
	for n := range 16 {
		f := orgs[n%4]
		c, err := tfe.NewClient(&tfe.Config{Address: w.inst.URL, Token: f.tok, HTTPClient: httpClient})
		if err != nil {
			t.Fatal(err)
		}
		tm := f.w.team(t, fmt.Sprintf("team%d", n), nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fail := func(what string, err error) bool {
				if err == nil {
					return false
				}
				select {
				case errs <- fmt.Errorf("client %d: %s: %w", n, what, err):
				default:
				}
				return true
			}
			for i := 0; time.Now().Before(deadline); i++ {
				name := fmt.Sprintf("c%d-%d", n, i)
				pol, err := c.Policies.Create(ctx, f.w.org, sentinelPolicy(name, tfe.EnforcementAdvisory))
				if fail("create policy", err) {
					return
				}
				if fail("upload policy", c.Policies.Upload(ctx, pol.ID, []byte("main = rule { true }"))) {
					return
				}
				if _, err := c.Policies.Update(ctx, pol.ID, tfe.PolicyUpdateOptions{Description: tfe.String("d")}); fail("update policy", err) {
					return
				}
				if _, err := c.Policies.List(ctx, f.w.org, &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageSize: 20}}); fail("list policies", err) {
					return
				}
				at, err := c.AgentTokens.Create(ctx, f.pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(name)})
				if fail("create agent token", err) {
					return
				}
				if _, err := c.AgentTokens.List(ctx, f.pool.ID); fail("list agent tokens", err) {
					return
				}
				v, err := c.TestVariables.Create(ctx, f.mod, tfe.VariableCreateOptions{Key: tfe.String("K_" + fmt.Sprint(n) + "_" + fmt.Sprint(i)), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)})
				if fail("create test variable", err) {
					return
				}
				if _, err := c.TestVariables.Update(ctx, f.mod, v.ID, tfe.VariableUpdateOptions{Value: tfe.String("w")}); fail("update test variable", err) {
					return
				}
				ta, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: tm, Workspace: f.ws})
				if fail("add team access", err) {
					return
				}
				if _, err := c.TeamAccess.Update(ctx, ta.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessWrite)}); fail("update team access", err) {
					return
				}
				if _, err := c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: f.ws.ID}); fail("list team access", err) {
					return
				}
				if fail("remove team access", c.TeamAccess.Remove(ctx, ta.ID)) ||
					fail("delete test variable", c.TestVariables.Delete(ctx, f.mod, v.ID)) ||
					fail("delete agent token", c.AgentTokens.Delete(ctx, at.ID)) ||
					fail("delete policy", c.Policies.Delete(ctx, pol.ID)) {
					return
				}
				ops.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("16 clients, %s: %d loops, %d requests (%.0f/s), %d 5xx", duration, ops.Load(), requests.Load(), float64(requests.Load())/duration.Seconds(), serverErrors.Load())
	if serverErrors.Load() != 0 {
		t.Errorf("%d answers were 5xx", serverErrors.Load())
	}
	if ops.Load() < 16 {
		t.Errorf("only %d loops completed", ops.Load())
	}
	// Everything made was deleted again: nothing leaked or doubled.
	for _, f := range orgs {
		if names := policyNames(t, f.w); len(names) != 0 {
			t.Errorf("%s: policies left: %v", f.w.org, names)
		}
	}
}

// sibling creates another organization on w's sandbox and returns its
// world and a token of its owner.
func sibling(t testing.TB, w *world, org string) (*world, string) {
	t.Helper()
	ctx := context.Background()
	w.organization(t, org)
	ms, err := w.admin.OrganizationMemberships.List(ctx, org, nil)
	if err != nil || len(ms.Items) != 1 {
		t.Fatalf("memberships of %s: %v", org, err)
	}
	tok, err := w.admin.UserTokens.Create(ctx, ms.Items[0].User.ID, tfe.UserTokenCreateOptions{Description: "sibling"})
	if err != nil {
		t.Fatal(err)
	}
	return &world{inst: w.inst, admin: w.admin, owner: client(t, w.inst, tok.Token), org: org}, tok.Token
}
