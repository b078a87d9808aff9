package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccTeamDataSource: a team by name, teams by names and every team (the
// owners team among them); a typo fails naming the team it meant, and so
// does one name of several.
func TestAccTeamDataSource(t *testing.T) {
	a, b := testAccTeam(t, nil), testAccTeam(t, nil)
	config := fmt.Sprintf(`
data "tfgov_team" "a" {
  name = %[1]q
}

data "tfgov_teams" "ab" {
  names = [%[1]q, %[2]q]
}

data "tfgov_teams" "all" {}
`, a.Name, b.Name)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.tfgov_team.a", tfjsonpath.New("id"), knownvalue.StringExact(a.ID)),
				statecheck.ExpectKnownValue("data.tfgov_team.a", tfjsonpath.New("visibility"), knownvalue.StringExact("organization")),
				statecheck.ExpectKnownValue("data.tfgov_team.a", tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
				statecheck.ExpectKnownValue("data.tfgov_teams.ab", tfjsonpath.New("ids_by_name"), knownvalue.MapExact(map[string]knownvalue.Check{
					a.Name: knownvalue.StringExact(a.ID), b.Name: knownvalue.StringExact(b.ID),
				})),
				statecheck.ExpectKnownValue("data.tfgov_teams.ab", tfjsonpath.New("teams"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue("data.tfgov_teams.all", tfjsonpath.New("ids_by_name"), knownvalue.MapPartial(map[string]knownvalue.Check{
					"owners": knownvalue.NotNull(), a.Name: knownvalue.StringExact(a.ID), b.Name: knownvalue.StringExact(b.ID),
				})),
			},
		}},
	})
	testAccExpectErrors(t, map[string]testAccErrorCase{
		"typo": {
			fmt.Sprintf(`data "tfgov_team" "typo" { name = %q }`, a.Name+"x"),
			fmt.Sprintf(`No team named %q in organization %s; the closest names: %q`, a.Name+"x", testAccOrganization(), a.Name),
		},
		"typo among names": {
			fmt.Sprintf(`data "tfgov_teams" "typo" { names = [%q, %q] }`, a.Name, b.Name[1:]),
			fmt.Sprintf(`No team named %q in organization %s; the closest names: %q`, b.Name[1:], testAccOrganization(), b.Name),
		},
		"bad name": {`data "tfgov_team" "x" { name = "a b" }`, `must contain only letters, numbers, - and _`},
	})
}
