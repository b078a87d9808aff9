package provider

import (
	"sync"

	tfe "github.com/hashicorp/go-tfe"
)

// bulkLists: the shared lists (shared_lists.go) of the types refreshed in bulk, and what is known of policies.
type bulkLists struct {
	agentTokens      sharedLists[string, recordsByID[*tfe.AgentToken]] // by agent pool ID
	teamAccess       sharedLists[string, recordsByID[*tfe.TeamAccess]] // by workspace ID
	policies         sharedLists[string, recordsByID[*policyAPI]]      // by organization
	teams            sharedLists[string, recordsByID[*tfe.Team]]       // by organization
	parents          sharedLists[string, parentSeen]                   // gone or cannot see (gone.go), by "kind:ID"
	testRunPages     sharedLists[testRunPageKey, testRunPage]
	policyIdentities policyIdentities                                 // kind, name, organization by policy ID, so an upload's plan needs no read
	inlineCode       sync.Map                                         // policy ID → bool: its code is tfgov_policy's content, no upload allowed
	codeUploads      sync.Map                                         // policy ID → uploadClaim: the one tfgov_policy_upload planned for it
	plannedAccess    plannedAccess                                    // grants and exclusive sets planned, by parent (team_access_plans.go)
	workspaces       sharedLists[string, recordsByID[*tfe.Workspace]] // by organization: a workspace gone (grant_parent.go), a policy set's scope
	projects         sharedLists[string, recordsByID[*tfe.Project]]   // by organization: a project gone (grant_parent.go)
	// teamProjectAccess: by project ID (team_project_access_bulk.go).
	teamProjectAccess sharedLists[string, recordsByID[*tfe.TeamProjectAccess]]
	policySets        sharedLists[string, recordsByID[*tfe.PolicySet]] // by organization
	setParameters     sharedLists[string, parameterList]               // by policy set ID (policy_set_parameter_api.go)
	setReads          sharedLists[string, policySetRead]               // by policy set ID: a parameter's plan checks its set
}
