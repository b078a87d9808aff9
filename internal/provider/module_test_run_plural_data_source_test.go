package provider

import (
	"context"
	"fmt"
	"slices"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const moduleTestRunsAddr = "data.tfgov_module_test_runs.test"

// testAccModuleTestRunsConfig reads mod's runs of the given sources (all
// when extra is empty); extra is more attribute lines.
func testAccModuleTestRunsConfig(mod moduleRef, extra string) string {
	return fmt.Sprintf(`
data "tfgov_module_test_runs" "test" {
  module_name     = %[1]q
  module_provider = %[2]q
  %[3]s
}
`, mod.Name, mod.Provider, extra)
}

// testAccQueueTestRuns queues n runs of the `empty` module in mod and
// returns their IDs, newest first (the order the API lists them in).
func testAccQueueTestRuns(t *testing.T, mod moduleRef, n int) []string {
	t.Helper()
	cv := testAccTestConfiguration(t, mod, "empty")
	ids := make([]string, 0, n)
	for range n {
		ids = append(ids, testAccTestRun(t, mod, cv).ID)
	}
	slices.Reverse(ids)
	return ids
}

// runIDsExact expects the runs to be exactly ids, in that order.
func runIDsExact(ids []string) knownvalue.Check {
	runs := make([]knownvalue.Check, len(ids))
	for i, id := range ids {
		runs[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"id":     knownvalue.StringExact(id),
			"source": knownvalue.StringExact("svc-api"),
		})
	}
	return knownvalue.ListExact(runs)
}

// TestAccModuleTestRunsDataSource_paging reads 23 runs, more than the
// API's default page of 20, with the page size lowered to 10: all 23,
// newest first, in three list requests. Not parallel: it changes the
// package's page size, which parallel tests start only after it has put
// back.
func TestAccModuleTestRunsDataSource_paging(t *testing.T) {
	const n, pageSize, wantPages = 23, 10, 3
	saved := testRunListPageSize
	testRunListPageSize = pageSize
	t.Cleanup(func() { testRunListPageSize = saved })

	mod := testAccModule(t)
	ids := testAccQueueTestRuns(t, mod, n)

	// With the sandbox, count the list requests of the plan's one read of
	// the data source.
	sb := testAccSandbox()
	listPath := "/api/v2/" + mod.testRunsPath()
	var before int
	mark := func() {
		if sb != nil {
			before = sb.RequestsTo("GET", listPath)
		}
	}
	countPages := planCheckFunc(func(context.Context, *tfjson.Plan) error {
		if sb == nil {
			return nil
		}
		got := sb.RequestsTo("GET", listPath) - before
		t.Logf("reading %d runs, %d a page: %d list requests", n, pageSize, got)
		if got != wantPages {
			return fmt.Errorf("reading %d runs %d a page made %d list requests, want %d", n, pageSize, got, wantPages)
		}
		return nil
	})

	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			PreConfig:        mark,
			Config:           testAccModuleTestRunsConfig(mod, ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{countPages}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(moduleTestRunsAddr, tfjsonpath.New("id"), knownvalue.StringExact(mod.String())),
				statecheck.ExpectKnownValue(moduleTestRunsAddr, tfjsonpath.New("organization"), knownvalue.StringExact(mod.Organization)),
				statecheck.ExpectKnownValue(moduleTestRunsAddr, tfjsonpath.New("runs"), knownvalue.ListSizeExact(n)),
				statecheck.ExpectKnownValue(moduleTestRunsAddr, tfjsonpath.New("runs"), runIDsExact(ids)),
			},
		}},
	})
}

// TestAccModuleTestRunsDataSource_sources narrows the runs by how they were
// queued (runs queued through the API are `svc-api`), rejects an unknown
// source at plan time, and names a missing module.
func TestAccModuleTestRunsDataSource_sources(t *testing.T) {
	mod := testAccModule(t)
	ids := testAccQueueTestRuns(t, mod, 2)
	runs := func(want knownvalue.Check) []statecheck.StateCheck {
		return []statecheck.StateCheck{statecheck.ExpectKnownValue(moduleTestRunsAddr, tfjsonpath.New("runs"), want)}
	}
	missing := mod
	missing.Name = testAccName("missing")

	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:            testAccModuleTestRunsConfig(mod, `sources = ["engine"]`),
				ConfigStateChecks: runs(knownvalue.ListSizeExact(0)),
			},
			{
				Config:            testAccModuleTestRunsConfig(mod, `sources = ["svc-api"]`),
				ConfigStateChecks: runs(runIDsExact(ids)),
			},
			{
				Config:            testAccModuleTestRunsConfig(mod, `sources = ["svc-configuration-version", "engine"]`),
				ConfigStateChecks: runs(knownvalue.ListSizeExact(0)),
			},
			{
				Config:            testAccModuleTestRunsConfig(mod, fmt.Sprintf("organization = %q\n  sources = [\"engine\", \"svc-api\"]", mod.Organization)),
				ConfigStateChecks: runs(runIDsExact(ids)),
			},
			{
				Config:      testAccModuleTestRunsConfig(mod, `sources = ["cli"]`),
				PlanOnly:    true,
				ExpectError: matchWrapped(`value must be one of:`, `"engine" "svc-api" "svc-configuration-version"`, `got: "cli"`),
			},
			{
				Config:      testAccModuleTestRunsConfig(missing, ""),
				ExpectError: matchWrapped("Could not list the test runs of module " + missing.String() + ": the module was not found in the private registry of organization " + missing.Organization + ", or the API token belongs to no team of it"),
			},
		},
	})
}
