package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
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

// TestRun_restartOnDataKeepsToken: a --data file seeded with --seed demo
// restarted with --seed demo again, then with no seed flag, writes an env
// file whose TFE_TOKEN is the demo user's and still works.
func TestRun_restartOnDataKeepsToken(t *testing.T) {
	dir := t.TempDir()
	data, envFile := filepath.Join(dir, "s.json"), filepath.Join(dir, "env")
	complete := func(_ string, env map[string]string) bool { _, ok := env["TF_VAR_module_provider"]; return ok }
	var first string
	for i, seed := range [][]string{{"--seed", "demo"}, {"--seed", "demo"}, nil} {
		args := append([]string{"--listen", "127.0.0.1:0", "--quiet", "--data", data, "--env-file", envFile}, seed...)
		env, stop := startRun(t, args, complete)
		raw, err := os.ReadFile(envFile)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), "export TFE_TOKEN="+env["TFE_TOKEN"]+"\n") || !strings.Contains(string(raw), "export TF_VAR_agent_pool_id=") {
			t.Fatalf("start %d: the env file lacks the printed exports:\n%s", i, raw)
		}
		if i == 0 {
			first = env["TFE_TOKEN"]
		} else if env["TFE_TOKEN"] != first {
			t.Errorf("start %d: TFE_TOKEN %s, was %s", i, env["TFE_TOKEN"], first)
		}
		c, err := tfe.NewClient(&tfe.Config{Address: env["TFE_ADDRESS"], Token: env["TFE_TOKEN"]})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.AgentPools.Read(context.Background(), env["TF_VAR_agent_pool_id"]); err != nil {
			t.Errorf("start %d: the env file's token does not work: %v", i, err)
		}
		stop()
	}
}

// TestRun_command: with a command after the flags, the sandbox runs it with
// the exports in its environment and returns its exit status.
func TestRun_command(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	seed := filepath.Join(t.TempDir(), "org.json")
	if err := os.WriteFile(seed, []byte(`{"users":[{"username":"a","email":"a@x.test","tokens":[{"value":"a-token-value"}]}],
"organizations":[{"name":"acme","owners":["a"]}],"env":[{"name":"GREETING","value":"it's here"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err := run(context.Background(), []string{"--listen", "127.0.0.1:0", "--quiet", "--seed-file", seed, "--",
		"sh", "-c", `echo "$TFE_TOKEN $TFE_ORGANIZATION $GREETING"; case "$TFE_ADDRESS" in http://127.0.0.1:*) exit 3;; esac`}, &out, io.Discard)
	var exit *commandExit
	if !errors.As(err, &exit) || exit.code != 3 {
		t.Errorf("exit: %v", err)
	}
	if got := out.String(); got != "a-token-value acme it's here\n" {
		t.Errorf("the command saw %q", got)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"users":[],"organizations":[{"name":"acme","owners":["zed"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), []string{"--listen", "127.0.0.1:0", "--seed-file", bad, "--", "true"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "seed file "+bad) || !strings.Contains(err.Error(), `organizations[0].owners[0]: "zed" is not a username of users[]`) {
		t.Errorf("a bad seed file: %v", err)
	}
}

// TestRun_restartAfterReplacement (issue 53, row 7): terraform test
// destroys a seeded policy and makes it again (another ID, the same name);
// the next start on the --data file, with --seed-file and then with no seed
// flag, starts and keeps the policy the API made.
func TestRun_restartAfterReplacement(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seed, data := filepath.Join(dir, "org.json"), filepath.Join(dir, "s.json")
	if err := os.WriteFile(seed, []byte(`{"users":[{"username":"a","email":"a@x.test","tokens":[{"value":"a-token-value"}]}],
"organizations":[{"name":"acme","owners":["a"],"policies":[{"name":"limit","code":"main = rule { true }"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	complete := func(_ string, env map[string]string) bool { _, ok := env["TFE_ORGANIZATION"]; return ok }
	var replaced string
	for i, flags := range [][]string{{"--seed-file", seed}, {"--seed-file", seed}, nil} {
		env, stop := startRun(t, append([]string{"--listen", "127.0.0.1:0", "--quiet", "--data", data}, flags...), complete)
		if env["TFE_TOKEN"] != "a-token-value" {
			stop()
			t.Fatalf("start %d did not start: %v", i, env)
		}
		c, err := tfe.NewClient(&tfe.Config{Address: env["TFE_ADDRESS"], Token: env["TFE_TOKEN"]})
		if err != nil {
			t.Fatal(err)
		}
		pols, err := c.Policies.List(ctx, "acme", nil)
		if err != nil || len(pols.Items) != 1 {
			t.Fatalf("start %d: policies %+v, %v", i, pols, err)
		}
		if i == 0 {
			if err := c.Policies.Delete(ctx, pols.Items[0].ID); err != nil {
				t.Fatal(err)
			}
			pol, err := c.Policies.Create(ctx, "acme", tfe.PolicyCreateOptions{Name: tfe.String("limit"), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
			if err != nil {
				t.Fatal(err)
			}
			replaced = pol.ID
		} else if pols.Items[0].ID != replaced {
			t.Errorf("start %d: policy %s, want the one the API made, %s", i, pols.Items[0].ID, replaced)
		}
		stop()
	}
}
