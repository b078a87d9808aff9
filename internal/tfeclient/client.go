// Package tfeclient is tfgov's HTTP layer: the go-tfe client, its transport
// (retries, rate limits, error bodies, the service's clock), service
// discovery, writes carried past Terraform's stop, the pager and raw
// JSON:API requests. It imports nothing from terraform-plugin-framework.
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
	// Address is the service's URL; "" finds the API of Hostname by
	// service discovery (discovery.go).
	Address  string
	Hostname string
	Token    string
	// SkipVerify skips TLS verification, for discovery and requests alike.
	SkipVerify bool
	RetryMax   int
	UserAgent  string
}

// Client is the configured go-tfe client and the service's clock its
// transport follows.
type Client struct {
	*tfe.Client
	Clock *ServiceClock
	// Address is the service's address, found by discovery when not given.
	Address string
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

// New builds the HTTP client, finds the API when no address is given, and
// creates the go-tfe client, whose writes are carried past Terraform's stop
// (interrupt.go). A failed discovery is a *DiscoveryError, a failed client
// a *ConnectError.
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
		api, err := discoverAPI(cfg.Hostname, transport)
		if err != nil {
			return nil, &DiscoveryError{Hostname: cfg.Hostname, Err: err}
		}
		address, basePath = api.Scheme+"://"+api.Host, api.Path
		tflog.Debug(ctx, "Discovered the API", map[string]any{"hostname": cfg.Hostname, "api": api.String()})
	}
	clock := &ServiceClock{}
	httpClient.Transport = &retryTransport{next: transport, max: cfg.RetryMax, minWait: 250 * time.Millisecond, maxWait: 5 * time.Second, serviceClock: clock}

	client, err := tfe.NewClient(&tfe.Config{
		Address:    address,
		BasePath:   basePath,
		Token:      cfg.Token,
		Headers:    map[string][]string{"User-Agent": {cfg.UserAgent}},
		HTTPClient: httpClient,
		// Server errors are retried by retryTransport, which retry_max
		// bounds; go-tfe's own retries (fixed at 30) stay off.
		RetryServerErrors: false,
	})
	if err != nil {
		return nil, &ConnectError{Address: address, Err: err}
	}
	carryWrites(client) // an interrupted apply keeps what its writes made (interrupt.go)
	return &Client{Client: client, Clock: clock, Address: address}, nil
}
