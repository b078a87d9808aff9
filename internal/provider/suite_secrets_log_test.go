package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestAccSecretsNotLogged runs terraform apply with TF_LOG=trace and checks
// that no secret appears in any log line (Terraform's, the provider's, the
// SDK's) or in Terraform's output and diagnostics: the provider's API
// token, an agent token the apply creates, and a sensitive test variable's
// and policy set parameter's value set with `value` and with the write-only `value_wo`. The schema's
// Sensitive flag keeps secrets out of Terraform's output; only a test of
// the logs catches a provider that logs one with tflog.
func TestAccSecretsNotLogged(t *testing.T) {
	testCLIConfig(t)
	testAccPreCheck(t)
	pool := testAccAgentPool(t)
	mod := testAccModule(t)
	set := testAccParameterSet(t, tfe.PolicySetCreateOptions{})
	dir := t.TempDir()
	secretValue := "s3cret-value-" + randomSuffix()
	secretWO := "s3cret-wo-" + randomSuffix()
	config := fmt.Sprintf(`
terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}

variable "secret_value" {
  type      = string
  sensitive = true
}

variable "secret_wo" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "tfgov_agent_token" "test" {
  agent_pool_id = %q
  description   = "secrets-not-logged"
}

resource "tfgov_module_test_variable" "value" {
  module_name     = %q
  module_provider = %q
  key             = "SECRET_VALUE"
  value           = var.secret_value
  sensitive       = true
}

resource "tfgov_module_test_variable" "wo" {
  module_name      = %[2]q
  module_provider  = %[3]q
  key              = "SECRET_WO"
  value_wo         = var.secret_wo
  value_wo_version = 1
  sensitive        = true
}

resource "tfgov_policy_set_parameter" "value" {
  policy_set_id = %[4]q
  key           = "secret_value"
  value         = var.secret_value
  sensitive     = true
}

resource "tfgov_policy_set_parameter" "wo" {
  policy_set_id    = %[4]q
  key              = "secret_wo"
  value_wo         = var.secret_wo
  value_wo_version = 1
  sensitive        = true
}

output "agent_token" {
  value     = tfgov_agent_token.test.token
  sensitive = true
}
`, pool.ID, mod.Name, mod.Provider, set.ID)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "terraform.log")
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_LOG_PATH", logFile)
	t.Setenv("TF_VAR_secret_value", secretValue)
	t.Setenv("TF_VAR_secret_wo", secretWO)
	var outputs strings.Builder
	run := func(args ...string) {
		t.Helper()
		out, err := runTerraform(t, dir, args...)
		outputs.WriteString(out)
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Cleanup(func() {
		if out, err := runTerraform(t, dir, "destroy", "-auto-approve", "-no-color"); err != nil {
			t.Errorf("terraform destroy: %v\n%s", err, out)
		}
	})
	run("apply", "-auto-approve", "-no-color")
	run("plan", "-no-color")
	// The agent token is known only now; read it without logging.
	t.Setenv("TF_LOG", "")
	agentToken, err := runTerraform(t, dir, "output", "-raw", "agent_token")
	if err != nil || len(strings.TrimSpace(agentToken)) < 10 {
		t.Fatalf("terraform output agent_token: %v (%d characters)", err, len(agentToken))
	}
	raw, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 10000 || !strings.Contains(string(raw), "provider.terraform-provider-tfgov") {
		t.Fatalf("the trace log has %d bytes and no line of the provider: TF_LOG=trace did not take", len(raw))
	}
	secrets := map[string]string{
		"the provider's API token (TFE_TOKEN)":           os.Getenv("TFE_TOKEN"),
		"the agent token":                                strings.TrimSpace(agentToken),
		"the sensitive test variable's value":            secretValue,
		"the sensitive test variable's write-only value": secretWO, // and the policy set parameters' (the same values)
	}
	for what, secret := range secrets {
		for name, text := range map[string]string{"the trace log": string(raw), "terraform's output": outputs.String()} {
			if n := strings.Count(text, secret); n > 0 {
				var lines []string
				for _, l := range strings.Split(text, "\n") {
					if strings.Contains(l, secret) && len(lines) < 3 {
						lines = append(lines, strings.ReplaceAll(l, secret, "<SECRET>"))
					}
				}
				t.Errorf("%s appears %d times in %s, such as:\n%s", what, n, name, strings.Join(lines, "\n"))
			}
		}
	}
}
