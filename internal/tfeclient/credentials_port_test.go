package tfeclient

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestFindToken_credentialsPort: a CLI `credentials` block, or an entry of
// `terraform login`'s file, belongs to one host and port, as Terraform
// matches it: `host:8443` never serves `host`, `host` never serves
// `host:8443` (nor `localhost` `localhost:8443`), and only the default port
// 443 is the same as none. Not parallel: it sets the environment.
func TestFindToken_credentialsPort(t *testing.T) {
	block := func(h, tok string) string { return fmt.Sprintf("credentials %q {\n  token = %q\n}\n", h, tok) }
	login := func(h, tok string) string { return fmt.Sprintf(`{"credentials":{%q:{"token":%q}}}`, h, tok) }
	tests := map[string]struct {
		host  string
		rc    string // ~/.terraformrc
		login string // ~/.terraform.d/credentials.tfrc.json
		want  string
	}{
		"port block, host without port":      {host: "tfe.example.com", rc: block("tfe.example.com:8443", "port")},
		"host block, host with port":         {host: "tfe.example.com:8443", rc: block("tfe.example.com", "plain")},
		"localhost block, localhost:8443":    {host: "localhost:8443", rc: block("localhost", "plain")},
		"localhost:8443 block, localhost":    {host: "localhost", rc: block("localhost:8443", "port")},
		"other port":                         {host: "localhost:9443", rc: block("localhost:8443", "port")},
		"each its own: with port":            {host: "tfe.example.com:8443", rc: block("tfe.example.com", "plain") + block("tfe.example.com:8443", "port"), want: "port"},
		"each its own: without port":         {host: "tfe.example.com", rc: block("tfe.example.com:8443", "port") + block("tfe.example.com", "plain"), want: "plain"},
		"default port is none":               {host: "tfe.example.com:443", rc: block("tfe.example.com", "plain"), want: "plain"},
		"none is the default port":           {host: "tfe.example.com", rc: block("tfe.example.com:443", "p443"), want: "p443"},
		"login file: port entry, no port":    {host: "localhost", login: login("localhost:8443", "port")},
		"login file: plain entry, with port": {host: "localhost:8443", login: login("localhost", "plain")},
		"login file: port entry, same port":  {host: "localhost:8443", login: login("localhost:8443", "port"), want: "port"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			for _, k := range []string{"TFE_TOKEN", "TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "TF_TOKEN_localhost", "TF_TOKEN_tfe_example_com"} {
				t.Setenv(k, "")
			}
			for rel, content := range map[string]string{".terraformrc": tc.rc, ".terraform.d/credentials.tfrc.json": tc.login} {
				if content == "" {
					continue
				}
				p := filepath.Join(home, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			tok, src, _, err := FindToken("", tc.host)
			if err != nil {
				t.Fatal(err)
			}
			if tok != tc.want {
				t.Errorf("token for %s = %q (from %s), want %q", tc.host, tok, src.Name, tc.want)
			}
		})
	}
}
