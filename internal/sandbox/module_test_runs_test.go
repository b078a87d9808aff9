package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	slug "github.com/hashicorp/go-slug"
	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// Contract tests of the "Module test runs" section, through go-tfe, with
// the real engine: the modules under internal/testdata/module-tests run with the
// terraform on PATH, offline.

const (
	passModule = "../testdata/module-tests/pass"
	failModule = "../testdata/module-tests/fail"
	slowModule = "../testdata/module-tests/slow"
)

// testModule creates a private module for tests and returns its go-tfe
// records.
func (w *world) testModule(t testing.TB, name string) (*tfe.RegistryModule, tfe.RegistryModuleID) {
	t.Helper()
	m, err := w.owner.RegistryModules.Create(context.Background(), w.org, tfe.RegistryModuleCreateOptions{
		Name: tfe.String(name), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry,
	})
	if err != nil {
		t.Fatalf("create module %s: %v", name, err)
	}
	return m, tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: name, Provider: "aws", RegistryName: tfe.PrivateRegistry}
}

// pack returns the go-slug archive of dir.
func pack(t testing.TB, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := slug.Pack(dir, &buf, true); err != nil {
		t.Fatalf("pack %s: %v", dir, err)
	}
	return buf.Bytes()
}

// uploadedVersion creates a configuration version for id and uploads dir
// to it, as go-tfe's own helpers do.
func uploadedVersion(t testing.TB, c *tfe.Client, id tfe.RegistryModuleID, dir string) *tfe.ConfigurationVersion {
	t.Helper()
	ctx := context.Background()
	cv, err := c.ConfigurationVersions.CreateForRegistryModule(ctx, id)
	if err != nil {
		t.Fatalf("create configuration version: %v", err)
	}
	if err := c.ConfigurationVersions.UploadTarGzip(ctx, cv.UploadURL, bytes.NewReader(pack(t, dir))); err != nil {
		t.Fatalf("upload %s: %v", dir, err)
	}
	return cv
}

func createRun(t testing.TB, c *tfe.Client, m *tfe.RegistryModule, cv *tfe.ConfigurationVersion, opts tfe.TestRunCreateOptions) *tfe.TestRun {
	t.Helper()
	opts.ConfigurationVersion, opts.RegistryModule = cv, m
	tr, err := c.TestRuns.Create(context.Background(), opts)
	if err != nil {
		t.Fatalf("create test run: %v", err)
	}
	return tr
}

// waitRun polls the run until its status is one of want.
func waitRun(t testing.TB, c *tfe.Client, id tfe.RegistryModuleID, runID string, want ...tfe.TestRunStatus) *tfe.TestRun {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		tr, err := c.TestRuns.Read(context.Background(), id, runID)
		if err != nil {
			t.Fatalf("read test run %s: %v", runID, err)
		}
		for _, s := range want {
			if tr.Status == s {
				return tr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("test run %s is still %s, want %v", runID, tr.Status, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rawRun reads the run's document as JSON, for the attributes go-tfe does
// not decode.
func rawRun(t testing.TB, c *tfe.Client, id tfe.RegistryModuleID, runID string) map[string]any {
	t.Helper()
	return rawGet(t, c, runsPath(id)+"/"+runID, nil)
}

func runsPath(id tfe.RegistryModuleID) string {
	return "organizations/" + id.Organization + "/tests/registry-modules/private/" + id.Namespace + "/" + id.Name + "/" + id.Provider + "/test-runs"
}

func rawGet(t testing.TB, c *tfe.Client, path string, query map[string][]string) map[string]any {
	t.Helper()
	req, err := c.NewRequestWithAdditionalQueryParams(http.MethodGet, path, nil, query)
	if err != nil {
		t.Fatalf("request %s: %v", path, err)
	}
	var buf bytes.Buffer
	if err := req.Do(context.Background(), &buf); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return doc
}

func attrs(doc map[string]any) map[string]any {
	data, _ := doc["data"].(map[string]any)
	a, _ := data["attributes"].(map[string]any)
	return a
}

func readLog(t testing.TB, c *tfe.Client, id tfe.RegistryModuleID, runID string) string {
	t.Helper()
	r, err := c.TestRuns.Logs(context.Background(), id, runID)
	if err != nil {
		t.Fatalf("logs of %s: %v", runID, err)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("reading the log of %s: %v", runID, err)
	}
	return string(raw)
}

var statusTimestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$`)

func TestConfigurationVersions_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	m, id := w.testModule(t, "cvmod")

	cv, err := w.owner.ConfigurationVersions.CreateForRegistryModule(ctx, id)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if !strings.HasPrefix(cv.ID, "cv-") || cv.Status != tfe.ConfigurationPending || cv.AutoQueueRuns || cv.Speculative || cv.Provisional || cv.Source != tfe.ConfigurationSourceAPI {
		t.Fatalf("created %+v", cv)
	}
	up, err := url.Parse(cv.UploadURL)
	if err != nil || up.Host == "" || strings.HasPrefix(w.inst.URL, up.Scheme+"://"+up.Host) {
		t.Fatalf("upload-url %q must be on another listener than %s", cv.UploadURL, w.inst.URL)
	}
	read, err := w.owner.ConfigurationVersions.Read(ctx, cv.ID)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if read.UploadURL != "" || read.Status != tfe.ConfigurationPending {
		t.Fatalf("read before upload: status %s, upload-url %q (want pending, hidden)", read.Status, read.UploadURL)
	}

	// A run needs an uploaded version.
	_, err = w.owner.TestRuns.Create(ctx, tfe.TestRunCreateOptions{ConfigurationVersion: cv, RegistryModule: m})
	if err == nil || !strings.Contains(err.Error(), "pending") {
		t.Fatalf("run of a pending version: %v, want a 422 saying it is pending", err)
	}

	// The upload carries no bearer header (go-tfe sends none) and works once.
	if err := w.owner.ConfigurationVersions.UploadTarGzip(ctx, cv.UploadURL, bytes.NewReader(pack(t, passModule))); err != nil {
		t.Fatalf("upload: %v", err)
	}
	if err := w.owner.ConfigurationVersions.UploadTarGzip(ctx, cv.UploadURL, bytes.NewReader(pack(t, passModule))); err == nil {
		t.Fatal("second upload to the same address succeeded")
	}
	read, err = w.owner.ConfigurationVersions.Read(ctx, cv.ID)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if read.Status != tfe.ConfigurationUploaded || read.UploadURL != "" {
		t.Fatalf("after upload: %+v", read)
	}
	raw := attrs(rawGet(t, w.owner, "configuration-versions/"+cv.ID, nil))
	ts, _ := raw["status-timestamps"].(map[string]any)
	if s, _ := ts["uploaded-at"].(string); !statusTimestampRE.MatchString(s) {
		t.Errorf("status-timestamps %v: want uploaded-at with second precision and +00:00", ts)
	}
	if _, ok := raw["upload-url"]; ok {
		t.Errorf("upload-url is shown after creation: %v", raw["upload-url"])
	}

	// An API-made version does not queue a run (auto-queue-runs is false).
	runs, err := w.owner.TestRuns.List(ctx, id, nil)
	if err != nil || runs.TotalCount != 0 {
		t.Fatalf("runs after upload: %v, %+v; want none", err, runs)
	}

	// A bad archive errors the version, not the upload.
	bad, err := w.owner.ConfigurationVersions.CreateForRegistryModule(ctx, id)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if err := w.owner.ConfigurationVersions.UploadTarGzip(ctx, bad.UploadURL, strings.NewReader("not an archive")); err != nil {
		t.Fatalf("upload of a bad archive: %v", err)
	}
	bad, err = w.owner.ConfigurationVersions.Read(ctx, bad.ID)
	if err != nil || bad.Status != tfe.ConfigurationErrored || bad.ErrorMessage == "" || bad.Error == "" {
		t.Fatalf("bad archive: %v, %+v; want errored with an error message", err, bad)
	}
	_, err = w.owner.TestRuns.Create(ctx, tfe.TestRunCreateOptions{ConfigurationVersion: bad, RegistryModule: m})
	if err == nil || !strings.Contains(err.Error(), "errored") {
		t.Fatalf("run of an errored version: %v, want a 422", err)
	}

	if _, err := w.owner.ConfigurationVersions.Read(ctx, "cv-doesnotexist"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Fatalf("read of a missing version: %v", err)
	}
}

func TestTestRuns_passAndFail(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	m, id := w.testModule(t, "greeter")
	passCV := uploadedVersion(t, w.owner, id, passModule)
	failCV := uploadedVersion(t, w.owner, id, failModule)

	created := createRun(t, w.owner, m, passCV, tfe.TestRunCreateOptions{})
	if !strings.HasPrefix(created.ID, "trun-") || created.Status != tfe.TestRunQueued || created.LogReadURL != "" {
		t.Fatalf("created %+v: want queued without a log-read-url", created)
	}
	raw := attrs(rawRun(t, w.owner, id, created.ID))
	if raw["test-status"] != nil || raw["tests-passed"] != nil {
		t.Errorf("outcome before the run completed: %v", raw)
	}
	failing := createRun(t, w.owner, m, failCV, tfe.TestRunCreateOptions{})

	tr := waitRun(t, w.owner, id, created.ID, tfe.TestRunFinished, tfe.TestRunErrored)
	if tr.Status != tfe.TestRunFinished || tr.TestStatus != tfe.TestPass || tr.TestsPassed != 3 || tr.TestsFailed != 0 || tr.TestsErrored != 0 || tr.TestsSkipped != 0 {
		t.Fatalf("passing run: %+v\n%s", tr, readLog(t, w.owner, id, created.ID))
	}
	if tr.LogReadURL == "" || tr.ConfigurationVersion == nil || tr.ConfigurationVersion.ID != passCV.ID {
		t.Fatalf("finished run %+v: want a log-read-url and its configuration version", tr)
	}
	raw = attrs(rawRun(t, w.owner, id, created.ID))
	for k, want := range map[string]any{
		"source": "svc-api", "test-directory": "tests", "verbose": false, "test-configurable-type": "RegistryModule",
		"test-configurable-id": m.ID, "test-status": "pass", "tests-passed": float64(3),
	} {
		if raw[k] != want {
			t.Errorf("%s = %v, want %v", k, raw[k], want)
		}
	}
	if msg, _ := raw["message"].(string); msg == "" {
		t.Errorf("message is empty")
	}
	ts, _ := raw["status-timestamps"].(map[string]any)
	for _, k := range []string{"queued-at", "started-at", "finished-at"} {
		if s, _ := ts[k].(string); !statusTimestampRE.MatchString(s) {
			t.Errorf("status-timestamps.%s = %v: want second precision and +00:00", k, ts[k])
		}
	}

	log := readLog(t, w.owner, id, created.ID)
	if !strings.Contains(log, `"type":"test_summary"`) || !strings.Contains(log, "Success! 3 passed, 0 failed.") {
		t.Errorf("log lacks the test summary:\n%s", log)
	}
	for i, line := range strings.Split(strings.TrimSpace(log), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("log line %d is not JSON: %s", i+1, line)
		}
	}

	tr = waitRun(t, w.owner, id, failing.ID, tfe.TestRunFinished, tfe.TestRunErrored)
	if tr.Status != tfe.TestRunFinished || tr.TestStatus != tfe.TestFail || tr.TestsPassed != 1 || tr.TestsFailed != 1 {
		t.Fatalf("failing run: %+v\n%s", tr, readLog(t, w.owner, id, failing.ID))
	}
	if log := readLog(t, w.owner, id, failing.ID); !strings.Contains(log, "The answer is not 42.") {
		t.Errorf("failing run's log lacks the assertion's message:\n%s", log)
	}
}

// TestTestRuns_options runs the passing module with each run option and
// checks the engine applied it.
func TestTestRuns_options(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	m, id := w.testModule(t, "options")
	cv := uploadedVersion(t, w.owner, id, passModule)
	// A version of another module can be used too.
	_, otherID := w.testModule(t, "other")
	otherCV := uploadedVersion(t, w.owner, otherID, failModule)

	tests := map[string]struct {
		opts                   tfe.TestRunCreateOptions
		cv                     *tfe.ConfigurationVersion
		status                 tfe.TestStatus
		passed, failed         int
		logHas                 string
		variables, filtersWant string
	}{
		"string literal variable": {
			opts:   tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "name", Value: `"world"`}}},
			status: tfe.TestPass, passed: 3,
		},
		"variable overrides the default": {
			opts:   tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "name", Value: `"moon"`}}},
			status: tfe.TestFail, passed: 1, failed: 2, logHas: `hello, moon`,
		},
		"filter": {
			opts:   tfe.TestRunCreateOptions{Filters: []string{"tests/name.tftest.hcl"}},
			status: tfe.TestPass, passed: 1,
		},
		"test directory without tests": {
			opts:   tfe.TestRunCreateOptions{TestDirectory: tfe.String("integration")},
			status: tfe.TestPass, passed: 0,
		},
		"verbose": {
			opts:   tfe.TestRunCreateOptions{Verbose: tfe.Bool(true), Filters: []string{"tests/name.tftest.hcl"}},
			status: tfe.TestPass, passed: 1, logHas: `"type":"test_plan"`,
		},
		"parallelism is accepted": {
			opts:   tfe.TestRunCreateOptions{Parallelism: tfe.Int(4), Filters: []string{"tests/name.tftest.hcl"}},
			status: tfe.TestPass, passed: 1,
		},
		"configuration version of another module": {
			cv:     otherCV,
			status: tfe.TestFail, passed: 1, failed: 1,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			useCV := cv
			if tc.cv != nil {
				useCV = tc.cv
			}
			created := createRun(t, w.owner, m, useCV, tc.opts)
			tr := waitRun(t, w.owner, id, created.ID, tfe.TestRunFinished, tfe.TestRunErrored, tfe.TestRunCanceled)
			log := readLog(t, w.owner, id, created.ID)
			if tr.Status != tfe.TestRunFinished || tr.TestStatus != tc.status || tr.TestsPassed != tc.passed || tr.TestsFailed != tc.failed {
				t.Fatalf("run: status %s, test-status %s, %d passed, %d failed; want finished, %s, %d, %d\n%s",
					tr.Status, tr.TestStatus, tr.TestsPassed, tr.TestsFailed, tc.status, tc.passed, tc.failed, log)
			}
			if tc.logHas != "" && !strings.Contains(log, tc.logHas) {
				t.Errorf("log lacks %q:\n%s", tc.logHas, log)
			}
			raw := attrs(rawRun(t, w.owner, id, created.ID))
			if got, _ := json.Marshal(raw["variables"]); tc.opts.Variables != nil && !strings.Contains(string(got), tc.opts.Variables[0].Value[1:len(tc.opts.Variables[0].Value)-1]) {
				t.Errorf("variables = %s", got)
			}
			if tc.opts.TestDirectory != nil && raw["test-directory"] != *tc.opts.TestDirectory {
				t.Errorf("test-directory = %v", raw["test-directory"])
			}
			if tc.opts.Verbose != nil && raw["verbose"] != true {
				t.Errorf("verbose = %v", raw["verbose"])
			}
			if got, _ := json.Marshal(raw["filters"]); tc.opts.Filters != nil && string(got) != `["tests/name.tftest.hcl"]` {
				t.Errorf("filters = %s", got)
			}
		})
	}
}

func TestTestRuns_createValidation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	m, id := w.testModule(t, "validation")
	cv := uploadedVersion(t, w.owner, id, passModule)
	other, _ := w.testModule(t, "validation2")

	tests := map[string]struct {
		opts   tfe.TestRunCreateOptions
		detail string
	}{
		"test directory outside":  {tfe.TestRunCreateOptions{TestDirectory: tfe.String("../x")}, "test-directory must be a path inside"},
		"absolute test directory": {tfe.TestRunCreateOptions{TestDirectory: tfe.String("/etc")}, "test-directory must be a path inside"},
		"filter outside":          {tfe.TestRunCreateOptions{Filters: []string{"tests/../../x.tftest.hcl"}}, "filters must be a path inside"},
		"variable key":            {tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "1x", Value: "1"}}}, "variables[0].key must start with"},
		"duplicate variable":      {tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "a", Value: "1"}, {Key: "a", Value: "2"}}}, `variables[1].key "a" is set more than once`},
		"unquoted string":         {tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "name", Value: "world"}}}, "variables[0].value (name) must be a literal"},
		"function call":           {tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "name", Value: `file("/etc/passwd")`}}}, "must be a literal"},
		"two expressions":         {tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "name", Value: "\"a\"\nother = 1"}}}, "must be a literal"},
		"parallelism":             {tfe.TestRunCreateOptions{Parallelism: tfe.Int(0)}, "parallelism must be a positive integer"},
		"module of another path":  {tfe.TestRunCreateOptions{RegistryModule: other}, "is not the module in the path"},
		"missing version":         {tfe.TestRunCreateOptions{ConfigurationVersion: &tfe.ConfigurationVersion{ID: "cv-nope"}}, "configuration-version cv-nope was not found"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			if opts.ConfigurationVersion == nil {
				opts.ConfigurationVersion = cv
			}
			if opts.RegistryModule == nil {
				opts.RegistryModule = m
			} else {
				// The path comes from RegistryModule; send the other
				// module in the body only.
				opts.RegistryModule = &tfe.RegistryModule{ID: other.ID, Name: m.Name, Provider: m.Provider, Namespace: m.Namespace, RegistryName: m.RegistryName, Organization: m.Organization}
			}
			_, err := w.owner.TestRuns.Create(ctx, opts)
			if err == nil || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("create: %v, want a 422 with %q", err, tc.detail)
			}
		})
	}

	t.Run("no configuration version", func(t *testing.T) {
		t.Parallel()
		req, err := w.owner.NewRequest(http.MethodPost, runsPath(id), &tfe.TestRunCreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		err = req.Do(ctx, nil)
		if err == nil || !strings.Contains(err.Error(), "configuration-version is required") {
			t.Fatalf("create without a configuration version: %v", err)
		}
	})
	runs, err := w.owner.TestRuns.List(ctx, id, nil)
	if err != nil || runs.TotalCount != 0 {
		t.Fatalf("refused creates left runs: %v %+v", err, runs)
	}
}

func TestTestRuns_authorization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	m, id := w.testModule(t, "private")
	cv := uploadedVersion(t, w.owner, id, failModule)
	run := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{})
	waitRun(t, w.owner, id, run.ID, tfe.TestRunFinished, tfe.TestRunErrored)

	admins := w.team(t, "module-admins", &tfe.OrganizationAccessOptions{ManageModules: tfe.Bool(true), ManageWorkspaces: tfe.Bool(true)})
	callers := map[string]*tfe.Client{
		"member of a team that manages modules": w.member(t, "dev@acme.test", admins),
		"team token":                            w.teamClient(t, admins),
		"organization token":                    w.orgClient(t),
	}
	for name, c := range callers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			calls := map[string]func() error{
				"create version": func() error { _, err := c.ConfigurationVersions.CreateForRegistryModule(ctx, id); return err },
				"read version":   func() error { _, err := c.ConfigurationVersions.Read(ctx, cv.ID); return err },
				"create run": func() error {
					_, err := c.TestRuns.Create(ctx, tfe.TestRunCreateOptions{ConfigurationVersion: cv, RegistryModule: m})
					return err
				},
				"list runs":    func() error { _, err := c.TestRuns.List(ctx, id, nil); return err },
				"read run":     func() error { _, err := c.TestRuns.Read(ctx, id, run.ID); return err },
				"cancel":       func() error { return c.TestRuns.Cancel(ctx, id, run.ID) },
				"force-cancel": func() error { return c.TestRuns.ForceCancel(ctx, id, run.ID) },
			}
			for call, f := range calls {
				if err := f(); !errors.Is(err, tfe.ErrResourceNotFound) {
					t.Errorf("%s: %v, want 404", call, err)
				}
			}
		})
	}
	if _, err := w.owner.TestRuns.Read(ctx, id, "trun-doesnotexist"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read of a missing run: %v", err)
	}
}

// startedMarker returns the run variable that makes the slow module create
// a file once its wait has begun, and a function that waits for the file:
// an interrupt that came earlier would stop Terraform before the wait.
func startedMarker(t testing.TB) (*tfe.RunVariable, func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "started")
	return &tfe.RunVariable{Key: "started_marker", Value: strconv.Quote(path)}, func() {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			if _, err := os.Stat(path); err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the slow test did not start waiting (no %s)", path)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestTestRuns_cancel cancels a test that waits: the interrupt lets the
// apply in progress finish, so the run stays running until force-cancel
// kills it. Every refused move is a 409.
func TestTestRuns_cancel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	m, id := w.testModule(t, "slow")
	cv := uploadedVersion(t, w.owner, id, slowModule)

	t.Run("force-cancel after cancel", func(t *testing.T) {
		t.Parallel()
		marker, started := startedMarker(t)
		run := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{marker}})
		waitRun(t, w.owner, id, run.ID, tfe.TestRunRunning)
		if err := w.owner.TestRuns.ForceCancel(ctx, id, run.ID); err == nil || !strings.Contains(err.Error(), "cancel it first") {
			t.Fatalf("force-cancel before cancel: %v, want 409", err)
		}
		started()
		start := time.Now()
		if err := w.owner.TestRuns.Cancel(ctx, id, run.ID); err != nil {
			t.Fatalf("cancel: %v", err)
		}
		if err := w.owner.TestRuns.Cancel(ctx, id, run.ID); err != nil {
			t.Fatalf("second cancel while still running: %v", err)
		}
		time.Sleep(500 * time.Millisecond)
		if tr := waitRun(t, w.owner, id, run.ID, tfe.TestRunRunning, tfe.TestRunCanceled); tr.Status != tfe.TestRunRunning {
			t.Fatalf("after cancel the 30 s apply should still be running, got %s", tr.Status)
		}
		if err := w.owner.TestRuns.ForceCancel(ctx, id, run.ID); err != nil {
			t.Fatalf("force-cancel: %v", err)
		}
		tr := waitRun(t, w.owner, id, run.ID, tfe.TestRunCanceled, tfe.TestRunErrored, tfe.TestRunFinished)
		if tr.Status != tfe.TestRunCanceled || tr.StatusTimestamps.ForceCanceledAt.IsZero() || tr.TestStatus != "" {
			t.Fatalf("after force-cancel: %+v", tr)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("force-cancel took %s to end the run", d)
		}
		log := readLog(t, w.owner, id, run.ID)
		if !strings.Contains(log, "Interrupt received") || !strings.Contains(log, "force-canceled") {
			t.Errorf("log lacks the interrupt and the kill:\n%s", log)
		}
		for name, f := range map[string]func(context.Context, tfe.RegistryModuleID, string) error{
			"cancel": w.owner.TestRuns.Cancel, "force-cancel": w.owner.TestRuns.ForceCancel,
		} {
			if err := f(ctx, id, run.ID); err == nil || !strings.Contains(err.Error(), "is canceled") {
				t.Errorf("%s of a canceled run: %v, want 409", name, err)
			}
		}
	})

	t.Run("cancel ends the run", func(t *testing.T) {
		t.Parallel()
		marker, started := startedMarker(t)
		run := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "wait_seconds", Value: "2"}, marker}})
		started()
		if err := w.owner.TestRuns.Cancel(ctx, id, run.ID); err != nil {
			t.Fatalf("cancel: %v", err)
		}
		tr := waitRun(t, w.owner, id, run.ID, tfe.TestRunCanceled, tfe.TestRunErrored, tfe.TestRunFinished)
		if tr.Status != tfe.TestRunCanceled || !tr.StatusTimestamps.ForceCanceledAt.IsZero() || tr.StatusTimestamps.CanceledAt.IsZero() {
			t.Fatalf("after cancel: %+v", tr)
		}
		raw := attrs(rawRun(t, w.owner, id, run.ID))
		if raw["test-status"] != nil || raw["tests-passed"] != nil {
			t.Errorf("a canceled run has an outcome: %v", raw)
		}
		if log := readLog(t, w.owner, id, run.ID); !strings.Contains(log, "Interrupt received") || !strings.Contains(log, "Test run canceled") {
			t.Errorf("log lacks the interrupt:\n%s", log)
		}
	})

	t.Run("finished run", func(t *testing.T) {
		t.Parallel()
		run := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{{Key: "wait_seconds", Value: "0"}}})
		tr := waitRun(t, w.owner, id, run.ID, tfe.TestRunFinished, tfe.TestRunErrored, tfe.TestRunCanceled)
		if tr.Status != tfe.TestRunFinished || tr.TestStatus != tfe.TestPass {
			t.Fatalf("run: %+v\n%s", tr, readLog(t, w.owner, id, run.ID))
		}
		if err := w.owner.TestRuns.Cancel(ctx, id, run.ID); err == nil || !strings.Contains(err.Error(), "is finished") {
			t.Errorf("cancel of a finished run: %v, want 409", err)
		}
		if err := w.owner.TestRuns.ForceCancel(ctx, id, run.ID); err == nil || !strings.Contains(err.Error(), "is finished") {
			t.Errorf("force-cancel of a finished run: %v, want 409", err)
		}
	})
}

// TestTestRuns_queue runs one test at a time: a second run waits queued,
// cannot be canceled (409), and starts when the first ends; deleting the
// module stops its running test at once.
func TestTestRuns_queue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorldWith(t, sandbox.Options{TestRunWorkers: 1})
	m, id := w.testModule(t, "slow")
	cv := uploadedVersion(t, w.owner, id, slowModule)
	other, otherID := w.testModule(t, "quick")
	quickCV := uploadedVersion(t, w.owner, otherID, passModule)

	marker, started := startedMarker(t)
	slow := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{Variables: []*tfe.RunVariable{marker}})
	started()
	queued := createRun(t, w.owner, other, quickCV, tfe.TestRunCreateOptions{})
	time.Sleep(300 * time.Millisecond)
	if tr := waitRun(t, w.owner, otherID, queued.ID, tfe.TestRunQueued, tfe.TestRunRunning); tr.Status != tfe.TestRunQueued {
		t.Fatalf("second run with one worker busy: %s, want queued", tr.Status)
	}
	if err := w.owner.TestRuns.Cancel(ctx, otherID, queued.ID); err == nil || !strings.Contains(err.Error(), "is queued") {
		t.Fatalf("cancel of a queued run: %v, want 409", err)
	}

	start := time.Now()
	if err := w.owner.RegistryModules.DeleteProvider(ctx, id); err != nil {
		t.Fatalf("delete module: %v", err)
	}
	if _, err := w.owner.TestRuns.Read(ctx, id, slow.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Fatalf("run of a deleted module: %v, want 404", err)
	}
	if _, err := w.owner.ConfigurationVersions.Read(ctx, cv.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Fatalf("configuration version of a deleted module: %v, want 404", err)
	}
	tr := waitRun(t, w.owner, otherID, queued.ID, tfe.TestRunFinished, tfe.TestRunErrored)
	if tr.Status != tfe.TestRunFinished || tr.TestStatus != tfe.TestPass {
		t.Fatalf("queued run: %+v", tr)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the queued run waited %s: the deleted module's test was not stopped", d)
	}
}

func TestTestRuns_missingTerraform(t *testing.T) {
	t.Parallel()
	w := newWorldWith(t, sandbox.Options{Terraform: "/nonexistent/terraform"})
	m, id := w.testModule(t, "noterraform")
	cv := uploadedVersion(t, w.owner, id, passModule)
	run := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{})
	tr := waitRun(t, w.owner, id, run.ID, tfe.TestRunErrored, tfe.TestRunFinished)
	if tr.Status != tfe.TestRunErrored || tr.TestStatus != "" || tr.StatusTimestamps.ErroredAt.IsZero() {
		t.Fatalf("run without terraform: %+v", tr)
	}
	if log := readLog(t, w.owner, id, run.ID); !strings.Contains(log, "Terraform is not available") || !strings.Contains(log, "/nonexistent/terraform") {
		t.Errorf("log does not say terraform is missing:\n%s", log)
	}
}

func TestTestRuns_invalidConfiguration(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	m, id := w.testModule(t, "broken")
	dir := t.TempDir()
	writeFile(t, dir+"/main.tf", "locals {\n  a = \n}\n")
	cv := uploadedVersion(t, w.owner, id, dir)
	run := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{})
	tr := waitRun(t, w.owner, id, run.ID, tfe.TestRunErrored, tfe.TestRunFinished)
	if tr.Status != tfe.TestRunErrored {
		t.Fatalf("run of a broken configuration: %+v", tr)
	}
	if log := readLog(t, w.owner, id, run.ID); !strings.Contains(log, "Invalid expression") || !strings.Contains(log, "terraform init failed") {
		t.Errorf("log does not explain:\n%s", log)
	}
}

func TestTestRuns_listAndLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	m, id := w.testModule(t, "many")
	cv := uploadedVersion(t, w.owner, id, failModule)
	var ids []string
	for range 23 {
		ids = append(ids, createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{}).ID)
	}

	first, err := w.owner.TestRuns.List(ctx, id, nil)
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(first.Items) != 20 || first.TotalCount != 23 || first.TotalPages != 2 || first.NextPage != 2 {
		t.Fatalf("first page: %d items, pagination %+v", len(first.Items), first.Pagination)
	}
	if first.Items[0].ID != ids[22] || first.Items[19].ID != ids[3] {
		t.Errorf("list is not newest first")
	}
	second, err := w.owner.TestRuns.List(ctx, id, &tfe.TestRunListOptions{ListOptions: tfe.ListOptions{PageNumber: 2}})
	if err != nil || len(second.Items) != 3 || second.Items[2].ID != ids[0] {
		t.Fatalf("second page: %v, %+v", err, second)
	}

	for filter, want := range map[string]float64{"svc-api": 23, "engine": 0, "engine,svc-configuration-version": 0, "svc-configuration-version,svc-api": 23} {
		doc := rawGet(t, w.owner, runsPath(id), map[string][]string{"filter[source]": {filter}, "page[size]": {"5"}})
		meta, _ := doc["meta"].(map[string]any)
		pg, _ := meta["pagination"].(map[string]any)
		if pg["total-count"] != want {
			t.Errorf("filter[source]=%s: total-count %v, want %v", filter, pg["total-count"], want)
		}
	}
	req, err := w.owner.NewRequestWithAdditionalQueryParams(http.MethodGet, runsPath(id), nil, map[string][]string{"filter[source]": {"svc-api,bogus"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Do(ctx, nil); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("unknown source: %v, want a 400 naming it", err)
	}
	// The reference's path has a trailing slash; both forms list.
	if doc := rawGet(t, w.owner, runsPath(id)+"/", nil); len(doc["data"].([]any)) != 20 {
		t.Errorf("list with a trailing slash: %d items", len(doc["data"].([]any)))
	}

	// The log: served without authentication at an unguessable address,
	// in slices by offset and limit, framed by STX and ETX.
	tr := waitRun(t, w.owner, id, ids[0], tfe.TestRunFinished, tfe.TestRunErrored)
	get := func(u string) (int, string) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	status, whole := get(tr.LogReadURL)
	if status != http.StatusOK || !strings.HasPrefix(whole, "\x02") || !strings.HasSuffix(whole, "\x03") || !strings.Contains(whole, "1 passed, 1 failed") {
		t.Fatalf("log without a token: %d %q", status, whole)
	}
	u, _ := url.Parse(tr.LogReadURL)
	u.RawQuery = "offset=1&limit=10"
	if status, part := get(u.String()); status != http.StatusOK || part != whole[1:11] {
		t.Errorf("slice of the log: %d %q, want %q", status, part, whole[1:11])
	}
	u.RawQuery = ""
	u.Path += "x"
	if status, _ := get(u.String()); status != http.StatusNotFound {
		t.Errorf("log at a made-up address: %d, want 404", status)
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestTestRuns_testVariables: the module's test variables are environment
// variables of its runs (sensitive ones too), and a run's own variables
// override them.
func TestTestRuns_testVariables(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	m, id := w.testModule(t, "env")
	cv := uploadedVersion(t, w.owner, id, passModule)
	for _, v := range []tfe.VariableCreateOptions{
		{Key: tfe.String("TF_VAR_name"), Value: tfe.String(`moon`), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(true)},
		{Key: tfe.String("UNUSED"), Value: tfe.String("x"), Category: tfe.Category(tfe.CategoryEnv)},
	} {
		if _, err := w.owner.TestVariables.Create(ctx, id, v); err != nil {
			t.Fatalf("create test variable %s: %v", *v.Key, err)
		}
	}
	tests := map[string]struct {
		vars           []*tfe.RunVariable
		passed, failed int
		logHas         string
	}{
		// greeting.tftest.hcl expects the default name: the test variable
		// changes it. name.tftest.hcl sets its own.
		"test variable sets the module variable":   {passed: 1, failed: 2, logHas: `hello, moon`},
		"run variable overrides the test variable": {vars: []*tfe.RunVariable{{Key: "name", Value: `"world"`}}, passed: 3},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			created := createRun(t, w.owner, m, cv, tfe.TestRunCreateOptions{Variables: tc.vars})
			tr := waitRun(t, w.owner, id, created.ID, tfe.TestRunFinished, tfe.TestRunErrored, tfe.TestRunCanceled)
			log := readLog(t, w.owner, id, created.ID)
			if tr.Status != tfe.TestRunFinished || tr.TestsPassed != tc.passed || tr.TestsFailed != tc.failed {
				t.Fatalf("run: %s, %d passed, %d failed; want finished, %d, %d\n%s", tr.Status, tr.TestsPassed, tr.TestsFailed, tc.passed, tc.failed, log)
			}
			if tc.logHas != "" && !strings.Contains(log, tc.logHas) {
				t.Errorf("log lacks %q:\n%s", tc.logHas, log)
			}
		})
	}
}
