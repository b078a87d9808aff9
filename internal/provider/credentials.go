package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	svchost "github.com/hashicorp/terraform-svchost"
)

// tokenFromEnvironment finds a token for hostname the way Terraform CLI
// does, after the provider's own `token` and TFE_TOKEN:
//
//  1. TF_TOKEN_<host> (dots as underscores, dashes as double underscores),
//  2. the CLI credentials file written by `terraform login`
//     (TF_CLI_CONFIG_DIR or ~/.terraform.d, file credentials.tfrc.json).
//
// Hostnames are compared as svchost compares them (case, Unicode and the
// default port 443 folded), so TF_TOKEN_App_Terraform_io matches
// app.terraform.io. It returns "" when neither has one. A credentials file
// that exists but cannot be parsed is an error, not a silent miss.
func tokenFromEnvironment(hostname string) (string, error) {
	want, err := svchost.ForComparison(hostname)
	if err != nil {
		return "", nil //nolint:nilerr // no valid hostname, so no Terraform credentials name it
	}
	if tok := tokenFromEnvVars(os.Environ(), want); tok != "" {
		return tok, nil
	}
	path, err := credentialsFile()
	if err != nil {
		return "", nil //nolint:nilerr // no home directory: no credentials file
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	var creds struct {
		Credentials map[string]struct {
			Token string `json:"token"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(raw, &creds); err != nil {
		return "", fmt.Errorf("parsing %s: %w", path, err)
	}
	for host, c := range creds.Credentials {
		if h, err := svchost.ForComparison(host); err == nil && h == want {
			return c.Token, nil
		}
	}
	return "", nil
}

// tokenFromEnvVars decodes TF_TOKEN_ variables as Terraform CLI does
// (internal/command/cliconfig: "__" is a dash, then "_" a dot, then the
// name is normalised by svchost) and returns the one for host. A port
// cannot be written in a shell variable name, but a variable set through
// env(1) or a program may carry one (TF_TOKEN_localhost:8443).
func tokenFromEnvVars(environ []string, host svchost.Hostname) string {
	const prefix = "TF_TOKEN_"
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || value == "" || !strings.HasPrefix(name, prefix) {
			continue
		}
		raw := strings.ReplaceAll(strings.TrimPrefix(name, prefix), "__", "-")
		raw = strings.ReplaceAll(raw, "_", ".")
		if h, err := svchost.ForComparison(svchost.ForDisplay(raw)); err == nil && h == host {
			return value
		}
	}
	return ""
}

// tokenEnvName is Terraform's TF_TOKEN_ variable for a hostname:
// app.terraform.io -> TF_TOKEN_app_terraform_io, my-tfe.io -> TF_TOKEN_my__tfe_io.
func tokenEnvName(hostname string) string {
	h := strings.ReplaceAll(hostname, "-", "__")
	return "TF_TOKEN_" + strings.ReplaceAll(h, ".", "_")
}

func credentialsFile() (string, error) {
	if dir := os.Getenv("TF_CLI_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, "credentials.tfrc.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".terraform.d", "credentials.tfrc.json"), nil
}
