package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// accTLSCert is the certificate of the HTTPS sandboxes the hostname tests
// start; TestMain makes it and trusts it through SSL_CERT_FILE.
var accTLSCert *tls.Certificate

// trustAccCertificate makes a self-signed certificate and trusts it as a
// user of `tfgov-sandbox --tls` does: SSL_CERT_FILE names its PEM file. Go
// reads that variable once, at the first TLS connection, so TestMain calls
// this before any. It returns the clean-up.
func trustAccCertificate() (func(), error) {
	cert, certPEM, err := sandbox.SelfSignedCertificate()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tfgov-acc-tls")
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "sandbox.pem")
	if err := os.WriteFile(file, certPEM, 0o600); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	if err := os.Setenv("SSL_CERT_FILE", file); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	accTLSCert = &cert
	return func() { _ = os.RemoveAll(dir) }, nil
}

// startHTTPSSandbox starts a sandbox serving HTTPS with cert and an
// organization in it, made through go-tfe with httpClient (nil: the
// default, which trusts SSL_CERT_FILE); it returns the sandbox, its hostname
// (host:port) and the owner's token.
func startHTTPSSandbox(t *testing.T, cert tls.Certificate, org string, httpClient *http.Client) (*sandbox.Instance, string, string) {
	t.Helper()
	inst := sandbox.StartWithOptions(t, sandbox.Options{TLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	token, err := bootstrapOrganization(inst.URL, inst.Token, org, httpClient)
	if err != nil {
		t.Fatalf("bootstrapping %s over https: %v", org, err)
	}
	return inst, strings.TrimPrefix(inst.URL, "https://"), token
}

// useHostnameOnly clears what would take precedence over `hostname` or the
// token under test: TFE_ADDRESS and TFE_TOKEN, which TestMain sets for the
// other tests. Tests calling it cannot run in parallel.
func useHostnameOnly(t *testing.T) {
	t.Setenv("TFE_ADDRESS", "")
	t.Setenv("TFE_TOKEN", "")
	t.Setenv("HOME", t.TempDir()) // no CLI configuration, no credentials file
	t.Setenv("TF_CLI_CONFIG_FILE", "")
}

func testAccHostnamePolicyConfig(hostname, org, name, level, extra string) string {
	return fmt.Sprintf(`provider "tfgov" {
  hostname     = %[1]q
  organization = %[2]q
%[5]s}

resource "tfgov_policy" "test" {
  name              = %[3]q
  enforcement_level = %[4]q
}
`, hostname, org, name, level, extra)
}

// TestAccProviderHostname_https runs a tfgov_policy through create, import,
// update and destroy with only `hostname` set: the provider finds the API by
// service discovery over HTTPS, trusts the sandbox's certificate through
// SSL_CERT_FILE and takes its token from TF_TOKEN_<host>, as Terraform CLI
// encodes it (the port, which a shell cannot write in a variable name, is
// set here as env(1) would).
func TestAccProviderHostname_https(t *testing.T) {
	if testAccSandbox() == nil {
		t.Skip("needs the in-process sandbox: it starts a second one serving HTTPS")
	}
	const org = "tfgov-https"
	inst, hostname, token := startHTTPSSandbox(t, *accTLSCert, org, nil)
	useHostnameOnly(t)
	t.Setenv("TF_TOKEN_"+strings.ReplaceAll(hostname, ".", "_"), token)
	owner, err := tfe.NewClient(&tfe.Config{Address: inst.URL, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	name := testAccName("https")
	var policyID string
	onServer := func(level string) statecheck.StateCheck {
		return stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
			id, err := stateID(s, policyAddr)
			if err != nil {
				return err
			}
			p, err := owner.Policies.Read(ctx, id)
			if err != nil {
				return fmt.Errorf("reading %s from the HTTPS sandbox: %w", id, err)
			}
			if string(p.EnforcementLevel) != level {
				return fmt.Errorf("enforcement level %s on the server, want %s", p.EnforcementLevel, level)
			}
			policyID = id
			return nil
		})
	}
	accTest(t, resource.TestCase{
		PreCheck: func() {}, // a sandbox of its own: TFE_TOKEN and TFE_ADDRESS are cleared on purpose
		CheckDestroy: func(*terraform.State) error {
			_, err := owner.Policies.Read(context.Background(), policyID)
			switch {
			case err == nil:
				return fmt.Errorf("policy %s still exists after destroy", policyID)
			case !errors.Is(err, tfe.ErrResourceNotFound):
				return fmt.Errorf("reading policy %s after destroy: %w", policyID, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: testAccHostnamePolicyConfig(hostname, org, name, "advisory", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("organization"), knownvalue.StringExact(org)),
					onServer("advisory"),
				},
			},
			{ResourceName: policyAddr, ImportState: true, ImportStateVerify: true, Config: testAccHostnamePolicyConfig(hostname, org, name, "advisory", "")},
			{
				Config:            testAccHostnamePolicyConfig(hostname, org, name, "hard-mandatory", ""),
				ConfigPlanChecks:  expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{onServer("hard-mandatory")},
			},
		},
	})
	n := inst.Server.Stats()["GET /.well-known/terraform.json"]
	t.Logf("%d discovery requests for %d API requests over HTTPS", n, sumStats(inst.Server.Stats()))
	if n == 0 {
		t.Error("the provider reached the HTTPS sandbox without service discovery")
	}
	if n := testAccSandbox().RequestsTo("GET", "/api/v2/policies/"+policyID); n != 0 {
		t.Errorf("%d requests for the policy went to the plain-HTTP sandbox of TFE_ADDRESS", n)
	}
}

// TestAccProviderHostname_errors: `hostname` on a server whose certificate
// is not trusted fails with an error that says so, and works with
// ssl_skip_verify; on a plain-HTTP server it fails saying that HTTPS is
// required and `address` is the way to a plain-HTTP endpoint; an http://
// `address` of an HTTPS server says to use https://; a `hostname` whose port
// nothing listens on says to check the port.
func TestAccProviderHostname_errors(t *testing.T) {
	if testAccSandbox() == nil {
		t.Skip("needs the in-process sandbox: it starts a second one serving HTTPS")
	}
	untrusted, untrustedPEM, err := sandbox.SelfSignedCertificate()
	if err != nil {
		t.Fatal(err)
	}
	const org = "tfgov-untrusted"
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(untrustedPEM)
	_, hostname, token := startHTTPSSandbox(t, untrusted, org, &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}})
	plainHost := strings.TrimPrefix(os.Getenv("TFE_ADDRESS"), "http://")
	closed, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedHost := closed.Addr().String()
	closed.Close()
	useHostnameOnly(t)
	t.Setenv("TFE_TOKEN", token)
	name := testAccName("untrusted")
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      testAccHostnamePolicyConfig(hostname, org, name, "advisory", ""),
				ExpectError: wrappedRE(`Unable to find the API of.*TLS\s+certificate\s+is\s+not\s+trusted.*SSL_CERT_FILE`),
			},
			{
				Config:      testAccHostnamePolicyConfig(plainHost, org, name, "advisory", ""),
				ExpectError: wrappedRE(`server\s+does\s+not\s+speak\s+HTTPS.*TFE_ADDRESS`),
			},
			// address = "http://..." of an HTTPS server: says to use https://,
			// not go-tfe's bare "400 Bad Request".
			{
				Config:      testAccHostnamePolicyConfig(hostname, org, name, "advisory", fmt.Sprintf("  address = %q\n", "http://"+hostname)),
				ExpectError: wrappedRE(`the\s+server\s+speaks\s+HTTPS,\s+not\s+plain\s+HTTP.*address.*https://` + regexp.QuoteMeta(hostname)),
			},
			// A port nothing listens on: names `hostname` and the port, not
			// the discovery client's "giving up after 4 attempt(s)".
			{
				Config:      testAccHostnamePolicyConfig(closedHost, org, name, "advisory", ""),
				ExpectError: wrappedRE(`Unable to find the API of.*.hostname.\s+"` + regexp.QuoteMeta(closedHost) + `":\s+nothing\s+accepted\s+an\s+HTTPS\s+connection.*port`),
			},
			{
				Config: testAccHostnamePolicyConfig(hostname, org, name, "advisory", "  ssl_skip_verify = true\n"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("advisory")),
				},
			},
		},
	})
}

func sumStats(stats map[string]int) int {
	total := 0
	for _, n := range stats {
		total += n
	}
	return total
}
