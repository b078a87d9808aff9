package sandbox

import (
	"bytes"
	"fmt"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The "Module test runs" section of the reference: configuration versions and test runs under
// `{mod}`; where it is silent: README.md "Module test runs".

// maxConfigurationArchive bounds a configuration version's upload. The
// reference gives no limit; the archive is kept in the state (and the
// snapshot), so the sandbox takes what module tests need.
const maxConfigurationArchive = 10 << 20

// Test run statuses (States and transitions).
const (
	testRunPending  = "pending"
	testRunQueued   = "queued"
	testRunRunning  = "running"
	testRunErrored  = "errored"
	testRunCanceled = "canceled"
	testRunFinished = "finished"
)

// Test sources (the values of `source` and `filter[source]`).
const (
	testSourceEngine               = "engine"
	testSourceAPI                  = "svc-api"
	testSourceConfigurationVersion = "svc-configuration-version"
)

var testSources = []string{testSourceEngine, testSourceAPI, testSourceConfigurationVersion}

// configurationVersion is a configuration uploaded for module tests.
type configurationVersion struct {
	record
	ModuleID      string    `json:"module_id"`
	Status        string    `json:"status"`
	AutoQueueRuns bool      `json:"auto_queue_runs"`
	Error         string    `json:"error,omitempty"`
	ErrorMessage  string    `json:"error_message,omitempty"`
	UploadedAt    time.Time `json:"uploaded_at"`
	ErroredAt     time.Time `json:"errored_at"`
	// Archive is the uploaded .tar.gz, which the engine unpacks for every
	// run that uses the version.
	Archive []byte `json:"archive,omitempty"`
}

// runVariable is one of a run's `variables`: the key and the literal text
// of its value in the configuration language.
type runVariable struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// testRun is one run of a module's tests.
type testRun struct {
	record
	ModuleID        string        `json:"module_id"`
	ConfigVersionID string        `json:"config_version_id"`
	Source          string        `json:"source"`
	CreatedBy       string        `json:"created_by,omitempty"`
	Status          string        `json:"status"`
	UpdatedAt       time.Time     `json:"updated_at"`
	TestDirectory   string        `json:"test_directory"`
	Filters         []string      `json:"filters"`
	Verbose         bool          `json:"verbose"`
	Variables       []runVariable `json:"variables"`

	QueuedAt        time.Time `json:"queued_at"`
	StartedAt       time.Time `json:"started_at"`
	FinishedAt      time.Time `json:"finished_at"`
	ErroredAt       time.Time `json:"errored_at"`
	CanceledAt      time.Time `json:"canceled_at"`
	ForceCanceledAt time.Time `json:"force_canceled_at"`
	// CancelRequestedAt is set by a normal cancel; force-cancel needs it.
	CancelRequestedAt time.Time `json:"cancel_requested_at"`

	// The outcome, set when the run finishes.
	TestStatus string `json:"test_status,omitempty"`
	Passed     *int   `json:"passed,omitempty"`
	Failed     *int   `json:"failed,omitempty"`
	Errored    *int   `json:"errored,omitempty"`
	Skipped    *int   `json:"skipped,omitempty"`

	// LogSecret is the unguessable path of the run's log on the upload
	// listener; Log is the whole log, served once the run has ended.
	LogSecret string `json:"log_secret"`
	Log       []byte `json:"log,omitempty"`
}

func (tr *testRun) final() bool {
	return tr.Status == testRunFinished || tr.Status == testRunErrored || tr.Status == testRunCanceled
}

const modTestsPrefix = "/api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}"

func (s *Server) registerModuleTestRuns() {
	s.route("POST "+modTestsPrefix+"/test-runs/configuration-versions", s.createTestConfigurationVersion)
	s.route("GET /api/v2/configuration-versions/{id}", s.readConfigurationVersion)
	s.route("POST "+modTestsPrefix+"/test-runs", s.createTestRun)
	s.route("GET "+modTestsPrefix+"/test-runs", s.listTestRuns)
	s.route("GET "+modTestsPrefix+"/test-runs/{$}", s.listTestRuns)
	s.route("GET "+modTestsPrefix+"/test-runs/{id}", s.readTestRun)
	s.route("POST "+modTestsPrefix+"/test-runs/{id}/cancel", s.cancelTestRun)
	s.route("POST "+modTestsPrefix+"/test-runs/{id}/force-cancel", s.forceCancelTestRun)
	s.uploads.mux.HandleFunc("GET /test-run-logs/{secret}", s.serveTestRunLog)
}

// moduleFromPath is moduleForTests for the `{mod}` of r.
func (s *Server) moduleFromPath(r *http.Request, p principal) *registryModule {
	return s.st.moduleForTests(p, r.PathValue("org"), r.PathValue("ns"), r.PathValue("name"), r.PathValue("provider"))
}

// ---- configuration versions

// createTestConfigurationVersion answers 201 with a `pending` version whose
// `upload-url` is a one-time address on the upload listener (no bearer
// header; a second PUT is a 404). The request has no body; one that is
// sent is ignored.
func (s *Server) createTestConfigurationVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.moduleFromPath(r, p)
	if m == nil {
		return errNotFound()
	}
	cv := s.st.newConfigurationVersion(m, false)
	upload := s.uploads.newUploadURL(maxConfigurationArchive, func(st *state, body []byte) *apiError {
		return s.acceptConfiguration(st, cv.ID, body)
	})
	writeDoc(w, http.StatusCreated, document{Data: configurationVersionResource(cv, upload)})
	return nil
}

func (st *state) newConfigurationVersion(m *registryModule, autoQueue bool) *configurationVersion {
	cv := &configurationVersion{record: st.newRecord("cv-"), ModuleID: m.ID, Status: "pending", AutoQueueRuns: autoQueue}
	st.ConfigurationVersions[cv.ID] = cv
	return cv
}

// acceptConfiguration stores an upload. A bad archive is the version's
// failure, not the upload's: the PUT succeeds and the version is
// `errored`. A version with auto-queue-runs queues a run.
func (s *Server) acceptConfiguration(st *state, cvID string, body []byte) *apiError {
	cv := st.ConfigurationVersions[cvID]
	if cv == nil {
		return errNotFound()
	}
	t := st.now()
	if err := checkTarGz(body); err != nil {
		cv.Status, cv.Error, cv.ErrorMessage, cv.ErroredAt = "errored", "invalid_archive", "The upload is not a .tar.gz archive: "+err.Error(), t
	} else {
		cv.Status, cv.Archive, cv.UploadedAt = "uploaded", body, t
		if cv.AutoQueueRuns {
			tr := st.newTestRun(cv.ModuleID, cv.ID, testSourceConfigurationVersion, "")
			s.engine.enqueue(tr.ID)
		}
	}
	return nil
}

// readConfigurationVersion is go-tfe's ConfigurationVersions.Read. The
// upload address is never shown again.
func (s *Server) readConfigurationVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	cv := s.st.configurationVersionFor(p, r.PathValue("id"))
	if cv == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: configurationVersionResource(cv, "")})
	return nil
}

// configurationVersionFor returns the version when p may use the module
// it belongs to for tests.
func (st *state) configurationVersionFor(p principal, id string) *configurationVersion {
	cv := st.ConfigurationVersions[id]
	if cv == nil {
		return nil
	}
	m := st.RegistryModules[cv.ModuleID]
	if m == nil || st.moduleForTests(p, m.Org, m.Org, m.Name, m.Provider) == nil {
		return nil
	}
	return cv
}

func configurationVersionResource(cv *configurationVersion, uploadURL string) resource {
	ts := map[string]any{}
	if !cv.UploadedAt.IsZero() {
		ts["uploaded-at"] = statusTimestamp(cv.UploadedAt)
	}
	if !cv.ErroredAt.IsZero() {
		ts["errored-at"] = statusTimestamp(cv.ErroredAt)
	}
	attrs := map[string]any{
		"auto-queue-runs":   cv.AutoQueueRuns,
		"error":             nullableString(cv.Error),
		"error-message":     nullableString(cv.ErrorMessage),
		"source":            "tfe-api",
		"speculative":       false,
		"status":            cv.Status,
		"status-timestamps": ts,
		"changed-files":     []string{},
		"provisional":       false,
	}
	if uploadURL != "" {
		attrs["upload-url"] = uploadURL
	}
	self := apiPath("configuration-versions", cv.ID)
	return resource{
		Type:       "configuration-versions",
		ID:         cv.ID,
		Attributes: attrs,
		Relationships: map[string]any{
			"ingress-attributes": map[string]any{"data": nil, "links": map[string]any{"related": self + "/ingress-attributes"}},
		},
		Links: map[string]any{"self": self},
	}
}

// ---- test runs

var (
	runVariableKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
	maxTestFilters   = 100
	maxRunVariables  = 100
)

// createTestRun queues a run of the configuration version its relationship names; what it
// checks (422 naming the attribute): README.md "Module test runs".
func (s *Server) createTestRun(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.moduleFromPath(r, p)
	if m == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "test-runs")
	if e != nil {
		return e
	}
	verbose := b.optBool("verbose")
	testDir := b.optString("test-directory")
	filters := b.optStrings("filters")
	var vars []runVariable
	hasVars := b.optObject("variables", &vars)
	parallelism := b.optInt("parallelism")
	cvID := b.reqRelID("configuration-version", "configuration-versions")
	modID := b.relID("registry-module", "registry-modules")
	if b.err != nil {
		return b.err
	}
	run := &testRun{TestDirectory: "tests", Filters: orEmptyStrings(filters), Variables: []runVariable{}}
	if verbose != nil {
		run.Verbose = *verbose
	}
	if testDir != nil {
		run.TestDirectory = *testDir
	}
	if e := checkRelativePath("test-directory", run.TestDirectory); e != nil {
		return e
	}
	if len(run.Filters) > maxTestFilters {
		return errInvalidAttribute("filters", fmt.Sprintf("filters may name at most %d test files", maxTestFilters))
	}
	for _, f := range run.Filters {
		if e := checkRelativePath("filters", f); e != nil {
			return e
		}
	}
	if hasVars {
		if e := checkRunVariables(vars); e != nil {
			return e
		}
		if vars != nil {
			run.Variables = vars
		}
	}
	if parallelism != nil && *parallelism < 1 {
		return errInvalidAttribute("parallelism", fmt.Sprintf("parallelism must be a positive integer, got %d", *parallelism))
	}
	if modID != "" && modID != m.ID {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Pointer: "/data/relationships/registry-module",
			Detail: fmt.Sprintf("registry-module %s is not the module in the path (%s)", modID, m.ID)}
	}
	cv := s.st.configurationVersionFor(p, cvID)
	if cv == nil {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Pointer: "/data/relationships/configuration-version",
			Detail: fmt.Sprintf("configuration-version %s was not found", cvID)}
	}
	if cv.Status != "uploaded" {
		detail := fmt.Sprintf("configuration-version %s is %s: upload a configuration to it first", cv.ID, cv.Status)
		if cv.Status == "errored" {
			detail = fmt.Sprintf("configuration-version %s is errored: %s", cv.ID, cv.ErrorMessage)
		}
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Pointer: "/data/relationships/configuration-version", Detail: detail}
	}
	tr := s.st.newTestRun(m.ID, cv.ID, testSourceAPI, p.userID())
	tr.TestDirectory, tr.Filters, tr.Verbose, tr.Variables = run.TestDirectory, run.Filters, run.Verbose, run.Variables
	s.engine.enqueue(tr.ID)
	writeDoc(w, http.StatusCreated, document{Data: s.testRunResource(tr, m)})
	return nil
}

// newTestRun records a queued run with the defaults of a created run.
func (st *state) newTestRun(moduleID, cvID, source, createdBy string) *testRun {
	tr := &testRun{
		record: st.newRecord("trun-"), ModuleID: moduleID, ConfigVersionID: cvID, Source: source, CreatedBy: createdBy,
		Status: testRunQueued, TestDirectory: "tests", Filters: []string{}, Variables: []runVariable{}, LogSecret: randomString(40),
	}
	tr.UpdatedAt, tr.QueuedAt = tr.CreatedAt, tr.CreatedAt
	st.TestRuns[tr.ID] = tr
	return tr
}

func orEmptyStrings(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// checkRelativePath requires a relative, clean path that stays inside the
// configuration.
func checkRelativePath(attr, p string) *apiError {
	if strings.TrimSpace(p) == "" {
		return errInvalidAttribute(attr, attr+" may not be blank")
	}
	clean := path.Clean(strings.ReplaceAll(p, "\\", "/"))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || strings.ContainsRune(p, 0) {
		return errInvalidAttribute(attr, fmt.Sprintf("%s must be a path inside the configuration, got %q", attr, p))
	}
	return nil
}

// checkRunVariables checks a run's variables: unique identifier keys, and
// values that are single expressions of the configuration language.
func checkRunVariables(vars []runVariable) *apiError {
	if len(vars) > maxRunVariables {
		return errInvalidAttribute("variables", fmt.Sprintf("at most %d variables may be set", maxRunVariables))
	}
	seen := map[string]bool{}
	for i, v := range vars {
		if !runVariableKeyRE.MatchString(v.Key) {
			return errInvalidAttribute("variables", fmt.Sprintf("variables[%d].key must start with a letter or underscore and contain only letters, digits, underscores and dashes, got %q", i, v.Key))
		}
		if seen[v.Key] {
			return errInvalidAttribute("variables", fmt.Sprintf("variables[%d].key %q is set more than once", i, v.Key))
		}
		seen[v.Key] = true
		expr, diags := hclsyntax.ParseExpression([]byte(v.Value), v.Key, hclStart)
		if !diags.HasErrors() {
			// A literal has a value without any context: no references,
			// no function calls, as in a variable definitions file.
			_, diags = expr.Value(nil)
		}
		if diags.HasErrors() {
			return errInvalidAttribute("variables", fmt.Sprintf("variables[%d].value (%s) must be a literal of the configuration language, such as \"text\" (with its quotes), 42, true or [\"a\"]: %s", i, v.Key, diags.Error()))
		}
	}
	return nil
}

// listTestRuns lists the module's runs, newest first (the order the real
// service shows them in), 20 a page by default. `filter[source]` is a
// comma-separated list of sources; an unknown source is a 400 naming it.
func (s *Server) listTestRuns(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.moduleFromPath(r, p)
	if m == nil {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	var sources []string
	if raw := r.URL.Query().Get("filter[source]"); raw != "" {
		for _, src := range strings.Split(raw, ",") {
			src = strings.TrimSpace(src)
			if !slices.Contains(testSources, src) {
				return errBadRequest("filter[source]", fmt.Sprintf("must be a comma-separated list of %s, got %q", strings.Join(testSources, ", "), src))
			}
			sources = append(sources, src)
		}
	}
	all := sorted(s.st.TestRuns, func(tr *testRun) bool {
		return tr.ModuleID == m.ID && (sources == nil || slices.Contains(sources, tr.Source))
	})
	slices.Reverse(all)
	var data []resource
	for _, tr := range paginate(all, pg) {
		data = append(data, s.testRunResource(tr, m))
	}
	writeDoc(w, http.StatusOK, pageDocument(r, pg, len(all), orEmpty(data)))
	return nil
}

// testRunFor returns the run of the path's module.
func (s *Server) testRunFor(r *http.Request, p principal) (*testRun, *registryModule) {
	m := s.moduleFromPath(r, p)
	if m == nil {
		return nil, nil
	}
	tr := s.st.TestRuns[r.PathValue("id")]
	if tr == nil || tr.ModuleID != m.ID {
		return nil, nil
	}
	return tr, m
}

func (s *Server) readTestRun(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	tr, m := s.testRunFor(r, p)
	if tr == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: s.testRunResource(tr, m)})
	return nil
}

// cancelTestRun interrupts a running test: the engine sends Terraform an
// interrupt, Terraform finishes the run block in progress, skips the rest
// and destroys what it made, and the run ends `canceled`. Until then it
// stays `running`, which is when force-cancel is allowed. 202 with no
// body; 409 unless the run is running. A second cancel of a run already
// being canceled is also 202 and sends nothing more (a second interrupt
// would make Terraform exit at once, which is force-cancel's job).
func (s *Server) cancelTestRun(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	tr, _ := s.testRunFor(r, p)
	if tr == nil {
		return errNotFound()
	}
	if tr.Status != testRunRunning {
		return errConflict(fmt.Sprintf("test run %s is %s; only a running test can be canceled", tr.ID, tr.Status))
	}
	if tr.CancelRequestedAt.IsZero() {
		tr.CancelRequestedAt = s.st.now()
		tr.UpdatedAt = tr.CancelRequestedAt
		s.engine.interrupt(tr.ID)
	}
	w.WriteHeader(http.StatusAccepted)
	return nil
}

// forceCancelTestRun kills the engine process at once (and everything it
// started); the run ends `canceled` with `force-canceled-at`. 202 with no
// body; 409 unless the run is running and was canceled normally first.
func (s *Server) forceCancelTestRun(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	tr, _ := s.testRunFor(r, p)
	if tr == nil {
		return errNotFound()
	}
	if tr.Status != testRunRunning {
		return errConflict(fmt.Sprintf("test run %s is %s; only a running test can be force-canceled", tr.ID, tr.Status))
	}
	if tr.CancelRequestedAt.IsZero() {
		return errConflict(fmt.Sprintf("test run %s has not been canceled; cancel it first, and force-cancel only if it does not stop", tr.ID))
	}
	tr.UpdatedAt = s.st.now()
	s.engine.kill(tr.ID, killForceCancel)
	w.WriteHeader(http.StatusAccepted)
	return nil
}

// testRunMessages are the `message` of a run by source.
var testRunMessages = map[string]string{
	testSourceEngine:               "Queued from the Terraform CLI",
	testSourceAPI:                  "Queued through the API",
	testSourceConfigurationVersion: "Queued by a configuration version from version control",
}

func (s *Server) testRunResource(tr *testRun, m *registryModule) resource {
	ts := map[string]any{}
	for _, k := range []struct {
		key string
		t   time.Time
	}{
		{"queued-at", tr.QueuedAt}, {"started-at", tr.StartedAt}, {"finished-at", tr.FinishedAt},
		{"errored-at", tr.ErroredAt}, {"canceled-at", tr.CanceledAt}, {"force-canceled-at", tr.ForceCanceledAt},
	} {
		if !k.t.IsZero() {
			ts[k.key] = statusTimestamp(k.t)
		}
	}
	intOrNil := func(n *int) any {
		if n == nil {
			return nil
		}
		return *n
	}
	attrs := map[string]any{
		"status":                 tr.Status,
		"status-timestamps":      ts,
		"created-at":             timestamp(tr.CreatedAt),
		"updated-at":             timestamp(tr.UpdatedAt),
		"test-configurable-type": "RegistryModule",
		"test-configurable-id":   tr.ModuleID,
		"variables":              tr.Variables,
		"filters":                tr.Filters,
		"test-directory":         tr.TestDirectory,
		"verbose":                tr.Verbose,
		"test-status":            nullableString(tr.TestStatus),
		"tests-passed":           intOrNil(tr.Passed),
		"tests-failed":           intOrNil(tr.Failed),
		"tests-errored":          intOrNil(tr.Errored),
		"tests-skipped":          intOrNil(tr.Skipped),
		"source":                 tr.Source,
		"message":                testRunMessages[tr.Source],
	}
	if tr.final() {
		attrs["log-read-url"] = s.uploads.base + "/test-run-logs/" + tr.LogSecret
	}
	createdBy := relOne("users", tr.CreatedBy)
	if tr.CreatedBy != "" {
		createdBy["links"] = map[string]any{"related": apiPath("users", tr.CreatedBy)}
	}
	return resource{
		Type:       "test-runs",
		ID:         tr.ID,
		Attributes: attrs,
		Relationships: map[string]any{
			"configuration-version": map[string]any{
				"data":  map[string]any{"type": "configuration-versions", "id": tr.ConfigVersionID},
				"links": map[string]any{"related": apiPath("configuration-versions", tr.ConfigVersionID)},
			},
			"created-by":      createdBy,
			"registry-module": relOne("registry-modules", tr.ModuleID),
		},
		Links: map[string]any{
			"self": apiPath("organizations", m.Org, "tests", "registry-modules", "private", m.Org, m.Name, m.Provider, "test-runs", tr.ID),
		},
	}
}

// serveTestRunLog serves a finished run's log at its `log-read-url`, on
// the upload listener and without authentication: the path is the secret.
// The body is the log between the ASCII markers STX and ETX, as the real
// service's log archive frames it, which tells go-tfe's LogReader that the
// log is complete; `offset` and `limit` (what LogReader sends) select a
// slice of it. A run that has not ended has no log yet (404).
func (s *Server) serveTestRunLog(w http.ResponseWriter, r *http.Request) {
	s.count("GET {log_read_url}")
	secret := r.PathValue("secret")
	var log []byte
	found := false
	s.mu.RLock()
	for _, tr := range s.st.TestRuns {
		if tr.LogSecret == secret && tr.final() {
			log, found = tr.Log, true
			break
		}
	}
	s.mu.RUnlock()
	if !found || secret == "" {
		writeError(w, errNotFound())
		return
	}
	framed := make([]byte, 0, len(log)+2)
	framed = append(append(append(framed, 2), log...), 3)
	q := r.URL.Query()
	offset, limit := 0, len(framed)
	for _, param := range []struct {
		name string
		dst  *int
	}{{"offset", &offset}, {"limit", &limit}} {
		if v := q.Get(param.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				writeError(w, errBadRequest(param.name, fmt.Sprintf("must be a non-negative integer, got %q", v)))
				return
			}
			*param.dst = n
		}
	}
	// end is computed from what is left, so that no offset or limit can
	// overflow it.
	start := min(offset, len(framed))
	end := start + min(limit, len(framed)-start)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(end-start))
	w.WriteHeader(http.StatusOK)
	_, _ = bytes.NewReader(framed[start:end]).WriteTo(w)
}

// deleteModuleTests removes a module's configuration versions and test runs
// (the engine stops a run whose record disappears).
func (st *state) deleteModuleTests(moduleID string) {
	for id, cv := range st.ConfigurationVersions {
		if cv.ModuleID == moduleID {
			delete(st.ConfigurationVersions, id)
		}
	}
	for id, tr := range st.TestRuns {
		if tr.ModuleID == moduleID {
			delete(st.TestRuns, id)
		}
	}
}
