package tfeclient

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-cleanhttp"
)

// discoveryServer serves doc (or status, when doc is "") at
// /.well-known/terraform.json over HTTPS, or plain HTTP when plain is set.
func discoveryServer(t *testing.T, status int, doc string, plain bool) *httptest.Server {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/terraform.json" || doc == "" {
			w.WriteHeader(status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(doc))
	})
	ts := httptest.NewUnstartedServer(h)
	if plain {
		ts.Start()
	} else {
		ts.StartTLS()
	}
	t.Cleanup(ts.Close)
	return ts
}

func TestDiscoverAPI(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		doc       string
		status    int
		plain     bool
		transport string // "trusted" (default), "system", "skip-verify"
		want      string // the API URL, with %s for the server's host
		wantErr   string
	}{
		"hcp terraform":         {doc: `{"tfe.v2":"/api/v2/","tfe.v2.1":"/api/v2/","tfe.v2.2":"/api/v2/","modules.v1":"/api/registry/v1/modules/"}`, want: "https://%s/api/v2/"},
		"another base path":     {doc: `{"tfe.v2.2":"/tfe/api/v2/"}`, want: "https://%s/tfe/api/v2/"},
		"only tfe.v2":           {doc: `{"tfe.v2":"/api/v2/"}`, want: "https://%s/api/v2/"},
		"absolute, no slash":    {doc: `{"tfe.v2.2":"https://api.example.test/v2"}`, want: "https://api.example.test/v2/"},
		"no discovery document": {status: http.StatusNotFound, wantErr: "is not HCP Terraform or Terraform Enterprise: its service discovery document"},
		"no tfe service":        {doc: `{"modules.v1":"/v1/modules/"}`, wantErr: "lists no tfe.v2.2, tfe.v2.1, tfe.v2 service"},
		"not json":              {doc: `<html>`, wantErr: "failed to decode discovery document"},
		"plain http":            {doc: `{"tfe.v2.2":"/api/v2/"}`, plain: true, wantErr: "does not speak HTTPS"},
		"untrusted certificate": {doc: `{"tfe.v2.2":"/api/v2/"}`, transport: "system", wantErr: "TLS certificate is not trusted"},
		"ssl_skip_verify":       {doc: `{"tfe.v2.2":"/api/v2/"}`, transport: "skip-verify", want: "https://%s/api/v2/"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ts := discoveryServer(t, tc.status, tc.doc, tc.plain)
			transport := ts.Client().Transport
			switch tc.transport {
			case "system":
				transport = cleanhttp.DefaultPooledTransport()
			case "skip-verify":
				tr := cleanhttp.DefaultPooledTransport()
				tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // what the test is about
				transport = tr
			}
			if tc.plain {
				transport = cleanhttp.DefaultPooledTransport()
			}
			host := strings.TrimPrefix(strings.TrimPrefix(ts.URL, "https://"), "http://")
			got, err := discoverAPI(host, transport)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, %v; want an error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(tc.want, "%s", host, 1)
			if got.String() != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

func TestDiscoverAPI_invalidHostname(t *testing.T) {
	t.Parallel()
	if _, err := discoverAPI("not a host!", http.DefaultTransport); err == nil || !strings.Contains(err.Error(), "is not a valid hostname") {
		t.Errorf("got %v", err)
	}
}

func TestDiscoverAPI_serverError(t *testing.T) {
	t.Parallel()
	ts := discoveryServer(t, http.StatusBadGateway, "", false)
	u, _ := url.Parse(ts.URL)
	if _, err := discoverAPI(u.Host, ts.Client().Transport); err == nil || !strings.Contains(err.Error(), "service discovery at https://"+u.Host+"/.well-known/terraform.json failed") {
		t.Errorf("got %v", err)
	}
}

// TestDiscoverAPI_unreachable: a `hostname` that does not resolve, or whose
// port nothing listens on, is an error naming `hostname` and what to check,
// not the discovery client's raw "giving up after 4 attempt(s)".
func TestDiscoverAPI_unreachable(t *testing.T) {
	t.Parallel()
	closed, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := closed.Addr().String()
	closed.Close()
	tests := map[string]struct {
		hostname string
		want     []string
	}{
		"unknown host": {"tfgov-no-such-host.invalid", []string{"`hostname` \"tfgov-no-such-host.invalid\" does not resolve", "TFE_HOSTNAME", "address"}},
		"wrong port":   {refused, []string{"`hostname` \"" + refused + "\": nothing accepted an HTTPS connection on " + refused, "connection refused", "port", "443"}},
		"invalid":      {"not a host name", []string{"hostname \"not a host name\" is not a valid hostname"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := discoverAPI(tc.hostname, cleanhttp.DefaultPooledTransport())
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "giving up after") {
				t.Errorf("error %q is the raw retry error", err)
			}
		})
	}
}

// TestSandboxOnly: with SandboxOnly, New refuses a host whose discovery
// document lacks tfgov-sandbox.v1, by hostname (HTTPS discovery) and by
// address alike, and sends nothing but that unauthenticated GET.
func TestSandboxOnly(t *testing.T) {
	t.Parallel()
	const tfe = `{"tfe.v2":"/api/v2/","tfe.v2.1":"/api/v2/","tfe.v2.2":"/api/v2/"}`
	const sandbox = `{"tfe.v2":"/api/v2/","tfe.v2.1":"/api/v2/","tfe.v2.2":"/api/v2/","tfgov-sandbox.v1":"/_sandbox/"}`
	tests := map[string]struct {
		doc     string
		plain   bool // reached by Address, not discovery
		wantErr string
	}{
		"tfe by hostname":     {doc: tfe, wantErr: "is not a tfgov sandbox: its service discovery document (https://%s/.well-known/terraform.json) lists no tfgov-sandbox.v1"},
		"tfe by address":      {doc: tfe, plain: true, wantErr: "is not a tfgov sandbox: its service discovery document (http://%s/.well-known/terraform.json) lists no tfgov-sandbox.v1"},
		"no document":         {plain: true, wantErr: "is not a tfgov sandbox: its service discovery document (http://%s/.well-known/terraform.json) answered 404"},
		"sandbox by hostname": {doc: sandbox},
		"sandbox by address":  {doc: sandbox, plain: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var seen []string
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
				mu.Unlock()
				if r.URL.Path != "/.well-known/terraform.json" || tc.doc == "" {
					w.WriteHeader(http.StatusNotFound)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(tc.doc))
			})
			ts := httptest.NewUnstartedServer(h)
			cfg := Config{Token: "secret", SandboxOnly: true}
			if tc.plain {
				ts.Start()
				cfg.Address = ts.URL
			} else {
				ts.StartTLS()
				cfg.Hostname = strings.TrimPrefix(ts.URL, "https://")
				cfg.SkipVerify = true // the test server's own certificate
			}
			t.Cleanup(ts.Close)
			host := strings.TrimPrefix(strings.TrimPrefix(ts.URL, "https://"), "http://")
			_, err := New(context.Background(), cfg)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ns *NotSandboxError
			if !errors.As(err, &ns) || ns.Host != host || !strings.Contains(err.Error(), strings.Replace(tc.wantErr, "%s", host, 1)) {
				t.Fatalf("got %v; want a NotSandboxError for %s containing %q", err, host, tc.wantErr)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 1 || seen[0] != "GET /.well-known/terraform.json auth=" {
				t.Errorf("requests %q, want only the discovery document's, without the token", seen)
			}
		})
	}
}
