package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// tokenFromEnvironment finds a token for hostname the way Terraform CLI
// does, after the provider's own `token` and TFE_TOKEN:
//
//  1. TF_TOKEN_<host> (dots as underscores, dashes as double underscores),
//  2. the CLI credentials file written by `terraform login`
//     (TF_CLI_CONFIG_DIR or ~/.terraform.d, file credentials.tfrc.json).
//
// It returns "" when neither has one. A credentials file that exists but
// cannot be parsed is an error, not a silent miss.
func tokenFromEnvironment(hostname string) (string, error) {
	if tok := os.Getenv(tokenEnvName(hostname)); tok != "" {
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
		if strings.EqualFold(host, hostname) {
			return c.Token, nil
		}
	}
	return "", nil
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
