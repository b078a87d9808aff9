package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// testAccTaggedWorkspace makes a workspace called name with tags, through
// go-tfe, deleted when the test ends.
func testAccTaggedWorkspace(t *testing.T, name string, tags ...string) *tfe.Workspace {
	t.Helper()
	c := testAccClient(t)
	opts := tfe.WorkspaceCreateOptions{Name: tfe.String(name)}
	for _, tag := range tags {
		opts.Tags = append(opts.Tags, &tfe.Tag{Name: tag})
	}
	ws, err := c.Workspaces.Create(context.Background(), testAccOrganization(), opts)
	if err != nil {
		t.Fatalf("creating workspace %s: %v", name, err)
	}
	t.Cleanup(func() { cleanupErr(t, "workspace "+ws.ID, c.Workspaces.DeleteByID(context.Background(), ws.ID)) })
	return ws
}

// idsByName checks a name-to-ID map holding exactly these workspaces.
func idsByName(wss ...*tfe.Workspace) knownvalue.Check {
	m := map[string]knownvalue.Check{}
	for _, ws := range wss {
		m[ws.Name] = knownvalue.StringExact(ws.ID)
	}
	return knownvalue.MapExact(m)
}

// TestAccWorkspaceDataSource: one workspace by name, and fleets by exact
// names, by tags with and without excluded tags, by prefix and by search;
// a name with a typo fails naming the workspace it meant, and so does a
// filter that matches nothing, unless allow_empty, and an excluded tag that
// no workspace carries, unless allow_absent_exclude_tags.
func TestAccWorkspaceDataSource(t *testing.T) {
	prefix := testAccName("names")
	tag := "acc-" + randomSuffix() // isolates the test's workspaces in a live organization
	prod := testAccTaggedWorkspace(t, prefix+"-payments-prod", tag, "prod", "Team:Payments")
	dev := testAccTaggedWorkspace(t, prefix+"-payments-dev", tag, "dev")
	web := testAccTaggedWorkspace(t, prefix+"-web-prod", tag, "prod", "legacy")
	config := fmt.Sprintf(`
data "tfgov_workspace" "one" {
  name = %[1]q
}

data "tfgov_workspaces" "by_names" {
  names = [%[1]q, %[2]q]
}

data "tfgov_workspaces" "by_tags" {
  tag_names = [%[4]q, "PROD"]
}

data "tfgov_workspaces" "excluding" {
  tag_names         = [%[4]q]
  exclude_tag_names = ["legacy"]
}

data "tfgov_workspaces" "by_prefix" {
  name_prefix = "%[3]s-payments-"
}

data "tfgov_workspaces" "by_search" {
  name_prefix = %[3]q
  search      = "PROD"
}

data "tfgov_workspaces" "none_expected" {
  tag_names   = [%[4]q, "team:payment"]
  allow_empty = true
}

data "tfgov_workspaces" "excluded_elsewhere" {
  name_prefix       = "%[3]s-payments-"
  exclude_tag_names = ["legacy"]
}

data "tfgov_workspaces" "exclusion_expected" {
  tag_names                 = [%[4]q]
  exclude_tag_names         = ["%[4]s-retired"]
  allow_absent_exclude_tags = true
}
`, prod.Name, dev.Name, prefix, tag)
	one := "data.tfgov_workspace.one"
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(one, tfjsonpath.New("id"), knownvalue.StringExact(prod.ID)),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("tag_names"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(tag), knownvalue.StringExact("prod"), knownvalue.StringExact("team:payments"),
					})),
					statecheck.ExpectKnownValue(one, tfjsonpath.New("execution_mode"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.by_names", tfjsonpath.New("ids_by_name"), idsByName(prod, dev)),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.by_names", tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact(dev.ID), knownvalue.StringExact(prod.ID), // by name
					})),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.by_tags", tfjsonpath.New("ids_by_name"), idsByName(prod, web)),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.excluding", tfjsonpath.New("ids_by_name"), idsByName(prod, dev)),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.by_prefix", tfjsonpath.New("ids_by_name"), idsByName(prod, dev)),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.by_search", tfjsonpath.New("ids_by_name"), idsByName(prod, web)),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.by_search", tfjsonpath.New("workspaces").AtSliceIndex(1).AtMapKey("tag_names"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(tag), knownvalue.StringExact("legacy"), knownvalue.StringExact("prod")})),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.none_expected", tfjsonpath.New("ids_by_name"), knownvalue.MapExact(map[string]knownvalue.Check{})),
					// An excluded tag that only workspaces outside the other filters carry is no typo.
					statecheck.ExpectKnownValue("data.tfgov_workspaces.excluded_elsewhere", tfjsonpath.New("ids_by_name"), idsByName(prod, dev)),
					statecheck.ExpectKnownValue("data.tfgov_workspaces.exclusion_expected", tfjsonpath.New("ids_by_name"), idsByName(prod, dev, web)),
				},
			},
		},
	})
	testAccExpectErrors(t, map[string]testAccErrorCase{
		"typo": {
			fmt.Sprintf(`data "tfgov_workspace" "typo" { name = %q }`, strings.TrimSuffix(prod.Name, "-prod")+"-prd"),
			fmt.Sprintf(`No workspace named %q in organization %s; the closest names: %q`, strings.TrimSuffix(prod.Name, "-prod")+"-prd", testAccOrganization(), prod.Name),
		},
		"typo among names": {
			fmt.Sprintf(`data "tfgov_workspaces" "typo" { names = [%q, %q] }`, dev.Name, web.Name+"s"),
			fmt.Sprintf(`No workspace named %q in organization %s; the closest names: %q`, web.Name+"s", testAccOrganization(), web.Name),
		},
		// A filter that matches nothing fails, naming the closest tags or
		// names (DESIGN.md "Empty look-ups"), unless allow_empty (none_expected above).
		"tag typo": {
			fmt.Sprintf(`data "tfgov_workspaces" "typo" { tag_names = [%q, "team:payment"] }`, tag),
			`No workspace carries the tag "team:payment"; the closest tags: "team:payments"`,
		},
		"prefix typo": {
			fmt.Sprintf(`data "tfgov_workspaces" "typo" { name_prefix = "%s-paymnts-" }`, prefix),
			fmt.Sprintf(`No workspace name starts with "%s-paymnts-" (case-sensitive); the closest names: %q, %q`, prefix, dev.Name, prod.Name),
		},
		// issue 55: an exclusion with a typo excluded nothing, silently.
		"exclusion typo": {
			fmt.Sprintf(`data "tfgov_workspaces" "typo" {`+"\n"+`tag_names = [%q]`+"\n"+`exclude_tag_names = ["legcy"]`+"\n}", tag),
			`exclude_tag_names excludes nothing: no workspace of organization ` + testAccOrganization() + ` that the API token can see carries - the tag "legcy"; the closest tags: "legacy"`,
		},
		"exclusion typo, every workspace": {
			`data "tfgov_workspaces" "typo" {` + "\n" + `exclude_tag_names = ["legcy"]` + "\n}",
			`- the tag "legcy"; the closest tags: "legacy"`,
		},
		"names and a filter": {
			`data "tfgov_workspaces" "both" {` + "\n" + `names = ["a"]` + "\n" + `tag_names = ["b"]` + "\n}",
			`These attributes cannot be configured together: [names,tag_names]`,
		},
	})
}

// testAccErrorCase is a configuration and a phrase of the error it fails
// with (phraseRE).
type testAccErrorCase struct{ config, want string }

// testAccExpectErrors runs each case as a test of its own: its plan fails
// with the error.
func testAccExpectErrors(t *testing.T, cases map[string]testAccErrorCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{Config: tc.config, ExpectError: matchWrapped(tc.want)}},
			})
		})
	}
}
