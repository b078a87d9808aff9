package provider

import (
	"cmp"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The registry: every type the provider serves, written once, with what the
// API token needs for it (DESIGN.md "One registry of types"; CONTRIBUTING.md
// "Adding a type" lists what else a type needs).

// registeredResource is one managed resource type and what hangs off it.
type registeredResource struct {
	typ         resourceType
	new         func() resource.Resource
	identity    []identityAttr
	permissions string
	// list and listPermissions: the type's list resource; nil: none.
	list            func() list.ListResource
	listPermissions string
	tfeMove         *tfeMove
	// providerOrder keeps Resources() in the order it had before the registry.
	providerOrder int
}

var resourceRegistry = []registeredResource{
	{
		typ: policyType, new: NewPolicyResource, identity: policyIdentityAttrs, providerOrder: 5,
		permissions:     permTextPolicies,
		list:            func() list.ListResource { return &policyList{listBase{typ: policyType}} },
		listPermissions: permTextPolicies,
		tfeMove:         &tfePolicyMove,
	},
	{
		typ: policyUploadType, new: NewPolicyUploadResource, identity: policyUploadIdentityAttrs, providerOrder: 6,
		permissions:     permTextPolicies,
		list:            func() list.ListResource { return &policyUploadList{listBase{typ: policyUploadType}} },
		listPermissions: permTextPolicies,
	},
	{
		typ: teamAccessType, new: NewTeamAccessResource, identity: teamAccessIdentityAttrs, providerOrder: 4,
		permissions:     permTextManageAccess,
		list:            newTeamAccessList,
		listPermissions: permTextSeeAccess,
		tfeMove:         &tfeTeamAccessMove,
	},
	{
		typ: agentTokenType, new: NewAgentTokenResource, identity: agentTokenIdentityAttrs, providerOrder: 0,
		permissions:     permTextAgents,
		list:            func() list.ListResource { return &agentTokenList{listBase{typ: agentTokenType}} },
		listPermissions: permTextAgents,
		tfeMove:         &tfeAgentTokenMove,
	},
	{
		typ: moduleTestVariableType, new: NewModuleTestVariableResource, identity: moduleTestVariableIdentityAttrs, providerOrder: 1,
		permissions:     permTextTests,
		list:            func() list.ListResource { return &moduleTestVariableList{listBase{typ: moduleTestVariableType}} },
		listPermissions: permTextTests,
		tfeMove:         &tfeTestVariableMove,
	},
	{
		typ: moduleTestRunType, new: NewModuleTestRunResource, identity: moduleTestRunIdentityAttrs, providerOrder: 3,
		permissions:     permTextTests,
		list:            func() list.ListResource { return &moduleTestRunList{listBase{typ: moduleTestRunType}} },
		listPermissions: permTextTests,
	},
	{
		typ: moduleVersionDeprecationType, new: NewModuleVersionDeprecationResource, identity: moduleVersionDeprecationIdentityAttrs, providerOrder: 2,
		permissions: permTextDeprecation,
		list: func() list.ListResource {
			return &moduleVersionDeprecationList{listBase{typ: moduleVersionDeprecationType}}
		},
		listPermissions: permTextRegistry,
	},
	{
		typ: workspaceTeamAccessExclusiveType, new: NewWorkspaceTeamAccessExclusiveResource, identity: workspaceTeamAccessExclusiveIdentityAttrs, providerOrder: 7,
		permissions: permTextManageAccess + ` It reads every grant of the workspace, which only these may see.`,
	},
	{
		typ: teamProjectAccessType, new: NewTeamProjectAccessResource, identity: teamProjectAccessIdentityAttrs, providerOrder: 8,
		permissions:     permTextManageProjectAccess,
		list:            newTeamProjectAccessList,
		listPermissions: permTextSeeProjectAccess,
		tfeMove:         &tfeTeamProjectAccessMove,
	},
	{
		typ: projectTeamAccessExclusiveType, new: NewProjectTeamAccessExclusiveResource, identity: projectTeamAccessExclusiveIdentityAttrs, providerOrder: 9,
		permissions: permTextManageProjectAccess + ` It reads every grant of the project, which only these may see.`,
	},
	{
		typ: policySetType, new: NewPolicySetResource, identity: policySetIdentityAttrs, providerOrder: 10,
		permissions:     permTextPolicies + ` Its plan lists the organization's workspaces, which needs a user token of an owner or of a member of a team with "View all workspaces" (or "Manage workspaces"): for any other token the plan fails naming the permission rather than compute a partial governed_workspaces.`,
		list:            func() list.ListResource { return &policySetList{listBase{typ: policySetType}} },
		listPermissions: permTextPolicies + ` Its results list the organization's workspaces, which needs a user token of an owner or of a member of a team with "View all workspaces" (or "Manage workspaces").`,
		tfeMove:         &tfePolicySetMove,
	},
	{
		typ: policySetParameterType, new: NewPolicySetParameterResource, identity: policySetParameterIdentityAttrs, providerOrder: 11,
		permissions:     permTextPolicies,
		list:            func() list.ListResource { return &policySetParameterList{listBase{typ: policySetParameterType}} },
		listPermissions: permTextPolicies,
		tfeMove:         &tfePolicySetParameterMove,
	},
}

// registeredDataSource is one data source type.
type registeredDataSource struct {
	typ         dataSourceType
	new         func() datasource.DataSource
	permissions string
}

// dataSourceRegistry is in DataSources() order.
var dataSourceRegistry = []registeredDataSource{
	{agentTokensDataSourceType, NewAgentTokensDataSource, permTextAgents},
	{moduleVersionDataSourceType, NewModuleVersionDataSource, permTextRegistry},
	{teamAccessDataSourceType, NewTeamAccessDataSource, permTextSeeAccess},
	{workspaceTeamAccessDataSourceType, NewWorkspaceTeamAccessDataSource, permTextSeeAccess},
	{projectTeamAccessDataSourceType, NewProjectTeamAccessDataSource, permTextSeeProjectAccess},
	{policyDataSourceType, NewPolicyDataSource, permTextPolicies},
	{policiesDataSourceType, NewPoliciesDataSource, permTextPolicies},
	{policySetDataSourceType, NewPolicySetDataSource, permTextPolicies},
	{policySetsDataSourceType, NewPolicySetsDataSource, permTextPolicies},
	{workspacePolicySetsDataSourceType, NewWorkspacePolicySetsDataSource, permTextPolicies + ` It lists the organization's workspaces too: a member finds only the workspaces it may read.`},
	{moduleTestRunsDataSourceType, NewModuleTestRunsDataSource, permTextTests},
	{moduleTestRunDataSourceType, NewModuleTestRunDataSource, permTextTests},
	{moduleTestVariablesDataSourceType, NewModuleTestVariablesDataSource, permTextTests},
	{workspaceDataSourceType, NewWorkspaceDataSource, permTextSeeWorkspaces},
	{workspacesDataSourceType, NewWorkspacesDataSource, permTextSeeWorkspaces},
	{teamDataSourceType, NewTeamDataSource, permTextSeeTeams},
	{teamsDataSourceType, NewTeamsDataSource, permTextSeeTeams},
	{projectDataSourceType, NewProjectDataSource, permTextSeeProjects},
	{projectsDataSourceType, NewProjectsDataSource, permTextSeeProjects},
	{agentPoolDataSourceType, NewAgentPoolDataSource, permTextSeeAgentPools},
	{agentPoolsDataSourceType, NewAgentPoolsDataSource, permTextSeeAgentPools},
	{registryModuleDataSourceType, NewRegistryModuleDataSource, permTextRegistry},
	{policyEvaluationDataSourceType, NewPolicyEvaluationDataSource, `none: it makes no request, and works with no token or organization configured.`},
}

// registeredAction is one action type.
type registeredAction struct {
	typ         actionType
	new         func() action.Action
	permissions string
}

// actionRegistry is in Actions() order.
var actionRegistry = []registeredAction{
	{moduleTestActionType, NewModuleTestAction, permTextTests},
	{agentTokenPruneActionType, NewAgentTokenPruneAction, permTextAgents},
}

// registeredDataSources and registeredActions are DataSources() and Actions().
var (
	registeredDataSources = constructors(dataSourceRegistry, func(r registeredDataSource) func() datasource.DataSource { return r.new })
	registeredActions     = constructors(actionRegistry, func(r registeredAction) func() action.Action { return r.new })
)

func constructors[E, F any](table []E, pick func(E) F) []F {
	out := make([]F, 0, len(table))
	for _, e := range table {
		out = append(out, pick(e))
	}
	return out
}

// registeredResources is Resources(): every type, in providerOrder.
func registeredResources() []func() resource.Resource {
	rs := slices.SortedFunc(slices.Values(resourceRegistry), func(a, b registeredResource) int {
		return cmp.Compare(a.providerOrder, b.providerOrder)
	})
	out := make([]func() resource.Resource, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.new)
	}
	return out
}

// registeredLists is ListResources(): the types that have one, in table
// order.
func registeredLists() []func() list.ListResource {
	var out []func() list.ListResource
	for _, r := range resourceRegistry {
		if r.list != nil {
			out = append(out, r.list)
		}
	}
	return out
}

// registeredIdentities is resourceIdentities.
func registeredIdentities() map[resourceType][]identityAttr {
	out := make(map[resourceType][]identityAttr, len(resourceRegistry))
	for _, r := range resourceRegistry {
		out[r.typ] = r.identity
	}
	return out
}

// registeredMoves is tfeMoves, in table order.
func registeredMoves() []tfeMove {
	var out []tfeMove
	for _, r := range resourceRegistry {
		if r.tfeMove != nil {
			out = append(out, *r.tfeMove)
		}
	}
	return out
}
