package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// The scenario machine (suite_scenario_test.go): Ctrl-C, latency and rate
// limits. DESIGN.md, "The scenario machine".

// scenNetwork is how the service answers Terraform's requests: latency,
// and chaos (429s carrying Retry-After, slow answers). It is in force only
// while a terraform command runs: the machine's own reads and outside
// writes see a quiet service, so its judgement is not slowed.
type scenNetwork struct {
	latency time.Duration
	chaos   sandbox.Chaos
}

func (n scenNetwork) on() bool { return n.latency > 0 || n.chaos.Enabled() }

// scenInterrupt is an armed Ctrl-C for the next terraform command: SIGINT
// once the sandbox has received the at-th request (of writes only, with
// writes) of that command.
type scenInterrupt struct {
	at     int
	writes bool
	fired  string // the route of the request it fired at; "" if the command ended first
}

// scenCounts counts, over a run of the machine, the interrupts armed and
// fired and the 429s Terraform's commands got: a hunt's log says how much
// it tried.
var scenCounts struct{ armed, fired, rateLimited atomic.Int64 }

func logScenarioCounts(t *testing.T) {
	t.Logf("scenario machine: %d interrupts armed, %d fired; %d answers 429 to Terraform", scenCounts.armed.Load(), scenCounts.fired.Load(), scenCounts.rateLimited.Load())
}

// runTerraform runs one terraform command of the machine under the network
// conditions in force, interrupted if an interrupt is armed. An apply run
// under either is judged by checkMade.
func (m *scenario) runTerraform(rt *rapid.T, env []string, args ...string) (string, int) {
	judged := args[0] == "apply" && (m.net.on() || m.interruptNext != nil)
	var pre scenService
	if judged {
		pre = m.snapshot(rt)
	}
	if m.net.on() {
		m.must(rt, m.sb.srv.SetLatency(m.net.latency))
		m.must(rt, m.sb.srv.SetChaos(m.net.chaos))
		defer func() {
			m.must(rt, m.sb.srv.SetLatency(0))
			m.must(rt, m.sb.srv.SetChaos(sandbox.Chaos{}))
		}()
	}
	limited := m.sb.srv.ChaosStats()[sandbox.ChaosRateLimited]
	defer func() { scenCounts.rateLimited.Add(int64(m.sb.srv.ChaosStats()[sandbox.ChaosRateLimited] - limited)) }()
	var out string
	var code int
	if in := m.interruptNext; in != nil {
		m.interruptNext = nil
		out, code = m.runInterrupted(env, in, args...)
		m.lastInterrupt = in
	} else {
		out, code = runTerraformEnv(m.t, m.dir, env, args...)
	}
	if judged {
		m.must(rt, m.sb.srv.SetLatency(0))
		m.must(rt, m.sb.srv.SetChaos(sandbox.Chaos{}))
		m.checkMade(rt, pre, m.snapshot(rt), m.readState(rt), out)
	}
	return out, code
}

// runInterrupted runs terraform in its own process group and sends SIGINT
// to the group (as a terminal's Ctrl-C does) when the sandbox receives the
// in.at-th request: the request is then on its way to being acted on, so
// the provider's stop lands on a write already sent.
func (m *scenario) runInterrupted(env []string, in *scenInterrupt, args ...string) (string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Getenv("TF_ACC_TERRAFORM_PATH"), append([]string{"-chdir=" + m.dir}, args...)...)
	cmd.Env = append(append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var pid atomic.Int64
	var n atomic.Int64
	var mu sync.Mutex
	fired := ""
	m.sb.srv.OnRequest(func(route string) {
		if in.writes && strings.HasPrefix(route, "GET ") {
			return
		}
		if n.Add(1) == int64(in.at) {
			if p := pid.Load(); p > 0 {
				_ = syscall.Kill(-int(p), syscall.SIGINT)
				mu.Lock()
				fired = route
				mu.Unlock()
			}
		}
	})
	defer m.sb.srv.OnRequest(nil)
	if err := cmd.Start(); err != nil {
		m.t.Fatalf("running terraform: %v", err)
	}
	pid.Store(int64(cmd.Process.Pid))
	err := cmd.Wait()
	m.sb.srv.OnRequest(nil)
	mu.Lock()
	in.fired = fired
	mu.Unlock()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() < 0: // ended by the signal itself
		return out.String(), 130
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	case err != nil:
		m.t.Fatalf("running terraform: %v", err)
	}
	return out.String(), 0
}

// checkMade is invariant 3 for an apply under Ctrl-C or a bad network:
// every object the apply made on the service (an ID the snapshot after
// holds and the one before did not) is in state or named by one of its
// diagnostics. A retry the service had acted on would make an object twice,
// which the state cannot hold.
func (m *scenario) checkMade(rt *rapid.T, pre, post scenService, state map[string]string, out string) {
	held := map[string]bool{}
	for _, id := range state {
		held[id] = true
	}
	named := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Type       string `json:"type"`
			Diagnostic struct{ Summary, Detail string }
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "diagnostic" {
			for _, id := range objectIDRE.FindAllString(line.Diagnostic.Summary+" "+line.Diagnostic.Detail, -1) {
				named[id] = true
			}
		}
	}
	for id := range post.ids {
		if pre.ids[id] || held[id] || named[id] {
			continue
		}
		m.fail(rt, "invariant 3: an object the apply made is neither in state nor named",
			"invariant 3: the apply (interrupt %+v, network %+v) made %s on the service, which is not in state and no diagnostic of that apply named", m.lastInterrupt, m.net, id)
	}
}

// interrupt applies (with -auto-approve, or a saved plan) and sends Ctrl-C
// at the k-th request the sandbox receives from that apply, k drawn; then
// judges what the stop left (checkMade, and the apply's usual invariants),
// applies again and, if that apply succeeds, requires an empty plan.
func (m *scenario) interrupt(rt *rapid.T) {
	in := &scenInterrupt{writes: rapid.Bool().Draw(rt, "count writes only")}
	saved := rapid.Bool().Draw(rt, "a saved plan's apply")
	// k: with a saved plan, within what its changes send (a write or two,
	// and a few reads, each), so that most interrupts land.
	draw := func(changed int) {
		if in.writes {
			in.at = rapid.IntRange(1, max(1, changed)).Draw(rt, "interrupt at write")
		} else {
			in.at = rapid.IntRange(1, max(1, 3*changed)).Draw(rt, "interrupt at request")
		}
		m.logf(rt, "interrupt: SIGINT at the %d-th %s of the next apply (saved plan: %v)", in.at, map[bool]string{true: "write", false: "request"}[in.writes], saved)
	}
	m.lastInterrupt = nil
	// Answers held back after the service acted, so that the stop lands
	// between a write's effect and its answer, unless Network set how the
	// service answers.
	if !m.net.on() && rapid.Bool().Draw(rt, "answers held back") {
		m.net = scenNetwork{chaos: sandbox.Chaos{Seed: 1, Slow: 1, SlowDelay: 30 * time.Millisecond}}
		defer func() { m.net = scenNetwork{} }()
		m.logf(rt, "interrupt: every answer held back 30ms after the service acts, for this apply")
	}
	if saved {
		applied := false
		m.savedPlan(rt, func(changes map[string]planChange, _ scenService) bool {
			changed := 0
			for _, c := range changes {
				if !c.noop() {
					changed++
				}
			}
			draw(changed)
			m.interruptNext, applied = in, true
			return true
		})
		if !applied { // the plan failed: no apply ran
			return
		}
	} else {
		draw(4)
		m.interruptNext = in
		m.apply(rt)
	}
	scenCounts.armed.Add(1)
	if in.fired == "" {
		m.logf(rt, "interrupt: the apply ended before the %d-th request", in.at)
	} else {
		m.logf(rt, "interrupt: SIGINT sent as %s arrived", in.fired)
		scenCounts.fired.Add(1)
		m.uncertain = true
	}
	// The next apply converges, and the plan after it is empty.
	if m.net.chaos.Slow == 1 {
		m.net = scenNetwork{}
	}
	before := m.readState(rt)
	r := m.terraform(rt, "apply", "-auto-approve", "-json", "-input=false")
	m.afterApply(rt, before, r, true)
	if r.code != 0 {
		return
	}
	p := m.terraform(rt, "plan", "-detailed-exitcode", "-json", "-input=false")
	if p.code == 2 {
		m.fail(rt, "after an interrupt, the plan after a successful apply is not empty",
			"the apply after the interrupted one succeeded, but the plan after it shows changes:\n%s", planSummary(p.out))
	}
}

// planSummary is the planned changes of a plan's -json output.
func planSummary(out string) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Message string `json:"@message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && (line.Type == "planned_change" || line.Type == "resource_drift") {
			fmt.Fprintln(&b, line.Message)
		}
	}
	return b.String()
}

// network switches the service's answers to Terraform: latency (0 to 20
// ms), 429s carrying Retry-After at a rate (a short reset, so that a
// retry waits what it is asked), slow answers (processed, then answered
// late), or all off. Each request draws once (sandbox.Chaos).
func (m *scenario) network(rt *rapid.T) {
	n := scenNetwork{latency: time.Duration(rapid.IntRange(0, 20).Draw(rt, "latency ms")) * time.Millisecond}
	if rapid.Bool().Draw(rt, "chaos") {
		n.chaos = sandbox.Chaos{
			Seed:           rapid.Int64Range(1, 1000).Draw(rt, "chaos seed"),
			RateLimited:    rapid.SampledFrom([]float64{0, 0.05, 0.2, 0.6}).Draw(rt, "429 rate"),
			RateLimitReset: time.Duration(rapid.SampledFrom([]int{5, 20, 50}).Draw(rt, "reset ms")) * time.Millisecond,
			Slow:           rapid.SampledFrom([]float64{0, 0.1, 0.3}).Draw(rt, "slow rate"),
			SlowDelay:      time.Duration(rapid.IntRange(1, 20).Draw(rt, "slow ms")) * time.Millisecond,
		}
	}
	m.net = n
	m.logf(rt, "network: latency %s, chaos %s (enabled: %v)", n.latency, n.chaos, n.chaos.Enabled())
	if n.chaos.RateLimited == 0 || !rapid.Bool().Draw(rt, "apply under it") {
		return
	}
	// A configuration that fails on a quiet service (a look-up gone outside) fails the repair too.
	m.net = scenNetwork{}
	quiet := m.terraform(rt, "plan", "-json", "-input=false")
	m.net = n
	before := m.readState(rt)
	r := m.terraform(rt, "apply", "-auto-approve", "-json", "-input=false")
	m.afterApply(rt, before, r, true)
	if r.code == 0 || !onlyRateLimited(r.out) || quiet.code != 0 {
		return
	}
	// An apply that failed after its retries leaves state a second apply
	// repairs: the same, once the service answers.
	m.net = scenNetwork{}
	defer func() { m.net = n }()
	before = m.readState(rt)
	r = m.terraform(rt, "apply", "-auto-approve", "-json", "-input=false")
	m.afterApply(rt, before, r, true)
	// A refusal the token model expects (a permission lowered on ops, a create in the second
	// organization by a token of the first) is no failed repair: the quiet plan could not show it
	// (STEPS=5000 SEED=5412, twice).
	if r.code != 0 && !m.onlyRefusals(rt, r.errs) {
		m.fail(rt, "an apply that failed on 429s is not repaired by a second apply",
			"the apply failed only on 429s after its retries, and a second apply, on a service answering, failed:\n%s", strings.Join(r.diags, "\n"))
	}
}

// onlyRateLimited reports whether a command's output has errors, each of
// them a 429 the provider's retries did not outlast.
func onlyRateLimited(out string) bool {
	errs := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Type       string `json:"type"`
			Diagnostic struct{ Severity, Summary, Detail string }
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "diagnostic" || line.Diagnostic.Severity != "error" {
			continue
		}
		if !strings.Contains(line.Diagnostic.Summary+" "+line.Diagnostic.Detail, "rate limited (429)") {
			return false
		}
		errs++
	}
	return errs > 0
}

// TestScenario_onlyRateLimited: the machine asks a second apply to repair
// only an apply whose every error is a 429 its retries did not outlast.
func TestScenario_onlyRateLimited(t *testing.T) {
	diag := func(sev, detail string) string {
		return fmt.Sprintf(`{"type":"diagnostic","diagnostic":{"severity":%q,"summary":"s","detail":%q}}`, sev, detail)
	}
	const limited = "POST /api/v2/x: still rate limited (429) after 5 retries (retry_max = 5)"
	for _, tc := range []struct {
		name string
		out  []string
		want bool
	}{
		{"no diagnostics", nil, false},
		{"one 429", []string{diag("error", limited)}, true},
		{"a 429 and a warning", []string{diag("warning", "something else"), diag("error", limited)}, true},
		{"a 429 and another error", []string{diag("error", limited), diag("error", "forbidden")}, false},
		{"another error", []string{diag("error", "forbidden")}, false},
	} {
		if got := onlyRateLimited(strings.Join(tc.out, "\n")); got != tc.want {
			t.Errorf("%s: onlyRateLimited = %v, want %v", tc.name, got, tc.want)
		}
	}
}
