package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestListResource_moduleTestRun(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-tr", nil)
	mod := listTestModule(t, c, "list-tr")
	packed, err := packConfiguration(testModuleDir(t, "pass"), true)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := testRunClient{c}.uploadConfiguration(ctx, mod, packed.archive)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	for range n {
		if _, err := c.TestRuns.Create(ctx, tfe.TestRunCreateOptions{
			ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
			RegistryModule:       &tfe.RegistryModule{Name: mod.Name, Provider: mod.Provider, Namespace: mod.Organization, RegistryName: tfe.PrivateRegistry, Organization: &tfe.Organization{Name: mod.Organization}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	// Pages of 2 runs: 5 runs are 3 pages (a run takes the engine's time,
	// so this test pages through few runs on small pages).
	defer func(size int) { testRunListPageSize = size }(testRunListPageSize)
	testRunListPageSize = 2
	listPath := "/api/v2/organizations/list-tr/tests/registry-modules/private/list-tr/mod/aws/test-runs"
	before := sb.RequestsTo("GET", listPath) + sb.RequestsTo("GET", listPath+"/")
	res := p.list("tfgov_module_test_run", map[string]string{"module_name": "mod", "module_provider": "aws"}, true, 1000)
	if got := sb.RequestsTo("GET", listPath) + sb.RequestsTo("GET", listPath+"/") - before; got != 3 {
		t.Errorf("listing %d runs 2 a page took %d requests, want 3", n, got)
	}
	checkResults(t, "module_test_run", res, n, true)
	for _, r := range res {
		if str(t, r.resource["configuration_version_id"]) != cv || !strings.HasPrefix(r.display, r.identity["id"]+" (") {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
}

func TestAccModuleTestRunList_query(t *testing.T) {
	mod := testAccModule(t)
	dir := testModuleDir(t, "pass")
	testAccQuery(t, queryCase{
		typ: "module_test_run", config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir)),
		filter:   fmt.Sprintf("module_name = %q\n    module_provider = %q", mod.Name, mod.Provider),
		identity: moduleIDOf(mod, "id", idLike("trun")),
		display:  knownvalue.StringRegexp(regexp.MustCompile(`^trun-[A-Za-z0-9]+ \(finished, pass, \d{4}-`)),
		values: map[string]knownvalue.Check{
			"status": knownvalue.StringExact("finished"), "test_status": knownvalue.StringExact("pass"), "tests_passed": knownvalue.Int64Exact(3),
			"configuration_version_id": idLike("cv"), "source": knownvalue.Null(),
		},
	})
}
