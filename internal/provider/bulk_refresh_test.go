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
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckAgentTokensGone(t, pool.ID),
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
