package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const testRunAddr = "tfgov_module_test_run.test"

// testAccTestRunConfig is one run of mod's tests with the given attribute
// lines (HCL).
func testAccTestRunConfig(mod moduleRef, lines ...string) string {
	return fmt.Sprintf(`
resource "tfgov_module_test_run" "test" {
  module_name     = %[1]q
  module_provider = %[2]q
  %[3]s
}
`, mod.Name, mod.Provider, strings.Join(lines, "\n  "))
}

// copyTestModule copies internal/testdata/module-tests/<name> into a new temporary
// directory, so a test can change its files, and returns the copy's path.
func copyTestModule(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(testModuleDir(t, name))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// testRunOutcome checks the outcome of a finished run in state.
func testRunOutcome(testStatus string, passed, failed int64) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("status"), knownvalue.StringExact("finished")),
		statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("test_status"), knownvalue.StringExact(testStatus)),
		statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("tests_passed"), knownvalue.Int64Exact(passed)),
		statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("tests_failed"), knownvalue.Int64Exact(failed)),
		statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("tests_errored"), knownvalue.Int64Exact(0)),
		statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("tests_skipped"), knownvalue.Int64Exact(0)),
		statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("run_source"), knownvalue.StringExact("svc-api")),
	}
}

// testRunOnServer reads the run in state through go-tfe.
func testRunOnServer(ctx context.Context, t *testing.T, mod moduleRef, s *tfjson.State) (*tfe.TestRun, error) {
	id, err := stateID(s, testRunAddr)
	if err != nil {
		return nil, err
	}
	return testAccClient(t).TestRuns.Read(ctx, mod.id(), id)
}

// TestAccModuleTestRunResource_basic runs a passing module's tests through
// the real engine, imports the run, and starts a new run for a change of
// the directory's contents, of variables or of triggers, but not for a
// moved directory or wait_for_completion.
func TestAccModuleTestRunResource_basic(t *testing.T) {
	mod := testAccModule(t)
	dir := copyTestModule(t, "pass")
	moved := copyTestModule(t, "pass")
	sameRun := statecheck.CompareValue(compare.ValuesSame())
	newRun := statecheck.CompareValue(compare.ValuesDiffer())

	accParallelTest(t, resource.TestCase{
		CheckDestroy: func(s *terraform.State) error {
			// A finished run is only forgotten: it is still there.
			for _, rs := range s.RootModule().Resources {
				if rs.Type != "tfgov_module_test_run" {
					continue
				}
				tr, err := testAccClient(t).TestRuns.Read(context.Background(), mod.id(), rs.Primary.ID)
				if err != nil {
					return fmt.Errorf("a finished run is kept by the service after destroy: %w", err)
				}
				if tr.Status != tfe.TestRunFinished {
					return fmt.Errorf("run %s is %s after destroy, want finished", tr.ID, tr.Status)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir)),
				ConfigStateChecks: append(testRunOutcome("pass", 3, 0),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^trun-`))),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("configuration_version_id"), knownvalue.StringRegexp(regexp.MustCompile(`^cv-`))),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("source_hash"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("test_directory"), knownvalue.StringExact("tests")),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("organization"), knownvalue.StringExact(mod.Organization)),
					sameRun.AddStateValue(testRunAddr, tfjsonpath.New("id")),
					stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
						tr, err := testRunOnServer(ctx, t, mod, s)
						if err != nil {
							return err
						}
						if tr.Status != tfe.TestRunFinished || tr.TestStatus != tfe.TestPass || tr.TestsPassed != 3 {
							return fmt.Errorf("on the server: %s %s, %d passed; want finished pass 3", tr.Status, tr.TestStatus, tr.TestsPassed)
						}
						return nil
					}),
				),
			},
			{
				ResourceName: testRunAddr,
				ImportState:  true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					rs := s.RootModule().Resources[testRunAddr]
					return fmt.Sprintf("%s/%s/%s/%s", mod.Organization, mod.Name, mod.Provider, rs.Primary.ID), nil
				},
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "id",
				// The directory and its hash are the configuration's, not
				// the service's.
				ImportStateVerifyIgnore: []string{"source", "source_hash"},
			},
			// A configuration generated by terraform plan -generate-config-out plans clean.
			{
				ResourceName: testRunAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, GenerateConfig: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					rs := s.RootModule().Resources[testRunAddr]
					return fmt.Sprintf("%s/%s/%s/%s", mod.Organization, mod.Name, mod.Provider, rs.Primary.ID), nil
				},
			},
			{
				// The short form, in the provider's organization.
				ResourceName: testRunAddr,
				ImportState:  true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return fmt.Sprintf("%s/%s/%s", mod.Name, mod.Provider, s.RootModule().Resources[testRunAddr].Primary.ID), nil
				},
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"source", "source_hash"},
			},
			{
				// The same files elsewhere, and no waiting: no new run.
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", moved), "wait_for_completion = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameRun.AddStateValue(testRunAddr, tfjsonpath.New("id")),
					newRun.AddStateValue(testRunAddr, tfjsonpath.New("id")), // the run the next step replaces
				},
			},
			{
				// An edited test file: a new run, which fails.
				PreConfig: func() {
					p := filepath.Join(moved, "tests", "name.tftest.hcl")
					b, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(strings.Replace(string(b), `"hello, tester"`, `"hi, tester"`, 1)), 0o600); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", moved), "fail_on_test_failure = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: append(testRunOutcome("fail", 2, 1),
					newRun.AddStateValue(testRunAddr, tfjsonpath.New("id"))),
			},
			{
				// Variables and triggers start new runs; a run variable
				// overrides the module's default.
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir),
					`filters = ["tests/name.tftest.hcl"]`,
					`variables = { name = "\"tester\"" }`,
					`triggers = { release = "1" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: append(testRunOutcome("pass", 1, 0),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("filters"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("tests/name.tftest.hcl")})),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("variables"), knownvalue.MapExact(map[string]knownvalue.Check{"name": knownvalue.StringExact(`"tester"`)})),
					newRun.AddStateValue(testRunAddr, tfjsonpath.New("id"))),
			},
			{
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir),
					`filters = ["tests/name.tftest.hcl"]`,
					`variables = { name = "\"tester\"" }`,
					`triggers = { release = "2" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{newRun.AddStateValue(testRunAddr, tfjsonpath.New("id"))},
			},
		},
	})
}

// TestAccModuleTestRunResource_failure: failing tests fail the apply with
// the counts and the log's tail, and leave the run tainted, so the next
// apply starts a new run; with fail_on_test_failure = false they only warn.
func TestAccModuleTestRunResource_failure(t *testing.T) {
	mod := testAccModule(t)
	dir := testModuleDir(t, "fail")
	// The failed run's ID is in no state that state checks see (its step
	// fails), so the plan that replaces it tells it.
	var failed string
	newRun := statecheck.CompareValue(compare.ValuesDiffer())
	sameRun := statecheck.CompareValue(compare.ValuesSame())
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir)),
				ExpectError: wrappedRE(`Module tests failed.*1\s+passed,\s+1\s+failed,\s+0\s+errored,\s+0\s+skipped.*End\s+of\s+the\s+log:.*The\s+answer\s+is\s+not\s+42.*tainted`),
			},
			{
				// The failed run is in state, tainted: the same
				// configuration with failures accepted starts a new run.
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir), "fail_on_test_failure = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionReplace),
					priorValue(testRunAddr, "id", &failed),
				}},
				ConfigStateChecks: append(testRunOutcome("fail", 1, 1),
					newRun.AddStateValue(testRunAddr, tfjsonpath.New("id")),
					sameRun.AddStateValue(testRunAddr, tfjsonpath.New("id")),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						id, err := stateID(s, testRunAddr)
						if err == nil && (failed == "" || id == failed) {
							err = fmt.Errorf("the run after the failed one is %s, the failed one %q: want a new run", id, failed)
						}
						return err
					})),
			},
			{
				// Turning failures back on does not rerun the tests.
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{sameRun.AddStateValue(testRunAddr, tfjsonpath.New("id"))},
			},
			{
				// New triggers: a new run, which fails the apply again.
				Config:      testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir), `triggers = { attempt = "2" }`),
				ExpectError: wrappedRE(`Module tests failed`),
			},
			{
				Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", dir), `triggers = { attempt = "2" }`, "fail_on_test_failure = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{newRun.AddStateValue(testRunAddr, tfjsonpath.New("id"))},
			},
		},
	})
}

// priorValue is a plan check that records the string attribute attr of
// the resource at addr as the plan's prior state holds it (such as a
// tainted resource's, which no state check sees).
func priorValue(addr, attr string, into *string) plancheck.PlanCheck {
	return planCheckFunc(func(_ context.Context, plan *tfjson.Plan) error {
		if plan.PriorState == nil || plan.PriorState.Values == nil {
			return fmt.Errorf("the plan has no prior state")
		}
		for _, r := range plan.PriorState.Values.RootModule.Resources {
			if r.Address == addr {
				*into, _ = r.AttributeValues[attr].(string)
				return nil
			}
		}
		return fmt.Errorf("%s is not in the plan's prior state", addr)
	})
}

// TestAccModuleTestRunResource_configurationVersion tests an uploaded
// configuration version of another module; a module deleted outside
// Terraform answers 404 as to a token of no team of its organization, so
// the refresh, and a destroy, fail saying how to forget the run.
func TestAccModuleTestRunResource_configurationVersion(t *testing.T) {
	mod, other := testAccModule(t), testAccModule(t)
	cv := testAccTestConfiguration(t, other, "pass")
	config := testAccTestRunConfig(mod, fmt.Sprintf("configuration_version_id = %q", cv), `test_directory = "tests"`, `verbose = true`)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: append(testRunOutcome("pass", 3, 0),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("configuration_version_id"), knownvalue.StringExact(cv)),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("source_hash"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("verbose"), knownvalue.Bool(true))),
			},
			{
				PreConfig: func() {
					if err := testAccClient(t).RegistryModules.DeleteProvider(context.Background(), mod.id()); err != nil {
						t.Fatalf("deleting %s: %v", mod, err)
					}
				},
				Config:      config,
				PlanOnly:    true,
				ExpectError: matchWrapped("of module "+mod.String()+" cannot be refreshed: module "+mod.String()+" was not found. It was deleted, or", "terraform state rm"),
			},
			// A destroy cannot tell the deletion either (DESIGN.md "Gone or cannot see"): the user forgets the run.
			{Config: "removed {\n  from = " + testRunAddr + "\n  lifecycle { destroy = false }\n}\n"},
		},
	})
}

// testRunCanceled checks that destroy canceled the run that was in state,
// with a force-cancel or without one.
func testRunCanceled(t *testing.T, mod moduleRef, forced bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[testRunAddr]
		if !ok {
			return fmt.Errorf("the run was not recorded in state")
		}
		tr, err := testAccClient(t).TestRuns.Read(context.Background(), mod.id(), rs.Primary.ID)
		if err != nil {
			return err
		}
		ts := tr.StatusTimestamps
		if tr.Status != tfe.TestRunCanceled || ts.CanceledAt.IsZero() || ts.ForceCanceledAt.IsZero() == forced {
			return fmt.Errorf("run %s is %s (canceled at %v, force-canceled at %v) after destroy, want canceled (force-canceled: %v)",
				tr.ID, tr.Status, ts.CanceledAt, ts.ForceCanceledAt, forced)
		}
		return nil
	}
}

// TestAccModuleTestRunResource_cancelOnDestroy: a run that outlives the
// create timeout fails the apply and stays in state; destroying it cancels
// it and, since the slow module ignores an interrupt until its wait ends,
// force-cancels it after the grace period (half the delete timeout).
func TestAccModuleTestRunResource_cancelOnDestroy(t *testing.T) {
	mod := testAccModule(t)
	config := testAccTestRunConfig(mod, fmt.Sprintf("source = %q", testModuleDir(t, "slow")),
		`variables = { wait_seconds = "120" }`,
		`timeouts = { create = "3s", delete = "20s" }`)
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testRunCanceled(t, mod, true),
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: wrappedRE(`still\s+(queued|running)\s+after\s+the\s+create\s+timeout\s+\(3s\).*tainted`),
			},
			{
				// The run is in state, tainted: the next apply replaces it.
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testRunAddr, plancheck.ResourceActionReplace),
				}},
			},
		},
	})
}

// TestAccModuleTestRunResource_cancelWithinGrace: a run queued without
// waiting is still going when the resource is destroyed; the interrupt
// stops it once the slow module's wait (20 s) ends, within the grace period
// (30 s), so it is canceled without a force-cancel.
func TestAccModuleTestRunResource_cancelWithinGrace(t *testing.T) {
	mod := testAccModule(t)
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testRunCanceled(t, mod, false),
		Steps: []resource.TestStep{{
			Config: testAccTestRunConfig(mod, fmt.Sprintf("source = %q", testModuleDir(t, "slow")),
				`variables = { wait_seconds = "20" }`,
				`wait_for_completion = false`,
				`timeouts = { delete = "2m" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("status"), knownvalue.StringRegexp(regexp.MustCompile(`^(pending|queued|running)$`))),
				statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("test_status"), knownvalue.Null()),
				statecheck.ExpectKnownValue(testRunAddr, tfjsonpath.New("tests_passed"), knownvalue.Null()),
			},
		}},
	})
}

// TestAccModuleTestRunResource_invalid: bad input is refused at plan time,
// naming the attribute, before anything is made.
func TestAccModuleTestRunResource_invalid(t *testing.T) {
	mod := moduleRef{Name: "network", Provider: "aws"}
	pass := fmt.Sprintf("source = %q", testModuleDir(t, "pass"))
	tests := map[string]struct {
		config string
		want   string
	}{
		"neither":         {testAccTestRunConfig(mod), `Exactly one of these attributes must be configured: \[source,configuration_version_id\]`},
		"both":            {testAccTestRunConfig(mod, pass, `configuration_version_id = "cv-abc"`), `Exactly one of these attributes must be configured: \[source,configuration_version_id\]`},
		"missing dir":     {testAccTestRunConfig(mod, `source = "/nonexistent/module"`), `Cannot pack the module directory`},
		"file as dir":     {testAccTestRunConfig(mod, fmt.Sprintf("source = %q", filepath.Join(testModuleDir(t, "pass"), "main.tf"))), `is not a directory`},
		"bad cv id":       {testAccTestRunConfig(mod, `configuration_version_id = "ws-abc"`), `configuration_version_id.*cv-`},
		"escaping dir":    {testAccTestRunConfig(mod, pass, `test_directory = "../tests"`), `test_directory must be a relative path inside the configuration`},
		"absolute filter": {testAccTestRunConfig(mod, pass, `filters = ["/etc/x.tftest.hcl"]`), `filters\[0\] must be a relative path`},
		"bad var name":    {testAccTestRunConfig(mod, pass, `variables = { "1st" = "1" }`), `Variable name "1st" must start with a letter or underscore`},
		"bad var value":   {testAccTestRunConfig(mod, pass, `variables = { name = "tester" }`), `The value of name must be a literal`},
		"reference":       {testAccTestRunConfig(mod, pass, `variables = { name = "var.x" }`), `The value of name must be a literal`},
		"bad provider":    {testAccTestRunConfig(moduleRef{Name: "network", Provider: "AWS"}, pass), `module_provider must contain only lower-case letters and digits`},
		"negative create": {testAccTestRunConfig(mod, pass, `timeouts = { create = "-5m" }`), `Invalid timeout.*timeouts.create must be a positive duration such as "30m" or "1h30m", got "-5m"`},
		"zero delete":     {testAccTestRunConfig(mod, pass, `timeouts = { delete = "0s" }`), `Invalid timeout.*timeouts.delete must be a positive duration`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:      tc.config,
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// TestAccModuleTestRunResource_requests counts the requests of a run's
// life: create with wait (configuration version, upload, version read,
// run, polls), refresh (one list of the module's runs, no read by ID).
func TestAccModuleTestRunResource_requests(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	mod := testAccModule(t)
	base := "/api/v2/organizations/" + mod.Organization + "/tests/registry-modules/private/" + mod.Organization + "/" + mod.Name + "/" + mod.Provider + "/test-runs"
	var runID string
	var before map[string]int
	count := func() map[string]int {
		c := map[string]int{
			"create configuration version": sb.RequestsTo("POST", base+"/configuration-versions"),
			"create run":                   sb.RequestsTo("POST", base),
			"list runs":                    sb.RequestsTo("GET", base),
		}
		if runID != "" {
			c["read run"] = sb.RequestsTo("GET", base+"/"+runID)
		}
		return c
	}
	config := testAccTestRunConfig(mod, fmt.Sprintf("source = %q", testModuleDir(t, "pass")))
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
					id, err := stateID(s, testRunAddr)
					if err != nil {
						return err
					}
					runID = id
					c := count()
					t.Logf("create with wait: %v", c)
					if c["create configuration version"] != 1 || c["create run"] != 1 || c["read run"] < 1 {
						return fmt.Errorf("create made %v; want one configuration version, one run and at least one poll", c)
					}
					return nil
				})},
			},
			{
				// A plan refreshes the run from the module's list: one request.
				PreConfig: func() { before = count() },
				Config:    config,
				PlanOnly:  true,
			},
			{
				PreConfig: func() {
					c := count()
					reads, lists := c["read run"]-before["read run"], c["list runs"]-before["list runs"]
					t.Logf("plan of a finished run: %d lists, %d reads", lists, reads)
					if lists != 1 || reads != 0 {
						t.Errorf("a plan listed the module's runs %d times and read the run %d times, want 1 and 0", lists, reads)
					}
				},
				Config:   config,
				PlanOnly: true,
			},
		},
	})
}
