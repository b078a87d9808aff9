package provider

import (
	"bytes"
	"context"
	"encoding/json"
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

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestAccInterruptedApply: Ctrl-C during a long apply.
// The real `terraform` applies 30 policies with code, 10 agent tokens, 30
// team access grants and 30 test variables against a service answering
// after 700 ms, and gets SIGINT (sent to its process group, as a terminal
// sends it) once a given number of writes has reached the service (half
// of each request's time is before the service acts, half after): early,
// amid the creates and late. Terraform asks the provider to stop and waits
// for it. Every object the service then holds is in state, or named in
// that apply's output (an import block with its ID, or a left-behind agent
// token's ID); a second apply, with those import blocks, converges to an
// empty plan. It needs a sandbox of its own answering slowly, and counts
// the writes that reached it, so it runs only against the in-process
// sandbox.
func TestAccInterruptedApply(t *testing.T) {
	rc := testCLIConfig(t)
	if testAccSandbox() == nil {
		t.Skip("interrupting at a given number of writes needs the in-process sandbox's latency and request counter")
	}
	for _, at := range []int{3, 50, 110} {
		t.Run(fmt.Sprintf("SIGINT after %d writes", at), func(t *testing.T) {
			t.Parallel()
			interruptAndConverge(t, rc, at)
		})
	}
}

func interruptAndConverge(t *testing.T, rc string, at int) {
	ctx := context.Background()
	// 700 ms a request: 350 ms before the service acts and 350 ms after,
	// as over a slow network, so that a stop can land after the service
	// made an object and before its answer arrives.
	sb, c := ownSandbox(t, sandbox.Options{Latency: 350 * time.Millisecond, Chaos: sandbox.Chaos{Seed: 1, Slow: 1, SlowDelay: 350 * time.Millisecond}}, "tfgov-interrupt")
	org := sb.organization
	// Fixtures, ten at a time (each request waits 700 ms).
	pool, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String("interrupt")})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("interrupt")})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("interrupt"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry})
	if err != nil {
		t.Fatal(err)
	}
	teams := make([]string, 30)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ferr error
	sem := make(chan struct{}, 10)
	for i := range teams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			tm, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("interrupt-%d", i)), Visibility: tfe.String("organization")})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				ferr = err
				return
			}
			teams[i] = tm.ID
		}()
	}
	wg.Wait()
	if ferr != nil {
		t.Fatal(ferr)
	}

	dir := t.TempDir()
	config := fmt.Sprintf(`%s
provider "tfgov" {
  address      = %[2]q
  token        = %[3]q
  organization = %[4]q
}

resource "tfgov_policy" "p" {
  count   = 30
  name    = "interrupt-${count.index}"
  content = "main = rule { ${count.index} >= 0 }\n"
}

resource "tfgov_agent_token" "a" {
  count         = 10
  agent_pool_id = %[5]q
  description   = "interrupt-${count.index}"
}

resource "tfgov_team_access" "t" {
  count        = 30
  team_id      = %[6]s[count.index]
  workspace_id = %[7]q
  access       = "read"
}

resource "tfgov_module_test_variable" "v" {
  count           = 30
  module_name     = %[8]q
  module_provider = %[9]q
  key             = "INTERRUPT_${count.index}"
  value           = "value-${count.index}"
}
`, requiredProvidersShim, sb.address, sb.token, org, pool.ID, hclList(teams), ws.ID, m.Name, m.Provider)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	writes := func() int {
		n := 0
		for k, v := range sb.srv.Stats() {
			if !strings.HasPrefix(k, "GET ") {
				n += v
			}
		}
		return n
	}

	// 1. The apply, interrupted once `at` writes have reached the service.
	sb.srv.ResetStats()
	runCtx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(runCtx, os.Getenv("TF_ACC_TERRAFORM_PATH"), "apply", "-auto-approve", "-no-color")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var interrupted time.Duration
	for interrupted == 0 {
		select {
		case err := <-done:
			t.Fatalf("the apply ended (%v) before %d writes (it made %d):\n%s", err, at, writes(), out.String())
		case <-time.After(5 * time.Millisecond):
			if writes() >= at {
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // Ctrl-C: the whole foreground group
				interrupted = time.Since(start)
			}
		}
	}
	applyErr := <-done
	stopped := time.Since(start) - interrupted
	output := out.String()
	if applyErr == nil {
		t.Logf("the apply completed despite the interrupt")
	}
	if strings.Contains(output, "context canceled") {
		t.Errorf("the interrupted apply reports \"context canceled\":\n%s", output)
	}

	// 2. Every object on the service is in state, or named in the output.
	state := terraformState(t, rc, dir)
	named := func(id string) bool { return strings.Contains(output, id) }
	imports, errs := importBlocksFromErrors(output)
	var unnamed []string // Terraform's "execution halted" of each resource it did not start is no object
	for _, e := range errs {
		if e != "execution halted" {
			unnamed = append(unnamed, e)
		}
	}
	service := serviceObjects(t, c, org, pool.ID, ws.ID, moduleRef{Organization: org, Name: m.Name, Provider: m.Provider})
	total, inState, inOutput := 0, 0, 0
	for typ, ids := range service {
		total += len(ids)
		for _, id := range ids {
			switch {
			case state[typ][id]:
				inState++
			case named(id):
				inOutput++
			default:
				t.Errorf("%s %s is on the service but neither in state nor named in the interrupted apply's output", typ, id)
			}
		}
	}
	t.Logf("SIGINT after %d writes (%s into the apply); Terraform stopped %s later; %d writes reached the service; %d objects on it: %d in state, %d named in the output (%d import blocks); errors without an import: %q",
		at, interrupted.Round(time.Millisecond), stopped.Round(time.Millisecond), writes(), total, inState, inOutput, strings.Count(imports, "import {"), unnamed)
	if t.Failed() {
		t.Logf("the interrupted apply's output:\n%s", output)
	}

	// 3. A second apply, with the import blocks the output gave, converges.
	if imports != "" {
		if err := os.WriteFile(filepath.Join(dir, "imports.tf"), []byte(imports), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if o, err := runTerraformRC(t, rc, dir, "apply", "-auto-approve", "-no-color"); err != nil {
		t.Fatalf("the second apply: %v\n%s", err, o)
	}
	if o, err := runTerraformRC(t, rc, dir, "plan", "-detailed-exitcode", "-no-color"); err != nil {
		t.Fatalf("the plan after the second apply is not empty (%v):\n%s", err, o)
	}
	state = terraformState(t, rc, dir)
	service = serviceObjects(t, c, org, pool.ID, ws.ID, moduleRef{Organization: org, Name: m.Name, Provider: m.Provider})
	for typ, want := range map[string]int{"tfgov_policy": 30, "tfgov_team_access": 30, "tfgov_module_test_variable": 30, "tfgov_agent_token": 10} {
		if len(state[typ]) != want {
			t.Errorf("%d %s in state after converging, want %d", len(state[typ]), typ, want)
		}
		for _, id := range service[typ] {
			leftNamed := typ == "tfgov_agent_token" && named(id) // a token left behind, named in a warning
			if !state[typ][id] && !leftNamed {
				t.Errorf("%s %s is on the service but not in state after converging", typ, id)
			}
		}
	}
}

// terraformState returns the IDs in state by resource type.
func terraformState(t *testing.T, rc, dir string) map[string]map[string]bool {
	t.Helper()
	raw, err := runTerraformRC(t, rc, dir, "show", "-json")
	if err != nil {
		t.Fatalf("terraform show: %v\n%s", err, raw)
	}
	var show struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type   string         `json:"type"`
					Values map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	state := map[string]map[string]bool{}
	if i := strings.Index(raw, "{"); i >= 0 {
		if err := json.Unmarshal([]byte(raw[i:]), &show); err != nil {
			t.Fatalf("terraform show -json: %v\n%s", err, raw)
		}
	}
	for _, r := range show.Values.RootModule.Resources {
		if state[r.Type] == nil {
			state[r.Type] = map[string]bool{}
		}
		id, _ := r.Values["id"].(string)
		state[r.Type][id] = true
	}
	return state
}

// serviceObjects lists, through go-tfe paging to the end, what the
// service holds of the types the interrupt test applies, by resource type.
func serviceObjects(t *testing.T, c *tfe.Client, org, poolID, wsID string, mod moduleRef) map[string][]string {
	t.Helper()
	ctx := context.Background()
	out := map[string][]string{}
	tokens, err := serviceAgentTokens(ctx, c, poolID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range tokens {
		out["tfgov_agent_token"] = append(out["tfgov_agent_token"], x.ID)
	}
	pols, err := servicePolicies(ctx, c, org)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range pols {
		out["tfgov_policy"] = append(out["tfgov_policy"], x.ID)
	}
	grants, err := serviceTeamAccess(ctx, c, wsID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range grants {
		out["tfgov_team_access"] = append(out["tfgov_team_access"], x.ID)
	}
	vars, err := serviceTestVariables(ctx, c, mod)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range vars {
		out["tfgov_module_test_variable"] = append(out["tfgov_module_test_variable"], x.ID)
	}
	return out
}
