package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	acctest "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// describer is what every schema attribute offers.
type describer interface {
	GetMarkdownDescription() string
	GetDescription() string
}

// checkDescriptions fails for any attribute, at any depth, without a
// description: tfplugindocs builds the docs from them (from
// MarkdownDescription, else Description, which is all that
// terraform-plugin-framework-timeouts sets).
func checkDescriptions(t *testing.T, where string, attrs map[string]describer) {
	t.Helper()
	for name, a := range attrs {
		if strings.TrimSpace(a.GetMarkdownDescription()+a.GetDescription()) == "" {
			t.Errorf("%s: attribute %q has no MarkdownDescription", where, name)
		}
	}
}

func resourceAttrs(prefix string, attrs map[string]rschema.Attribute) map[string]describer {
	out := map[string]describer{}
	for name, a := range attrs {
		out[prefix+name] = a
		if n, ok := a.(rschema.SingleNestedAttribute); ok {
			for k, v := range resourceAttrs(prefix+name+".", n.Attributes) {
				out[k] = v
			}
		}
		if n, ok := a.(rschema.ListNestedAttribute); ok {
			for k, v := range resourceAttrs(prefix+name+".", n.NestedObject.Attributes) {
				out[k] = v
			}
		}
		if n, ok := a.(rschema.SetNestedAttribute); ok {
			for k, v := range resourceAttrs(prefix+name+".", n.NestedObject.Attributes) {
				out[k] = v
			}
		}
	}
	return out
}

func dataSourceAttrs(prefix string, attrs map[string]dsschema.Attribute) map[string]describer {
	out := map[string]describer{}
	for name, a := range attrs {
		out[prefix+name] = a
		if n, ok := a.(dsschema.SingleNestedAttribute); ok {
			for k, v := range dataSourceAttrs(prefix+name+".", n.Attributes) {
				out[k] = v
			}
		}
		if n, ok := a.(dsschema.ListNestedAttribute); ok {
			for k, v := range dataSourceAttrs(prefix+name+".", n.NestedObject.Attributes) {
				out[k] = v
			}
		}
		if n, ok := a.(dsschema.SetNestedAttribute); ok {
			for k, v := range dataSourceAttrs(prefix+name+".", n.NestedObject.Attributes) {
				out[k] = v
			}
		}
	}
	return out
}

// TestSchemas validates every schema the provider serves and requires a
// description on each resource, data source and attribute.
func TestSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := New("test")()

	var ps provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &ps)
	if ps.Diagnostics.HasError() {
		t.Fatalf("provider schema: %v", ps.Diagnostics)
	}
	pattrs := map[string]describer{}
	for name, a := range ps.Schema.Attributes {
		pattrs[name] = a
	}
	checkDescriptions(t, "provider", pattrs)

	for _, f := range p.Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s: %v", meta.TypeName, resp.Diagnostics)
		}
		if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Errorf("%s: %v", meta.TypeName, diags)
		}
		if resp.Schema.MarkdownDescription == "" {
			t.Errorf("%s has no MarkdownDescription", meta.TypeName)
		}
		if _, ok := r.(resource.ResourceWithImportState); !ok {
			t.Errorf("%s is not importable", meta.TypeName)
		}
		checkDescriptions(t, meta.TypeName, resourceAttrs("", resp.Schema.Attributes))
		checkPositiveTimeouts(t, meta.TypeName, resp.Schema.Attributes)
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var meta datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s: %v", meta.TypeName, resp.Diagnostics)
		}
		if diags := resp.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Errorf("%s: %v", meta.TypeName, diags)
		}
		if resp.Schema.MarkdownDescription == "" {
			t.Errorf("%s has no MarkdownDescription", meta.TypeName)
		}
		checkDescriptions(t, meta.TypeName, dataSourceAttrs("", resp.Schema.Attributes))
	}
}

// TestProviderConfigure_errors checks the diagnostics of a provider that
// cannot be configured; none of them reaches the network.
func TestProviderConfigure_errors(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TF_CLI_CONFIG_FILE", "")
	t.Setenv("TFE_TOKEN", "")
	t.Setenv("TFE_ADDRESS", "")
	t.Setenv("TFE_HOSTNAME", "")
	t.Setenv("TF_TOKEN_tfe_example_com", "")
	if _, ok := testAccProtoV6ProviderFactories["tfgov"]; !ok {
		t.Fatal("no provider factory")
	}
	tests := map[string]struct {
		config string
		want   string
	}{
		"missing token": {
			config: `provider "tfgov" { hostname = "tfe.example.com" }`,
			want: `(?s)Missing API token.*looked, in this\s+order.*TFE_TOKEN environment variable: not set.*TF_TOKEN_tfe_example_com environment variable: not set` +
				`.*credentials "tfe.example.com" block in the CLI configuration file \S+/\.terraformrc.*credentials file of .terraform login. \S+/\.terraform\.d/credentials\.tfrc\.json` +
				`.*terraform\s+login\s+tfe.example.com`,
		},
		"address without scheme": {
			config: `provider "tfgov" { address = "tfe.example.com" }`,
			want:   `(?s)address.*must be an absolute http:// or https:// URL`,
		},
		"retry_max out of range": {
			config: `provider "tfgov" { retry_max = 99 }`,
			want:   `(?s)retry_max.*between 0 and 30`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accUnitTest(t, acctest.TestCase{
				Steps: []acctest.TestStep{{
					Config: tc.config + `
data "tfgov_agent_tokens" "test" { agent_pool_id = "apool-abc" }`,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// checkPositiveTimeouts: every duration in a resource's `timeouts` refuses
// zero and negative values at plan (withPositiveTimeouts).
func checkPositiveTimeouts(t *testing.T, typeName string, attrs map[string]rschema.Attribute) {
	t.Helper()
	n, ok := attrs["timeouts"].(rschema.SingleNestedAttribute)
	if !ok {
		return
	}
	for name, a := range n.Attributes {
		s, ok := a.(rschema.StringAttribute)
		if !ok || !slices.ContainsFunc(s.Validators, func(v validator.String) bool { _, ok := v.(positiveDuration); return ok }) {
			t.Errorf("%s: timeouts.%s does not refuse zero or negative durations (use withPositiveTimeouts)", typeName, name)
		}
	}
}

// TestAccProvider_organizationKnownAfterApply: a provider whose
// organization comes from a value known only after apply (here
// terraform_data's output) plans: a resource taking the default plans its
// organization as known after apply and is made in it; the next plan is
// empty (configure once failed, blocking the whole plan). Not
// parallel: it clears TFE_ORGANIZATION so that only the configuration
// names the organization.
func TestAccProvider_organizationKnownAfterApply(t *testing.T) {
	testAccPreCheck(t)
	org := testAccOrganization()
	t.Setenv("TFE_ORGANIZATION", "")
	name := testAccName("unknown-org")
	config := fmt.Sprintf(`
resource "terraform_data" "org" {
  input = %q
}

provider "tfgov" {
  organization = terraform_data.org.output
}

resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}
`, org, name)
	accTest(t, acctest.TestCase{
		PreCheck: func() {}, // testAccPreCheck ran before TFE_ORGANIZATION was cleared
		Steps: []acctest.TestStep{{
			Config: config,
			ConfigPlanChecks: acctest.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue("tfgov_policy.test", tfjsonpath.New("organization")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("tfgov_policy.test", tfjsonpath.New("organization"), knownvalue.StringExact(org)),
			},
		}},
	})
}

// TestAccProvider_organizationUnknownDataSource: a data source that needs
// the provider's organization while it is unknown fails, saying so.
func TestAccProvider_organizationUnknownDataSource(t *testing.T) {
	testAccPreCheck(t)
	t.Setenv("TFE_ORGANIZATION", "")
	accTest(t, acctest.TestCase{
		PreCheck: func() {}, // testAccPreCheck ran before TFE_ORGANIZATION was cleared
		Steps: []acctest.TestStep{{
			Config: fmt.Sprintf(`
resource "terraform_data" "org" {
  input = %q
}

provider "tfgov" {
  organization = terraform_data.org.output
}

data "tfgov_policies" "all" {}
`, testAccOrganization()),
			ExpectError: wrappedRE(`Organization unknown until apply`),
		}},
	})
}

// TestAccProvider_connectionUnknown: a token known only after apply fails
// the plan naming the attribute (without -allow-deferral there is no
// connection to plan with).
func TestAccProvider_connectionUnknown(t *testing.T) {
	testAccPreCheck(t)
	accTest(t, acctest.TestCase{
		Steps: []acctest.TestStep{{
			Config: `
resource "terraform_data" "token" {
  input = "not-known-at-plan"
}

provider "tfgov" {
  token = terraform_data.token.output
}

resource "tfgov_policy" "test" {
  name  = "p"
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}
`,
			ExpectError: wrappedRE(`Provider connection setting unknown until apply.*needs token to reach the\s+service`),
		}},
	})
}

// TestProviderConfigure_deferral: with unknown connection settings and a
// Terraform that allows deferral, Configure defers instead of failing.
func TestProviderConfigure_deferral(t *testing.T) {
	ctx := context.Background()
	p := New("test")()
	var sch provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &sch)
	typ := sch.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	vals["token"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	cfg := tfsdk.Config{Schema: sch.Schema, Raw: tftypes.NewValue(typ, vals)}
	for _, allowed := range []bool{true, false} {
		var resp provider.ConfigureResponse
		p.Configure(ctx, provider.ConfigureRequest{Config: cfg, ClientCapabilities: provider.ConfigureProviderClientCapabilities{DeferralAllowed: allowed}}, &resp)
		if allowed {
			if resp.Diagnostics.HasError() || resp.Deferred == nil || resp.Deferred.Reason != provider.DeferredReasonProviderConfigUnknown {
				t.Errorf("deferral allowed: deferred %v, diagnostics %v; want deferred for unknown provider config", resp.Deferred, resp.Diagnostics)
			}
			continue
		}
		if resp.Deferred != nil || !resp.Diagnostics.HasError() {
			t.Errorf("deferral not allowed: deferred %v, diagnostics %v; want an error naming token", resp.Deferred, resp.Diagnostics)
		}
	}
}
