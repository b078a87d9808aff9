// Package tfestandin is a test-only stand-in for hashicorp/tfe, served at
// registry.terraform.io/hashicorp/tfe so that tests of tfgov's `moved`
// blocks can make tfe_* resources without the real provider, which no Go
// module proxy serves. It is not part of the tfgov provider binary.
//
// It is written for these tests, not copied from hashicorp/tfe: four
// resource types, tfe_policy, tfe_team_access, tfe_agent_token and
// tfe_test_variable, with the schemas, schema versions and state shape of
// hashicorp/tfe v0.79.0, as its public source at tag v0.79.0 defines them
// (internal/provider/resource_tfe_policy.go, resource_tfe_team_access.go,
// resource_tfe_agent_token.go, resource_tfe_test_variable.go and
// provider.go):
//
//   - like v0.79.0, the first three are terraform-plugin-sdk/v2 resources
//     (flat attributes with "id"; tfe_team_access at schema version 1 with
//     `permissions` a list of one block; tfe_policy with a resource
//     identity of id, hostname and organization, which Terraform 1.12 and
//     later keep), and tfe_test_variable is a terraform-plugin-framework
//     resource at schema version 1 (`value_wo` write-only,
//     `value_wo_version`, `readable_value`), served together through
//     terraform-plugin-mux on protocol 5 as v0.79.0 is;
//   - the values stored are the ones v0.79.0 stores: `enforce_mode` and
//     `policy` read back from the API, `query` kept from the configuration
//     (v0.79.0 never reads it), the agent token's secret from the create
//     answer only, a sensitive test variable's last value carried forward,
//     and `value` and `readable_value` "" for a write-only one. Checked
//     against state written by v0.79.0 built from its tag, with Terraform
//     1.11 and 1.15.
//
// tfe_policy_set (policy_set.go) with the attributes of a set of policies attached to workspaces,
// for the `moved` test of tfgov_policy_set, and tfe_workspace_policy_set, the attachment the
// migration guide folds into tfgov_policy_set's scope with `removed` blocks.
//
// Two more, for the testing guide's example that makes a workspace and a
// team with hashicorp/tfe and governs them with tfgov: tfe_workspace and
// tfe_team with a subset of v0.79.0's attributes and its defaults
// (workspace_team.go). And tfe_team_project_access, for tfgov_team_project_access's
// `moved` test: schema version 1, `project_access` and `workspace_access` lists of one
// block (team_project_access.go).
//
// What differs, because only the state matters to the tests: the provider
// takes go-tfe's TFE_ADDRESS (an http:// sandbox) as well as `hostname`;
// the plan-time customizations of v0.79.0 (a default organization change
// replacing a policy, team access switching to `custom` at plan time) are
// done at apply time or not at all; requests may differ in shape (the
// enforcement level is sent as `enforcement-level`, not the deprecated
// `enforce`); there is no import and no data source.
package tfestandin

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-mux/tf5muxserver"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

// Address is where Terraform finds hashicorp/tfe.
const Address = "registry.terraform.io/hashicorp/tfe"

// client is what Configure hands the resources.
type client struct {
	*tfe.Client
	organization string
	hostname     string
}

// newClient makes a go-tfe client as hashicorp/tfe does (hostname, token,
// organization, from the configuration or TFE_HOSTNAME, TFE_TOKEN,
// TFE_ORGANIZATION), except that TFE_ADDRESS, when set, is the address.
func newClient(hostname, token, organization string) (*client, error) {
	if hostname == "" {
		hostname = os.Getenv("TFE_HOSTNAME")
	}
	if token == "" {
		token = os.Getenv("TFE_TOKEN")
	}
	if organization == "" {
		organization = os.Getenv("TFE_ORGANIZATION")
	}
	cfg := tfe.DefaultConfig() // Address from TFE_ADDRESS
	if os.Getenv("TFE_ADDRESS") == "" && hostname != "" {
		cfg.Address = "https://" + hostname
	}
	cfg.Token = token
	c, err := tfe.NewClient(cfg)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(cfg.Address)
	if err != nil {
		return nil, err
	}
	return &client{Client: c, organization: organization, hostname: u.Host}, nil
}

// sdkProvider is the SDKv2 half: the provider schema of v0.79.0 (as far as
// these tests use it) and the SDKv2 resources.
func sdkProvider() *schema.Provider {
	return &schema.Provider{
		Schema: map[string]*schema.Schema{
			"hostname":        {Type: schema.TypeString, Optional: true},
			"token":           {Type: schema.TypeString, Optional: true, Sensitive: true},
			"organization":    {Type: schema.TypeString, Optional: true},
			"ssl_skip_verify": {Type: schema.TypeBool, Optional: true},
		},
		ResourcesMap: map[string]*schema.Resource{
			"tfe_policy":      resourcePolicy(),
			"tfe_team_access": resourceTeamAccess(),
			// tfe_team_project_access: team_project_access.go.
			"tfe_team_project_access":  resourceTeamProjectAccess(),
			"tfe_agent_token":          resourceAgentToken(),
			"tfe_policy_set":           resourcePolicySet(),
			"tfe_workspace_policy_set": resourceWorkspacePolicySet(),
			"tfe_workspace":            resourceWorkspace(),
			"tfe_team":                 resourceTeam(),
		},
		ConfigureContextFunc: func(_ context.Context, d *schema.ResourceData) (any, diag.Diagnostics) {
			c, err := newClient(d.Get("hostname").(string), d.Get("token").(string), d.Get("organization").(string))
			if err != nil {
				return nil, diag.FromErr(err)
			}
			return c, nil
		},
	}
}

// Server is the stand-in's provider server: the SDKv2 provider and the
// framework provider (tfe_test_variable) muxed on protocol 5.
func Server(ctx context.Context) (func() tfprotov5.ProviderServer, error) {
	mux, err := tf5muxserver.NewMuxServer(ctx, sdkProvider().GRPCProvider, providerserver.NewProtocol5(&fwProvider{}))
	if err != nil {
		return nil, err
	}
	return mux.ProviderServer, nil
}

// notFound reports a 404 from go-tfe.
func notFound(err error) bool { return errors.Is(err, tfe.ErrResourceNotFound) }

func errorf(format string, args ...any) diag.Diagnostics {
	return diag.FromErr(fmt.Errorf(format, args...))
}
