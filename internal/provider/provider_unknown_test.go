package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccProvider_organizationKnownAfterApply: a provider whose
// organization comes from a value known only after apply (here
// terraform_data's output) plans: a resource taking the default plans its
// organization as known after apply and is made in it; the next plan is
// empty. Issue 18 item 8: configure failed, blocking the whole plan. Not
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
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
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
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
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
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
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
