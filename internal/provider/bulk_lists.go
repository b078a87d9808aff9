package provider

import (
	"sync"

	tfe "github.com/hashicorp/go-tfe"
)

// The shared lists (shared_lists.go) of each resource refreshed in bulk.
type bulkLists struct {
	// agentTokens by agent pool ID.
	agentTokens sharedLists[string, recordsByID[*tfe.AgentToken]]
	// teamAccess by workspace ID.
	teamAccess sharedLists[string, recordsByID[*tfe.TeamAccess]]
	// policies by organization name.
	policies sharedLists[string, recordsByID[*policyAPI]]
	// teams by organization name (team_access.go).
	teams sharedLists[string, recordsByID[*tfe.Team]]
	// parents: the one read of a parent that tells gone from cannot-see
	// (gone.go), by "kind:ID".
	parents sharedLists[string, parentSeen]
	// testRunPages by module and page number (testRunPageKey).
	testRunPages sharedLists[testRunPageKey, testRunPage]
	// policyIdentities remembers, by policy ID, what never changes about
	// every policy this process planned, created or listed (its kind, name
	// and organization): tfgov_policy_upload's plan checks Rego with the
	// kind, and an upload to a policy known here needs no read of it.
	policyIdentities sync.Map // string → policyIdentity
	// inlineCode holds the IDs of the policies whose tfgov_policy manages
	// their code (content), as planned or created by this
	// process: a tfgov_policy_upload of one of them is refused.
	inlineCode sync.Map // string → bool
	// codeUploads holds, by policy ID, the tfgov_policy_upload planned for
	// it in this process (uploadClaim): a second one is refused.
	codeUploads sync.Map // string → uploadClaim
}
