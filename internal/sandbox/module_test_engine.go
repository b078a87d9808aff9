package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	slug "github.com/hashicorp/go-slug"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The test engine runs test runs for real, with the terraform CLI, as HCP Terraform's runners
// do: README.md "The test engine".

// maxTestRunDuration bounds one run; a run still going after it is killed
// and errored.
const maxTestRunDuration = time.Hour

// orphanCheckInterval is how often a worker checks that its run still
// exists.
const orphanCheckInterval = 500 * time.Millisecond

// Why a run's processes were killed.
const (
	killForceCancel = "force-cancel"
	killShutdown    = "shutdown"
	killOrphaned    = "orphaned"
	killTimeout     = "timeout"
)

type testEngine struct {
	s         *Server
	terraform string // Options.Terraform: "" looks up terraform on PATH

	mu     sync.Mutex
	cond   *sync.Cond
	queue  []string
	procs  map[string]*runProc // runs being executed, by id
	closed bool
	wg     sync.WaitGroup
}

func newTestEngine(s *Server, workers int, terraform string) *testEngine {
	if workers <= 0 {
		workers = 2
	}
	e := &testEngine{s: s, terraform: terraform, procs: map[string]*runProc{}}
	e.cond = sync.NewCond(&e.mu)
	for range workers {
		e.wg.Add(1)
		go e.worker()
	}
	return e
}

// resume queues the runs of a loaded snapshot that were waiting, and
// records runs that were executing when the previous process stopped as
// errored. The caller holds s.mu (or is New, before serving).
func (e *testEngine) resume(st *state) {
	for _, tr := range sorted(st.TestRuns, nil) {
		switch tr.Status {
		case testRunPending, testRunQueued:
			e.enqueue(tr.ID)
		case testRunRunning:
			t := st.now()
			tr.Status, tr.ErroredAt, tr.FinishedAt, tr.UpdatedAt = testRunErrored, t, t, t
			var log engineLog
			log.diagnostic("Test run interrupted", "The sandbox stopped while this run was executing; queue a new run.")
			tr.Log = append(tr.Log, log.bytes()...)
		}
	}
}

// enqueue adds a run to the queue. Handlers call it with s.mu held.
func (e *testEngine) enqueue(id string) {
	e.mu.Lock()
	e.queue = append(e.queue, id)
	e.mu.Unlock()
	e.cond.Signal()
}

// interrupt sends the run's process an interrupt (cancel).
func (e *testEngine) interrupt(id string) {
	e.mu.Lock()
	p := e.procs[id]
	e.mu.Unlock()
	if p != nil {
		p.interrupt()
	}
}

// kill kills the run's processes.
func (e *testEngine) kill(id, reason string) {
	e.mu.Lock()
	p := e.procs[id]
	e.mu.Unlock()
	if p != nil {
		p.kill(reason)
	}
}

// close stops the workers: queued runs stay queued, running ones are
// killed, and close returns when every worker has recorded its run.
func (e *testEngine) close() {
	e.mu.Lock()
	e.closed = true
	procs := make([]*runProc, 0, len(e.procs))
	for _, p := range e.procs {
		procs = append(procs, p)
	}
	e.mu.Unlock()
	e.cond.Broadcast()
	for _, p := range procs {
		p.kill(killShutdown)
	}
	e.wg.Wait()
}

func (e *testEngine) next() (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.queue) == 0 && !e.closed {
		e.cond.Wait()
	}
	if e.closed {
		return "", false
	}
	id := e.queue[0]
	e.queue = e.queue[1:]
	return id, true
}

func (e *testEngine) worker() {
	defer e.wg.Done()
	for {
		id, ok := e.next()
		if !ok {
			return
		}
		e.execute(id)
	}
}

// job is what a worker needs of a run, copied out under the state lock.
type job struct {
	runID, moduleID, cvID string
	archive               []byte
	testDir               string
	filters               []string
	verbose               bool
	variables             []runVariable
	env                   []string
}

// outcome is what a worker learned.
type outcome struct {
	status  string
	summary *testSummary
	log     []byte
	// forced is set when force-cancel ended the run.
	forced bool
}

func (e *testEngine) execute(id string) {
	j, p := e.start(id)
	if j == nil {
		return
	}
	out := e.run(j, p)
	e.finish(id, out)
}

// start moves a queued run to running and registers its process handle,
// both under the state lock, so that a run is never `running` without a
// handle that cancel can reach.
func (e *testEngine) start(id string) (*job, *runProc) {
	s := e.s
	s.mu.Lock()
	defer s.mu.Unlock()
	tr := s.st.TestRuns[id]
	if tr == nil || (tr.Status != testRunQueued && tr.Status != testRunPending) {
		return nil, nil
	}
	e.mu.Lock()
	closed := e.closed
	p := &runProc{}
	if !closed {
		e.procs[id] = p
	}
	e.mu.Unlock()
	if closed {
		return nil, nil
	}
	t := e.s.st.now()
	tr.Status, tr.StartedAt, tr.UpdatedAt = testRunRunning, t, t
	j := &job{
		runID: tr.ID, moduleID: tr.ModuleID, cvID: tr.ConfigVersionID, testDir: tr.TestDirectory,
		filters: slices.Clone(tr.Filters), verbose: tr.Verbose, variables: append([]runVariable(nil), tr.Variables...),
		env: s.st.moduleTestEnv(tr.ModuleID),
	}
	if cv := s.st.ConfigurationVersions[tr.ConfigVersionID]; cv != nil {
		j.archive = cv.Archive
	}
	s.persistLocked()
	return j, p
}

// finish records the outcome, unless the run has disappeared meanwhile.
func (e *testEngine) finish(id string, out outcome) {
	s := e.s
	s.mu.Lock()
	defer s.mu.Unlock()
	e.mu.Lock()
	delete(e.procs, id)
	e.mu.Unlock()
	tr := s.st.TestRuns[id]
	if tr == nil {
		return
	}
	t := e.s.st.now()
	tr.Status, tr.FinishedAt, tr.UpdatedAt, tr.Log = out.status, t, t, out.log
	switch out.status {
	case testRunErrored:
		tr.ErroredAt = t
	case testRunCanceled:
		tr.CanceledAt = t
		if out.forced {
			tr.ForceCanceledAt = t
		}
	case testRunFinished:
		sum := out.summary
		tr.TestStatus = "fail"
		if sum.Status == "pass" || sum.Status == "skip" {
			tr.TestStatus = "pass"
		}
		tr.Passed, tr.Failed, tr.Errored, tr.Skipped = &sum.Passed, &sum.Failed, &sum.Errored, &sum.Skipped
	}
	s.persistLocked()
}

// testSummary is the `test_summary` of `terraform test -json`.
type testSummary struct {
	Status  string `json:"status"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Errored int    `json:"errored"`
	Skipped int    `json:"skipped"`
}

// run executes the job and returns its outcome. It never holds s.mu.
func (e *testEngine) run(j *job, p *runProc) outcome {
	var log engineLog
	log.info(fmt.Sprintf("Test run %s: configuration version %s, test directory %q", j.runID, j.cvID, j.testDir))
	errored := func(summary, detail string) outcome {
		log.diagnostic(summary, detail)
		return outcome{status: testRunErrored, log: log.bytes()}
	}
	if j.archive == nil {
		return errored("Configuration version not available", fmt.Sprintf("Configuration version %s no longer exists or has no configuration.", j.cvID))
	}
	tf, err := e.terraformPath()
	if err != nil {
		return errored("Terraform is not available", err.Error())
	}
	dir, err := os.MkdirTemp("", "tfgov-test-run-*")
	if err != nil {
		return errored("Cannot prepare the run", err.Error())
	}
	defer os.RemoveAll(dir) // a temporary directory
	cfg := filepath.Join(dir, "config")
	if err := slug.Unpack(bytes.NewReader(j.archive), cfg); err != nil {
		return errored("Cannot unpack the configuration", err.Error())
	}
	env := testEnvironment(j.env)

	ctx, cancel := context.WithTimeout(context.Background(), maxTestRunDuration)
	defer cancel()
	stopWatch := e.watch(ctx, j.runID, p)
	defer stopWatch()

	if needsInit(cfg, j.testDir) {
		log.info("The configuration needs providers or modules: running terraform init -backend=false")
		err := p.exec(ctx, tf, cfg, env, []string{"init", "-json", "-backend=false", "-input=false", "-no-color"}, &log, nil)
		if o, done := p.ended(&log, err); done {
			return o
		}
		if err != nil {
			return errored("terraform init failed", "terraform init failed ("+err.Error()+"); the diagnostics above say why.")
		}
	}

	args := []string{"test", "-json", "-no-color", "-test-directory=" + j.testDir}
	for _, f := range j.filters {
		args = append(args, "-filter="+f)
	}
	if j.verbose {
		args = append(args, "-verbose")
	}
	if len(j.variables) > 0 {
		varFile := filepath.Join(dir, "run-variables.tfvars")
		var b strings.Builder
		for _, v := range j.variables {
			fmt.Fprintf(&b, "%s = %s\n", v.Key, v.Value)
		}
		if err := os.WriteFile(varFile, []byte(b.String()), 0o600); err != nil {
			return errored("Cannot write the run's variables", err.Error())
		}
		args = append(args, "-var-file="+varFile)
	}
	var summary *testSummary
	err = p.exec(ctx, tf, cfg, env, args, &log, func(line []byte) {
		var msg struct {
			Type        string       `json:"type"`
			TestSummary *testSummary `json:"test_summary"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.Type == "test_summary" && msg.TestSummary != nil {
			summary = msg.TestSummary
		}
	})
	if o, done := p.ended(&log, err); done {
		return o
	}
	if summary == nil {
		detail := "terraform test ended without a test summary; the diagnostics above say why."
		if err != nil {
			detail = "terraform test ended without a test summary (" + err.Error() + "); the diagnostics above say why."
		}
		return errored("Tests could not run", detail)
	}
	return outcome{status: testRunFinished, summary: summary, log: log.bytes()}
}

// watch kills the run's processes when its record disappears, and returns
// a function that stops watching.
func (e *testEngine) watch(ctx context.Context, id string, p *runProc) func() {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(orphanCheckInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				e.s.mu.RLock()
				gone := e.s.st.TestRuns[id] == nil
				e.s.mu.RUnlock()
				if gone {
					p.kill(killOrphaned)
					return
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

func (e *testEngine) terraformPath() (string, error) {
	name := e.terraform
	if name == "" {
		name = "terraform"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("the sandbox runs module tests with the Terraform CLI, and %q was not found (%w): install Terraform 1.6 or later on the sandbox's PATH", name, err)
	}
	return p, nil
}

// testEnvironment is the environment of the Terraform processes: a clean
// one, as on a fresh runner, keeping only what finding programs, the CLI
// configuration and network access need, then the module's test variables
// (which win over everything before them).
func testEnvironment(moduleEnv []string) []string {
	env := []string{"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0"}
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "TF_PLUGIN_CACHE_DIR", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if v := os.Getenv("TF_CLI_CONFIG_FILE"); v != "" {
		if _, err := os.Stat(v); err == nil {
			env = append(env, "TF_CLI_CONFIG_FILE="+v)
		}
	}
	return append(env, moduleEnv...)
}

// needsInit reports whether the configuration in dir (with its tests in
// testDir) needs `terraform init` before `terraform test`: when it calls
// modules (in the configuration or in a run block) or needs a provider
// other than the built-in `terraform` one. Files it cannot parse, and JSON
// configuration, count as needing it: init then reports the problem.
func needsInit(dir, testDir string) bool {
	var files []string
	for _, pattern := range []string{"*.tf", "*.tf.json", "*.tftest.hcl", "*.tftest.json"} {
		for _, d := range []string{dir, filepath.Join(dir, testDir)} {
			m, _ := filepath.Glob(filepath.Join(d, pattern))
			files = append(files, m...)
		}
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".json") {
			return true
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return true
		}
		file, diags := hclsyntax.ParseConfig(src, f, hclStart)
		if diags.HasErrors() {
			return true
		}
		body, ok := file.Body.(*hclsyntax.Body)
		if !ok || bodyNeedsInit(body) {
			return true
		}
	}
	return false
}

var hclStart = hcl.Pos{Line: 1, Column: 1}

// bodyNeedsInit looks at the blocks of a configuration or test file.
func bodyNeedsInit(body *hclsyntax.Body) bool {
	external := func(typeName string) bool {
		return typeName != "terraform" && !strings.HasPrefix(typeName, "terraform_")
	}
	for _, b := range body.Blocks {
		switch b.Type {
		case "module":
			return true
		case "provider", "mock_provider":
			if len(b.Labels) == 0 || external(b.Labels[0]) {
				return true
			}
		case "resource", "data", "ephemeral", "list":
			if len(b.Labels) == 0 || external(b.Labels[0]) {
				return true
			}
		case "check", "run":
			if bodyNeedsInit(b.Body) {
				return true
			}
		case "terraform":
			for _, inner := range b.Body.Blocks {
				if inner.Type != "required_providers" {
					continue
				}
				for name := range inner.Body.Attributes {
					if name != "terraform" {
						return true
					}
				}
			}
		}
	}
	return false
}

// runProc is the handle of a run's current process, through which cancel
// and force-cancel reach it.
type runProc struct {
	mu          sync.Mutex
	cmd         *exec.Cmd
	interrupted bool
	killReason  string
}

var errNotStarted = errors.New("the run was stopped before the process started")

func (p *runProc) interrupt() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.interrupted || p.killReason != "" {
		return
	}
	p.interrupted = true
	if p.cmd != nil && p.cmd.Process != nil {
		_ = interruptProcess(p.cmd.Process)
	}
}

func (p *runProc) kill(reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.killReason != "" {
		return
	}
	p.killReason = reason
	if p.cmd != nil && p.cmd.Process != nil {
		// The whole process group: Terraform, its plugins and whatever
		// a provisioner started.
		_ = killProcessGroup(p.cmd.Process)
	}
}

// ended turns a stop by cancel, force-cancel, shutdown or timeout into the
// run's outcome; done is false when the process was not stopped.
func (p *runProc) ended(log *engineLog, err error) (outcome, bool) {
	p.mu.Lock()
	reason, interrupted := p.killReason, p.interrupted
	p.mu.Unlock()
	switch {
	case reason == killForceCancel:
		log.diagnostic("Test run force-canceled", "The Terraform process was killed; infrastructure the tests made may not have been destroyed.")
		return outcome{status: testRunCanceled, forced: true, log: log.bytes()}, true
	case reason == killShutdown:
		log.diagnostic("Test run interrupted", "The sandbox shut down while this run was executing.")
		return outcome{status: testRunErrored, log: log.bytes()}, true
	case reason == killOrphaned:
		return outcome{}, true // nobody is left to read it
	case reason == killTimeout || errors.Is(err, context.DeadlineExceeded):
		log.diagnostic("Test run timed out", fmt.Sprintf("The run did not end within %s and was killed.", maxTestRunDuration))
		return outcome{status: testRunErrored, log: log.bytes()}, true
	case interrupted:
		log.info("Test run canceled")
		return outcome{status: testRunCanceled, log: log.bytes()}, true
	}
	return outcome{}, false
}

// exec runs terraform with args in dir and waits for it. Its standard
// output, JSON lines, goes to the log as is and to onLine; anything on
// standard error goes to the log as JSON `log` messages.
func (p *runProc) exec(ctx context.Context, tf, dir string, env, args []string, log *engineLog, onLine func([]byte)) error {
	cmd := exec.CommandContext(ctx, tf, args...)
	cmd.Dir, cmd.Env = dir, env
	setProcessGroup(cmd)
	cmd.Cancel = func() error {
		p.kill(killTimeout)
		return nil
	}
	// A grandchild that escaped the process group must not keep Wait
	// waiting for the pipes.
	cmd.WaitDelay = 5 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr

	p.mu.Lock()
	if p.interrupted || p.killReason != "" {
		p.mu.Unlock()
		return errNotStarted
	}
	if err := cmd.Start(); err != nil {
		p.mu.Unlock()
		return err
	}
	p.cmd = cmd
	p.mu.Unlock()

	r := bufio.NewReader(stdout)
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimRight(line, "\r\n"); len(line) > 0 {
			log.raw(line)
			if onLine != nil {
				onLine(line)
			}
		}
		if err != nil {
			break
		}
	}
	err = cmd.Wait()
	p.mu.Lock()
	p.cmd = nil
	p.mu.Unlock()
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			log.message("warn", line)
		}
	}
	return err
}

// engineLog accumulates a run's log: JSON lines, Terraform's and the
// engine's own in the same shape.
type engineLog struct {
	buf bytes.Buffer
}

func (l *engineLog) raw(line []byte) {
	l.buf.Write(line)
	l.buf.WriteByte('\n')
}

func (l *engineLog) write(v map[string]any) {
	v["@module"] = "tfgov.sandbox"
	v["@timestamp"] = time.Now().UTC().Format("2006-01-02T15:04:05.000000Z07:00")
	raw, _ := json.Marshal(v)
	l.raw(raw)
}

func (l *engineLog) message(level, msg string) {
	l.write(map[string]any{"@level": level, "@message": msg, "type": "log"})
}

func (l *engineLog) info(msg string) { l.message("info", msg) }

// diagnostic logs an error diagnostic, shaped as Terraform's.
func (l *engineLog) diagnostic(summary, detail string) {
	l.write(map[string]any{
		"@level": "error", "@message": "Error: " + summary, "type": "diagnostic",
		"diagnostic": map[string]any{"severity": "error", "summary": summary, "detail": detail},
	})
}

func (l *engineLog) bytes() []byte { return bytes.Clone(l.buf.Bytes()) }
