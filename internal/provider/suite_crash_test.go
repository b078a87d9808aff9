package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestAccCrashConvergence: `terraform apply` killed with SIGKILL
// (with its provider process, the whole process group, as a crash or an
// OOM kill of the runner takes both) at several moments, counted in
// sandbox writes so that the moments do not depend on timing; then applied
// again. The re-apply either converges or fails with errors that each name
// the exact object and give its import ID in a ready import block; the
// test follows that advice as a user would (an import block per error,
// with the address from the error's "with" line), applies once more, and
// then requires an empty plan and the service holding exactly the objects
// in state, except agent tokens made by a killed apply: their secret died
// with the process, no later apply can tell them from tokens made
// elsewhere, and they are counted and logged. The service is counted with
// go-tfe, paging to the end. A second configuration shares the pool (and
// a token description), the workspace, the module and the organization:
// no error may advise importing its objects, and they stay unchanged.
func TestAccCrashConvergence(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	if testAccSandbox() == nil {
		t.Skip("killing at a given number of writes needs the sandbox's request counter")
	}
	tfBin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	bin := t.TempDir()
	build := exec.CommandContext(context.Background(), "go", "build", "-o", filepath.Join(bin, "terraform-provider-tfgov"), "github.com/tfgov/terraform-provider-tfgov")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(cliConfig, fmt.Appendf(nil, `provider_installation {
  dev_overrides { "registry.terraform.io/tfgov/tfgov" = %q }
  direct {}
}
`, bin), 0o600); err != nil {
		t.Fatal(err)
	}
	// Moments: after the first write, amid the creates, late in the apply.
	for _, killAt := range []int{1, 12, 30} {
		t.Run(fmt.Sprintf("kill after %d writes", killAt), func(t *testing.T) {
			crashAndConverge(t, tfBin, cliConfig, killAt)
		})
	}
}

func crashAndConverge(t *testing.T, tfBin, cliConfig string, killAt int) {
	ctx := context.Background()
	// A little latency spreads the apply out, so the kill lands amid
	// requests rather than after the last.
	sb, c := ownSandbox(t, sandbox.Options{Latency: 5 * time.Millisecond}, "tfgov-crash")
	org := sb.organization
	// The parents the kits ask for, and the second configuration's: a
	// pool, a workspace and a module.
	need := fleetParents(typeKit.crash, map[*parentKind]int{parentPool: 1, parentWorkspace: 1, parentModule: 1})
	m := parentMaker{t: t, ctx: ctx, c: c, org: org, name: func(k *parentKind, i int) string { return fmt.Sprintf("crash-%s-%d", k.prefix, i) }}
	env := fleetEnv{parentIDs: m.make(need), moduleDir: testModuleDir(t, "pass")}
	// A second configuration sharing the pool (with the description of the
	// first token), the workspace, the module and the organization.
	other, err := newOtherConfiguration(ctx, c, org, env.id(parentPool), "crash-0", env.all(parentWorkspace)[:1], env.mod(), testModuleDir(t, "pass"))
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	config, _ := fleetConfig(fmt.Sprintf(chaosHead, sb.address, sb.token, org), env, typeKit.crash)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := func(args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, tfBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd
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

	// 1. The apply, killed once killAt writes have reached the service.
	sb.srv.ResetStats()
	cmd := tf("apply", "-auto-approve", "-no-color", "-parallelism=4")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	killed := false
	for !killed {
		select {
		case err := <-done:
			t.Fatalf("the apply ended (%v) before %d writes (it made %d):\n%s", err, killAt, writes(), out.String())
		case <-time.After(time.Millisecond):
			if writes() >= killAt {
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done //nolint:errcheck // killed: the error says so
				killed = true
			}
		}
	}
	// Let requests already sent finish on the service.
	time.Sleep(100 * time.Millisecond)
	killedWrites := writes()
	_ = os.Remove(filepath.Join(dir, ".terraform.tfstate.lock.info"))
	// The local backend writes the state file in place: a kill during that
	// write leaves it torn. A user restores the backup Terraform keeps of
	// the state before; what the apply made since then is not in state, so
	// the re-apply below names it for import (or, for agent tokens, it is
	// counted as left by the killed apply).
	statePath := filepath.Join(dir, "terraform.tfstate")
	if raw, err := os.ReadFile(statePath); err == nil && !json.Valid(raw) {
		backup, berr := os.ReadFile(statePath + ".backup")
		if berr != nil {
			err = os.Remove(statePath) // no backup: no state
		} else {
			err = os.WriteFile(statePath, backup, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("the kill tore the state file (%d bytes); restored the backup (%d bytes)", len(raw), len(backup))
	}

	// 2. Apply again: converges, or every error names an object to import.
	// A grant found taken at plan stops the plan before the apply could
	// find one its plan did not list (team_access_resource.go planTaken),
	// so the errors may come in more than one round: each must name more.
	imports := ""
	for round := 1; ; round++ {
		out.Reset()
		cmd = tf("apply", "-auto-approve", "-no-color")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err == nil {
			break
		} else if round > 3 {
			t.Fatalf("the apply with the import blocks the errors gave failed: %v\n%s\nimports.tf:\n%s", err, out.String(), imports)
		}
		more, unnamed := importBlocksFromErrors(out.String())
		if len(unnamed) > 0 || more == "" || strings.Contains(imports, more) {
			t.Fatalf("the re-apply after the kill (round %d) failed with errors that name no new object to import (%s):\n%s", round, strings.Join(unnamed, "; "), out.String())
		}
		imports += more
		if err := os.WriteFile(filepath.Join(dir, "imports.tf"), []byte(imports), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	if imports != "" {
		t.Logf("import blocks written from the re-apply's errors:\n%s", imports)
	}
	for _, m := range importIDRE.FindAllStringSubmatch(imports, -1) {
		id := strings.Trim(m[1], `"`)
		if other.holds(id[strings.LastIndex(id, "/")+1:]) {
			t.Errorf("an error advised importing %s, which the other configuration holds", id)
		}
	}

	// 3. Converged: an empty plan, and the service holds the state's objects.
	out.Reset()
	cmd = tf("plan", "-detailed-exitcode", "-no-color")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the plan after converging is not empty (%v):\n%s", err, out.String())
	}
	out.Reset()
	cmd = tf("show", "-json")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	state := map[string]map[string]bool{}
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
	if err := json.Unmarshal(out.Bytes(), &show); err != nil {
		t.Fatal(err)
	}
	for _, r := range show.Values.RootModule.Resources {
		if state[r.Type] == nil {
			state[r.Type] = map[string]bool{}
		}
		id, _ := r.Values["id"].(string)
		state[r.Type][id] = true
	}
	if err := other.unchanged(ctx, org, env.all(parentWorkspace)[:1], env.mod()); err != nil {
		t.Error(err)
	}
	// What the service holds, through go-tfe paging to the end, without
	// the other configuration's objects.
	orphanTokens := 0
	for _, k := range kits {
		fk := k.crash()
		if !fk.ok {
			continue
		}
		typ := kitName(k)
		objects, err := fk.c.objects(ctx, c, env)
		if err != nil {
			t.Fatal(err)
		}
		var service []string
		for _, o := range objects {
			if !other.holds(o.id) {
				service = append(service, o.id)
			}
		}
		for _, id := range service {
			if state[typ][id] {
				continue
			}
			if fk.c.unprovable {
				orphanTokens++
				continue
			}
			t.Errorf("%s %s is on the service but not in state", typ, id)
		}
		if len(state[typ]) > len(service) {
			t.Errorf("%s: %d in state, %d on the service", typ, len(state[typ]), len(service))
		}
	}
	t.Logf("killed after %d writes (%d had reached the service); %d import blocks followed the re-apply's errors; converged with %d objects; agent tokens left by the killed apply: %d",
		killAt, killedWrites, strings.Count(imports, "import {"), len(show.Values.RootModule.Resources), orphanTokens)
}

var (
	errorHeadRE = regexp.MustCompile(`(?m)^Error: `)
	withRE      = regexp.MustCompile(`(?m)^\s*with ([^,\s]+),`)
	importIDRE  = regexp.MustCompile(`(?m)^\s*id\s*=\s*("[^"]+")`)
)

// importBlocksFromErrors reads Terraform's human output and turns every
// error that gives an import block into one with the address the error's
// "with" line names. Errors that give none are returned as unnamed.
func importBlocksFromErrors(output string) (imports string, unnamed []string) {
	var blocks []string
	parts := errorHeadRE.Split(output, -1)
	for _, part := range parts[1:] {
		with, id := withRE.FindStringSubmatch(part), importIDRE.FindStringSubmatch(part)
		if with == nil || id == nil {
			unnamed = append(unnamed, strings.SplitN(part, "\n", 2)[0])
			continue
		}
		blocks = append(blocks, fmt.Sprintf("import {\n  to = %s\n  id = %s\n}\n", with[1], id[1]))
	}
	sort.Strings(blocks)
	return strings.Join(blocks, "\n"), unnamed
}

// crashTypes are the types TestAccCrashConvergence covers: those its
// kits' configurations declare (registry_test.go).
func crashTypes() map[string]bool {
	config, _ := fleetConfig("", fleetEnv{parentIDs: fakeParents(5)}, typeKit.crash)
	return configTypes(config)
}
