package provider

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// The tfgov_module_test action's tests drive the terraform binary
// (terraform-plugin-testing v1.16 cannot invoke an action): `terraform
// apply -invoke=action.tfgov_module_test.test` against the sandbox, whose
// engine runs the module's tests with the real `terraform test`. Actions
// need Terraform 1.14: run them with TF_ACC_TERRAFORM_PATH set to 1.15.9
// (/work/shared/terraform/install.sh prints its path); with an older
// Terraform they skip.

// actionTerraform skips the test unless TF_ACC is set and the Terraform
// under test has actions (1.14 or later).
func actionTerraform(t *testing.T) {
	t.Helper()
	testCLIConfig(t)
	testAccPreCheck(t)
	if ok, v := terraformHasActions(t); !ok {
		// The words of tfversion.SkipBelow (counted by .ci/run as gated on
		// the Terraform version), and what to do.
		t.Skipf("Terraform CLI version %s is below minimum version 1.14.0: skipping test (actions; set TF_ACC_TERRAFORM_PATH to a newer Terraform)", v)
	}
}

// terraformHasActions reports whether the Terraform under test
// (TF_ACC_TERRAFORM_PATH) has actions, with its version.
func terraformHasActions(t *testing.T) (bool, string) {
	t.Helper()
	v := terraformVersion(t)
	return !v.LessThan(version.Must(version.NewVersion("1.14.0"))), v.String()
}

// writeActionConfig writes a configuration with one tfgov_module_test
// action named test, with the given argument lines, into a new directory.
func writeActionConfig(t *testing.T, mod moduleRef, lines ...string) string {
	t.Helper()
	dir := t.TempDir()
	config := fmt.Sprintf(`
terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}

action "tfgov_module_test" "test" {
  config {
    module_name     = %q
    module_provider = %q
    %s
  }
}
`, mod.Name, mod.Provider, strings.Join(lines, "\n    "))
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

const invokeTest = "-invoke=action.tfgov_module_test.test"

// moduleRuns lists mod's test runs through go-tfe.
func moduleRuns(t *testing.T, mod moduleRef) []*tfe.TestRun {
	t.Helper()
	l, err := testAccClient(t).TestRuns.List(context.Background(), mod.id(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// oneRun is mod's only test run.
func oneRun(t *testing.T, mod moduleRef) *tfe.TestRun {
	t.Helper()
	runs := moduleRuns(t, mod)
	if len(runs) != 1 {
		t.Fatalf("module %s has %d test runs, want 1", mod, len(runs))
	}
	return runs[0]
}

// flat is out with its whitespace runs made one space.
func flat(out string) string { return strings.Join(strings.Fields(out), " ") }

// TestAccModuleTestAction_pass invokes the action on a passing module: one
// run, finished and passed, and the apply shows its progress: queued,
// running and finished with the counts, once each.
func TestAccModuleTestAction_pass(t *testing.T) {
	actionTerraform(t)
	mod := testAccModule(t)
	dir := writeActionConfig(t, mod, fmt.Sprintf("source = %q", testModuleDir(t, "pass")), `verbose = true`, `test_directory = "tests"`)
	start := time.Now()
	out, err := runTerraform(t, dir, "apply", invokeTest, "-auto-approve", "-no-color")
	t.Logf("invocation: %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("terraform apply -invoke: %v\n%s", err, out)
	}
	var requests map[string]int
	if sb := testAccSandbox(); sb != nil {
		base := "/api/v2/organizations/" + mod.Organization + "/tests/registry-modules/private/" + mod.Organization + "/" + mod.Name + "/" + mod.Provider + "/test-runs"
		requests = map[string]int{
			"create configuration version": sb.RequestsTo("POST", base+"/configuration-versions"),
			"create run":                   sb.RequestsTo("POST", base),
			"list runs":                    sb.RequestsTo("GET", base),
		}
	}
	tr := oneRun(t, mod)
	if requests != nil {
		requests["read run"] = testAccSandbox().RequestsTo("GET", "/api/v2/organizations/"+mod.Organization+"/tests/registry-modules/private/"+mod.Organization+"/"+mod.Name+"/"+mod.Provider+"/test-runs/"+tr.ID)
		t.Logf("requests: %v", requests)
		if requests["create configuration version"] != 1 || requests["create run"] != 1 || requests["list runs"] != 0 || requests["read run"] < 1 {
			t.Errorf("the invocation made %v; want one configuration version, one run, no list and at least one poll", requests)
		}
	}
	if tr.Status != tfe.TestRunFinished || tr.TestStatus != tfe.TestPass || tr.TestsPassed != 3 {
		t.Errorf("run %s: %s, %s, %d passed; want finished, pass, 3 passed", tr.ID, tr.Status, tr.TestStatus, tr.TestsPassed)
	}
	o := flat(out)
	for _, want := range []string{
		"Uploading 3 files",
		fmt.Sprintf("Test run %s of %s: finished (pass), 3 passed, 0 failed, 0 errored, 0 skipped", tr.ID, mod),
	} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Each state is reported once, however many reads it took.
	for _, status := range []string{"queued", "running", "finished"} {
		if n := strings.Count(o, fmt.Sprintf("Test run %s of %s: %s", tr.ID, mod, status)); n > 1 {
			t.Errorf("%s reported %d times, want at most once:\n%s", status, n, out)
		}
	}
}

// TestAccModuleTestAction_fail: a failing test fails the invocation with
// the counts and the failed assertion from the end of the log.
func TestAccModuleTestAction_fail(t *testing.T) {
	actionTerraform(t)
	mod := testAccModule(t)
	dir := writeActionConfig(t, mod, fmt.Sprintf("source = %q", testModuleDir(t, "fail")))
	start := time.Now()
	out, err := runTerraform(t, dir, "apply", invokeTest, "-auto-approve", "-no-color")
	t.Logf("invocation: %s", time.Since(start).Round(time.Millisecond))
	if err == nil {
		t.Fatalf("terraform apply -invoke of failing tests: no error\n%s", out)
	}
	tr := oneRun(t, mod)
	o := flat(out)
	for _, want := range []string{
		"Error: Error when invoking action",
		fmt.Sprintf("Module tests failed: The tests of %s failed in run %s: 1 passed, 1 failed, 0 errored, 0 skipped.", mod, tr.ID),
		"End of the log:",
		"The answer is not 42.",
		fmt.Sprintf("Test run %s of %s: finished (fail)", tr.ID, mod),
	} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "bug in the provider") {
		t.Errorf("output blames the provider:\n%s", out)
	}
}

// TestAccModuleTestAction_cancelOnInterrupt: Terraform interrupted (SIGINT,
// as Ctrl-C sends) while the run is executing cancels the run on the
// service. The slow module lets its apply in progress finish on an
// interrupt, so the run is canceled within the 30 s grace period, without
// a force-cancel.
func TestAccModuleTestAction_cancelOnInterrupt(t *testing.T) {
	actionTerraform(t)
	if testAccSandbox() == nil {
		// The marker file the test waits for is written by the engine's
		// terraform on this machine.
		t.Skip("knowing when the run executes needs the sandbox on this machine")
	}
	mod := testAccModule(t)
	marker := filepath.Join(t.TempDir(), "started")
	dir := writeActionConfig(t, mod, fmt.Sprintf("source = %q", testModuleDir(t, "slow")),
		fmt.Sprintf(`variables = { wait_seconds = "15", started_marker = %q }`, `"`+marker+`"`))

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Getenv("TF_ACC_TERRAFORM_PATH"), "-chdir="+dir, "apply", invokeTest, "-auto-approve", "-no-color")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+testCLIConfig(t), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the module's wait has begun and the action has
	// reported the run running.
	running := regexp.MustCompile(`Test run trun-\S+ of \S+: running`)
	for {
		if _, err := os.Stat(marker); err == nil && running.MatchString(out.String()) {
			break
		}
		if time.Since(start) > time.Minute {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the slow module's test did not start within a minute:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	interrupted := time.Now()
	t.Logf("test executing after %s; interrupting terraform", interrupted.Sub(start).Round(time.Millisecond))
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// Terraform's exit status is its own: once interrupted, it shows
	// nothing more of the action (terraform-plugin-go forwards no event
	// after Stop), and 1.15.9 reports "Apply complete!" and exits 0.
	err := cmd.Wait()
	t.Logf("terraform exited %s after the interrupt (%v)", time.Since(interrupted).Round(time.Millisecond), err)

	tr := oneRun(t, mod)
	if tr.Status != tfe.TestRunCanceled || tr.StatusTimestamps.CanceledAt.IsZero() {
		t.Fatalf("run %s is %s (canceled at %v) after the interrupt, want canceled:\n%s", tr.ID, tr.Status, tr.StatusTimestamps.CanceledAt, out.String())
	}
	if !tr.StatusTimestamps.ForceCanceledAt.IsZero() {
		t.Errorf("run %s was force-canceled; the interrupt should have stopped it within the grace period", tr.ID)
	}
}

// lockedBuffer is a bytes.Buffer that a command writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// testAccActionConfig is a configuration with one tfgov_module_test action
// named test, with the given argument lines (HCL).
func testAccActionConfig(mod moduleRef, lines ...string) string {
	return fmt.Sprintf(`
action "tfgov_module_test" "test" {
  config {
    module_name     = %q
    module_provider = %q
    %s
  }
}
`, mod.Name, mod.Provider, strings.Join(lines, "\n    "))
}

// TestAccModuleTestAction_invalid: bad arguments are refused when
// Terraform validates the configuration, naming the attribute, before
// anything is sent.
func TestAccModuleTestAction_invalid(t *testing.T) {
	mod := moduleRef{Name: "network", Provider: "aws"}
	pass := fmt.Sprintf("source = %q", testModuleDir(t, "pass"))
	tests := map[string]struct {
		config string
		want   string
	}{
		"neither":          {testAccActionConfig(mod), `Exactly one of these attributes must be configured: \[source,configuration_version_id\]`},
		"both":             {testAccActionConfig(mod, pass, `configuration_version_id = "cv-abc"`), `Exactly one of these attributes must be configured: \[source,configuration_version_id\]`},
		"missing dir":      {testAccActionConfig(mod, `source = "/nonexistent/module"`), `source: the directory /nonexistent/module does not exist`},
		"file as dir":      {testAccActionConfig(mod, fmt.Sprintf("source = %q", filepath.Join(testModuleDir(t, "pass"), "main.tf"))), `source: .*main.tf is not a directory`},
		"blank dir":        {testAccActionConfig(mod, `source = " "`), `source must not be empty or only whitespace`},
		"bad cv id":        {testAccActionConfig(mod, `configuration_version_id = "ws-abc"`), `configuration_version_id.*cv-`},
		"escaping dir":     {testAccActionConfig(mod, pass, `test_directory = "../tests"`), `test_directory must be a relative path inside the configuration`},
		"absolute filter":  {testAccActionConfig(mod, pass, `filters = ["/etc/x.tftest.hcl"]`), `filters\[0\] must be a relative path`},
		"bad var name":     {testAccActionConfig(mod, pass, `variables = { "1st" = "1" }`), `Variable name "1st" must start with a letter or underscore`},
		"bad var value":    {testAccActionConfig(mod, pass, `variables = { name = "tester" }`), `The value of name must be a literal`},
		"bad provider":     {testAccActionConfig(moduleRef{Name: "network", Provider: "AWS"}, pass), `module_provider must contain only lower-case letters and digits`},
		"bad timeout":      {testAccActionConfig(mod, pass, `timeout = "soon"`), `Invalid timeout.*timeout must be a duration such as "30m" or "1h30m", got "soon"`},
		"negative timeout": {testAccActionConfig(mod, pass, `timeout = "-5m"`), `Invalid timeout.*timeout must be a positive duration such as "30m" or "1h30m", got "-5m"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
				Steps: []resource.TestStep{{
					Config:      tc.config,
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// TestAccModuleTestAction_trigger: the action runs from another
// resource's lifecycle (action_trigger after_create and after_update), here a
// terraform_data standing for a published module version; a failing
// test fails the apply.
func TestAccModuleTestAction_trigger(t *testing.T) {
	mod := testAccModule(t)
	config := func(module, release string) string {
		return fmt.Sprintf(`
resource "terraform_data" "release" {
  input = %q

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.tfgov_module_test.test]
    }
  }
}
`, release) + testAccActionConfig(mod, fmt.Sprintf("source = %q", testModuleDir(t, module)))
	}
	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{
				Config: config("pass", "1.0.0"),
				Check: func(*terraform.State) error {
					runs := moduleRuns(t, mod)
					if len(runs) != 1 || runs[0].Status != tfe.TestRunFinished || runs[0].TestStatus != tfe.TestPass {
						return fmt.Errorf("after the first release, %d runs (want 1 finished and passed): %+v", len(runs), runs)
					}
					return nil
				},
			},
			{
				// A new release (an update) runs the tests again; they fail.
				Config:      config("fail", "1.1.0"),
				ExpectError: wrappedRE(`Module\s+tests\s+failed.*1\s+passed,\s+1\s+failed.*The\s+answer\s+is\s+not\s+42`),
			},
		},
	})
}

// TestAccModuleTestAction_timeout: a run still going when the action's
// timeout passes is canceled on the service, and the invocation fails
// saying so.
func TestAccModuleTestAction_timeout(t *testing.T) {
	actionTerraform(t)
	mod := testAccModule(t)
	dir := writeActionConfig(t, mod, fmt.Sprintf("source = %q", testModuleDir(t, "slow")),
		`variables = { wait_seconds = "8" }`, `timeout = "3s"`)
	start := time.Now()
	out, err := runTerraform(t, dir, "apply", invokeTest, "-auto-approve", "-no-color")
	t.Logf("invocation: %s", time.Since(start).Round(time.Millisecond))
	if err == nil {
		t.Fatalf("terraform apply -invoke past its timeout: no error\n%s", out)
	}
	tr := oneRun(t, mod)
	if tr.Status != tfe.TestRunCanceled {
		t.Errorf("run %s is %s after the timeout, want canceled", tr.ID, tr.Status)
	}
	want := fmt.Sprintf("Module test run canceled: Test run %s of %s was canceled (it is now canceled) because it was still", tr.ID, mod)
	if o := flat(out); !strings.Contains(o, want) || !strings.Contains(o, "when the timeout (3s) passed") {
		t.Errorf("output lacks %q ... when the timeout (3s) passed:\n%s", want, out)
	}
}

// cutAfter is a transport that, for the requests match selects, sends the
// request and gets the service's answer, then ends the invocation's
// context (cut) and answers the caller with its error: Terraform
// interrupted while the request was in flight, after the service acted.
type cutAfter struct {
	match func(*http.Request) bool
	cut   context.CancelFunc
}

func (c cutAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !c.match(r) {
		return resp, err
	}
	_ = resp.Body.Close()
	c.cut()
	return nil, context.Canceled
}

// TestAccModuleTestAction_interruptedCreate: Terraform interrupted while
// the request that queues the run is in flight, and the service queued
// it: the action finds the run and cancels it instead of leaving it to run.
func TestAccModuleTestAction_interruptedCreate(t *testing.T) {
	testAccPreCheck(t)
	mod := testAccModule(t)
	ctx, cut := context.WithCancel(context.Background())
	defer cut()
	resp := invokeModuleTest(ctx, t, mod, cutAfter{
		match: func(r *http.Request) bool {
			return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/test-runs")
		},
		cut: cut,
	}, map[string]tftypes.Value{"variables": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"wait_seconds": tftypes.NewValue(tftypes.String, "3")})})

	tr := oneRun(t, mod)
	if tr.Status != tfe.TestRunCanceled {
		t.Errorf("run %s is %s after the interrupted create, want canceled", tr.ID, tr.Status)
	}
	if !resp.Diagnostics.HasError() || resp.Diagnostics.Errors()[0].Summary() != "Module test run canceled" ||
		!strings.Contains(resp.Diagnostics.Errors()[0].Detail(), tr.ID+" of "+mod.String()+" was canceled (it is now canceled) because Terraform was interrupted") {
		t.Errorf("diagnostics %v, want the run canceled because Terraform was interrupted", resp.Diagnostics)
	}
}

// TestAccModuleTestAction_cancelHidden: the token loses sight of the module's tests while the run
// goes on (its requests switch to a token of a team outside owners once the run is queued). The
// wait and the cancel read 404, which is not "gone": the action names the run, says it may still
// be running and what the token needs, and the run was not canceled.
func TestAccModuleTestAction_cancelHidden(t *testing.T) {
	testAccPreCheck(t)
	mod := testAccModule(t)
	member := testAccTeamToken(t, testAccTeam(t, nil).ID)
	resp := invokeModuleTest(context.Background(), t, mod, &tokenSwitch{
		after: func(r *http.Request) bool {
			return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/test-runs")
		},
		token: member,
	}, map[string]tftypes.Value{
		"variables": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"wait_seconds": tftypes.NewValue(tftypes.String, "4")}),
	})

	tr := oneRun(t, mod)
	if tr.Status == tfe.TestRunCanceled {
		t.Errorf("run %s is canceled, though the action's token could not see it", tr.ID)
	}
	want := []string{
		fmt.Sprintf("Test run %s of %s was to be canceled because waiting for it failed", tr.ID, mod),
		"answered 404, which the service answers both for an object that is gone and for one the API token may not see or change",
		fmt.Sprintf("Test run %s of module %s cannot be canceled: module %s", tr.ID, mod, mod),
		"exists, but the API token may not list its test runs: it needs membership of the owners team",
		"It may still be running; cancel it with a token that has the permission.",
	}
	errs := resp.Diagnostics.Errors()
	if len(errs) != 1 || errs[0].Summary() != "Module test run not canceled" {
		t.Fatalf("diagnostics %v, want one error: Module test run not canceled", resp.Diagnostics)
	}
	for _, w := range want {
		if !strings.Contains(errs[0].Detail(), w) {
			t.Errorf("the error lacks %q:\n%s", w, errs[0].Detail())
		}
	}
}

// tokenSwitch is a transport that sends every request after the first that after selects with
// another token: the API token losing a permission in the middle of an invocation.
type tokenSwitch struct {
	after    func(*http.Request) bool
	token    string
	switched atomic.Bool
}

func (s *tokenSwitch) RoundTrip(r *http.Request) (*http.Response, error) {
	if s.switched.Load() {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && s.after(r) {
		s.switched.Store(true)
	}
	return resp, err
}

// invokeModuleTest invokes the tfgov_module_test action in process (no Terraform) on mod's "slow"
// module with the test token, its requests through transport, and set's attribute values.
func invokeModuleTest(ctx context.Context, t *testing.T, mod moduleRef, transport http.RoundTripper, set map[string]tftypes.Value) action.InvokeResponse {
	t.Helper()
	address := os.Getenv("TFE_ADDRESS")
	if address == "" {
		address = "https://" + cmp.Or(os.Getenv("TFE_HOSTNAME"), defaultHostname)
	}
	client, err := tfe.NewClient(&tfe.Config{Address: address, Token: os.Getenv("TFE_TOKEN"), HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		t.Fatal(err)
	}
	a := &moduleTestAction{actionBase{typ: moduleTestActionType, data: &providerData{client: client, organization: mod.Organization}}}
	var sresp action.SchemaResponse
	a.Schema(ctx, action.SchemaRequest{}, &sresp)
	typ := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	vals["module_name"] = tftypes.NewValue(tftypes.String, mod.Name)
	vals["module_provider"] = tftypes.NewValue(tftypes.String, mod.Provider)
	vals["source"] = tftypes.NewValue(tftypes.String, testModuleDir(t, "slow"))
	maps.Copy(vals, set)
	var progress []string
	resp := action.InvokeResponse{SendProgress: func(e action.InvokeProgressEvent) { progress = append(progress, e.Message) }}
	start := time.Now()
	a.Invoke(ctx, action.InvokeRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, vals)}}, &resp)
	t.Logf("invocation: %s; progress: %q; diagnostics: %v", time.Since(start).Round(time.Millisecond), progress, resp.Diagnostics)
	return resp
}

// TestRunReporter: a message for each change of the run's status, outcome
// or counts, none for a read that shows no change.
func TestRunReporter(t *testing.T) {
	n := func(i int) *int { return &i }
	s := func(v string) *string { return &v }
	m := moduleRef{Organization: "acme", Name: "network", Provider: "aws"}
	reads := []testRunRecord{
		{ID: "trun-1", Status: "queued"},
		{ID: "trun-1", Status: "queued"},
		{ID: "trun-1", Status: "running"},
		{ID: "trun-1", Status: "running"},
		{ID: "trun-1", Status: "running"},
		{ID: "trun-1", Status: "running", TestsPassed: n(1), TestsFailed: n(0)},
		{ID: "trun-1", Status: "running", TestsPassed: n(1), TestsFailed: n(0)},
		{ID: "trun-1", Status: "finished", TestStatus: s("fail"), TestsPassed: n(1), TestsFailed: n(1), TestsErrored: n(0), TestsSkipped: n(2)},
		{ID: "trun-1", Status: "finished", TestStatus: s("fail"), TestsPassed: n(1), TestsFailed: n(1), TestsErrored: n(0), TestsSkipped: n(2)},
	}
	var got []string
	r := &runReporter{m: m, start: time.Now(), send: func(msg string) { got = append(got, msg) }}
	for i := range reads {
		r.observe(&reads[i])
	}
	want := []string{
		"Test run trun-1 of acme/network/aws: queued",
		"Test run trun-1 of acme/network/aws: running",
		"Test run trun-1 of acme/network/aws: running, 1 passed, 0 failed, 0 errored, 0 skipped",
		"Test run trun-1 of acme/network/aws: finished (fail), 1 passed, 1 failed, 0 errored, 2 skipped",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunProgressMessage_elapsed: the time since queuing shows once the
// run has left the queue.
func TestRunProgressMessage_elapsed(t *testing.T) {
	m := moduleRef{Organization: "acme", Name: "network", Provider: "aws"}
	tests := []struct {
		status  string
		elapsed time.Duration
		want    string
	}{
		{"queued", 5 * time.Second, "Test run trun-1 of acme/network/aws: queued"},
		{"running", 500 * time.Millisecond, "Test run trun-1 of acme/network/aws: running"},
		{"running", 72400 * time.Millisecond, "Test run trun-1 of acme/network/aws: running after 1m12s"},
		{"canceled", 3 * time.Second, "Test run trun-1 of acme/network/aws: canceled after 3s"},
	}
	for _, tc := range tests {
		if got := (runProgress{status: tc.status}).message("trun-1", m, tc.elapsed); got != tc.want {
			t.Errorf("%s after %s: %q, want %q", tc.status, tc.elapsed, got, tc.want)
		}
	}
}

// TestActionProgress_neverBlocks: once the invocation's context has ended
// (Terraform interrupted it), sending progress returns even though nothing
// takes the message, and sends nothing more.
func TestActionProgress_neverBlocks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	taken := make(chan string, 1)
	block := make(chan struct{}) // never closed: Terraform stopped reading
	pushes := 0
	p := newActionProgress(ctx, func(e action.InvokeProgressEvent) {
		pushes++
		if pushes == 1 {
			taken <- e.Message
			return
		}
		<-block
	})
	p.send("first")
	if got := <-taken; got != "first" {
		t.Fatalf("first message %q", got)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.AfterFunc(50*time.Millisecond, cancel)
		p.send("second: blocked until the context ends")
		p.send("third: not sent")
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("send blocked after the context ended")
	}
}

// TestCheckModuleDirectory names the attribute and says what is wrong.
func TestCheckModuleDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "main.tf")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		dir, want string
	}{
		"directory": {dir, ""},
		"missing":   {filepath.Join(dir, "nope"), "source: the directory " + filepath.Join(dir, "nope") + " does not exist"},
		"file":      {file, "source: " + file + " is not a directory"},
	}
	for name, tc := range tests {
		got := ""
		if err := checkModuleDirectory(tc.dir); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}

// TestModuleTestActionDocs: the action's page template, written by hand
// because Terraform 1.11 (which generates the docs in CI) exports no action
// schemas, says what the schema says: its description, and each argument
// with its type and description, as tfplugindocs renders them.
func TestModuleTestActionDocs(t *testing.T) {
	var resp action.SchemaResponse
	NewModuleTestAction().Schema(context.Background(), action.SchemaRequest{}, &resp)
	page, err := os.ReadFile(filepath.Join(repoRoot(), "templates", "actions", "module_test.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[bool][]string{}
	for _, name := range slices.Sorted(maps.Keys(resp.Schema.Attributes)) {
		a := resp.Schema.Attributes[name]
		var typ string
		switch ty := a.GetType(); {
		case ty.Equal(types.StringType):
			typ = "String"
		case ty.Equal(types.BoolType):
			typ = "Boolean"
		case ty.Equal(types.ListType{ElemType: types.StringType}):
			typ = "List of String"
		case ty.Equal(types.MapType{ElemType: types.StringType}):
			typ = "Map of String"
		}
		if typ == "" {
			t.Fatalf("%s: type %s has no name here; add it", name, a.GetType())
		}
		want[a.IsRequired()] = append(want[a.IsRequired()], fmt.Sprintf("- `%s` (%s) %s", name, typ, a.GetMarkdownDescription()))
	}
	schemaDoc := "## Schema\n\n### Required\n\n" + strings.Join(want[true], "\n") + "\n\n### Optional\n\n" + strings.Join(want[false], "\n") + "\n"
	if !strings.HasSuffix(string(page), schemaDoc) {
		t.Errorf("templates/actions/module_test.md.tmpl does not end with the schema's arguments; replace its Schema section with:\n\n%s", schemaDoc)
	}
	if !strings.Contains(string(page), "# tfgov_module_test (Action)\n\n"+resp.Schema.MarkdownDescription+"\n") {
		t.Errorf("templates/actions/module_test.md.tmpl lacks the schema's description (run make docs with Terraform 1.14 or later on PATH and copy the page)")
	}
}
