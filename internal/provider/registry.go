package provider

import (
	"cmp"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The registry: every type the provider serves, written once. The
// provider's Resources, ListResources, DataSources and Actions, the
// identity table (resourceIdentities) and the move table (tfeMoves) are
// derived from it, and registry_test.go checks each cross-type test suite
// against it (DESIGN.md, "One registry of types").

// registeredResource is one managed resource type and what hangs off it.
type registeredResource struct {
	typ      resourceType
	new      func() resource.Resource
	identity []identityAttr
	// list is the type's list resource; nil: none.
	list func() list.ListResource
	// tfeMove is the hashicorp/tfe type whose state moves to this one;
	// nil: none.
	tfeMove *tfeMove
	// exempt gives, by suite (a crossTypeSuite constant), why the type is
	// not in that suite; registry_test.go fails on any other absence.
	exempt map[string]string
	// providerOrder is the type's place in Resources(), kept as it was
	// before the registry (the table itself is in list and move order).
	providerOrder int
}

// Cross-type test suites, each claiming to cover every resource type.
const (
	suiteStateBudget     = "TestAccStateBudget"
	suiteRequestBudgets  = "TestAccRequestBudgets"
	suiteChaos           = "TestAccChaos"
	suiteCrash           = "TestAccCrashConvergence"
	suiteIdentityNoPrior = "TestIdentity_protocolNoPriorIdentity"
	suiteIdentityUpdate  = "TestIdentity_protocolUpdateEveryType"
)

var resourceRegistry = []registeredResource{
	{
		typ: policyType, new: NewPolicyResource, identity: policyIdentityAttrs, providerOrder: 5,
		list:    func() list.ListResource { return &policyList{listBase{typ: policyType}} },
		tfeMove: &tfePolicyMove,
		exempt: map[string]string{
			suiteIdentityUpdate: "the update of a policy without prior identity has its own test, TestIdentity_protocolUpdateNoPriorIdentity",
		},
	},
	{
		typ: policyUploadType, new: NewPolicyUploadResource, identity: policyUploadIdentityAttrs, providerOrder: 6,
		list: func() list.ListResource { return &policyUploadList{listBase{typ: policyUploadType}} },
	},
	{
		typ: teamAccessType, new: NewTeamAccessResource, identity: teamAccessIdentityAttrs, providerOrder: 4,
		list:    func() list.ListResource { return &teamAccessList{listBase{typ: teamAccessType}} },
		tfeMove: &tfeTeamAccessMove,
	},
	{
		typ: agentTokenType, new: NewAgentTokenResource, identity: agentTokenIdentityAttrs, providerOrder: 0,
		list:    func() list.ListResource { return &agentTokenList{listBase{typ: agentTokenType}} },
		tfeMove: &tfeAgentTokenMove,
	},
	{
		typ: moduleTestVariableType, new: NewModuleTestVariableResource, identity: moduleTestVariableIdentityAttrs, providerOrder: 1,
		list:    func() list.ListResource { return &moduleTestVariableList{listBase{typ: moduleTestVariableType}} },
		tfeMove: &tfeTestVariableMove,
	},
	{
		typ: moduleTestRunType, new: NewModuleTestRunResource, identity: moduleTestRunIdentityAttrs, providerOrder: 3,
		list: func() list.ListResource { return &moduleTestRunList{listBase{typ: moduleTestRunType}} },
		exempt: map[string]string{
			suiteRequestBudgets: "a create's requests follow the run's progress (polls): TestAccModuleTestRunResource_requests counts them",
			suiteCrash:          "a run cannot be deleted (only its module), so the test's exact count of service against state cannot hold",
		},
	},
	{
		typ: moduleVersionDeprecationType, new: NewModuleVersionDeprecationResource, identity: moduleVersionDeprecationIdentityAttrs, providerOrder: 2,
		list: func() list.ListResource {
			return &moduleVersionDeprecationList{listBase{typ: moduleVersionDeprecationType}}
		},
		exempt: map[string]string{
			suiteChaos: "it updates the module version's record, creating nothing: no orphan or duplicate to count",
			suiteCrash: "it updates the module version's record, creating nothing: a killed write leaves nothing to converge",
		},
	},
	{
		typ: workspaceTeamAccessExclusiveType, new: NewWorkspaceTeamAccessExclusiveResource, identity: workspaceTeamAccessExclusiveIdentityAttrs, providerOrder: 7,
		exempt: map[string]string{
			suiteChaos:           "it creates nothing (an apply only removes grants): no orphan or duplicate to count; see its _lostDelete test",
			suiteCrash:           "it creates nothing (an apply only removes grants): a killed apply leaves nothing to converge",
			suiteIdentityNoPrior: "it has no list resource, which the identity protocol tests read objects through",
			suiteIdentityUpdate:  "it has no list resource, which the identity protocol tests read objects through",
		},
	},
}

// registeredDataSources are the provider's data sources, in DataSources()
// order.
var registeredDataSources = []func() datasource.DataSource{
	NewAgentTokensDataSource,
	NewModuleVersionDataSource,
	NewTeamAccessDataSource,
	NewWorkspaceTeamAccessDataSource,
	NewPolicyDataSource,
	NewPoliciesDataSource,
	NewModuleTestRunsDataSource,
	NewModuleTestRunDataSource,
	NewModuleTestVariablesDataSource,
	NewWorkspaceDataSource,
	NewWorkspacesDataSource,
	NewTeamDataSource,
	NewTeamsDataSource,
	NewAgentPoolDataSource,
	NewRegistryModuleDataSource,
	NewPolicyEvaluationDataSource,
}

// registeredActions are the provider's actions, in Actions() order.
var registeredActions = []func() action.Action{
	NewModuleTestAction,
	NewAgentTokenPruneAction,
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
