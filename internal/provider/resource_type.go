package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

// resourceType is a managed resource type without the provider prefix
// ("policy"): its type name, identity and list resource's name derive from it.
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
	teamProjectAccessType            resourceType = "team_project_access"
	projectTeamAccessExclusiveType   resourceType = "project_team_access_exclusive"
	policySetType                    resourceType = "policy_set"
	policySetParameterType           resourceType = "policy_set_parameter"
)

// dataSourceType is a data source's type without the provider prefix.
type dataSourceType string

const (
	agentPoolDataSourceType           dataSourceType = "agent_pool"
	agentPoolsDataSourceType          dataSourceType = "agent_pools"
	agentTokensDataSourceType         dataSourceType = "agent_tokens"
	moduleTestRunDataSourceType       dataSourceType = "module_test_run"
	moduleTestRunsDataSourceType      dataSourceType = "module_test_runs"
	moduleTestVariablesDataSourceType dataSourceType = "module_test_variables"
	moduleVersionDataSourceType       dataSourceType = "module_version"
	policyDataSourceType              dataSourceType = "policy"
	policiesDataSourceType            dataSourceType = "policies"
	policyEvaluationDataSourceType    dataSourceType = "policy_evaluation"
	projectDataSourceType             dataSourceType = "project"
	projectsDataSourceType            dataSourceType = "projects"
	policySetDataSourceType           dataSourceType = "policy_set"
	policySetsDataSourceType          dataSourceType = "policy_sets"
	registryModuleDataSourceType      dataSourceType = "registry_module"
	teamDataSourceType                dataSourceType = "team"
	teamsDataSourceType               dataSourceType = "teams"
	teamAccessDataSourceType          dataSourceType = "team_access"
	workspaceDataSourceType           dataSourceType = "workspace"
	workspacesDataSourceType          dataSourceType = "workspaces"
	workspaceTeamAccessDataSourceType dataSourceType = "workspace_team_access"
	projectTeamAccessDataSourceType   dataSourceType = "project_team_access"
	workspacePolicySetsDataSourceType dataSourceType = "workspace_policy_sets"
)

// actionType is an action's type without the provider prefix.
type actionType string

const (
	agentTokenPruneActionType actionType = "agent_token_prune"
	moduleTestActionType      actionType = "module_test"
)

// typeName is the full name for the provider named provider ("tfgov_policy").
func (t resourceType) typeName(provider string) string   { return provider + "_" + string(t) }
func (t dataSourceType) typeName(provider string) string { return provider + "_" + string(t) }
func (t actionType) typeName(provider string) string     { return provider + "_" + string(t) }

// resourceBase is embedded by every managed resource: what all share but the type.
type resourceBase struct {
	typ  resourceType
	data *providerData
}

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.typ.typeName(req.ProviderTypeName)
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.data = configureData(req.ProviderData, &resp.Diagnostics)
}

func (b *resourceBase) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchemaFor(b.typ)
}

// syncIdentity is deferred at the start of Create, Read and Update.
func (b *resourceBase) syncIdentity(ctx context.Context, prior, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	syncIdentity(ctx, b.typ, prior, state, identity, diags)
}

func (b *resourceBase) importID(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	return identityImportID(ctx, b.typ, req, diags)
}

// dataSourceBase is embedded by every data source that reads the service.
type dataSourceBase struct {
	typ  dataSourceType
	data *providerData
}

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = b.typ.typeName(req.ProviderTypeName)
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.data = configureData(req.ProviderData, &resp.Diagnostics)
}

type actionBase struct {
	typ  actionType
	data *providerData
}

func (b *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = b.typ.typeName(req.ProviderTypeName)
}

func (b *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.data = configureData(req.ProviderData, &resp.Diagnostics)
}
