package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// TestAccBulkRefresh_agentTokens: a refresh of 150 tokens of one pool costs
// two list requests (100 a page) and go-tfe's start-up ping, whatever the
// number of tokens; then a token revoked outside Terraform leaves state. It
// is not parallel, so the sandbox's counter sees no other test's requests.
func TestAccBulkRefresh_agentTokens(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	const n = 150
	pool := testAccAgentPool(t)
	listPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
	config := fmt.Sprintf(`
resource "tfgov_agent_token" "bulk" {
  count         = %d
  agent_pool_id = %q
  description   = "bulk ${count.index}"
}
`, n, pool.ID)
	var before map[string]int
	var lists int
	accTest(t, resource.TestCase{
		CheckDestroy: testAccCheckAgentTokensGone(t, pool.ID),
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig:    func() { before, lists = sb.Stats(), sb.RequestsTo("GET", listPath) },
				RefreshState: true,
				Check: func(*terraform.State) error {
					got, total := statsSince(sb.Stats(), before)
					if l := sb.RequestsTo("GET", listPath) - lists; l != 2 {
						return fmt.Errorf("the refresh of %d tokens listed the pool %d times, want 2: %v", n, l, got)
					}
					if total > bulkRefreshBudget(n) {
						return fmt.Errorf("the refresh of %d tokens made %d requests, want at most %d: %v", n, total, bulkRefreshBudget(n), got)
					}
					t.Logf("refresh of %d tokens: %d requests %v", n, total, got)
					return nil
				},
			},
			// One token revoked outside Terraform: the list no longer has
			// it, and the plan makes it again.
			{
				PreConfig: func() {
					l, err := testAccClient(t).AgentTokens.List(t.Context(), pool.ID)
					if err != nil || len(l.Items) == 0 {
						t.Fatalf("listing tokens: %v", err)
					}
					if err := testAccClient(t).AgentTokens.Delete(t.Context(), l.Items[0].ID); err != nil {
						t.Fatal(err)
					}
				},
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// bulkRefreshBudget is the most requests a refresh of n resources under one
// parent may make: ceil(n/100) list pages, go-tfe's ping, and the token
// check at configure.
func bulkRefreshBudget(n int) int { return (n+bulkPageSize-1)/bulkPageSize + 2 }

// statsSince is the difference between two sandbox counters, and its total.
func statsSince(now, before map[string]int) (map[string]int, int) {
	diff, total := map[string]int{}, 0
	for k, v := range now {
		if d := v - before[k]; d != 0 {
			diff[k] = d
			total += d
		}
	}
	return diff, total
}

// testAccCheckAgentTokensGone checks that the pool holds no token.
func testAccCheckAgentTokensGone(t *testing.T, poolID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		l, err := testAccClient(t).AgentTokens.List(t.Context(), poolID)
		if err != nil {
			return err
		}
		if len(l.Items) != 0 {
			return fmt.Errorf("agent pool %s still holds %d tokens", poolID, len(l.Items))
		}
		return nil
	}
}

// TestAccModuleTestRunBulkRefresh_paging: a run's refresh looks for it page
// by page, newest first, each page fetched once for every run: with 23 runs
// 10 a page, refreshing every run concurrently costs the three pages, the
// newest run alone one page, a run the module does not have every page, and
// a write of the module's runs drops the pages. Not parallel: it changes
// the package's page size, which parallel tests start only after it has
// put back.
func TestAccModuleTestRunBulkRefresh_paging(t *testing.T) {
	testAccPreCheck(t)
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	saved := testRunListPageSize
	testRunListPageSize = 10
	t.Cleanup(func() { testRunListPageSize = saved })
	mod := testAccModule(t)
	ids := testAccQueueTestRuns(t, mod, 23) // newest first
	listPath := "/api/v2/" + mod.testRunsPath()
	ctx := t.Context()
	lists := func() int { return sb.RequestsTo("GET", listPath) }

	d := &providerData{client: testAccClient(t)}
	before := lists()
	rec, err := d.moduleTestRun(ctx, mod, ids[0])
	if err != nil || rec == nil || rec.ID != ids[0] {
		t.Fatalf("newest run: %v, %v", rec, err)
	}
	if n := lists() - before; n != 1 {
		t.Errorf("the newest run cost %d list requests, want 1", n)
	}

	d = &providerData{client: testAccClient(t)}
	before = lists()
	errs := make(chan error, len(ids))
	for _, id := range ids {
		go func() {
			rec, err := d.moduleTestRun(ctx, mod, id)
			if err == nil && (rec == nil || rec.ID != id) {
				err = fmt.Errorf("run %s: got %v", id, rec)
			}
			errs <- err
		}()
	}
	for range ids {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := lists() - before; n != 3 {
		t.Errorf("refreshing all 23 runs cost %d list requests, want 3", n)
	}

	before = lists()
	if rec, err := d.moduleTestRun(ctx, mod, "trun-notthere12345"); err != nil || rec != nil {
		t.Errorf("a run the module does not have: %v, %v", rec, err)
	}
	if n := lists() - before; n != 0 {
		t.Errorf("a missing run after every page was held cost %d list requests, want 0", n)
	}

	d.testRunsChanged(mod)
	before = lists()
	if _, err := d.moduleTestRun(ctx, mod, ids[len(ids)-1]); err != nil {
		t.Fatal(err)
	}
	if n := lists() - before; n != 3 {
		t.Errorf("the oldest run after a write cost %d list requests, want 3 (the pages were dropped)", n)
	}
}
