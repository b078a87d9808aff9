// Package provider implements the tfgov Terraform provider.
package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

const (
	defaultHostname = "app.terraform.io"
	defaultRetryMax = tfeclient.DefaultRetryMax
)

var (
	_ provider.Provider            = (*tfgovProvider)(nil)
	_ provider.ProviderWithActions = (*tfgovProvider)(nil)
)

// New returns the provider factory for the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &tfgovProvider{version: version} }
}

type tfgovProvider struct {
	version string
}

type providerModel struct {
	Hostname      types.String `tfsdk:"hostname"`
	Address       types.String `tfsdk:"address"`
	Token         types.String `tfsdk:"token"`
	Organization  types.String `tfsdk:"organization"`
	SSLSkipVerify types.Bool   `tfsdk:"ssl_skip_verify"`
	RetryMax      types.Int64  `tfsdk:"retry_max"`
	SandboxOnly   types.Bool   `tfsdk:"sandbox_only"`
}

// providerData is what Configure hands to every resource and data source.
type providerData struct {
	client              *tfe.Client
	organization        string            // the default for resources that take one; may be ""
	organizationUnknown bool              // the provider's organization is known only after apply
	testVariables       testVariableLists // shared between refreshes (module_test_variable_api.go)
	lists               bulkLists         // the other shared lists (bulk_lists.go)
	owned               ownership         // what this provider made (ownership.go)
	caller              tokenUser         // the token's user (token check); none when the service names none
	proofs              proofChecks       // policy code proofs on this service (policy_code_proof.go)
	testsPassed         sync.Map          // digests of policy tests that passed here (runOnce)
	moveTargets         sync.Map          // organization → *moveTarget: checked once per process (organization.go)
	// missingToken: why there is no client (where no token was found); configureData reports it.
	missingToken     string
	missingTokenOnce sync.Once
}

// configureData unwraps the provider's data in a Configure: nil before the provider is configured,
// and nil with an error when it found no token (every type but tfgov_policy_evaluation needs one).
func configureData(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	d, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	if d.missingToken != "" {
		// The whole list once, so a plan of many resources is not one long error each.
		detail := "No API token was found: another error of this run lists every place the provider looked."
		d.missingTokenOnce.Do(func() { detail = d.missingToken })
		diags.AddError("Missing API token", detail)
		return nil
	}
	return d
}

func (p *tfgovProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "tfgov"
	resp.Version = p.version
}

func (p *tfgovProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manage the governance layer of HCP Terraform and Terraform Enterprise: policies, team access, agent tokens, private-module tests and module deprecation.",
		Attributes: map[string]schema.Attribute{
			"hostname": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Hostname of HCP Terraform or Terraform Enterprise, with a port if not 443. Defaults to the `TFE_HOSTNAME` environment variable, else `" + defaultHostname + "`. The API's address is found by service discovery over HTTPS (`https://<hostname>/.well-known/terraform.json`, service `tfe.v2.2`), as Terraform CLI and hashicorp/tfe find it.",
			},
			"address": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Full URL of the service, such as `http://127.0.0.1:8787` for the tfgov sandbox; takes precedence over `hostname`. Defaults to the `TFE_ADDRESS` environment variable.",
				Validators:          []validator.String{urlValidator{}},
			},
			"token": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "API token. Defaults to the `TFE_TOKEN` environment variable, then to Terraform CLI's credentials for the hostname, read where Terraform reads them: `TF_TOKEN_<hostname>`, a `credentials \"<hostname>\"` block of the CLI configuration (`TF_CLI_CONFIG_FILE`, else `~/.terraformrc` and the `*.tfrc` files of `~/.terraform.d`), then the file written by `terraform login`. A missing token is an error that lists every place looked at, raised by the first resource, data source, list resource or action that needs the service: `tfgov_policy_evaluation` needs none.",
			},
			"organization": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Default organization for resources and data sources that take an `organization`. Defaults to the `TFE_ORGANIZATION` environment variable. " +
					"It may be a value known only after apply (another resource's attribute): resources that take the default then plan their `organization` as known after apply, and a data source that needs it fails until it is known. " +
					"`hostname`, `address`, `token` and `ssl_skip_verify` must be known at plan, since the provider connects then (with `-allow-deferral`, Terraform defers the provider's resources instead).",
			},
			"ssl_skip_verify": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Skip TLS certificate verification, for service discovery and API requests alike (for Terraform Enterprise with a private CA during testing only). Defaults to the `TFE_SSL_SKIP_VERIFY` environment variable, else `false`.",
			},
			"retry_max": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Maximum number of retries of a request answered with 429 or a 5xx status, or not answered at all, with exponential backoff. `0` disables retries. Defaults to `%d`. "+
					"Only what can succeed is retried: reads, updates and deletes are; a create (POST) is sent again only when the service provably did not act on it (429, or a connection refused before anything was sent). "+
					"A create that ends in a 5xx or a lost connection is reconciled instead: the resource looks for what it may have made before creating again (each resource's page says how). "+
					"An untrusted certificate, a certificate for another host name and a host name that does not resolve fail at once, saying what to fix.", defaultRetryMax),
				Validators: []validator.Int64{int64validator.Between(0, 30)},
			},
			"sandbox_only": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Refuse any host but a tfgov sandbox (`tfgov-sandbox`), which says what it is in its service discovery document (`tfgov-sandbox.v1`). " +
					"When set, the provider reads that document (without the token) when it is configured, before any other request, and fails naming the host when the entry is missing: nothing is read or written there. " +
					"Set it in the `provider` block of a `terraform test` file, so that a test run outside the sandbox (a shell holding the real organization's credentials) cannot apply, import or destroy anything. " +
					"With no token at all it checks nothing, as nothing reaches the service (`tfgov_policy_evaluation` works offline). Defaults to the `" + sandboxOnlyEnv + "` environment variable, else `false`.",
			},
		},
	}
}

func (p *tfgovProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Only what reaches the service must be known at plan: Terraform configures again at apply.
	var unknown []string
	for _, a := range []struct {
		name string
		v    interface{ IsUnknown() bool }
	}{{"hostname", cfg.Hostname}, {"address", cfg.Address}, {"token", cfg.Token}, {"ssl_skip_verify", cfg.SSLSkipVerify}, {"sandbox_only", cfg.SandboxOnly}} {
		if a.v.IsUnknown() {
			unknown = append(unknown, a.name)
		}
	}
	if len(unknown) > 0 {
		if req.ClientCapabilities.DeferralAllowed {
			// Terraform (-allow-deferral) plans the provider's resources
			// in a later round, once these values are known.
			tflog.Info(ctx, "Deferring: provider connection settings unknown until apply", map[string]any{"unknown": unknown})
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
			return
		}
		for _, name := range unknown {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Provider connection setting unknown until apply",
				fmt.Sprintf("The provider needs %s to reach the service when it plans, but its value is known only after apply. "+
					"Set it to a value known at plan (a variable or a literal), or apply what it depends on first (terraform apply -target=...).", name))
		}
		return
	}
	// An organization known only after apply: resources plan theirs unknown; data sources fail.
	organizationUnknown := cfg.Organization.IsUnknown()

	// hostname is resolved by service discovery, as Terraform CLI and hashicorp/tfe do.
	hostname := cmp.Or(cfg.Hostname.ValueString(), os.Getenv("TFE_HOSTNAME"), defaultHostname)
	address := cmp.Or(cfg.Address.ValueString(), os.Getenv("TFE_ADDRESS"))
	credentialsHost := hostname
	var err error
	if address != "" {
		u, err := url.Parse(address)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			resp.Diagnostics.AddAttributeError(path.Root("address"), "Invalid address",
				fmt.Sprintf("address (or TFE_ADDRESS) must be an http:// or https:// URL, got %q.", address))
			return
		}
		// Terraform CLI keys credentials by host and port (443 folded).
		credentialsHost = u.Host
	}

	token, tokenSrc, looked, err := tfeclient.FindToken(cfg.Token.ValueString(), credentialsHost)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("token"), "Unable to read Terraform CLI credentials", err.Error())
		return
	}

	skipVerify := cfg.SSLSkipVerify.ValueBool()
	if cfg.SSLSkipVerify.IsNull() {
		if v := os.Getenv("TFE_SSL_SKIP_VERIFY"); v != "" {
			if skipVerify, err = strconv.ParseBool(v); err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("ssl_skip_verify"), "Invalid TFE_SSL_SKIP_VERIFY",
					fmt.Sprintf("TFE_SSL_SKIP_VERIFY must be true or false, got %q.", v))
				return
			}
		}
	}
	sandboxOnly := cfg.SandboxOnly.ValueBool()
	if cfg.SandboxOnly.IsNull() {
		if v := os.Getenv(sandboxOnlyEnv); v != "" {
			if sandboxOnly, err = strconv.ParseBool(v); err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("sandbox_only"), "Invalid "+sandboxOnlyEnv,
					fmt.Sprintf("%s must be true or false, got %q.", sandboxOnlyEnv, v))
				return
			}
		}
	}
	retryMax := int64(defaultRetryMax)
	// An unknown retry_max plans with the default: nothing is retried before apply.
	if !cfg.RetryMax.IsNull() && !cfg.RetryMax.IsUnknown() {
		retryMax = cfg.RetryMax.ValueInt64()
	}

	if token == "" {
		// No token: each type but tfgov_policy_evaluation reports it (DESIGN.md "A provider without a token").
		data := &providerData{missingToken: tfeclient.MissingTokenDetail(credentialsHost, looked)}
		resp.ResourceData, resp.DataSourceData, resp.ActionData, resp.ListResourceData = data, data, data, data
		return
	}

	c, err := tfeclient.New(ctx, tfeclient.Config{
		Address:     address,
		Hostname:    hostname,
		Token:       token,
		SkipVerify:  skipVerify,
		RetryMax:    int(retryMax),
		UserAgent:   fmt.Sprintf("terraform-provider-tfgov/%s (+https://registry.terraform.io/providers/tfgov/tfgov) go-tfe", p.version),
		SandboxOnly: sandboxOnly,
	})
	var discoveryErr *tfeclient.DiscoveryError
	var connectErr *tfeclient.ConnectError
	var notSandbox *tfeclient.NotSandboxError
	switch {
	case errors.As(err, &notSandbox):
		resp.Diagnostics.AddAttributeError(path.Root("sandbox_only"), "Not a tfgov sandbox: "+notSandbox.Host, notSandboxDetail(notSandbox, cfg, address != ""))
		return
	case errors.As(err, &discoveryErr):
		resp.Diagnostics.AddAttributeError(path.Root("hostname"), "Unable to find the API of "+hostname, discoveryErr.Err.Error())
		return
	case errors.As(err, &connectErr):
		resp.Diagnostics.AddError("Unable to create the API client", fmt.Sprintf("Connecting to %s: %s", connectErr.Address, connectErr.Err))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to create the API client", err.Error())
		return
	}
	client, clock := c.Client, c.Clock
	address = c.Address
	// One request: a wrong token fails here, before anything is written.
	caller, callerErr := checkToken(ctx, client, tokenSrc, address, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Debug(ctx, "Configured tfgov provider", map[string]any{
		"address": address, "organization": cfg.Organization.ValueString(), "retry_max": retryMax, "ssl_skip_verify": skipVerify,
	})

	data := &providerData{
		client:              client,
		organization:        cmp.Or(cfg.Organization.ValueString(), os.Getenv("TFE_ORGANIZATION")),
		organizationUnknown: organizationUnknown,
		caller:              tokenUser{user: caller, err: callerErr},
	}
	data.proofs.tag, data.proofs.now = serviceTag(client.BaseURL()), clock.Now
	if organizationUnknown {
		data.organization = ""
	}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
}

// sandboxOnlyEnv is sandbox_only's environment variable.
const sandboxOnlyEnv = "TFGOV_SANDBOX_ONLY"

// notSandboxDetail says which setting named the host, and the two ways on.
func notSandboxDetail(e *tfeclient.NotSandboxError, cfg providerModel, byAddress bool) string {
	from := "the provider's `hostname`"
	switch {
	case byAddress && !cfg.Address.IsNull():
		from = "the provider's `address`"
	case byAddress:
		from = "the TFE_ADDRESS environment variable"
	case cfg.Hostname.IsNull() && os.Getenv("TFE_HOSTNAME") != "":
		from = "the TFE_HOSTNAME environment variable"
	case cfg.Hostname.IsNull():
		from = "the default hostname"
	}
	return fmt.Sprintf("sandbox_only is set, so this provider works only against tfgov-sandbox, and %s (from %s) is not one: %s. "+
		"Nothing was read or written there, and the API token was not sent. "+
		"Run the command under the sandbox (tfgov-sandbox --seed-file seed.json -- terraform test, which sets TFE_ADDRESS or TFE_HOSTNAME), "+
		"or remove sandbox_only (and %s) to work on this host.", e.Host, from, e.Reason, sandboxOnlyEnv)
}

func (p *tfgovProvider) Resources(_ context.Context) []func() resource.Resource {
	return registeredResources()
}

// Actions are Terraform 1.14's imperative operations; older Terraform
// versions never ask for them (and fail to parse an `action` block).
func (p *tfgovProvider) Actions(_ context.Context) []func() action.Action {
	return registeredActions
}

func (p *tfgovProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return registeredDataSources
}
