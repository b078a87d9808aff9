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

// testAccProjectNamed makes a project called name through go-tfe, deleted when the test ends.
func testAccProjectNamed(t *testing.T, name string) *tfe.Project {
	t.Helper()
	c := testAccClient(t)
	p, err := c.Projects.Create(context.Background(), testAccOrganization(), tfe.ProjectCreateOptions{Name: name})
	if err != nil {
		t.Fatalf("creating project %s: %v", name, err)
	}
	t.Cleanup(func() { cleanupErr(t, "project "+p.ID, c.Projects.Delete(context.Background(), p.ID)) })
	return p
}

// TestAccProjectDataSource: one project by name, projects by exact names
// (case-sensitive, though the API's filter is not) and by search; a name with
// a typo fails naming the project it meant, and so does a search that
// matches nothing, unless allow_empty.
func TestAccProjectDataSource(t *testing.T) {
	prefix := testAccName("prj")
	apps := testAccProjectNamed(t, prefix+"-apps")
	web := testAccProjectNamed(t, prefix+"-web")
	other := testAccProjectNamed(t, prefix+"-APPS-old")
	config := fmt.Sprintf(`
data "tfgov_project" "one" {
  name = %[1]q
}

data "tfgov_projects" "by_names" {
  names = [%[1]q, %[2]q]
}

data "tfgov_projects" "by_search" {
  search = "%[3]s-apps"
}

data "tfgov_projects" "none_expected" {
  search      = "%[3]s-nothing"
  allow_empty = true
}
`, apps.Name, web.Name, prefix)
	ids := func(ps ...*tfe.Project) knownvalue.Check {
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
				statecheck.ExpectKnownValue("data.tfgov_project.one", tfjsonpath.New("id"), knownvalue.StringExact(apps.ID)),
				statecheck.ExpectKnownValue("data.tfgov_project.one", tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
				statecheck.ExpectKnownValue("data.tfgov_projects.by_names", tfjsonpath.New("ids_by_name"), ids(apps, web)),
				statecheck.ExpectKnownValue("data.tfgov_projects.by_names", tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact(apps.ID), knownvalue.StringExact(web.ID),
				})),
				statecheck.ExpectKnownValue("data.tfgov_projects.by_search", tfjsonpath.New("ids_by_name"), ids(apps, other)),
				statecheck.ExpectKnownValue("data.tfgov_projects.none_expected", tfjsonpath.New("ids_by_name"), knownvalue.MapExact(map[string]knownvalue.Check{})),
			},
		}},
	})
	testAccExpectErrors(t, map[string]testAccErrorCase{
		"typo": {
			fmt.Sprintf(`data "tfgov_project" "typo" { name = "%s-aps" }`, prefix),
			fmt.Sprintf(`No project named "%s-aps" in organization %s; the closest names: %q`, prefix, testAccOrganization(), apps.Name),
		},
		// filter[names] matches in any case; a name is exact.
		"case": {
			fmt.Sprintf(`data "tfgov_projects" "typo" { names = [%q, "%s-Web"] }`, apps.Name, prefix),
			fmt.Sprintf(`No project named "%s-Web" in organization %s; the closest names: %q`, prefix, testAccOrganization(), web.Name),
		},
		"search typo": {
			fmt.Sprintf(`data "tfgov_projects" "typo" { search = "%s-wbe" }`, prefix),
			fmt.Sprintf(`has a name containing "%s-wbe"; the closest names: %q`, prefix, web.Name),
		},
		"names and search": {
			`data "tfgov_projects" "both" {` + "\n" + `names = ["a"]` + "\n" + `search = "b"` + "\n}",
			`These attributes cannot be configured together: [names,search]`,
		},
	})
}
