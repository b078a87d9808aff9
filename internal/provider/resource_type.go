package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// resourceType is a managed resource type without the provider prefix,
// such as "policy". It is written once, as one of the constants below:
// the resource's type name (Metadata), its identity (resourceIdentities,
// syncIdentity, identityImportID) and its list resource's name all derive
// from it, so that they cannot disagree.
type resourceType string

const (
	policyType                       resourceType = "policy"
	policyUploadType                 resourceType = "policy_upload"
	teamAccessType                   resourceType = "team_access"
	agentTokenType                   resourceType = "agent_token"
	moduleTestVariableType           resourceType = "module_test_variable"
	moduleTestRunType                resourceType = "module_test_run"
	moduleVersionDeprecationType     resourceType = "module_version_deprecation"
	workspaceTeamAccessExclusiveType resourceType = "workspace_team_access_exclusive"
)

// typeName is the type's full name for the provider named provider
// ("tfgov_policy").
func (t resourceType) typeName(provider string) string { return provider + "_" + string(t) }

// resourceBase is embedded by every managed resource: Metadata, Configure
// and IdentitySchema, which are the same for each but for the type, and
// syncIdentity and importID for the type. Everything a resource does of
// its own (Schema, plans, CRUD, import) stays in its own file.
type resourceBase struct {
	typ  resourceType
	data *providerData
}

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.typ.typeName(req.ProviderTypeName)
}

// Configure takes the configured provider's data; it is nil until the
// provider is configured.
func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.data = configureData(req.ProviderData, &resp.Diagnostics)
}

func (b *resourceBase) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchemaFor(b.typ)
}

// syncIdentity is syncIdentity for the resource's type: call it deferred
// at the start of Create, Read and Update.
func (b *resourceBase) syncIdentity(ctx context.Context, prior, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	syncIdentity(ctx, b.typ, prior, state, identity, diags)
}

// importID is identityImportID for the resource's type.
func (b *resourceBase) importID(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	return identityImportID(ctx, b.typ, req, diags)
}

// dataSourceBase is embedded by every data source: Metadata for its type
// name (without the provider prefix, such as "policies") and Configure.
type dataSourceBase struct {
	name string
	data *providerData
}

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure takes the configured provider's data; it is nil until the
// provider is configured.
func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.data = configureData(req.ProviderData, &resp.Diagnostics)
}

// actionBase is embedded by every action: Metadata for its type name
// (without the provider prefix, such as "module_test") and Configure.
type actionBase struct {
	name string
	data *providerData
}

func (b *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure takes the configured provider's data; it is nil until the
// provider is configured.
func (b *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.data = configureData(req.ProviderData, &resp.Diagnostics)
}
