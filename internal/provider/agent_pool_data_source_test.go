package provider

import (
	"context"
	"fmt"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccAgentPoolDataSource: a pool by its exact name, although another
// pool's name contains it (the API's search matches both); a pool limited
// to a workspace gives that workspace; a typo fails naming the pool it
// meant.
func TestAccAgentPoolDataSource(t *testing.T) {
	c := testAccClient(t)
	pool := testAccAgentPool(t)
	ws := testAccWorkspace(t)
	// "-l": three edits from the typo below, so no other pool of the
	// organization (a random name, about nine edits away) comes between.
	larger, err := c.AgentPools.Create(context.Background(), testAccOrganization(), tfe.AgentPoolCreateOptions{
		Name: tfe.String(pool.Name + "-l"), OrganizationScoped: tfe.Bool(false), AllowedWorkspaces: []*tfe.Workspace{ws},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cleanupErr(t, "agent pool "+larger.ID, c.AgentPools.Delete(context.Background(), larger.ID)) })
	config := fmt.Sprintf(`
data "tfgov_agent_pool" "pool" {
  name = %q
}

data "tfgov_agent_pool" "larger" {
  name = %q
}
`, pool.Name, larger.Name)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_agent_pool.pool", tfjsonpath.New("id"), knownvalue.StringExact(pool.ID)),
				statecheck.ExpectKnownValue("data.tfgov_agent_pool.pool", tfjsonpath.New("organization_scoped"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.tfgov_agent_pool.pool", tfjsonpath.New("allowed_workspace_ids"), knownvalue.SetExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.tfgov_agent_pool.larger", tfjsonpath.New("id"), knownvalue.StringExact(larger.ID)),
				statecheck.ExpectKnownValue("data.tfgov_agent_pool.larger", tfjsonpath.New("organization_scoped"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.tfgov_agent_pool.larger", tfjsonpath.New("allowed_workspace_ids"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(ws.ID)})),
			},
		}},
	})
	testAccExpectErrors(t, map[string]testAccErrorCase{
		"typo": {
			fmt.Sprintf(`data "tfgov_agent_pool" "typo" { name = %q }`, pool.Name[:len(pool.Name)-1]),
			fmt.Sprintf(`No agent pool named %q in organization %s; the closest names: %q, %q`, pool.Name[:len(pool.Name)-1], testAccOrganization(), pool.Name, larger.Name),
		},
	})
}
