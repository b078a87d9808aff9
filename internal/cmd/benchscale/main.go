// Command benchscale measures the provider at scale (make bench-scale): for
// each resource type it applies N resources under one parent, plans (which
// must be empty), updates them and destroys them, against a tfgov-sandbox
// started with --latency and --rate-limit, and prints the wall time of each
// phase, the provider process's CPU time, and the requests per resource by
// route (the sandbox's GET /_sandbox/stats). The same phases of N
// terraform_data resources give the floor Terraform core itself sets.
//
// The provider runs as one long-lived process that Terraform reattaches to
// (TF_REATTACH_PROVIDERS), so its CPU time is read from /proc between
// phases.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

func main() {
	n := flag.Int("n", 200, "resources per type")
	latency := flag.Duration("latency", 25*time.Millisecond, "the sandbox's --latency")
	rateLimit := flag.Int("rate-limit", 30, "the sandbox's --rate-limit (0: none)")
	parallelism := flag.Int("parallelism", 10, "terraform -parallelism")
	types := flag.String("types", "terraform_data,agent_token,team_access,test_variable,policy,policy_inline", "comma-separated resource types to measure")
	terraform := flag.String("terraform", "terraform", "Terraform CLI")
	bin := flag.String("bin", "bin", "directory holding terraform-provider-tfgov and tfgov-sandbox (make build)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the provider process to this file")
	providerLog := flag.String("provider-log", "OFF", "the provider's log level (TF_LOG_PROVIDER, TF_LOG_SDK...): OFF, DEBUG, TRACE; its logs are discarded")
	flag.Parse()
	// An interrupt stops the terraform command under way, and the sandbox
	// and the provider (exec.CommandContext kills them).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *n, *latency, *rateLimit, *parallelism, strings.Split(*types, ","), *terraform, *bin, *providerLog, *cpuProfile); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		stop()
		os.Exit(1) // stop ran

	}
}

type bench struct {
	terraform, dir, sandboxURL, adminToken string
	env                                    []string
	providerPID                            int
	parallelism                            int
	vars                                   map[string]string
}

func run(ctx context.Context, n int, latency time.Duration, rateLimit, parallelism int, types []string, terraform, bin, providerLog, cpuProfile string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bench-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	port, err := freePort()
	if err != nil {
		return err
	}
	b := &bench{terraform: terraform, parallelism: parallelism, sandboxURL: "http://127.0.0.1:" + strconv.Itoa(port), adminToken: "bench-admin-token-0123456789"}
	envFile := filepath.Join(work, "sandbox.env")
	sb := exec.CommandContext(ctx, filepath.Join(bin, "tfgov-sandbox"), "--listen", "127.0.0.1:"+strconv.Itoa(port), "--token", b.adminToken,
		"--seed", "demo", "--env-file", envFile, "--quiet", "--latency", latency.String(), "--rate-limit", strconv.Itoa(rateLimit))
	sb.Stdout, sb.Stderr = io.Discard, os.Stderr
	if err := sb.Start(); err != nil {
		return fmt.Errorf("starting the sandbox: %w", err)
	}
	defer func() { _ = sb.Process.Kill(); _ = sb.Wait() }()
	if b.vars, err = waitForEnv(envFile); err != nil {
		return err
	}

	prov := exec.CommandContext(ctx, filepath.Join(bin, "terraform-provider-tfgov"), "-debug")
	prov.Env = append(os.Environ(), "TFE_ADDRESS="+b.sandboxURL, "TFE_TOKEN="+b.vars["TFE_TOKEN"], "TFE_ORGANIZATION="+b.vars["TFE_ORGANIZATION"],
		"TF_LOG="+providerLog, "TF_LOG_PROVIDER="+providerLog, "TF_LOG_SDK="+providerLog, "TF_LOG_SDK_PROTO="+providerLog, "TF_LOG_SDK_FRAMEWORK="+providerLog)
	out, err := prov.StdoutPipe()
	if err != nil {
		return err
	}
	prov.Stderr = io.Discard
	if cpuProfile != "" {
		abs, err := filepath.Abs(cpuProfile)
		if err != nil {
			return err
		}
		prov.Env = append(prov.Env, "TFGOV_CPU_PROFILE="+abs)
	}
	if err := prov.Start(); err != nil {
		return fmt.Errorf("starting the provider: %w", err)
	}
	defer func() {
		// An interrupt ends a debug-mode provider cleanly, writing its
		// profile; a kill if it does not.
		_ = prov.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = prov.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = prov.Process.Kill()
			<-done
		}
	}()
	b.providerPID = prov.Process.Pid
	reattach, err := readReattach(out)
	if err != nil {
		return err
	}
	b.env = append(os.Environ(),
		"TF_REATTACH_PROVIDERS="+reattach, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_LOG=", "TF_CLI_CONFIG_FILE=",
		"TFE_ADDRESS="+b.sandboxURL, "TFE_TOKEN="+b.vars["TFE_TOKEN"], "TFE_ORGANIZATION="+b.vars["TFE_ORGANIZATION"])

	fmt.Printf("bench-scale: N=%d, latency %s, rate limit %d, -parallelism=%d, provider log %s\n\n", n, latency, rateLimit, parallelism, providerLog)
	fmt.Printf("%-15s %-8s %9s %12s %13s %9s %10s  %s\n", "type", "phase", "wall", "provider CPU", "terraform CPU", "requests", "per res.", "requests by route")
	for _, typ := range types {
		cfg, ok := configs[typ]
		if !ok {
			return fmt.Errorf("unknown type %q", typ)
		}
		if cfg.setup != nil {
			if err := cfg.setup(ctx, b, n); err != nil {
				return fmt.Errorf("%s setup: %w", typ, err)
			}
		}
		b.dir = filepath.Join(work, typ)
		if err := os.MkdirAll(b.dir, 0o755); err != nil {
			return err
		}
		for _, ph := range []struct {
			name    string
			version int
			args    []string
		}{
			{"create", 0, []string{"apply", "-auto-approve"}},
			{"plan", 0, []string{"plan", "-detailed-exitcode"}},
			{"update", 1, []string{"apply", "-auto-approve"}},
			{"destroy", 1, []string{"destroy", "-auto-approve"}},
		} {
			if err := os.WriteFile(filepath.Join(b.dir, "main.tf"), []byte(cfg.config(b, n, ph.version)), 0o644); err != nil {
				return err
			}
			if err := b.phase(ctx, typ, ph.name, n, ph.args); err != nil {
				return err
			}
		}
	}
	return nil
}

// phase runs one terraform command and prints its figures.
func (b *bench) phase(ctx context.Context, typ, name string, n int, args []string) error {
	if err := b.resetStats(); err != nil {
		return err
	}
	cpu0, err := procCPU(b.providerPID)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, b.terraform, append(args, "-input=false", "-no-color", "-parallelism="+strconv.Itoa(b.parallelism))...)
	cmd.Dir, cmd.Env = b.dir, b.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if name == "plan" {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 2 {
			return fmt.Errorf("%s: the plan after apply is not empty:\n%s", typ, out.String())
		}
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", typ, name, err, out.String())
	}
	cpu1, err := procCPU(b.providerPID)
	if err != nil {
		return err
	}
	stats, total, err := b.stats()
	if err != nil {
		return err
	}
	routes := make([]string, 0, len(stats))
	for route, c := range stats {
		routes = append(routes, fmt.Sprintf("%s=%d", route, c))
	}
	sort.Strings(routes)
	tfCPU := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Printf("%-15s %-8s %8.1fs %11.2fs %12.2fs %9d %10.2f  %s\n", typ, name, wall.Seconds(), (cpu1 - cpu0).Seconds(), tfCPU.Seconds(), total, float64(total)/float64(n), strings.Join(routes, " "))
	return nil
}

func (b *bench) resetStats() error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, b.sandboxURL+"/_sandbox/stats", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("resetting the sandbox's counter: %s", resp.Status)
	}
	return nil
}

func (b *bench) stats() (map[string]int, int, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, b.sandboxURL+"/_sandbox/stats", nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+b.adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	var doc struct {
		Requests map[string]int `json:"requests"`
		Total    int            `json:"total"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, 0, err
	}
	return doc.Requests, doc.Total, nil
}

// benchConfig is one measured resource type: config renders N resources
// (version 1 changes each of them), setup makes what they need.
type benchConfig struct {
	setup  func(ctx context.Context, b *bench, n int) error
	config func(b *bench, n, version int) string
}

const header = `terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}
`

var configs = map[string]benchConfig{
	"terraform_data": {config: func(_ *bench, n, v int) string {
		return fmt.Sprintf(`resource "terraform_data" "r" {
  count = %d
  input = "item ${count.index} v%d"
}
`, n, v)
	}},
	"agent_token": {config: func(b *bench, n, v int) string {
		// description forces a new token: the update is a replacement.
		return header + fmt.Sprintf(`resource "tfgov_agent_token" "r" {
  count         = %d
  agent_pool_id = %q
  description   = "token ${count.index} v%d"
}
`, n, b.vars["TF_VAR_agent_pool_id"], v)
	}},
	"team_access": {setup: makeTeams, config: func(b *bench, n, v int) string {
		access := []string{"read", "plan"}[v]
		return header + fmt.Sprintf(`locals {
  teams = split(",", %q)
}

resource "tfgov_team_access" "r" {
  count        = %d
  team_id      = local.teams[count.index]
  workspace_id = %q
  access       = %q
}
`, strings.Join(benchTeams, ","), n, b.vars["TF_VAR_workspace_id"], access)
	}},
	"test_variable": {config: func(b *bench, n, v int) string {
		return header + fmt.Sprintf(`resource "tfgov_module_test_variable" "r" {
  count           = %d
  organization    = %q
  module_name     = %q
  module_provider = %q
  key             = "VAR_${count.index}"
  value           = "value v%d"
  category        = "env"
}
`, n, b.vars["TFE_ORGANIZATION"], b.vars["TF_VAR_module_name"], b.vars["TF_VAR_module_provider"], v)
	}},
	"policy_inline": {config: func(_ *bench, n, v int) string {
		return header + fmt.Sprintf(`resource "tfgov_policy" "r" {
  count       = %d
  name        = "bench-inline-${count.index}"
  description = "policy ${count.index} v%d"
  content     = "main = rule { true }\n"
}
`, n, v)
	}},
	"policy": {config: func(_ *bench, n, v int) string {
		return header + fmt.Sprintf(`resource "tfgov_policy" "r" {
  count       = %d
  name        = "bench-${count.index}"
  description = "policy ${count.index} v%d"
}

resource "tfgov_policy_upload" "r" {
  count     = %d
  policy_id = tfgov_policy.r[count.index].id
  content   = "main = rule { true }\n"
}
`, n, v, n)
	}},
}

// benchTeams are the teams made for team_access, one grant each.
var benchTeams []string

func makeTeams(ctx context.Context, b *bench, n int) error {
	c, err := tfe.NewClient(&tfe.Config{Address: b.sandboxURL, Token: b.vars["TFE_TOKEN"]})
	if err != nil {
		return err
	}
	for i := len(benchTeams); i < n; i++ {
		t, err := c.Teams.Create(ctx, b.vars["TFE_ORGANIZATION"], tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("bench-%d", i))})
		if err != nil {
			return err
		}
		benchTeams = append(benchTeams, t.ID)
	}
	return nil
}

// procCPU is the user and system CPU time of a process so far.
func procCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses.
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks, nil
}

var reattachRE = regexp.MustCompile(`TF_REATTACH_PROVIDERS='(.*)'`)

// readReattach reads the provider's debug output up to its
// TF_REATTACH_PROVIDERS line, then drains the rest in the background.
func readReattach(out interface{ Read([]byte) (int, error) }) (string, error) {
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := reattachRE.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() { // draining
				}
			}()
			return m[1], nil
		}
	}
	return "", fmt.Errorf("the provider printed no TF_REATTACH_PROVIDERS line: %w", sc.Err())
}

// waitForEnv waits for the sandbox's --env-file and reads its exports.
func waitForEnv(name string) (map[string]string, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		raw, err := os.ReadFile(name)
		if err == nil && bytes.Contains(raw, []byte("TFE_TOKEN")) {
			vars := map[string]string{}
			for _, line := range strings.Split(string(raw), "\n") {
				k, v, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "export "), "=")
				if ok {
					vars[k] = strings.Trim(v, `'"`)
				}
			}
			return vars, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, fmt.Errorf("the sandbox wrote no %s", name)
}

func freePort() (int, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, fmt.Errorf("unexpected address %v", l.Addr())
	}
	return addr.Port, nil
}
