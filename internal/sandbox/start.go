package sandbox

import (
	"net/http/httptest"
	"testing"
)

// Instance is a sandbox running in-process for a test.
type Instance struct {
	// URL is the API's address, for go-tfe's Config.Address or the
	// provider's `address`: https:// when Options.TLS is set.
	URL string
	// Token is the admin token.
	Token  string
	Server *Server
}

// Start runs a sandbox on a loopback port for the life of tb.
func Start(tb testing.TB) *Instance {
	tb.Helper()
	return StartWithOptions(tb, Options{})
}

// StartWithOptions is Start with Options (for example a test engine with
// one worker, no Terraform, or TLS with a SelfSignedCertificate).
func StartWithOptions(tb testing.TB, opts Options) *Instance {
	tb.Helper()
	s, err := New(opts)
	if err != nil {
		tb.Fatalf("starting the sandbox: %v", err)
	}
	ts := httptest.NewUnstartedServer(s)
	if opts.TLS != nil {
		ts.TLS = opts.TLS.Clone()
		ts.StartTLS()
	} else {
		ts.Start()
	}
	tb.Cleanup(func() {
		ts.Close()
		_ = s.Close()
	})
	return &Instance{URL: ts.URL, Token: s.AdminToken(), Server: s}
}
