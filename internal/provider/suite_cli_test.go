package provider

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Tests that drive the terraform binary themselves, for what
// terraform-plugin-testing cannot do (a saved plan applied after a change,
// `terraform validate` of the examples as a user copies them). They run the
// provider built from this tree through a dev_overrides block, exactly as
// the README tells a user to.

var (
	cliProviderOnce sync.Once
	cliProviderDir  string
	errCLIProvider  error
)

// testCLIConfig builds the provider (and the sandbox) once into a
// temporary directory, as make build does into ./bin, and returns a Terraform CLI configuration file whose dev_overrides point
// tfgov/tfgov at it. Skips without TF_ACC.
func testCLIConfig(t *testing.T) string {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("tests that run terraform need %s=1", resource.EnvTfAcc)
	}
	cliProviderOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tfgov-cli-test-") //nolint:usetesting // shared by every test of the package; TestMain removes it
		if err != nil {
			errCLIProvider = err
			return
		}
		cliProviderDir = dir
		root := repoRoot()
		for bin, pkg := range map[string]string{"terraform-provider-tfgov": ".", "tfgov-sandbox": "./cmd/tfgov-sandbox"} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(dir, bin), pkg) //nolint:noctx // fixed arguments
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				errCLIProvider = fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
				return
			}
		}
		rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"tfgov/tfgov\" = %q\n  }\n  direct {}\n}\n", dir)
		errCLIProvider = os.WriteFile(filepath.Join(dir, "terraformrc"), []byte(rc), 0o600)
	})
	if errCLIProvider != nil {
		t.Fatalf("building the provider for the terraform CLI: %v", errCLIProvider)
	}
	return filepath.Join(cliProviderDir, "terraformrc")
}

// removeCLIProvider removes what testCLIConfig built (TestMain calls it).
func removeCLIProvider() {
	if cliProviderDir != "" {
		_ = os.RemoveAll(cliProviderDir)
	}
}

// runTerraform runs the terraform binary in dir with the dev_overrides
// configuration and the provider's environment (TFE_ADDRESS, TFE_TOKEN,
// TFE_ORGANIZATION as the acceptance tests have them), returning its
// combined output.
func runTerraform(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	return runTerraformRC(t, testCLIConfig(t), dir, args...)
}

// runTerraformRC is runTerraform with the CLI configuration file rc.
func runTerraformRC(t *testing.T, rc, dir string, args ...string) (string, error) {
	t.Helper()
	return execTerraform(dir, []string{"TF_CLI_CONFIG_FILE=" + rc}, args...)
}

// execTerraform runs the terraform under test in dir, with env added to
// the test's environment (later entries win), within 5 minutes, and
// returns its combined output.
func execTerraform(dir string, env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Getenv("TF_ACC_TERRAFORM_PATH"), append([]string{"-chdir=" + dir}, args...)...)
	cmd.Env = append(append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// repoRoot is the repository's top directory.
func repoRoot() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..")
}

// TestAccQuickstartDemo runs `make demo`'s script as make does, with its
// output not a terminal: no colour codes, the outputs shown once per run,
// the dev overrides warning explained, an empty second plan, a change
// planned and applied as an update, and the sandbox left running with how
// to stop it. A second run carries on from the kept state: it restarts the
// sandbox on its data and shows updates, never the quickstart as new.
// demo.sh --stop (make demo-stop) then stops the sandbox.
func TestAccQuickstartDemo(t *testing.T) {
	rc := testCLIConfig(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	script := filepath.Join(repoRoot(), "examples", "quickstart", "demo.sh")
	// A copy of the quickstart, so the test leaves no .demo directory behind.
	dir := t.TempDir()
	if out, err := exec.CommandContext(ctx, "cp", "-R", filepath.Dir(script)+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copying the quickstart: %v\n%s", err, out)
	}
	_ = os.RemoveAll(filepath.Join(dir, ".demo"))
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TFE_") && !strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") {
			env = append(env, kv)
		}
	}
	demo := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(dir, "demo.sh")}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("demo.sh %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	pidFile := filepath.Join(dir, ".demo", "sandbox.pid")
	running := func() (int, bool) {
		raw, err := os.ReadFile(pidFile)
		if err != nil {
			return 0, false
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
		if err != nil {
			t.Fatalf("%s: %v", pidFile, err)
		}
		p, err := os.FindProcess(pid)
		return pid, err == nil && p.Signal(syscall.Signal(0)) == nil
	}
	t.Cleanup(func() {
		if pid, ok := running(); ok {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
	})
	bin, tf := filepath.Dir(rc), os.Getenv("TF_ACC_TERRAFORM_PATH")

	check := func(s string, want, notWant []string) {
		t.Helper()
		if strings.Contains(s, "\x1b[") {
			t.Errorf("demo output has colour codes although it is not a terminal:\n%s", s)
		}
		// An output's value as apply and terraform output print it (the
		// plan's "Changes to Outputs" prefixes it with + or ~).
		if n := len(regexp.MustCompile(`(?m)^\s*team_access\s+= \{$`).FindAllString(s, -1)); n != 1 {
			t.Errorf("demo shows the outputs %d times, want once:\n%s", n, s)
		}
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("demo output lacks %q:\n%s", w, s)
			}
		}
		for _, w := range notWant {
			if strings.Contains(s, w) {
				t.Errorf("demo output has %q:\n%s", w, s)
			}
		}
	}
	common := []string{
		`"Provider development overrides are in effect": expected`, "no changes",
		// The change, planned and applied as an update.
		`enforcement_level = "mandatory" -> "advisory"`, "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.",
		`"required-tags" = "opa, advisory"`,
		// Left running, saying how to stop it, and what next.
		"The sandbox is still running", "make demo-stop", "destroy", "make demo again",
	}
	check(demo(bin, tf), append([]string{"Plan: 10 to add, 0 to change, 0 to destroy."}, common...), nil)
	pid1, ok := running()
	if !ok {
		t.Fatal("the sandbox does not run after make demo")
	}
	// The second run: the same objects, shown as updates (the first run's
	// change undone, then made again), nothing added.
	second := demo(bin, tf)
	check(second, append([]string{"Sandbox restarted", `enforcement_level = "advisory" -> "mandatory"`}, common...), nil)
	if m := regexp.MustCompile(`[1-9][0-9]* (to add|added)`).FindString(second); m != "" {
		t.Errorf("the second make demo adds objects (%q) instead of carrying on from the kept state:\n%s", m, second)
	}
	pid2, ok := running()
	if !ok || pid2 == pid1 {
		t.Fatalf("the second make demo: sandbox pid %d (running %v), the first was %d: want a new one, running", pid2, ok, pid1)
	}
	if p, err := os.FindProcess(pid1); err == nil && p.Signal(syscall.Signal(0)) == nil {
		t.Errorf("the first run's sandbox (pid %d) still runs after the second make demo", pid1)
	}
	if out := demo("--stop"); !strings.Contains(out, "Sandbox stopped") {
		t.Errorf("demo.sh --stop: %s", out)
	}
	for i := 0; i < 50; i++ {
		if p, err := os.FindProcess(pid2); err != nil || p.Signal(syscall.Signal(0)) != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("the sandbox (pid %d) still runs after demo.sh --stop", pid2)
}

// requiredProvidersShim is what the provider's page (docs/index.md) tells a
// user to write once per configuration; the resource and data source
// examples are snippets for such a configuration.
const requiredProvidersShim = `terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}
`

// TestAccExamplesValidate: every example a user may copy passes `terraform
// validate` with the provider built from this tree. examples/provider,
// examples/quickstart and the guides' examples are whole configurations and
// must name tfgov/tfgov themselves; the resource, data source and guide snippets get the
// required_providers block of the provider's page. Examples that also need
// another provider (hashicorp/time, the only one: testProviderMirror fails
// on any other) are initialised first, and get it from a filesystem mirror
// built from the Go module proxy (testProviderMirror): a user copying them
// has the registry. Action examples need Terraform 1.14 and are validated
// only with it, next to an empty modules/network directory: the module
// directory they name.
func TestAccExamplesValidate(t *testing.T) {
	testCLIConfig(t)
	root := filepath.Join(repoRoot(), "examples")
	dirs := []string{filepath.Join(root, "provider"), filepath.Join(root, "quickstart")}
	patterns := []string{"resources/*", "data-sources/*", "guides/*"}
	if ok, _ := terraformHasActions(t); ok {
		patterns = append(patterns, "actions/*")
	}
	for _, pattern := range patterns {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		dirs = append(dirs, m...)
	}
	// List resource examples (.tfquery.hcl, Terraform 1.14+): each with the
	// provider's page's required_providers block and a provider block.
	lists, _ := filepath.Glob(filepath.Join(root, "list-resources", "*"))
	for _, dir := range lists {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			skipTerraformBelow(t, "1.14.0")
			work := t.TempDir()
			b, err := os.ReadFile(filepath.Join(dir, "list-resource.tfquery.hcl"))
			if err != nil {
				t.Fatal(err)
			}
			for name, content := range map[string]string{"list.tfquery.hcl": string(b), "main.tf": requiredProvidersShim + "\nprovider \"tfgov\" {}\n"} {
				if err := os.WriteFile(filepath.Join(work, name), []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if out, err := runTerraform(t, work, "validate", "-query", "-no-color"); err != nil {
				t.Errorf("terraform validate -query of examples/%s: %v\n%s", rel, err, out)
			}
		})
	}
	otherProvider := regexp.MustCompile(`(?m)^\s*(resource|data)\s+"([a-z0-9]+)_`)
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			work := t.TempDir()
			files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
			whole := rel == "provider" || rel == "quickstart" || strings.HasPrefix(rel, "guides"+string(filepath.Separator))
			others := map[string]bool{}
			var identityExample []byte
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range otherProvider.FindAllStringSubmatch(string(b), -1) {
					if m[2] != "tfgov" && m[2] != "terraform" { // terraform_data is built in
						others[m[2]] = true
					}
				}
				if !whole && filepath.Base(f) == "identity-import.tf" {
					identityExample = b // validated on its own below
					continue
				}
				if !whole && strings.HasPrefix(filepath.Base(f), "import-") {
					// An import block's example goes next to the resource's.
					f = filepath.Join(work, "import.tf")
				} else {
					f = filepath.Join(work, filepath.Base(f))
				}
				if err := os.WriteFile(f, b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			// The files an example reads with file(), as a user's copy has them.
			if _, err := os.Stat(filepath.Join(dir, "policies")); err == nil {
				if err := os.CopyFS(filepath.Join(work, "policies"), os.DirFS(filepath.Join(dir, "policies"))); err != nil {
					t.Fatal(err)
				}
			}
			if !whole {
				if err := os.WriteFile(filepath.Join(work, "required_providers.tf"), []byte(requiredProvidersShim), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if strings.HasPrefix(rel, "actions"+string(filepath.Separator)) {
				if err := os.MkdirAll(filepath.Join(work, "modules", "network"), 0o750); err != nil {
					t.Fatal(err)
				}
			}
			rc := testCLIConfig(t)
			if len(others) > 0 {
				rc = testProviderMirror(t, work, others)
				if out, err := runTerraformRC(t, rc, work, "init", "-backend=false", "-input=false", "-no-color"); err != nil {
					t.Fatalf("terraform init of examples/%s (with %v from the mirror): %v\n%s", rel, others, err, out)
				}
			}
			if out, err := runTerraformRC(t, rc, work, "validate", "-no-color"); err != nil {
				t.Errorf("terraform validate of examples/%s: %v\n%s", rel, err, out)
			}
			if identityExample != nil {
				// An import by identity (Terraform 1.12+), next to the
				// resource instead of the import by ID.
				t.Run("identity-import", func(t *testing.T) {
					skipTerraformBelow(t, "1.12.0")
					if err := os.WriteFile(filepath.Join(work, "import.tf"), identityExample, 0o600); err != nil {
						t.Fatal(err)
					}
					if out, err := runTerraformRC(t, rc, work, "validate", "-no-color"); err != nil {
						t.Errorf("terraform validate of examples/%s/identity-import.tf: %v\n%s", rel, err, out)
					}
				})
			}
		})
	}
}

// runTerraformEnv runs terraform in dir with env added to the test's
// environment (later entries win), returning its output and exit code.
func runTerraformEnv(t *testing.T, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	out, err := execTerraform(dir, env, args...)
	if ee, ok := err.(*exec.ExitError); ok { //nolint:errorlint // exec returns it unwrapped
		return out, ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running terraform: %v", err)
	}
	return out, 0
}

// mirroredProviders are the providers other than tfgov that examples use,
// with the Go module each is built from and its version. The Go module
// proxy serves them where the Terraform registry cannot be reached.
var mirroredProviders = map[string]struct{ module, version string }{
	"time": {"github.com/hashicorp/terraform-provider-time", "0.14.2"},
}

var (
	providerMirrorMu   sync.Mutex
	providerMirrorDone = map[string]error{}
)

// testProviderMirror builds each provider of names (hashicorp/<name>) from
// its Go module into a filesystem mirror in the user's cache directory
// (kept across runs: the first build takes about a minute, later ones
// none), and writes into dir a CLI configuration that takes them from the
// mirror and tfgov/tfgov from the dev_overrides. A provider that cannot be
// had fails the test, saying why: CI must not pass by skipping.
func testProviderMirror(t *testing.T, dir string, names map[string]bool) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no cache directory for the provider mirror: %v", err)
	}
	mirror := filepath.Join(cache, "tfgov-tests", "provider-mirror")
	for name := range names {
		p, ok := mirroredProviders[name]
		if !ok {
			t.Fatalf("the example uses provider hashicorp/%s, which the tests cannot install offline: add its Go module to mirroredProviders", name)
		}
		bin := filepath.Join(mirror, "registry.terraform.io", "hashicorp", name, p.version, runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-"+name+"_v"+p.version)
		providerMirrorMu.Lock()
		err, done := providerMirrorDone[bin]
		if !done {
			err = buildMirroredProvider(bin, p.module, p.version)
			providerMirrorDone[bin] = err
		}
		providerMirrorMu.Unlock()
		if err != nil {
			t.Fatalf("hashicorp/%s for the examples: %v", name, err)
		}
	}
	// terraform init looks up tfgov/tfgov too, dev_overrides or not: the
	// test's own mirror has both, as links.
	own := filepath.Join(dir, ".mirror")
	link := func(target, name, version, file string) {
		d := filepath.Join(own, "registry.terraform.io", name, version, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(d, file)); err != nil {
			t.Fatal(err)
		}
	}
	providers := filepath.Dir(testCLIConfig(t))
	link(filepath.Join(providers, "terraform-provider-tfgov"), "tfgov/tfgov", "1.0.0", "terraform-provider-tfgov_v1.0.0")
	for name := range names {
		p := mirroredProviders[name]
		link(filepath.Join(mirror, "registry.terraform.io", "hashicorp", name, p.version, runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-"+name+"_v"+p.version),
			"hashicorp/"+name, p.version, "terraform-provider-"+name+"_v"+p.version)
	}
	rc := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "tfgov/tfgov" = %q
  }
  filesystem_mirror {
    path = %q
  }
}
`, providers, own)
	path := filepath.Join(dir, ".terraformrc")
	if err := os.WriteFile(path, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// buildMirroredProvider builds module@version into bin, unless an earlier
// run did.
func buildMirroredProvider(bin, module, version string) error {
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		return nil
	}
	gobin, err := os.MkdirTemp("", "tfgov-provider-build-") // shared by the tests; removed below
	if err != nil {
		return err
	}
	defer os.RemoveAll(gobin)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "install", module+"@v"+version)
	cmd.Dir = gobin // outside this module: go install module@version
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-mod=mod", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go install %s@v%s (from the Go module proxy, GOPROXY=%s) failed: %w\n%s", module, version, os.Getenv("GOPROXY"), err, out)
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return err
	}
	built := filepath.Join(gobin, filepath.Base(module))
	// Copy then rename: the cache may be on another file system.
	tmp := bin + ".tmp"
	b, err := os.ReadFile(built)
	if err != nil {
		return err
	}
	if err := os.WriteFile(tmp, b, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, bin)
}
