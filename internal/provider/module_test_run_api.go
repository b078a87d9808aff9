package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// The module test run API. go-tfe's TestRun lacks most of the record (source, variables, filters,
// test-directory, verbose, created-at), reads an unfinished run's null outcome as zeros, and its list
// has no filter[source]: testRunRecord is the whole record, read through go-tfe's NewRequest.

// testRunRecord is a test run as the API returns it.
type testRunRecord struct {
	ID               string                      `jsonapi:"primary,test-runs"`
	Status           string                      `jsonapi:"attr,status"`
	StatusTimestamps tfe.TestRunStatusTimestamps `jsonapi:"attr,status-timestamps"`
	CreatedAt        time.Time                   `jsonapi:"attr,created-at,iso8601"`
	TestStatus       *string                     `jsonapi:"attr,test-status"`
	TestsPassed      *int                        `jsonapi:"attr,tests-passed"`
	TestsFailed      *int                        `jsonapi:"attr,tests-failed"`
	TestsErrored     *int                        `jsonapi:"attr,tests-errored"`
	TestsSkipped     *int                        `jsonapi:"attr,tests-skipped"`
	Source           string                      `jsonapi:"attr,source"`
	Message          string                      `jsonapi:"attr,message"`
	TestDirectory    string                      `jsonapi:"attr,test-directory"`
	Filters          []string                    `jsonapi:"attr,filters"`
	Verbose          bool                        `jsonapi:"attr,verbose"`
	Variables        []*tfe.RunVariableAttr      `jsonapi:"attr,variables"`

	ConfigurationVersion *tfe.ConfigurationVersion `jsonapi:"relation,configuration-version"`
}

// final reports whether the run has ended: errored, canceled or finished.
func (r *testRunRecord) final() bool {
	return isFinalTestRunStatus(r.Status)
}

func isFinalTestRunStatus(s string) bool {
	switch tfe.TestRunStatus(s) {
	case tfe.TestRunErrored, tfe.TestRunCanceled, tfe.TestRunFinished:
		return true
	}
	return false
}

// passed reports whether the run finished with every test passing.
func (r *testRunRecord) passed() bool {
	return r.Status == string(tfe.TestRunFinished) && r.TestStatus != nil && *r.TestStatus == string(tfe.TestPass)
}

func (r *testRunRecord) configurationVersionID() string {
	if r.ConfigurationVersion == nil {
		return ""
	}
	return r.ConfigurationVersion.ID
}

// counts describes the outcome for a diagnostic.
func (r *testRunRecord) counts() string {
	n := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	return fmt.Sprintf("%d passed, %d failed, %d errored, %d skipped", n(r.TestsPassed), n(r.TestsFailed), n(r.TestsErrored), n(r.TestsSkipped))
}

type testRunRecordList struct {
	*tfe.Pagination
	Items []*testRunRecord
}

// testRunListOptions adds the reference's filter[source] (comma-separated) to go-tfe's.
type testRunListOptions struct {
	tfe.ListOptions
	Sources string `url:"filter[source],omitempty"`
}

func (m moduleRef) testRunsPath() string {
	return fmt.Sprintf("organizations/%s/tests/registry-modules/private/%s/%s/%s/test-runs",
		url.PathEscape(m.Organization), url.PathEscape(m.Organization), url.PathEscape(m.Name), url.PathEscape(m.Provider))
}

// moduleTestsError explains a failed call; a 404: a missing module or a token outside the owners team.
func moduleTestsError(m moduleRef, err error) string {
	if isNotFound(err) {
		return fmt.Sprintf("Private module %s was not found, or the API token may not run its tests "+
			"(module test endpoints need a token of the owners team or of one of its members).", m)
	}
	return fmt.Sprintf("Module %s: %s", m, err)
}

// testRunsListError explains a failed list; a 404 says which from one read (moduleTestsDenied).
func (d *providerData) testRunsListError(ctx context.Context, mod moduleRef, err error) string {
	if isNotFound(err) {
		return fmt.Sprintf("Could not list the test runs of module %s: %s", mod, d.moduleTestsDenied(ctx, mod, false))
	}
	return moduleTestsError(mod, err)
}

// testRunNotFound explains a 404 on run id: a read of the module tells a missing module; then its
// runs' first page (same permission as the read) tells a hidden run from a missing one.
func (d *providerData) testRunNotFound(ctx context.Context, mod moduleRef, id string) string {
	if seen, err := d.moduleSeen(ctx, mod); err != nil || seen.missing {
		return fmt.Sprintf("Test run %s of module %s was not found: %s", id, mod, d.moduleTestsDenied(ctx, mod, false))
	}
	err := tfeclient.APIRequest(ctx, d.client, "GET", mod.testRunsPath(), &testRunListOptions{ListOptions: tfe.ListOptions{PageSize: 1}}, nil, &testRunRecordList{})
	switch {
	case isNotFound(err):
		return fmt.Sprintf("Test run %s of module %s cannot be read: the module exists, but the API token may not see its tests: they need %s", id, mod, permTextTests)
	case err != nil:
		return fmt.Sprintf("Test run %s of module %s was not found, or the API token may not see the module's tests (%s); listing them to tell which failed: %s.", id, mod, permTextTests, err)
	}
	return fmt.Sprintf("Module %s has no test run %s: its test runs, which the API token may list, do not include it (a run belongs to one module).", mod, id)
}

type testRunClient struct{ client *tfe.Client }

// read reads one run: one request.
func (c testRunClient) read(ctx context.Context, m moduleRef, id string) (*testRunRecord, error) {
	return c.record(ctx, "GET", m.testRunsPath()+"/"+url.PathEscape(id), nil)
}

// create queues a run with go-tfe's TestRuns.Create, decoded into the whole record.
func (c testRunClient) create(ctx context.Context, m moduleRef, opts *tfe.TestRunCreateOptions) (*testRunRecord, error) {
	return c.record(ctx, "POST", m.testRunsPath(), opts)
}

// lostCreate finds the unreceived runs of the sent inputs that a lost create (amb) may have queued:
// adopted (and claimed) only when ownCV says this create made the configuration version, else
// returned as candidates from the request's window (DESIGN.md "Lost creates", "What counts as proof").
func (c testRunClient) lostCreate(ctx context.Context, m moduleRef, sent *tfe.TestRunCreateOptions, amb *tfeclient.AmbiguousWriteError, ownCV bool, owned *ownership) (run *testRunRecord, adopt bool, candidates []*testRunRecord, err error) {
	runs, err := c.list(ctx, m, nil)
	if err != nil {
		return nil, false, nil, err
	}
	for _, run := range runs {
		if run.configurationVersionID() != sent.ConfigurationVersion.ID || owned.wasReceived(run.ID) {
			continue
		}
		if sent.TestDirectory != nil && run.TestDirectory != *sent.TestDirectory ||
			sent.Verbose != nil && run.Verbose != *sent.Verbose ||
			!slices.Equal(slices.Sorted(slices.Values(run.Filters)), slices.Sorted(slices.Values(sent.Filters))) ||
			!sameRunVariables(run.Variables, sent.Variables) {
			continue
		}
		if ownCV {
			if !owned.claim(run.ID) {
				continue
			}
			return run, true, nil, nil
		}
		if amb.Within(run.CreatedAt) {
			candidates = append(candidates, run)
		}
	}
	return nil, false, candidates, nil
}

// sameRunVariables compares a run's variables with those sent.
func sameRunVariables(got []*tfe.RunVariableAttr, sent []*tfe.RunVariable) bool {
	if len(got) != len(sent) {
		return false
	}
	want := make(map[string]string, len(sent))
	for _, v := range sent {
		want[v.Key] = v.Value
	}
	for _, v := range got {
		if w, ok := want[v.Key]; !ok || w != v.Value {
			return false
		}
	}
	return true
}

// record makes one request that answers a run.
func (c testRunClient) record(ctx context.Context, method, path string, body any) (*testRunRecord, error) {
	rec := &testRunRecord{}
	if err := tfeclient.APIRequest(ctx, c.client, method, path, body, nil, rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// testRunListPageSize is the API's largest page; a variable so tests prove paging with few runs.
var testRunListPageSize = 100

// list reads every page of the module's runs of sources (all when empty), newest first; an error
// on any page, a 404 too, is an error.
func (c testRunClient) list(ctx context.Context, m moduleRef, sources []string) ([]*testRunRecord, error) {
	return tfeclient.ListAll(ctx, func(ctx context.Context, n int) ([]*testRunRecord, *tfe.Pagination, error) {
		opts := &testRunListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: testRunListPageSize}, Sources: strings.Join(sources, ",")}
		l := &testRunRecordList{}
		if err := tfeclient.APIRequest(ctx, c.client, "GET", m.testRunsPath(), opts, nil, l); err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	})
}

// Polling backs off from pollStart by half again each time, up to pollMax.
const (
	pollStart = 500 * time.Millisecond
	pollMax   = 10 * time.Second
)

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// waitFor polls the run until done or ctx ends, returning the last record read (also on error).
func (c testRunClient) waitFor(ctx context.Context, m moduleRef, id string, done func(*testRunRecord) bool) (*testRunRecord, error) {
	delay := pollStart
	var last *testRunRecord
	for {
		if err := sleepCtx(ctx, delay); err != nil {
			return last, err
		}
		rec, err := c.read(ctx, m, id)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		last = rec
		tflog.Debug(ctx, "Polled test run", map[string]any{"id": id, "status": rec.Status})
		if done(rec) {
			return rec, nil
		}
		delay = min(delay*3/2, pollMax)
	}
}

const logTailLines = 25 // log lines a failed run's diagnostic shows

const maxLogRead = 4 << 20 // bytes of a log read for its tail

// logTail returns the last lines of a finished run's log (Terraform's JSON lines) for a person:
// each line's message and any diagnostic's detail.
func (c testRunClient) logTail(ctx context.Context, m moduleRef, id string) (string, error) {
	r, err := c.client.TestRuns.Logs(ctx, m.id(), id)
	if err != nil {
		return "", err
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxLogRead))
	if err != nil {
		return "", err
	}
	return renderLogTail(raw, logTailLines), nil
}

// renderLogTail renders the last n lines of a JSON-lines log.
func renderLogTail(raw []byte, n int) string {
	var lines []string
	for _, line := range bytes.Split(raw, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var msg struct {
			Message    string `json:"@message"`
			Diagnostic *struct {
				Detail string `json:"detail"`
			} `json:"diagnostic"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.Message == "" {
			lines = append(lines, string(line))
			continue
		}
		text := msg.Message
		if msg.Diagnostic != nil && msg.Diagnostic.Detail != "" {
			text += ": " + msg.Diagnostic.Detail
		}
		lines = append(lines, strings.Split(strings.TrimRight(text, "\n"), "\n")...)
	}
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... (%d earlier lines)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// cancel waits for a queued run to start (the API cancels only running tests), cancels it, waits up
// to grace, then force-cancels. It returns the last record read; nil, nil when the run answers 404.
func (c testRunClient) cancel(ctx context.Context, m moduleRef, id string, grace time.Duration) (*testRunRecord, error) {
	rec, err := c.read(ctx, m, id)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	canceled := false
	for !rec.final() {
		if rec.Status != string(tfe.TestRunRunning) {
			// pending or queued: wait for it to start (or end).
			tflog.Debug(ctx, "Waiting for a queued test run to start before canceling it", map[string]any{"id": id, "status": rec.Status})
			next, err := c.waitFor(ctx, m, id, func(r *testRunRecord) bool { return r.final() || r.Status == string(tfe.TestRunRunning) })
			if next != nil {
				rec = next
			}
			if err != nil {
				return rec, err
			}
			continue
		}
		if !canceled {
			// A cancel whose answer was lost may have been processed: not sent again; the grace period
			// shows whether the run stops.
			if err := c.client.TestRuns.Cancel(ctx, m.id(), id); err != nil && !isAmbiguous(err) {
				// A 409 when the run ended meanwhile: read it again.
				if rec, err = c.stillRunning(ctx, m, id, err); err != nil || rec == nil {
					return rec, err
				}
				continue
			}
			canceled = true
			tflog.Info(ctx, "Canceled module test run", map[string]any{"id": id, "grace_seconds": grace.Seconds()})
			gctx, gcancel := context.WithTimeout(ctx, grace)
			next, err := c.waitFor(gctx, m, id, (*testRunRecord).final)
			gcancel()
			if next != nil {
				rec = next
			}
			if err != nil && (ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded)) {
				return rec, err
			}
			continue
		}
		if err := c.client.TestRuns.ForceCancel(ctx, m.id(), id); err != nil && !isAmbiguous(err) {
			if rec, err = c.stillRunning(ctx, m, id, err); err != nil || rec == nil {
				return rec, err
			}
			if rec.final() {
				break
			}
		} else {
			tflog.Info(ctx, "Force-canceled module test run", map[string]any{"id": id})
		}
		next, err := c.waitFor(ctx, m, id, (*testRunRecord).final)
		if next != nil {
			rec = next
		}
		if err != nil {
			return rec, err
		}
	}
	return rec, nil
}

// stillRunning reads the run after cancel failed with callErr: the failure stands unless the run
// ended (the API's 409) or answers 404 (nil: gone, or hidden; the delete's confirmGone says which).
func (c testRunClient) stillRunning(ctx context.Context, m moduleRef, id string, callErr error) (*testRunRecord, error) {
	rec, err := c.read(ctx, m, id)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if rec.final() {
		return rec, nil
	}
	return rec, callErr
}

// Shared by the tfgov_module_test_run resource and the tfgov_module_test action.

// testRunCreateOptions queues a run of configuration version cvID; variables in key order.
func testRunCreateOptions(m moduleRef, cvID string, testDirectory *string, verbose *bool, filters []string, variables map[string]string) *tfe.TestRunCreateOptions {
	opts := &tfe.TestRunCreateOptions{
		TestDirectory:        testDirectory,
		Verbose:              verbose,
		Filters:              filters,
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: cvID},
		RegistryModule: &tfe.RegistryModule{
			Name: m.Name, Provider: m.Provider, Namespace: m.Organization, RegistryName: tfe.PrivateRegistry,
			Organization: &tfe.Organization{Name: m.Organization},
		},
	}
	for _, k := range slices.Sorted(maps.Keys(variables)) {
		opts.Variables = append(opts.Variables, &tfe.RunVariable{Key: k, Value: variables[k]})
	}
	return opts
}

// queue queues a run for who (one request); after a lost answer, lostCreate adopts or queues again.
func (c testRunClient) queue(ctx context.Context, who string, m moduleRef, opts *tfe.TestRunCreateOptions, ownCV bool, owned *ownership) (rec *testRunRecord, maybeOrphans []*testRunRecord, err error) {
	rec, err = reconcileCreate(ctx, who,
		func() (*testRunRecord, error) {
			rec, err := c.create(ctx, m, opts)
			if err == nil {
				owned.receive(rec.ID)
			}
			return rec, err
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*testRunRecord, bool, error) {
			run, adopt, candidates, err := c.lostCreate(ctx, m, opts, amb, ownCV, owned)
			maybeOrphans = append(maybeOrphans, candidates...)
			return run, adopt, err
		})
	return rec, maybeOrphans, err
}

// describeOutcome explains a run that did not pass: a summary, and the
// counts with the end of its log.
func (c testRunClient) describeOutcome(ctx context.Context, m moduleRef, rec *testRunRecord) (summary, detail string) {
	var what string
	switch {
	case rec.Status == string(tfe.TestRunFinished):
		summary, what = "Module tests failed", fmt.Sprintf("The tests of %s failed in run %s: %s.", m, rec.ID, rec.counts())
	case rec.Status == string(tfe.TestRunCanceled):
		summary, what = "Module test run canceled", fmt.Sprintf("Test run %s of %s was canceled before the tests completed.", rec.ID, m)
	default:
		summary, what = "Module test run errored", fmt.Sprintf("Test run %s of %s errored: the tests could not run.", rec.ID, m)
	}
	tail, err := c.logTail(ctx, m, rec.ID)
	if err != nil {
		tail = fmt.Sprintf("(the log could not be read: %s)", err)
	}
	return summary, what + "\n\nEnd of the log:\n" + tail
}

// moduleTestsDenied says why a module's test endpoint answered 404, from one read of the module:
// missing, or the token may not manage its tests, or (ofVariable) the variable was removed.
func (d *providerData) moduleTestsDenied(ctx context.Context, mod moduleRef, ofVariable bool) string {
	seen, err := d.moduleSeen(ctx, mod)
	switch {
	case err == nil && seen.missing:
		return fmt.Sprintf("the module was not found in the private registry of organization %s, or the API token belongs to no team of it.", mod.Organization)
	case err != nil:
		return fmt.Sprintf("the module or the variable was not found, or the API token may not manage the module's tests (%s); reading the module to tell which failed: %s.", permTextTests, err)
	case ofVariable:
		return "the module exists, so the variable was removed outside Terraform, or the API token may not manage the module's tests: " + permTextTests
	}
	return "the module exists, so the API token may not manage its tests: they need " + permTextTests
}

// moduleTestCannotSee explains a test variable or run (what) whose module's list answered 404.
func (d *providerData) moduleTestCannotSee(ctx context.Context, check goneCheck, mod moduleRef, what, objects string) string {
	seen, err := d.moduleSeen(ctx, mod)
	return cannotSee(check, what, "module "+mod.String(), objects, strings.TrimSuffix(permTextTests, "."), seen, err)
}

// moduleTestImportDenied explains an import whose module's list answered 404, from the module's read.
func (d *providerData) moduleTestImportDenied(ctx context.Context, mod moduleRef, what string) string {
	seen, err := d.moduleSeen(ctx, mod)
	switch {
	case err != nil:
		return fmt.Sprintf("Module %s was not found, or the API token may not manage its tests (%s); reading the module to tell which failed: %s. Its %s cannot be read.", mod, strings.TrimSuffix(permTextTests, "."), err, what)
	case seen.missing:
		return fmt.Sprintf("Module %s was not found: it was deleted, or the API token belongs to no team of its organization. Its %s cannot be read.", mod, what)
	}
	return fmt.Sprintf("Module %s exists, but the API token may not manage its tests: %s Its %s cannot be read.", mod, permTextTests, what)
}
