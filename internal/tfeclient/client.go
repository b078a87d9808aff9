// Package tfeclient is tfgov's HTTP layer (DESIGN.md "The HTTP layer (internal/tfeclient)").
package tfeclient

import (
	"context"
	"crypto/tls"
	"fmt"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// DefaultRetryMax is retry_max's default.
const DefaultRetryMax = 5

// Config is what New needs to reach the service.
type Config struct {
	Address    string // "": the API of Hostname, by service discovery
	Hostname   string
	Token      string
	SkipVerify bool // for discovery and requests alike
	RetryMax   int
	UserAgent  string
	// SandboxOnly: fail (*NotSandboxError) before any token is sent unless the service's
	// discovery document lists SandboxServiceID.
	SandboxOnly bool
}

// Client is the configured go-tfe client and the service's clock its transport follows.
type Client struct {
	*tfe.Client
	Clock   *ServiceClock
	Address string // found by discovery when not given
}

// DiscoveryError is a failed service discovery of Hostname.
type DiscoveryError struct {
	Hostname string
	Err      error
}

func (e *DiscoveryError) Error() string { return e.Err.Error() }
func (e *DiscoveryError) Unwrap() error { return e.Err }

// ConnectError is go-tfe's failure to create its client for Address.
type ConnectError struct {
	Address string
	Err     error
}

func (e *ConnectError) Error() string { return fmt.Sprintf("connecting to %s: %s", e.Address, e.Err) }
func (e *ConnectError) Unwrap() error { return e.Err }

// New builds the go-tfe client, finding the API when no address is given (*DiscoveryError).
func New(ctx context.Context, cfg Config) (*Client, error) {
	httpClient := cleanhttp.DefaultPooledClient()
	transport := cleanhttp.DefaultPooledTransport()
	transport.ResponseHeaderTimeout = responseHeaderTimeout
	if cfg.SkipVerify {
		transport.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // the user asked for it
	}
	address := cfg.Address
	basePath := "" // go-tfe's default, /api/v2/
	if address == "" {
		api, sandbox, err := discoverHost(cfg.Hostname, transport)
		if err != nil {
			return nil, &DiscoveryError{Hostname: cfg.Hostname, Err: err}
		}
		if cfg.SandboxOnly && !sandbox {
			return nil, &NotSandboxError{Host: cfg.Hostname, Reason: fmt.Sprintf(
				"its service discovery document (https://%s/.well-known/terraform.json) lists no %s", cfg.Hostname, SandboxServiceID)}
		}
		address, basePath = api.Scheme+"://"+api.Host, api.Path
		tflog.Debug(ctx, "Discovered the API", map[string]any{"hostname": cfg.Hostname, "api": api.String()})
	}
	if cfg.Address != "" && cfg.SandboxOnly {
		if err := checkSandboxAt(ctx, address, transport); err != nil {
			return nil, err
		}
	}
	clock := &ServiceClock{}
	httpClient.Transport = &retryTransport{next: transport, max: cfg.RetryMax, minWait: 250 * time.Millisecond, maxWait: 5 * time.Second, serviceClock: clock}

	client, err := tfe.NewClient(&tfe.Config{
		Address:    address,
		BasePath:   basePath,
		Token:      cfg.Token,
		Headers:    map[string][]string{"User-Agent": {cfg.UserAgent}},
		HTTPClient: httpClient,
		// retryTransport retries (DESIGN.md "Decision: a retry transport beside go-tfe's").
		RetryServerErrors: false,
	})
	if err != nil {
		return nil, &ConnectError{Address: address, Err: err}
	}
	carryWrites(client) // an interrupted apply keeps what its writes made (interrupt.go)
	return &Client{Client: client, Clock: clock, Address: address}, nil
}
