package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// testAccAddress is the API address the acceptance tests use.
func testAccAddress() string {
	return cmp.Or(os.Getenv("TFE_ADDRESS"), "https://"+cmp.Or(os.Getenv("TFE_HOSTNAME"), defaultHostname))
}

// TestAccProviderConfigure_wrongToken: a token the service refuses fails
// when the provider is configured (at plan, before any write), naming the
// source the token came from and how to fix it, for each of the five
// sources. Not parallel: it sets the provider's environment.
func TestAccProviderConfigure_wrongToken(t *testing.T) {
	testAccPreCheck(t)
	u, err := url.Parse(testAccAddress())
	if err != nil {
		t.Fatal(err)
	}
	// The host as Terraform CLI names it in credentials: with its port
	// unless 443 (a TFE on another port is real; the sandbox has one).
	host := u.Host
	envName := tfeclient.TokenEnvName(host)
	home := t.TempDir()
	cliDir := filepath.Join(home, ".terraform.d")
	creds := fmt.Sprintf(`{"credentials":{%q:{"token":"wrong-from-file"}}}`, host)
	if err := os.Mkdir(cliDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cliDir, "credentials.tfrc.json"), []byte(creds), 0o600); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(t.TempDir(), "ci.tfrc")
	if err := os.WriteFile(cliConfig, []byte(fmt.Sprintf("credentials %q {\n  token = \"wrong-from-block\"\n}\n", host)), 0o600); err != nil {
		t.Fatal(err)
	}
	const data = `
data "tfgov_policies" "test" {}
`
	good := os.Getenv("TFE_TOKEN")
	tests := []struct {
		name, provider string
		env            map[string]string
		want           string
	}{
		{"attribute", `provider "tfgov" { token = "wrong-attribute" }`, nil,
			`Error: Invalid API token.*with provider\["registry.terraform.io/hashicorp/tfgov"\].*refused the API token from the provider's token attribute \(401 Unauthorized\).*Set the token attribute to a valid API token`},
		{"TFE_TOKEN", "", map[string]string{"TFE_TOKEN": "wrong-env"},
			`Invalid API token.*refused the API token from the TFE_TOKEN environment variable.*Export TFE_TOKEN with a valid API token`},
		{"TF_TOKEN_host", "", map[string]string{"TFE_TOKEN": "", envName: "wrong-host-env"},
			`Invalid API token.*from the ` + envName + ` environment variable.*Export ` + envName + ` with a valid API token, or unset it and run .terraform login ` + regexp.QuoteMeta(host)},
		{"CLI configuration block", "", map[string]string{"TFE_TOKEN": "", envName: "", "HOME": t.TempDir(), "TF_CLI_CONFIG_FILE": cliConfig},
			`Invalid API token.*from the credentials "` + regexp.QuoteMeta(host) + `" block of the Terraform CLI configuration file ` + regexp.QuoteMeta(cliConfig) + `.*Put a valid API token in that block`},
		{"credentials file", "", map[string]string{"TFE_TOKEN": "", envName: "", "HOME": home, "TF_CLI_CONFIG_FILE": ""},
			`Invalid API token.*from the credentials file ` + regexp.QuoteMeta(filepath.Join(cliDir, "credentials.tfrc.json")) + ` \(written by .terraform login.\).*run .terraform login ` + regexp.QuoteMeta(host)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TFE_TOKEN", good)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			accTest(t, resource.TestCase{
				PreCheck: func() {}, // testAccPreCheck ran first; the token may be cleared on purpose
				Steps: []resource.TestStep{{
					Config:      tc.provider + data,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// TestAccProviderConfigure_cliConfigCredentials: with neither `token`,
// TFE_TOKEN nor TF_TOKEN_<host>, a credentials block of the Terraform CLI
// configuration (the file named by TF_CLI_CONFIG_FILE, as in CI, and
// ~/.terraformrc) authenticates: the plan reads the service. Not parallel:
// it sets the provider's environment.
func TestAccProviderConfigure_cliConfigCredentials(t *testing.T) {
	testAccPreCheck(t)
	u, err := url.Parse(testAccAddress())
	if err != nil {
		t.Fatal(err)
	}
	host, good := u.Host, os.Getenv("TFE_TOKEN")
	block := fmt.Sprintf("credentials %q {\n  token = %q\n}\n", host, good)
	ciFile := filepath.Join(t.TempDir(), "ci.tfrc")
	if err := os.WriteFile(ciFile, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	rcHome := t.TempDir()
	if err := os.WriteFile(filepath.Join(rcHome, ".terraformrc"), []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, env := range map[string]map[string]string{
		"TF_CLI_CONFIG_FILE": {"HOME": t.TempDir(), "TF_CLI_CONFIG_FILE": ciFile},
		"~/.terraformrc":     {"HOME": rcHome, "TF_CLI_CONFIG_FILE": ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("TFE_TOKEN", "")
			t.Setenv(tfeclient.TokenEnvName(host), "")
			for k, v := range env {
				t.Setenv(k, v)
			}
			accTest(t, resource.TestCase{
				PreCheck: func() {}, // testAccPreCheck ran first; TFE_TOKEN is cleared on purpose
				Steps: []resource.TestStep{{
					Config: `data "tfgov_policies" "test" {}`,
					Check:  resource.TestCheckResourceAttrSet("data.tfgov_policies.test", "id"),
				}},
			})
		})
	}
}

// TestAccCheckToken_tokenKinds: the token check accepts a user, a team and
// an organization token, and refuses an unknown one: one request each.
func TestAccCheckToken_tokenKinds(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	team := testAccTeam(t, nil)
	tokens := map[string]string{"user": os.Getenv("TFE_TOKEN"), "team": testAccTeamToken(t, team.ID), "unknown": "not-a-token"}
	if testAccSandbox() != nil {
		// Regenerating the organization's token would break a live
		// organization's own automation; on the sandbox it is free.
		orgToken, err := c.OrganizationTokens.Create(ctx, testAccOrganization())
		if err != nil {
			t.Fatalf("organization token: %v", err)
		}
		tokens["organization"] = orgToken.Token
	}
	for kind, tok := range tokens {
		t.Run(kind, func(t *testing.T) {
			client, err := tfe.NewClient(&tfe.Config{Address: testAccAddress(), Token: tok})
			if err != nil {
				t.Fatal(err)
			}
			var diags diag.Diagnostics
			before := 0
			if sb := testAccSandbox(); sb != nil {
				before = sb.RequestsTo("GET", "/api/v2/account/details")
			}
			_, _ = checkToken(ctx, client, tfeclient.TokenSource{Name: "test", Fix: "fix it"}, testAccAddress(), &diags)
			if got, want := diags.HasError(), kind == "unknown"; got != want {
				t.Errorf("%s token: error %v, want %v (%v)", kind, got, want, diags)
			}
			if sb := testAccSandbox(); sb != nil {
				if n := sb.RequestsTo("GET", "/api/v2/account/details") - before; n != 1 {
					t.Errorf("%s token: %d requests, want 1", kind, n)
				}
			}
		})
	}
}

// TestTokenUser_readAgain: a token check that failed at configure (a 429 past the retries, a 5xx)
// leaves the user unknown, not absent: the first proof that needs it reads it again, and fails
// naming the read while the service still fails; a token that names no user is nil either way.
func TestTokenUser_readAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, c := ownSandbox(t, sandbox.Options{}, "who-org")
	owners, err := c.Teams.List(ctx, "who-org", &tfe.TeamListOptions{Names: []string{"owners"}})
	if err != nil || len(owners.Items) != 1 {
		t.Fatal(owners, err)
	}
	tt, err := c.TeamTokens.Create(ctx, owners.Items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	team, err := tfe.NewClient(&tfe.Config{Address: sb.address, Token: tt.Token})
	if err != nil {
		t.Fatal(err)
	}
	failed := errors.New("503 at configure")

	u := tokenUser{err: failed}
	if err := sb.srv.InjectFault(sandbox.Fault{Route: "GET /api/v2/account/details", Status: 503, Count: 1}); err != nil {
		t.Fatal(err)
	}
	if got, err := u.get(ctx, c); got != nil || err == nil || !strings.Contains(err.Error(), "GET /api/v2/account/details") {
		t.Fatalf("the service failing again: %v, %v; want an error naming the read", got, err)
	}
	if got, err := u.get(ctx, c); err != nil || got == nil || got.ID == "" {
		t.Fatalf("the service answering: %v, %v; want the owner", got, err)
	}
	before := sb.srv.RequestsTo("GET", "/api/v2/account/details")
	if got, err := u.get(ctx, c); err != nil || got == nil || sb.srv.RequestsTo("GET", "/api/v2/account/details") != before {
		t.Fatalf("known: %v, %v; want it without a request", got, err)
	}

	tu := tokenUser{err: failed}
	if got, err := tu.get(ctx, team); got != nil || err != nil {
		t.Fatalf("a team token: %v, %v; want no user", got, err)
	}
	if got, err := (&tokenUser{}).get(ctx, c); got != nil || err != nil {
		t.Fatalf("no user at configure: %v, %v; want no user, no request", got, err)
	}
}
