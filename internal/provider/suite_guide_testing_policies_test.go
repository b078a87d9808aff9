package provider

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAccGuideTestingPolicies runs the example of the guide "Testing
// policies before they govern" (examples/guides/testing-policies) as a
// reader would, offline: `terraform get` (the test's evaluation module)
// and `terraform test`, with no token, no organization and no sandbox;
// tfgov_policy_evaluation passes the tagged input and fails the untagged
// one. A policy broken the way the test guards against (cost-center no
// longer required) then fails the test, naming the run. The example's
// policy is the quickstart's.
func TestAccGuideTestingPolicies(t *testing.T) {
	t.Parallel()
	rc := testCLIConfig(t)
	example := filepath.Join(repoRoot(), "examples", "guides", "testing-policies")
	policy, err := os.ReadFile(filepath.Join(example, "policies", "required-tags.rego"))
	if err != nil {
		t.Fatal(err)
	}
	if quickstart, err := os.ReadFile(filepath.Join(repoRoot(), "examples", "quickstart", "policies", "required-tags.rego")); err != nil || !bytes.Equal(policy, quickstart) {
		t.Fatalf("the example's policy is not the quickstart's required-tags.rego (%v)", err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(example)); err != nil {
		t.Fatal(err)
	}
	// Offline: none of the acceptance tests' credentials or addresses.
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "HOME=" + t.TempDir()}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TFE_") || strings.HasPrefix(k, "TF_TOKEN_") || strings.HasPrefix(k, "TF_VAR_") || k == "TF_CLI_CONFIG_FILE" || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	terraform := func(args ...string) (string, int, time.Duration) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Getenv("TF_ACC_TERRAFORM_PATH"), append(args, "-no-color")...)
		cmd.Dir, cmd.Env = dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return out.String(), exit.ExitCode(), time.Since(start)
		}
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out.String())
		}
		return out.String(), 0, time.Since(start)
	}
	if out, code, _ := terraform("get"); code != 0 {
		t.Fatalf("terraform get: exit %d\n%s", code, out)
	}
	out, code, took := terraform("test")
	for _, want := range []string{`run "tagged_bucket_passes"... pass`, `run "untagged_bucket_fails"... pass`, "Success! 2 passed, 0 failed."} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("terraform test of the example, offline: exit %d, want %q\n%s", code, want, out)
		}
	}
	t.Logf("the guide's terraform test, offline: %s", took.Round(time.Millisecond))

	broken := strings.Replace(string(policy), `required := {"owner", "cost-center"}`, `required := {"owner"}`, 1)
	if broken == string(policy) {
		t.Fatal("the policy no longer declares its required tags as this test expects")
	}
	if err := os.WriteFile(filepath.Join(dir, "policies", "required-tags.rego"), []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code, _ = terraform("test")
	for _, want := range []string{`run "untagged_bucket_fails"... fail`, "A bucket without its cost-center tag passes the policy.", "Failure! 1 passed, 1 failed."} {
		if !strings.Contains(out, want) {
			t.Errorf("a policy that no longer requires cost-center: the output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("a policy that no longer requires cost-center: exit %d, want 1", code)
	}
}
