package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// guideTestCommand is the guide's one command ("Testing your configuration
// without an organization"), run in the example's directory.
var guideTestCommand = []string{"tfgov-sandbox", "--listen", "127.0.0.1:0", "--quiet", "--seed-file", "seed.json", "--", "terraform", "test"}

// TestAccGuideTestingWithoutAnOrganization follows the guide with its
// example (examples/guides/test-without-an-organization), which names
// everything by name: the sandbox started from the example's seed file
// (hand-made policy, grants, agent tokens, test variable and deprecation
// included) runs `terraform test`, whose run blocks import the hand-made
// policy and grant, lock the workspace down to the declared teams (the
// hand-made grant of a third team removed), apply (and update) team
// access, a module test variable and an agent token and assert on them; a
// broken assertion then fails with Terraform's own message. On Terraform
// 1.14 and later (actions), its prune directory runs a dry run of
// tfgov_agent_token_prune in terraform test and with -invoke, which lists
// the token the seed made 90 days unused. Its hashicorp/tfe variant makes a
// workspace and a team with hashicorp/tfe (the stand-in) and governs them
// with tfgov, over HTTPS, in one terraform test that applies and then
// updates. The sandbox is the example's own, in
// both the sandbox and the live paths: the guide is about testing without
// an organization.
func TestAccGuideTestingWithoutAnOrganization(t *testing.T) {
	rc := testCLIConfig(t)
	guide, err := os.ReadFile(filepath.Join(repoRoot(), "templates", "guides", "testing-without-an-organization.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	if cmd := strings.Join(guideTestCommand, " "); !strings.Contains(string(guide), cmd) {
		t.Fatalf("the guide does not show the command this test runs: %s", cmd)
	}
	dir := t.TempDir()
	example := filepath.Join(repoRoot(), "examples", "guides", "test-without-an-organization")
	if err := os.CopyFS(dir, os.DirFS(example)); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(os.DirFS(dir), "tests/governance.tftest.hcl"); err != nil {
		t.Fatal(err)
	}
	// The guide's environment: the provider from the dev_overrides (no
	// terraform init, as Terraform asks), the Terraform under test first on
	// PATH, and none of the acceptance tests' own credentials.
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"PATH=" + filepath.Dir(os.Getenv("TF_ACC_TERRAFORM_PATH")) + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TFE_") || strings.HasPrefix(k, "TF_TOKEN_") || strings.HasPrefix(k, "TF_VAR_") || k == "SSL_CERT_FILE" || k == "PATH" || k == "TF_CLI_CONFIG_FILE" {
			continue
		}
		env = append(env, kv)
	}
	run := func() (string, int, time.Duration) {
		t.Helper()
		return runIn(t, dir, env, guideTestCommand)
	}

	out, code, took := run()
	if code != 0 || !strings.Contains(out, "Success! 2 passed, 0 failed.") {
		t.Fatalf("terraform test against the seeded sandbox: exit %d\n%s", code, out)
	}
	t.Logf("the guide's terraform test (sandbox start included): %s", took.Round(time.Millisecond))

	broken := `run "broken" {
  assert {
    condition     = tfgov_team_access.platform.access == "admin"
    error_message = "The platform team is not an admin of the workspace."
  }
}
`
	// In the same file: each file's teardown destroys what it adopted, so
	// a second file could no longer import the hand-made objects.
	tests := filepath.Join(dir, "tests", "governance.tftest.hcl")
	good, err := os.ReadFile(tests)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tests, append(append(good, '\n'), broken...), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code, _ = run()
	if want := fmt.Sprintf("on tests/governance.tftest.hcl line %d, in run \"broken\"", bytes.Count(good, []byte("\n"))+4); !strings.Contains(string(guide), want) || !strings.Contains(out, want) {
		t.Errorf("the guide's broken assertion (%s) is not the one this test sees:\n%s", want, out)
	}
	for _, want := range []string{"Error: Test assertion failed", `in run "broken":`, "The platform team is not an admin of the workspace.", `run "broken"... fail`, "Failure! 2 passed, 1 failed."} {
		if !strings.Contains(out, want) {
			t.Errorf("a broken assertion: the output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("a broken assertion: exit %d, want 1 (terraform test's own)", code)
	}

	t.Run("prune", func(t *testing.T) {
		skipTerraformBelow(t, "1.14.0")
		for _, cmd := range [][]string{guidePruneTestCommand, guidePruneInvokeCommand} {
			if !strings.Contains(string(guide), "cd prune\n"+strings.Join(cmd, " ")+"\n") {
				t.Fatalf("the guide does not show the command this test runs: %s", strings.Join(cmd, " "))
			}
		}
		out, code, took := runIn(t, filepath.Join(dir, "prune"), env, guidePruneTestCommand)
		if code != 0 || !strings.Contains(out, "Success! 2 passed, 0 failed.") {
			t.Fatalf("terraform test of the dry-run prune: exit %d\n%s", code, out)
		}
		t.Logf("the prune's terraform test: %s", took.Round(time.Millisecond))
		out, code, _ = runIn(t, filepath.Join(dir, "prune"), env, guidePruneInvokeCommand)
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`"build agent 1 \(decommissioned\)": created .*, idle (2160h0m\d+s|2159h59m5\ds) since that use — idle longer than unused_for \(720h0m0s\): would be revoked \(dry run\)`),
			regexp.MustCompile(`"build agent 2": created .* — kept: used within 720h0m0s`),
			regexp.MustCompile(`Dry run: 1 of the 2 tokens of agent pool apool-\w+ would be revoked`),
		} {
			if code != 0 || !want.MatchString(out) {
				t.Errorf("the dry run lacks %s: exit %d\n%s", want, code, out)
			}
		}
	})

	t.Run("hashicorp/tfe", func(t *testing.T) {
		cmd := strings.Join(guideTFECommand, " ")
		if !strings.Contains(string(guide), "cd hashicorp-tfe\n"+cmd+"\n") {
			t.Fatalf("the guide does not show the command this test runs: %s", cmd)
		}
		// --tls writes its certificate into TMPDIR: a test's own, so that
		// no other sandbox on the machine overwrites it.
		env := append(slices.Clone(env), "TF_CLI_CONFIG_FILE="+testTFEStandInConfig(t), "TMPDIR="+t.TempDir())
		out, code, _ := runIn(t, filepath.Join(dir, "hashicorp-tfe"), env, guideTFECommand)
		if code != 0 || !strings.Contains(out, "Success! 2 passed, 0 failed.") {
			t.Fatalf("terraform test of a workspace and a team made with hashicorp/tfe (the stand-in) and governed with tfgov, over HTTPS: exit %d\n%s", code, out)
		}
	})
}

// guidePruneTestCommand and guidePruneInvokeCommand are the guide's
// commands for the dry-run prune, run in the example's prune directory.
var (
	guidePruneTestCommand   = []string{"tfgov-sandbox", "--listen", "127.0.0.1:0", "--quiet", "--seed-file", "../seed.json", "--", "terraform", "test"}
	guidePruneInvokeCommand = []string{"tfgov-sandbox", "--listen", "127.0.0.1:0", "--quiet", "--seed-file", "../seed.json", "--", "terraform", "apply", "-auto-approve", "-invoke=action.tfgov_agent_token_prune.stale"}
)

// guideTFECommand is the guide's command for hashicorp/tfe's resources,
// run in the example's hashicorp-tfe directory.
var guideTFECommand = []string{"tfgov-sandbox", "--tls", "--listen", "127.0.0.1:0", "--quiet", "--seed-file", "../seed.json", "--", "terraform", "test"}

// runIn runs command (the sandbox built by testCLIConfig, then its
// arguments, with -no-color) in dir with env, and returns its output, exit
// status and time.
func runIn(t *testing.T, dir string, env, command []string) (string, int, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(cliProviderDir, command[0]), append(command[1:], "-no-color")...) // the test's own build
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), exit.ExitCode(), took
	}
	if err != nil {
		t.Fatalf("running %s: %v\n%s", strings.Join(command, " "), err, out.String())
	}
	return out.String(), 0, took
}
