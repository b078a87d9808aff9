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

// testAccAgentPoolNamed makes an agent pool called name through go-tfe (limited to ws when given),
// deleted when the test ends.
func testAccAgentPoolNamed(t *testing.T, name string, ws *tfe.Workspace) *tfe.AgentPool {
	t.Helper()
	c := testAccClient(t)
	opts := tfe.AgentPoolCreateOptions{Name: tfe.String(name)}
	if ws != nil {
		opts.OrganizationScoped, opts.AllowedWorkspaces = tfe.Bool(false), []*tfe.Workspace{ws}
	}
	p, err := c.AgentPools.Create(context.Background(), testAccOrganization(), opts)
	if err != nil {
		t.Fatalf("creating agent pool %s: %v", name, err)
	}
	t.Cleanup(func() { cleanupErr(t, "agent pool "+p.ID, c.AgentPools.Delete(context.Background(), p.ID)) })
	return p
}

// TestAccAgentPoolsDataSource: pools by exact names (case-sensitive) and by
// search (any case), whose IDs make a token per pool; a name with a typo fails naming the pool it meant, and so does
// a search that matches nothing, unless allow_empty.
func TestAccAgentPoolsDataSource(t *testing.T) {
	prefix := testAccName("pools")
	ws := testAccWorkspace(t)
	build := testAccAgentPoolNamed(t, prefix+"-build", nil)
	deploy := testAccAgentPoolNamed(t, prefix+"-deploy", ws)
	other := testAccAgentPoolNamed(t, prefix+"-BUILD-old", nil)
	config := fmt.Sprintf(`
data "tfgov_agent_pools" "by_names" {
  names = [%[1]q, %[2]q]
}

data "tfgov_agent_pools" "by_search" {
  search = "%[3]s-build"
}

data "tfgov_agent_pools" "none_expected" {
  search      = "%[3]s-nothing"
  allow_empty = true
}

# count, not for_each, which the testing framework's state cannot hold
# (examples/data-sources/tfgov_agent_pools feeds for_each).
resource "tfgov_agent_token" "ci" {
  count         = length(data.tfgov_agent_pools.by_search.ids)
  agent_pool_id = data.tfgov_agent_pools.by_search.ids[count.index]
  description   = "ci ${data.tfgov_agent_pools.by_search.agent_pools[count.index].name}"
}

output "token_pools" {
  value = { for i, t in tfgov_agent_token.ci : data.tfgov_agent_pools.by_search.agent_pools[i].name => t.agent_pool_id }
}
`, build.Name, deploy.Name, prefix)
	ids := func(ps ...*tfe.AgentPool) knownvalue.Check {
		m := map[string]knownvalue.Check{}
		for _, p := range ps {
			m[p.Name] = knownvalue.StringExact(p.ID)
		}
		return knownvalue.MapExact(m)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_agent_pools.by_names", tfjsonpath.New("ids_by_name"), ids(build, deploy)),
				statecheck.ExpectKnownValue("data.tfgov_agent_pools.by_names", tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact(build.ID), knownvalue.StringExact(deploy.ID),
				})),
				statecheck.ExpectKnownValue("data.tfgov_agent_pools.by_names", tfjsonpath.New("agent_pools").AtSliceIndex(1).AtMapKey("organization_scoped"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.tfgov_agent_pools.by_names", tfjsonpath.New("agent_pools").AtSliceIndex(1).AtMapKey("allowed_workspace_ids"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(ws.ID)})),
				statecheck.ExpectKnownValue("data.tfgov_agent_pools.by_search", tfjsonpath.New("ids_by_name"), ids(build, other)),
				statecheck.ExpectKnownValue("data.tfgov_agent_pools.none_expected", tfjsonpath.New("ids_by_name"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				// A token in each pool found.
				statecheck.ExpectKnownOutputValue("token_pools", ids(build, other)),
			},
		}},
	})
	testAccExpectErrors(t, map[string]testAccErrorCase{
		"typo": {
			fmt.Sprintf(`data "tfgov_agent_pools" "typo" { names = [%q, "%s-deplyo"] }`, build.Name, prefix),
			fmt.Sprintf(`No agent pool named "%s-deplyo" in organization %s; the closest names: %q`, prefix, testAccOrganization(), deploy.Name),
		},
		"case": {
			fmt.Sprintf(`data "tfgov_agent_pools" "typo" { names = ["%s-Build"] }`, prefix),
			fmt.Sprintf(`No agent pool named "%s-Build" in organization %s; the closest names: %q`, prefix, testAccOrganization(), build.Name),
		},
		"search matching nothing": {
			fmt.Sprintf(`data "tfgov_agent_pools" "typo" { search = "%s-dpeloy" }`, prefix),
			fmt.Sprintf(`has a name containing "%s-dpeloy"; the closest names: %q`, prefix, deploy.Name),
		},
		"names and search": {
			`data "tfgov_agent_pools" "both" {` + "\n" + `names = ["a"]` + "\n" + `search = "b"` + "\n}",
			`These attributes cannot be configured together: [names,search]`,
		},
	})
}
