package provider

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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

// testCLIConfig builds the provider once into a temporary directory and
// returns a Terraform CLI configuration file whose dev_overrides point
// tfgov/tfgov at it. Skips without TF_ACC.
func testCLIConfig(t *testing.T) string {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("tests that run terraform need %s=1", resource.EnvTfAcc)
	}
	cliProviderOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tfgov-cli-test-")
		if err != nil {
			errCLIProvider = err
			return
		}
		cliProviderDir = dir
		_, here, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(here), "..", "..")
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "terraform-provider-tfgov"), ".") //nolint:gosec,noctx // fixed arguments
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			errCLIProvider = fmt.Errorf("go build: %w\n%s", err, out)
			return
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
	rc := testCLIConfig(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Getenv("TF_ACC_TERRAFORM_PATH"), append([]string{"-chdir=" + dir}, args...)...) //nolint:gosec // the test's own terraform
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestAccPolicyUploadResource_sourceChangedAfterPlan: a source file edited
// between `terraform plan -out` and `terraform apply` of that plan fails
// with a message saying so (not Terraform's "bug in the provider"), and
// nothing is uploaded.
func TestAccPolicyUploadResource_sourceChangedAfterPlan(t *testing.T) {
	testCLIConfig(t)
	testAccPreCheck(t)
	dir := t.TempDir()
	name := testAccName("changed")
	file := filepath.Join(dir, "policy.rego")
	write := func(code string) {
		if err := os.WriteFile(file, []byte(code), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	config := fmt.Sprintf(`
terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}

resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  source    = "${path.module}/policy.rego"
}
`, name)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	write(regoCode)
	must := func(args ...string) string {
		t.Helper()
		out, err := runTerraform(t, dir, args...)
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	must("apply", "-auto-approve", "-no-color")
	t.Cleanup(func() {
		if out, err := runTerraform(t, dir, "destroy", "-auto-approve", "-no-color"); err != nil {
			t.Errorf("terraform destroy: %v\n%s", err, out)
		}
	})

	write(regoV0Code)
	must("plan", "-out=tfplan", "-no-color")
	write(regoCode + "# edited after the plan\n")
	out, err := runTerraform(t, dir, "apply", "-no-color", "tfplan")
	if err == nil {
		t.Fatalf("apply of a plan whose source file changed since: no error\n%s", out)
	}
	for _, want := range []string{"Error: Policy file changed since the plan", "Nothing was uploaded", "Run terraform plan again"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("apply output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "bug in the provider") {
		t.Errorf("apply output blames the provider:\n%s", out)
	}
	// Nothing was uploaded: the policy still has the applied code.
	l, err := testAccClient(t).Policies.List(context.Background(), testAccOrganization(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range l.Items {
		if p.Name != name {
			continue
		}
		code, err := testAccClient(t).Policies.Download(context.Background(), p.ID)
		if err != nil || string(code) != regoCode {
			t.Errorf("the policy's code after the refused apply: %q, %v; want the code applied before", code, err)
		}
	}

	// A new plan takes the edited file, and applies.
	must("apply", "-auto-approve", "-no-color")
	if out := must("plan", "-detailed-exitcode", "-no-color"); !strings.Contains(out, "No changes") {
		t.Errorf("plan after apply is not empty:\n%s", out)
	}
}
