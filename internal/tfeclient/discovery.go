package tfeclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	svchost "github.com/hashicorp/terraform-svchost"
	"github.com/hashicorp/terraform-svchost/disco"
)

// tfeServiceIDs name the API, newest first (DESIGN.md "The token and the endpoint").
var tfeServiceIDs = []string{"tfe.v2.2", "tfe.v2.1", "tfe.v2"}

// discoverAPI resolves hostname to the API's base URL as Terraform CLI does, through
// transport (so ssl_skip_verify applies); its errors say what to do.
func discoverAPI(hostname string, transport http.RoundTripper) (*url.URL, error) {
	api, _, err := discoverHost(hostname, transport)
	return api, err
}

// discoverHost is discoverAPI that also says whether the document lists
// SandboxServiceID, tfgov-sandbox's own entry.
func discoverHost(hostname string, transport http.RoundTripper) (*url.URL, bool, error) {
	host, err := svchost.ForComparison(hostname)
	if err != nil {
		return nil, false, fmt.Errorf("hostname %q is not a valid hostname (with an optional port): %w", hostname, err)
	}
	services := disco.New()
	// The discovery client reports a failed request as text: rec keeps the error itself.
	rec := &lastErrorTransport{next: transport}
	services.Transport = rec
	discoURL := "https://" + host.String() + "/.well-known/terraform.json"
	h, err := services.Discover(host)
	if err != nil {
		return nil, false, discoveryError(hostname, discoURL, err, rec.last())
	}
	_, sbErr := h.ServiceURL(SandboxServiceID)
	for _, id := range tfeServiceIDs {
		u, err := h.ServiceURL(id)
		if err != nil {
			continue
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		return u, sbErr == nil, nil
	}
	return nil, false, fmt.Errorf("%s is not HCP Terraform or Terraform Enterprise: its service discovery document (%s) lists no %s service. Check the hostname",
		hostname, discoURL, strings.Join(tfeServiceIDs, ", "))
}

// SandboxServiceID is the entry of tfgov-sandbox's discovery document by which it says what it
// is (its value: the path of its own /_sandbox/ endpoints); sandbox_only requires it.
const SandboxServiceID = "tfgov-sandbox.v1"

// NotSandboxError: sandbox_only is set and Host did not say it is a tfgov sandbox.
type NotSandboxError struct {
	Host   string // as the provider reaches it: hostname, or address's host and port
	Reason string // what it answered instead
}

func (e *NotSandboxError) Error() string {
	return fmt.Sprintf("%s is not a tfgov sandbox: %s", e.Host, e.Reason)
}

// checkSandboxAt reads the discovery document of address (an http:// or https:// URL, which
// needs no discovery to be reached) without a token, and fails unless it lists SandboxServiceID.
func checkSandboxAt(ctx context.Context, address string, transport http.RoundTripper) error {
	u, err := url.Parse(address)
	if err != nil {
		return &NotSandboxError{Host: address, Reason: err.Error()}
	}
	discoURL := u.Scheme + "://" + u.Host + "/.well-known/terraform.json"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, discoURL, nil)
	if err != nil {
		return &NotSandboxError{Host: u.Host, Reason: err.Error()}
	}
	resp, err := (&http.Client{Transport: transport, Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return &NotSandboxError{Host: u.Host, Reason: fmt.Sprintf("its service discovery document (%s) could not be read: %v", discoURL, err)}
	}
	defer resp.Body.Close()
	var doc map[string]any
	if resp.StatusCode != http.StatusOK {
		return &NotSandboxError{Host: u.Host, Reason: fmt.Sprintf("its service discovery document (%s) answered %s", discoURL, resp.Status)}
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil {
		return &NotSandboxError{Host: u.Host, Reason: fmt.Sprintf("its service discovery document (%s) is not JSON: %v", discoURL, err)}
	}
	if _, ok := doc[SandboxServiceID].(string); !ok {
		return &NotSandboxError{Host: u.Host, Reason: fmt.Sprintf("its service discovery document (%s) lists no %s", discoURL, SandboxServiceID)}
	}
	return nil
}

// lastErrorTransport remembers the last error of its requests.
type lastErrorTransport struct {
	next http.RoundTripper
	mu   sync.Mutex
	err  error
}

func (t *lastErrorTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.mu.Lock()
		t.err = err
		t.mu.Unlock()
	}
	return resp, err
}

func (t *lastErrorTransport) last() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// discoveryError explains a failed discovery: cause is the transport's last error, or nil.
func discoveryError(hostname, discoURL string, err, cause error) error {
	if cause == nil {
		cause = err
	}
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
	}
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(cause, &dns) && dns.IsNotFound:
		return fmt.Errorf("`hostname` %q does not resolve (%v): check the provider's `hostname` (or TFE_HOSTNAME). It is the host name of HCP Terraform (app.terraform.io, the default) or of your Terraform Enterprise, "+
			"with a port only when that is not 443; for an http:// endpoint set `address` (TFE_ADDRESS) instead", hostname, dns)
	case errors.As(cause, &op) && op.Op == "dial":
		return fmt.Errorf("`hostname` %q: nothing accepted an HTTPS connection on %s (%v): check the host name and port in the provider's `hostname` (or TFE_HOSTNAME); "+
			"without a port it is 443. For an http:// endpoint set `address` (TFE_ADDRESS) instead", hostname, op.Addr, op.Err)
	case errors.As(cause, &dns):
		return fmt.Errorf("`hostname` %q could not be looked up (%w): check the provider's `hostname` (or TFE_HOSTNAME) and the network's DNS", hostname, dns)
	default:
		return fmt.Errorf("service discovery at %s failed: %w", discoURL, err)
	}
}
