package provider

import (
	"os"
	"path/filepath"
	"testing"

	svchost "github.com/hashicorp/terraform-svchost"
)

func TestTokenEnvName(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ host, want string }{
		"hcp":    {"app.terraform.io", "TF_TOKEN_app_terraform_io"},
		"dashes": {"my-tfe.example.com", "TF_TOKEN_my__tfe_example_com"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := tokenEnvName(tc.host); got != tc.want {
				t.Errorf("tokenEnvName(%q) = %q, want %q", tc.host, got, tc.want)
			}
		})
	}
}

func TestTokenFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TF_CLI_CONFIG_DIR", dir)
	t.Setenv("TF_TOKEN_tfe_example_com", "")

	if tok, err := tokenFromEnvironment("tfe.example.com"); err != nil || tok != "" {
		t.Fatalf("no file: got %q, %v", tok, err)
	}
	creds := `{"credentials":{"TFE.example.com":{"token":"from-file"},"other.example.com":{"token":"nope"}}}`
	if err := os.WriteFile(filepath.Join(dir, "credentials.tfrc.json"), []byte(creds), 0o600); err != nil {
		t.Fatal(err)
	}
	if tok, err := tokenFromEnvironment("tfe.example.com"); err != nil || tok != "from-file" {
		t.Fatalf("file: got %q, %v", tok, err)
	}
	t.Setenv("TF_TOKEN_tfe_example_com", "from-env")
	if tok, err := tokenFromEnvironment("tfe.example.com"); err != nil || tok != "from-env" {
		t.Fatalf("env wins: got %q, %v", tok, err)
	}
	t.Setenv("TF_TOKEN_tfe_example_com", "")
	if err := os.WriteFile(filepath.Join(dir, "credentials.tfrc.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := tokenFromEnvironment("tfe.example.com"); err == nil {
		t.Fatal("a broken credentials file should be an error")
	}
}

func TestTokenFromEnvVars(t *testing.T) {
	t.Parallel()
	environ := []string{
		"PATH=/bin",
		"TF_TOKEN_app_terraform_io=hcp",
		"TF_TOKEN_my__tfe_Example_com=dashes",
		"TF_TOKEN_localhost:8443=with-port",
		"TF_TOKEN_empty_example=",
		"TF_TOKEN_=nothing",
	}
	tests := map[string]struct{ host, want string }{
		"dots":                    {"app.terraform.io", "hcp"},
		"case and dashes":         {"my-tfe.example.com", "dashes"},
		"default port folded":     {"app.terraform.io:443", "hcp"},
		"port":                    {"localhost:8443", "with-port"},
		"port must match":         {"localhost:9443", ""},
		"empty value is no token": {"empty.example", ""},
		"unknown":                 {"other.example", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			host, err := svchost.ForComparison(tc.host)
			if err != nil {
				t.Fatal(err)
			}
			if got := tokenFromEnvVars(environ, host); got != tc.want {
				t.Errorf("tokenFromEnvVars(%s) = %q, want %q", tc.host, got, tc.want)
			}
		})
	}
}
