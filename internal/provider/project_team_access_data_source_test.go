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

// TestAccProjectTeamAccessDataSource reads a custom grant made outside Terraform and one a resource
// of the same configuration makes; a team without a grant fails, saying the token sees every grant.
func TestAccProjectTeamAccessDataSource(t *testing.T) {
	prj := testAccGrantProject(t)
	deployers, managed, none := testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil)
	runs := tfe.WorkspaceRunsPermissionApply
	grant, err := testAccClient(t).TeamProjectAccess.Add(context.Background(), tfe.TeamProjectAccessAddOptions{
		Access: tfe.TeamProjectAccessCustom, Team: deployers, Project: prj,
		WorkspaceAccess: &tfe.TeamProjectAccessWorkspacePermissionsOptions{Runs: &runs, Locking: tfe.Bool(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`
resource "tfgov_team_project_access" "managed" {
  team_id    = %[3]q
  project_id = %[1]q
  access     = "admin"
}

data "tfgov_project_team_access" "deployers" {
  team_id    = %[2]q
  project_id = %[1]q
}

data "tfgov_project_team_access" "managed" {
  team_id    = tfgov_team_project_access.managed.team_id
  project_id = tfgov_team_project_access.managed.project_id
}
`, prj.ID, deployers.ID, managed.ID)
	ds := "data.tfgov_project_team_access."
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds+"deployers", tfjsonpath.New("id"), knownvalue.StringExact(grant.ID)),
					statecheck.ExpectKnownValue(ds+"deployers", tfjsonpath.New("team_name"), knownvalue.StringExact(deployers.Name)),
					statecheck.ExpectKnownValue(ds+"deployers", tfjsonpath.New("access"), knownvalue.StringExact("custom")),
					statecheck.ExpectKnownValue(ds+"deployers", tfjsonpath.New("workspace_access").AtMapKey("runs"), knownvalue.StringExact("apply")),
					statecheck.ExpectKnownValue(ds+"deployers", tfjsonpath.New("workspace_access").AtMapKey("locking"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(ds+"deployers", tfjsonpath.New("project_access").AtMapKey("teams"), knownvalue.StringExact("none")),
					statecheck.ExpectKnownValue(ds+"managed", tfjsonpath.New("access"), knownvalue.StringExact("admin")),
					statecheck.ExpectKnownValue(ds+"managed", tfjsonpath.New("project_access").AtMapKey("teams"), knownvalue.StringExact("manage")),
				},
			},
			{
				Config: fmt.Sprintf("data \"tfgov_project_team_access\" \"none\" {\n  team_id    = %q\n  project_id = %q\n}\n", none.ID, prj.ID),
				ExpectError: regexp.MustCompile(`(?s)Team project access not found.*` + none.ID + `.*has no access to project ` + prj.ID +
					`.*the API token sees every grant of the project`),
			},
		},
	})
}
