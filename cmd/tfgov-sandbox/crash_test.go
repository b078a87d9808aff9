package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// sandboxProcess is the built sandbox running as its own process.
type sandboxProcess struct {
	cmd     *exec.Cmd
	address string
}

// startProcess runs bin with --data and waits for its address; a snapshot
// that does not load makes it exit, and the test fail.
func startProcess(t *testing.T, bin, data, token string) *sandboxProcess {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), bin, "--listen", "127.0.0.1:0", "--data", data, "--token", token, "--quiet", "--rate-limit", "0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if addr, ok := strings.CutPrefix(sc.Text(), "export TFE_ADDRESS="); ok {
			go func() {
				for sc.Scan() { // drain the rest
				}
			}()
			return &sandboxProcess{cmd: cmd, address: addr}
		}
	}
	_ = cmd.Wait()
	t.Fatalf("the sandbox did not start (the snapshot did not load?): %s", stderr.String())
	return nil
}

// kill ends the process with SIGKILL, as a crash or kill -9 would.
func (p *sandboxProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
}

// TestCrash_killDuringWrites starts the built sandbox with --data, makes
// policies and agent pools from parallel clients, kills it with SIGKILL at
// several moments and restarts it on the same file: the file always loads,
// and every object whose create was answered is there.
func TestCrash_killDuringWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the sandbox binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the sandbox with")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tfgov-sandbox")
	build := exec.CommandContext(context.Background(), goBin, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "state.json")
	const token = "crash-test-admin-token"
	const org = "crash"
	ctx := context.Background()

	newClient := func(p *sandboxProcess) *tfe.Client {
		c, err := tfe.NewClient(&tfe.Config{Address: p.address, Token: token, RetryServerErrors: false})
		if err != nil {
			t.Fatalf("go-tfe client: %v", err)
		}
		return c
	}
	p := startProcess(t, bin, data, token)
	if _, err := newClient(p).Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(org), Email: tfe.String("o@crash.test")}); err != nil {
		t.Fatal(err)
	}

	answered := map[string]bool{} // "policy:NAME" or "pool:NAME" whose create was answered
	var mu sync.Mutex
	moments := []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond}
	for round, moment := range moments {
		c := newClient(p)
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("r%d-g%d-%d", round, g, i)
					var key string
					var err error
					if i%2 == 0 {
						key = "policy:" + name
						_, err = c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String(name), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
					} else {
						key = "pool:" + name
						_, err = c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String(name)})
					}
					if err != nil {
						return // the process is gone
					}
					mu.Lock()
					answered[key] = true
					mu.Unlock()
				}
			}()
		}
		time.Sleep(moment)
		p.kill(t)
		close(stop)
		wg.Wait()

		p = startProcess(t, bin, data, token)
		have := existing(t, newClient(p), org)
		mu.Lock()
		for key := range answered {
			if !have[key] {
				t.Errorf("after the kill at %s (round %d): %s was answered as created but is gone", moment, round, key)
			}
		}
		t.Logf("kill at %s: %d creates answered so far, %d objects on restart", moment, len(answered), len(have))
		mu.Unlock()
	}
	p.kill(t)
	if len(answered) < len(moments) {
		t.Errorf("only %d creates were answered: the test did not exercise the sandbox", len(answered))
	}
	if _, err := os.Stat(data); err != nil {
		t.Errorf("the snapshot: %v", err)
	}
}

// existing lists the organization's policies and agent pools.
func existing(t *testing.T, c *tfe.Client, org string) map[string]bool {
	t.Helper()
	ctx := context.Background()
	have := map[string]bool{}
	for page := 1; page != 0; {
		list, err := c.Policies.List(ctx, org, &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			t.Fatalf("list policies: %v", err)
		}
		for _, p := range list.Items {
			have["policy:"+p.Name] = true
		}
		page = list.NextPage
	}
	for page := 1; page != 0; {
		list, err := c.AgentPools.List(ctx, org, &tfe.AgentPoolListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			t.Fatalf("list agent pools: %v", err)
		}
		for _, ap := range list.Items {
			have["pool:"+ap.Name] = true
		}
		page = list.NextPage
	}
	return have
}
