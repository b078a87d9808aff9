package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// TestRun starts the command with the demo seed on a free port, uses the
// token it prints through go-tfe, and stops it as a signal would.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(dir, "env")
	env, stop := startRun(t, []string{"--listen", "127.0.0.1:0", "--seed", "demo", "--quiet", "--data", filepath.Join(dir, "s.json"), "--env-file", envFile},
		func(_ string, env map[string]string) bool { _, ok := env["TF_VAR_module_provider"]; return ok })
	for _, k := range []string{"TFE_ADDRESS", "TFE_TOKEN", "TFE_ORGANIZATION", "TF_VAR_agent_pool_id"} {
		if env[k] == "" {
			t.Fatalf("%s not printed; got %v", k, env)
		}
	}
	if raw, err := os.ReadFile(envFile); err != nil || !strings.Contains(string(raw), "export TFE_TOKEN=") {
		t.Fatalf("env file: %q, %v", raw, err)
	}
	c, err := tfe.NewClient(&tfe.Config{Address: env["TFE_ADDRESS"], Token: env["TFE_TOKEN"]})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AgentPools.Read(context.Background(), env["TF_VAR_agent_pool_id"]); err != nil {
		t.Fatalf("reading the seeded pool: %v", err)
	}
	stop()
}

// startRun runs the command with args for the rest of the test, reads the
// export lines it prints until until(line, env) says they are complete, and
// returns them with a function that stops the command as a signal would and
// checks that it stopped cleanly.
func startRun(t *testing.T, args []string, until func(line string, env map[string]string) bool) (map[string]string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw, io.Discard)
		pw.Close()
	}()
	env := map[string]string{}
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		line := sc.Text()
		if k, v, ok := strings.Cut(strings.TrimPrefix(line, "export "), "="); ok && !strings.HasPrefix(line, "#") {
			env[k] = v
		}
		if until(line, env) {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return env, func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("the sandbox stopped with %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the sandbox did not stop")
		}
	}
}

func TestRun_badFlags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if err := run(ctx, []string{"--seed", "nope", "--listen", "127.0.0.1:0"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "unknown seed") {
		t.Errorf("unknown seed: %v", err)
	}
	if err := run(ctx, []string{"--no-such-flag"}, io.Discard, io.Discard); err == nil {
		t.Error("unknown flag accepted")
	}
	if err := run(ctx, []string{"--faults", "lost=0.5,boom=1", "--listen", "127.0.0.1:0"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), `unknown key "boom"`) {
		t.Errorf("bad --faults: %v", err)
	}
	if err := run(ctx, []string{"--latency", "-1s", "--listen", "127.0.0.1:0"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "latency") {
		t.Errorf("negative --latency: %v", err)
	}
}

// TestREADMEListsEveryFlag: each flag of the command is in the sandbox
// page's flag list (internal/sandbox/README.md, as `--name`).
func TestREADMEListsEveryFlag(t *testing.T) {
	var usage strings.Builder
	if err := run(context.Background(), []string{"-h"}, io.Discard, &usage); err == nil {
		t.Fatal("-h: want flag.ErrHelp")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "internal", "sandbox", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(usage.String(), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(line, "  -") {
			continue
		}
		n++
		name := strings.TrimPrefix(f[0], "-")
		if !strings.Contains(string(readme), "`--"+name) {
			t.Errorf("internal/sandbox/README.md does not list the flag --%s", name)
		}
	}
	if n == 0 {
		t.Fatalf("no flags found in the usage:\n%s", usage.String())
	}
}
