package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// testAccWaitTestRun polls run id of mod through go-tfe until it has ended,
// and fails the test unless it finished (passing or failing tests) within
// a minute.
func testAccWaitTestRun(t *testing.T, mod moduleRef, id string) *tfe.TestRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		tr, err := testAccClient(t).TestRuns.Read(ctx, mod.id(), id)
		if err != nil {
			t.Fatalf("waiting for test run %s of %s: %v", id, mod, err)
		}
		if isFinalTestRunStatus(string(tr.Status)) {
			if tr.Status != tfe.TestRunFinished {
				t.Fatalf("test run %s of %s ended %s, want %s", id, mod, tr.Status, tfe.TestRunFinished)
			}
			return tr
		}
		if err := sleepCtx(ctx, 250*time.Millisecond); err != nil {
			t.Fatalf("test run %s of %s is still %s after a minute", id, mod, tr.Status)
		}
	}
}

// testAccModuleTestRunConfig reads run id of mod as data source name.
func testAccModuleTestRunConfig(name string, mod moduleRef, id string) string {
	return fmt.Sprintf(`
data "tfgov_module_test_run" %[1]q {
  module_name     = %[2]q
  module_provider = %[3]q
  id              = %[4]q
}
`, name, mod.Name, mod.Provider, id)
}

var rfc3339RE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// finishedRun checks a finished run of cv queued with default options
// through the API, with the given outcome.
func finishedRun(addr, cv, status string, passed, failed int64) []statecheck.StateCheck {
	at := func(attr string, c knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), c)
	}
	return []statecheck.StateCheck{
		at("status", knownvalue.StringExact("finished")),
		at("test_status", knownvalue.StringExact(status)),
		at("tests_passed", knownvalue.Int64Exact(passed)),
		at("tests_failed", knownvalue.Int64Exact(failed)),
		at("tests_errored", knownvalue.Int64Exact(0)),
		at("tests_skipped", knownvalue.Int64Exact(0)),
		at("source", knownvalue.StringExact("svc-api")),
		at("configuration_version_id", knownvalue.StringExact(cv)),
		at("test_directory", knownvalue.StringExact("tests")),
		at("filters", knownvalue.ListSizeExact(0)),
		at("verbose", knownvalue.Bool(false)),
		at("variables", knownvalue.MapSizeExact(0)),
		at("message", knownvalue.NotNull()),
		at("created_at", knownvalue.StringRegexp(rfc3339RE)),
		at("queued_at", knownvalue.StringRegexp(rfc3339RE)),
		at("started_at", knownvalue.StringRegexp(rfc3339RE)),
		at("finished_at", knownvalue.StringRegexp(rfc3339RE)),
	}
}

// TestAccModuleTestRunDataSource_basic reads finished runs of a passing and
// a failing module, run through the real engine, and a run with its own
// filters, verbosity and variables.
func TestAccModuleTestRunDataSource_basic(t *testing.T) {
	mod := testAccModule(t)
	passCV := testAccTestConfiguration(t, mod, "pass")
	failCV := testAccTestConfiguration(t, mod, "fail")
	pass := testAccTestRun(t, mod, passCV)
	fail := testAccTestRun(t, mod, failCV)
	custom, err := testAccClient(t).TestRuns.Create(context.Background(), tfe.TestRunCreateOptions{
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: passCV},
		RegistryModule: &tfe.RegistryModule{
			Name: mod.Name, Provider: mod.Provider, Namespace: mod.Organization, RegistryName: tfe.PrivateRegistry,
			Organization: &tfe.Organization{Name: mod.Organization},
		},
		Filters:   []string{"tests/name.tftest.hcl"},
		Verbose:   tfe.Bool(true),
		Variables: []*tfe.RunVariable{{Key: "name", Value: `"tester"`}},
	})
	if err != nil {
		t.Fatalf("queuing a test run of %s: %v", mod, err)
	}
	for _, id := range []string{pass.ID, fail.ID, custom.ID} {
		testAccWaitTestRun(t, mod, id)
	}

	checks := append(finishedRun("data.tfgov_module_test_run.pass", passCV, "pass", 3, 0),
		finishedRun("data.tfgov_module_test_run.fail", failCV, "fail", 1, 1)...)
	const customAddr = "data.tfgov_module_test_run.custom"
	checks = append(checks,
		statecheck.ExpectKnownValue("data.tfgov_module_test_run.pass", tfjsonpath.New("id"), knownvalue.StringExact(pass.ID)),
		statecheck.ExpectKnownValue("data.tfgov_module_test_run.pass", tfjsonpath.New("organization"), knownvalue.StringExact(mod.Organization)),
		statecheck.ExpectKnownValue(customAddr, tfjsonpath.New("status"), knownvalue.StringExact("finished")),
		statecheck.ExpectKnownValue(customAddr, tfjsonpath.New("test_status"), knownvalue.StringExact("pass")),
		statecheck.ExpectKnownValue(customAddr, tfjsonpath.New("tests_passed"), knownvalue.Int64Exact(1)),
		statecheck.ExpectKnownValue(customAddr, tfjsonpath.New("filters"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("tests/name.tftest.hcl")})),
		statecheck.ExpectKnownValue(customAddr, tfjsonpath.New("verbose"), knownvalue.Bool(true)),
		statecheck.ExpectKnownValue(customAddr, tfjsonpath.New("variables"), knownvalue.MapExact(map[string]knownvalue.Check{"name": knownvalue.StringExact(`"tester"`)})),
	)

	other := testAccModule(t)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// Rejected at plan time (the last step must be valid: the
			// harness destroys with its configuration).
			{
				Config:      testAccModuleTestRunConfig("pass", mod, "run-123"),
				PlanOnly:    true,
				ExpectError: matchWrapped("must be an ID of the form trun-<id>"),
			},
			{
				Config: testAccModuleTestRunConfig("pass", mod, pass.ID) +
					testAccModuleTestRunConfig("fail", mod, fail.ID) +
					testAccModuleTestRunConfig("custom", mod, custom.ID),
				ConfigStateChecks: checks,
			},
			// A run is read through its own module only.
			{
				Config:      testAccModuleTestRunConfig("pass", other, pass.ID),
				ExpectError: matchWrapped("Module " + other.String() + " has no test run " + pass.ID + ": its test runs, which the API token may list, do not include it"),
			},
			{
				Config:      testAccModuleTestRunConfig("pass", mod, "trun-doesnotexist1"),
				ExpectError: matchWrapped("Module " + mod.String() + " has no test run trun-doesnotexist1"),
			},
		},
	})
}
