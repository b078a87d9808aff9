package sandbox_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/go-cleanhttp"
	tfe "github.com/hashicorp/go-tfe"
	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/hashicorp/terraform-svchost/disco"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestTLSAndDiscovery starts the sandbox over HTTPS with a generated
// certificate and works against it as Terraform and hashicorp/tfe do: service
// discovery through svchost, then go-tfe at the discovered tfe.v2.2 address,
// trusting only that certificate. One-time upload addresses are https too.
func TestTLSAndDiscovery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cert, certPEM, err := sandbox.SelfSignedCertificate("sandbox.example.test")
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"127.0.0.1", "::1", "localhost", "sandbox.example.test"} {
		if err := leaf.VerifyHostname(h); err != nil {
			t.Errorf("certificate not valid for %s: %v", h, err)
		}
	}
	inst := sandbox.StartWithOptions(t, sandbox.Options{TLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	if !strings.HasPrefix(inst.URL, "https://") {
		t.Fatalf("URL %s, want https", inst.URL)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(certPEM) {
		t.Fatal("the PEM holds no certificate")
	}
	transport := cleanhttp.DefaultPooledTransport()
	transport.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}

	u, _ := url.Parse(inst.URL)
	host, err := svchost.ForComparison(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	services := disco.New()
	services.Transport = transport
	h, err := services.Discover(host)
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	for _, id := range []string{"tfe.v2", "tfe.v2.1", "tfe.v2.2"} {
		got, err := h.ServiceURL(id)
		if err != nil || got.String() != inst.URL+"/api/v2/" {
			t.Errorf("%s: %v, %v; want %s/api/v2/", id, got, err, inst.URL)
		}
	}
	if _, err := h.ServiceURL("modules.v1"); err == nil {
		t.Error("modules.v1 advertised, but the sandbox serves no module registry protocol")
	}
	api, _ := h.ServiceURL("tfe.v2.2")

	newClient := func(token string, tr http.RoundTripper) (*tfe.Client, error) {
		return tfe.NewClient(&tfe.Config{Address: api.Scheme + "://" + api.Host, BasePath: api.Path, Token: token,
			HTTPClient: &http.Client{Transport: tr}})
	}
	if _, err := newClient(inst.Token, cleanhttp.DefaultPooledTransport()); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client that does not trust the certificate: %v, want a certificate error", err)
	}
	admin, err := newClient(inst.Token, transport)
	if err != nil {
		t.Fatal(err)
	}
	const org = "tls-org"
	if _, err := admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(org), Email: tfe.String("owner@tls.test")}); err != nil {
		t.Fatal(err)
	}
	ms, err := admin.OrganizationMemberships.List(ctx, org, nil)
	if err != nil || len(ms.Items) != 1 {
		t.Fatalf("memberships: %v, %v", ms, err)
	}
	tok, err := admin.UserTokens.Create(ctx, ms.Items[0].User.ID, tfe.UserTokenCreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	owner, err := newClient(tok.Token, transport)
	if err != nil {
		t.Fatal(err)
	}
	id := tfe.RegistryModuleID{Organization: org, Name: "vpc", Provider: "aws", Namespace: org, RegistryName: tfe.PrivateRegistry}
	if _, err := owner.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: &id.Name, Provider: &id.Provider, RegistryName: tfe.PrivateRegistry}); err != nil {
		t.Fatal(err)
	}
	v, err := owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")})
	if err != nil {
		t.Fatal(err)
	}
	upload, _ := v.Links["upload"].(string)
	if !strings.HasPrefix(upload, "https://127.0.0.1:") || strings.HasPrefix(upload, inst.URL) {
		t.Fatalf("upload address %q, want https on the upload listener", upload)
	}
	if err := owner.RegistryModules.UploadTarGzip(ctx, upload, bytes.NewReader(tarGz(t, map[string]string{"main.tf": "# vpc"}))); err != nil {
		t.Fatalf("upload over https: %v", err)
	}
	if got, err := owner.RegistryModules.ReadVersion(ctx, id, "1.0.0"); err != nil || got.Status != tfe.RegistryModuleVersionStatusOk {
		t.Errorf("version after upload: %+v, %v", got, err)
	}
	if n := inst.Server.Stats()["GET /.well-known/terraform.json"]; n != 1 {
		t.Errorf("%d discovery requests, want 1", n)
	}
}

// TestDiscoveryOverHTTP: the document is served without a token on a
// plain-HTTP sandbox too (for tools that fetch it themselves), as JSON.
func TestDiscoveryOverHTTP(t *testing.T) {
	t.Parallel()
	inst := sandbox.Start(t)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, inst.URL+"/.well-known/terraform.json", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	_, _ = body.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" ||
		!strings.Contains(body.String(), `"tfe.v2.2":"/api/v2/"`) {
		t.Errorf("%d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body.String())
	}
}
