package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestRun_tls starts the command with --tls, and uses what it prints: the
// certificate file it wrote as the only trusted root, and TFE_HOSTNAME and
// TFE_TOKEN through go-tfe over https.
func TestRun_tls(t *testing.T) {
	certOut := filepath.Join(t.TempDir(), "sandbox.pem")
	env, stop := startRun(t, []string{"--listen", "127.0.0.1:0", "--tls", "--tls-cert-out", certOut, "--seed", "demo", "--quiet"},
		func(line string, _ map[string]string) bool {
			return strings.Contains(line, "TF_TOKEN_<host> cannot name port")
		})
	if env["TFE_ADDRESS"] != "" || env["SSL_CERT_FILE"] != certOut || !strings.HasPrefix(env["TFE_HOSTNAME"], "127.0.0.1:") {
		t.Fatalf("exports %v", env)
	}
	pem, err := os.ReadFile(certOut)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("%s holds no certificate", certOut)
	}
	httpClient := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	c, err := tfe.NewClient(&tfe.Config{Address: "https://" + env["TFE_HOSTNAME"], Token: env["TFE_TOKEN"], HTTPClient: httpClient})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AgentPools.Read(context.Background(), env["TF_VAR_agent_pool_id"]); err != nil {
		t.Fatalf("reading the seeded pool over https: %v", err)
	}
	stop()
}

func TestRun_badTLSFlags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for args, want := range map[string]string{
		"--tls-cert-out x.pem":     "--tls-cert-out needs --tls",
		"--tls-cert c.pem":         "--tls-cert and --tls-key go together",
		"--tls-cert c --tls-key k": "loading --tls-cert/--tls-key",
	} {
		err := run(ctx, append(strings.Fields(args), "--listen", "127.0.0.1:0"), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

func TestWriteTLSExports_port443(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	writeTLSExports(&out, fakeAddr("0.0.0.0:443"), "", "tok")
	for _, want := range []string{"export TFE_HOSTNAME=localhost\n", "export TF_TOKEN_localhost=tok\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
	out.Reset()
	writeTLSExports(&out, fakeAddr("my-host.example:443"), "", "tok")
	if !strings.Contains(out.String(), "export TF_TOKEN_my__host_example=tok\n") {
		t.Errorf("got\n%s", out.String())
	}
}

type fakeAddr string

func (a fakeAddr) Network() string { return "tcp" }
func (a fakeAddr) String() string  { return string(a) }
