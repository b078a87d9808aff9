package provider

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): a tfgov_module_test_run of
// module mod/aws on internal/testdata/module-tests/pass (whose tests pass
// in a second or two), with triggers; outside, runs started on other
// uploads and runs cancelled.

// scenRun is the configuration's test run: on (in the configuration), its
// triggers' generation, and wait_for_completion.
type scenRun struct {
	on   bool
	gen  int
	wait bool
}

// editRun adds or removes the run, changes its triggers (a new run), or
// turns wait_for_completion (in place).
func (m *scenario) editRun(rt *rapid.T) {
	op := "add"
	if m.run.on {
		op = rapid.SampledFrom([]string{"remove", "triggers", "wait"}).Draw(rt, "run op")
	}
	switch op {
	case "add":
		m.run = scenRun{on: true, gen: m.run.gen + 1, wait: rapid.Bool().Draw(rt, "wait")}
	case "remove":
		m.run.on = false
	case "triggers":
		m.run.gen++
	case "wait":
		m.run.wait = !m.run.wait
	}
	m.logf(rt, "edit: test run %s -> %+v", op, m.run)
	m.writeConfig(rt)
}

func (m *scenario) writeRun(b *strings.Builder) {
	if !m.run.on {
		return
	}
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "module-tests", "pass"))
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(b, `resource "tfgov_module_test_run" "r" {
  provider            = tfgov.owners
  %s  source              = %q
  triggers            = { gen = "%d" }
  wait_for_completion = %v
}
`, m.moduleArgs(), dir, m.run.gen, m.run.wait)
}

// outsideRun starts a run of the module on an upload of its own, or
// cancels a run that is queued or running.
func (m *scenario) outsideRun(rt *rapid.T, svc scenService, kind string) {
	ctx := m.ctx
	mod := moduleRef{Organization: m.org, Name: "mod", Provider: "aws"}
	if kind == "start run" {
		packed, err := packConfiguration(testModuleDir(m.t, "pass"), true)
		m.must(rt, err)
		cv, err := testRunClient{m.owner}.uploadConfiguration(ctx, mod, packed.archive)
		m.must(rt, err)
		tr, err := m.owner.TestRuns.Create(ctx, tfe.TestRunCreateOptions{ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
			RegistryModule: &tfe.RegistryModule{Name: "mod", Provider: "aws", Namespace: m.org, RegistryName: tfe.PrivateRegistry, Organization: &tfe.Organization{Name: m.org}}})
		m.must(rt, err)
		m.foreign[tr.ID] = true
		m.logf(rt, "outside: start test run %s", tr.ID)
		return
	}
	var going []string
	for id, st := range svc.runs {
		if st == string(tfe.TestRunQueued) || st == string(tfe.TestRunRunning) || st == string(tfe.TestRunPending) {
			going = append(going, id)
		}
	}
	if len(going) == 0 {
		rt.Skip("no run going")
	}
	slices.Sort(going)
	id := rapid.SampledFrom(going).Draw(rt, "run")
	if err := m.owner.TestRuns.Cancel(ctx, m.modID(), id); err != nil && !isNotFound(err) {
		m.logf(rt, "outside: cancel test run %s: %v", id, err) // it may have ended meanwhile
		return
	}
	m.logf(rt, "outside: cancel test run %s", id)
}

var scenRunOutside = []string{"start run", "cancel run"}

func (m *scenario) snapshotRuns(rt *rapid.T, s *scenService) {
	l, err := m.owner.TestRuns.List(m.ctx, m.modID(), &tfe.TestRunListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	m.must(rt, err)
	for _, r := range l.Items {
		s.runs[r.ID] = string(r.Status)
		s.ids[r.ID] = true
	}
}

// checkRunHolds is invariant 4 for the run: after an apply that
// succeeded, the state's run is on the service, and, waited for, finished.
func (m *scenario) checkRunHolds(rt *rapid.T, svc scenService, state map[string]string) {
	if !m.run.on {
		return
	}
	id := state["tfgov_module_test_run.r"]
	st, ok := svc.runs[id]
	switch {
	case !ok:
		m.fail(rt, "invariant 4: test run missing", "invariant 4: the apply succeeded, but the state's test run %q is not on the service", id)
	case m.run.wait && st != string(tfe.TestRunFinished) && st != string(tfe.TestRunCanceled):
		m.fail(rt, "invariant 4: test run not finished", "invariant 4: the apply waited for test run %s, which is %s", id, st)
	}
}
