package provider

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/hashicorp/terraform-svchost/disco"
)

// tfeServiceIDs are the discovery services that name the API, newest
// first: hashicorp/tfe asks for tfe.v2.2, Terraform CLI's cloud block for
// tfe.v2; every HCP Terraform and Terraform Enterprise release serves at
// least one, at the same base path.
var tfeServiceIDs = []string{"tfe.v2.2", "tfe.v2.1", "tfe.v2"}

// discoverAPI resolves hostname (a hostname with an optional port) to the
// API's base URL the way Terraform CLI and hashicorp/tfe do: svchost reads
// https://<hostname>/.well-known/terraform.json through transport (so
// ssl_skip_verify applies) and the first of tfeServiceIDs it lists is the
// API, which on Terraform Enterprise may have another base path than
// /api/v2/. The errors say what to do: trust the certificate, use
// `address` for a plain-HTTP endpoint, or point at a service that is HCP
// Terraform or Terraform Enterprise.
func discoverAPI(hostname string, transport http.RoundTripper) (*url.URL, error) {
	host, err := svchost.ForComparison(hostname)
	if err != nil {
		return nil, fmt.Errorf("hostname %q is not a valid hostname (with an optional port): %w", hostname, err)
	}
	services := disco.New()
	services.Transport = transport
	discoURL := "https://" + host.String() + "/.well-known/terraform.json"
	h, err := services.Discover(host)
	if err != nil {
		return nil, discoveryError(discoURL, err)
	}
	for _, id := range tfeServiceIDs {
		u, err := h.ServiceURL(id)
		if err != nil {
			continue
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		return u, nil
	}
	return nil, fmt.Errorf("%s is not HCP Terraform or Terraform Enterprise: its service discovery document (%s) lists no %s service. Check the hostname",
		hostname, discoURL, strings.Join(tfeServiceIDs, ", "))
}

// discoveryError explains a failed discovery request.
func discoveryError(discoURL string, err error) error {
	var unknownAuthority x509.UnknownAuthorityError
	var hostnameErr x509.HostnameError
	var verifyErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	msg := err.Error()
	switch {
	case errors.As(err, &recordErr) || strings.Contains(msg, "server gave HTTP response to HTTPS client") ||
		strings.Contains(msg, "first record does not look like a TLS handshake"):
		return fmt.Errorf("service discovery at %s failed: the server does not speak HTTPS. `hostname` is always reached over HTTPS, as Terraform does; "+
			"for a plain-HTTP endpoint (such as tfgov-sandbox without --tls) set `address` (TFE_ADDRESS) to its http:// URL instead. Cause: %w", discoURL, err)
	case errors.As(err, &unknownAuthority) || errors.As(err, &hostnameErr) || errors.As(err, &verifyErr) || strings.Contains(msg, "x509:"):
		return fmt.Errorf("service discovery at %s failed: the server's TLS certificate is not trusted. Add its CA to the system's trusted certificates "+
			"(on Linux, SSL_CERT_FILE=<PEM file> for Terraform and the provider; tfgov-sandbox --tls prints that line), or set ssl_skip_verify (TFE_SSL_SKIP_VERIFY) for testing only. Cause: %w", discoURL, err)
	default:
		return fmt.Errorf("service discovery at %s failed: %w", discoURL, err)
	}
}
