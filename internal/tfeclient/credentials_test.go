package tfeclient

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
			if got := TokenEnvName(tc.host); got != tc.want {
				t.Errorf("TokenEnvName(%q) = %q, want %q", tc.host, got, tc.want)
			}
		})
	}
}

// TestFindToken: the token is taken from the first of Terraform's places
// that has one, in the documented order, and a missing token lists every
// place looked at, with its path. Not parallel: it sets the environment.
func TestFindToken(t *testing.T) {
	const host = "tfe.example.com"
	devOverrides := `provider_installation {
  dev_overrides {
    "registry.terraform.io/tfgov/tfgov" = "/tmp/bin"
  }
  direct {}
}
`
	block := func(h, tok string) string { return fmt.Sprintf("credentials %q {\n  token = %q\n}\n", h, tok) }
	login := func(h, tok string) string { return fmt.Sprintf(`{"credentials":{%q:{"token":%q}}}`, h, tok) }
	tests := []struct {
		name  string
		attr  string
		env   map[string]string // values may use $HOME, the test's home directory
		files map[string]string // paths relative to the home directory
		want  string            // the token; "" for none
		src   string            // regexp the source's name matches
		err   string            // regexp of an error
	}{
		{name: "attribute first", attr: "a", env: map[string]string{"TFE_TOKEN": "e", "TF_TOKEN_tfe_example_com": "h"},
			files: map[string]string{".terraformrc": block(host, "b")}, want: "a", src: "token attribute"},
		{name: "TFE_TOKEN before TF_TOKEN_", env: map[string]string{"TFE_TOKEN": "e", "TF_TOKEN_tfe_example_com": "h"}, want: "e", src: "TFE_TOKEN"},
		{name: "TF_TOKEN_ before a credentials block", env: map[string]string{"TF_TOKEN_TFE_example_com": "h"},
			files: map[string]string{".terraformrc": block(host, "b")}, want: "h", src: "TF_TOKEN_TFE_example_com environment variable"},
		{name: "block in ~/.terraformrc", files: map[string]string{".terraformrc": devOverrides + block("TFE.example.com:443", "b")},
			want: "b", src: `credentials "tfe.example.com" block of the Terraform CLI configuration file .*/\.terraformrc$`},
		{name: "block before the login file", files: map[string]string{
			".terraformrc": block(host, "b"), ".terraform.d/credentials.tfrc.json": login(host, "l")}, want: "b", src: `\.terraformrc$`},
		{name: "TF_CLI_CONFIG_FILE replaces ~/.terraformrc", env: map[string]string{"TF_CLI_CONFIG_FILE": "$HOME/ci/tf.rc"},
			files: map[string]string{".terraformrc": block(host, "home"), "ci/tf.rc": devOverrides + block(host, "ci")}, want: "ci", src: `/ci/tf\.rc$`},
		{name: "TERRAFORM_CONFIG", env: map[string]string{"TERRAFORM_CONFIG": "$HOME/old.rc"},
			files: map[string]string{"old.rc": block(host, "old")}, want: "old", src: `/old\.rc$`},
		{name: "config directory overrides the main file", files: map[string]string{
			".terraformrc": block(host, "main"), ".terraform.d/a.tfrc": block(host, "a"), ".terraform.d/b.tfrc.json": login(host, "b"),
			".terraform.d/other.txt": block(host, "not a tfrc")}, want: "b", src: `\.terraform\.d/b\.tfrc\.json$`},
		{name: "config directory not read when TF_CLI_CONFIG_FILE is set", env: map[string]string{"TF_CLI_CONFIG_FILE": "$HOME/dev.tfrc"},
			files: map[string]string{"dev.tfrc": devOverrides, ".terraform.d/ci.tfrc": block(host, "dir"), ".terraform.d/credentials.tfrc.json": login(host, "l")},
			want:  "l", src: `credentials file .*credentials\.tfrc\.json \(written by .terraform login.\)`},
		{name: "login file for another host", files: map[string]string{".terraform.d/credentials.tfrc.json": login("other.example.com", "x") + "\n"}, want: ""},
		{name: "login file for the host", files: map[string]string{".terraform.d/credentials.tfrc.json": `{"credentials":{"other.example.com":{"token":"x"},"TFE.EXAMPLE.COM":{"token":"l"}}}`},
			want: "l", src: "credentials.tfrc.json"},
		{name: "broken CLI configuration", files: map[string]string{".terraformrc": "credentials {"}, err: `parsing the Terraform CLI configuration file .*/\.terraformrc`},
		{name: "broken login file", files: map[string]string{".terraform.d/credentials.tfrc.json": `{"credentials": {"tfe.example.com": {"token": }}}`}, err: `credentials\.tfrc\.json`},
		{name: "block without a token", files: map[string]string{".terraformrc": fmt.Sprintf("credentials %q {}\n", host)}, err: `has no token`},
		{name: "nothing anywhere", files: map[string]string{".terraformrc": devOverrides}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			for _, k := range []string{"TFE_TOKEN", "TF_TOKEN_tfe_example_com", "TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"} {
				t.Setenv(k, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, strings.ReplaceAll(v, "$HOME", home))
			}
			for rel, content := range tc.files {
				p := filepath.Join(home, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			tok, src, looked, err := FindToken(tc.attr, host)
			if tc.err != "" {
				if err == nil || !regexp.MustCompile(tc.err).MatchString(err.Error()) {
					t.Fatalf("error = %v, want one matching %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tok != tc.want {
				t.Fatalf("token = %q, want %q (from %s)", tok, tc.want, src.Name)
			}
			if tc.want != "" {
				if !regexp.MustCompile(tc.src).MatchString(src.Name) {
					t.Errorf("source = %q, want one matching %s", src.Name, tc.src)
				}
				return
			}
			// No token: the error names every place, with its path.
			detail := MissingTokenDetail(host, looked)
			for _, want := range []string{
				"token attribute: not set", "TFE_TOKEN environment variable: not set", "TF_TOKEN_tfe_example_com environment variable: not set",
				`a credentials "tfe.example.com" block in the CLI configuration file ` + filepath.Join(home, ".terraformrc"),
				filepath.Join(home, ".terraform.d"),
				"the credentials file of `terraform login` " + filepath.Join(home, ".terraform.d", "credentials.tfrc.json"),
				"terraform login tfe.example.com",
			} {
				if !strings.Contains(detail, want) {
					t.Errorf("the error does not name %q:\n%s", want, detail)
				}
			}
		})
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
			if got, _ := tokenFromEnvVars(environ, host); got != tc.want {
				t.Errorf("tokenFromEnvVars(%s) = %q, want %q", tc.host, got, tc.want)
			}
		})
	}
}

// TestMissingTokenDetail_port: for a host with a port (a sandbox on
// 127.0.0.1:18443) a missing token's error suggests no TF_TOKEN_ variable,
// which no shell can export, but TFE_TOKEN and a credentials block. Not
// parallel: it sets the environment.
func TestMissingTokenDetail_port(t *testing.T) {
	for host, wantEnv := range map[string]bool{"127.0.0.1:18443": false, "localhost:8443": false, "tfe.example.com": true, "tfe.example.com:443": true} {
		t.Run(host, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir())
			for _, k := range []string{"TFE_TOKEN", "TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"} {
				t.Setenv(k, "")
			}
			tok, _, looked, err := FindToken("", host)
			if err != nil || tok != "" {
				t.Fatalf("FindToken = %q, %v; want no token", tok, err)
			}
			detail := MissingTokenDetail(host, looked)
			if regexp.MustCompile(`TF_TOKEN_\w+:\d+`).MatchString(detail) || (!wantEnv && strings.Contains(detail, "export TF_TOKEN_")) {
				t.Errorf("the error suggests a TF_TOKEN_ variable with a port:\n%s", detail)
			}
			if got := strings.Contains(detail, "export TF_TOKEN_tfe_example_com,"); got != wantEnv {
				t.Errorf("the error suggests export TF_TOKEN_tfe_example_com: %v, want %v:\n%s", got, wantEnv, detail)
			}
			for _, w := range []string{"TFE_TOKEN", `credentials "` + host + `" { token = "..." }`} {
				if !strings.Contains(detail, w) {
					t.Errorf("the error lacks %q:\n%s", w, detail)
				}
			}
		})
	}
}
