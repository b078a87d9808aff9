package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccAgentTokensDataSource_basic lists a pool with more tokens than one
// page holds (the data source asks for 100 a page), plus one made by
// Terraform, and checks every one is there, in order, without secrets.
func TestAccAgentTokensDataSource_basic(t *testing.T) {
	pool := testAccAgentPool(t)
	ctx := context.Background()
	const made = 102
	want := make([]knownvalue.Check, 0, made+1)
	for i := range made {
		desc := fmt.Sprintf("fixture %03d", i)
		if _, err := testAccClient(t).AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(desc)}); err != nil {
			t.Fatalf("creating token %d: %v", i, err)
		}
		want = append(want, knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"description":  knownvalue.StringExact(desc),
			"id":           knownvalue.StringRegexp(regexp.MustCompile(`^at-`)),
			"last_used_at": knownvalue.Null(),
		}))
	}
	want = append(want, knownvalue.ObjectPartial(map[string]knownvalue.Check{"description": knownvalue.StringExact("from terraform")}))

	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
resource "tfgov_agent_token" "test" {
  agent_pool_id = %[1]q
  description   = "from terraform"
}

data "tfgov_agent_tokens" "test" {
  agent_pool_id = tfgov_agent_token.test.agent_pool_id
  depends_on    = [tfgov_agent_token.test]
}
`, pool.ID),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_agent_tokens.test", tfjsonpath.New("id"), knownvalue.StringExact(pool.ID)),
				statecheck.ExpectKnownValue("data.tfgov_agent_tokens.test", tfjsonpath.New("tokens"), knownvalue.ListExact(want)),
			},
		}},
	})
}

func TestAccAgentTokensDataSource_missingPool(t *testing.T) {
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:      `data "tfgov_agent_tokens" "test" { agent_pool_id = "apool-missing000000" }`,
			ExpectError: wrappedRE(`Agent pool apool-missing000000 was not found`),
		}},
	})
}
