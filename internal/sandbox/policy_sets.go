package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"time"
)

// Policy sets, which policies (policies.go) are grouped in. Not documented
// by the reference; shaped as go-tfe expects.

func (s *Server) registerPolicySets() {
	s.route("POST /api/v2/organizations/{org}/policy-sets", s.createPolicySet)
	s.route("GET /api/v2/organizations/{org}/policy-sets", s.listPolicySets)
	s.route("GET /api/v2/policy-sets/{id}", s.readPolicySet)
	s.route("DELETE /api/v2/policy-sets/{id}", s.deletePolicySet)
}

type policySet struct {
	record
	Org         string    `json:"org"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Kind        string    `json:"kind"`
	Global      bool      `json:"global"`
	PolicyIDs   []string  `json:"policy_ids"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func canManagePolicies(a orgAccess) bool { return a.ManagePolicies }

func policySetResource(ps *policySet) resource {
	return resource{
		Type: "policy-sets",
		ID:   ps.ID,
		Attributes: map[string]any{
			"name":            ps.Name,
			"description":     nullableString(ps.Description),
			"kind":            ps.Kind,
			"global":          ps.Global,
			"overridable":     false,
			"policy-count":    len(ps.PolicyIDs),
			"workspace-count": 0,
			"project-count":   0,
			"created-at":      timestamp(ps.CreatedAt),
			"updated-at":      timestamp(ps.UpdatedAt),
			// Sets are made of individual policies, never from a VCS
			// repository, and are evaluated by the service, not an agent.
			"vcs-repo":            nil,
			"policies-path":       nil,
			"agent-enabled":       false,
			"policy-tool-version": nil,
		},
		// The sandbox attaches sets to no workspace or project: the lists
		// go-tfe decodes are empty.
		Relationships: map[string]any{
			"organization":         relOne("organizations", ps.Org),
			"policies":             relMany("policies", ps.PolicyIDs),
			"workspaces":           relMany("workspaces", nil),
			"workspace-exclusions": relMany("workspaces", nil),
			"projects":             relMany("projects", nil),
			"project-exclusions":   relMany("projects", nil),
		},
		Links: map[string]any{"self": apiPath("policy-sets", ps.ID)},
	}
}

// createPolicySet creates a policy set: owners, the organization token and
// teams with manage-policies. Names follow nameRE (spaces are refused here,
// as in policy names) and are unique in the organization; kind is
// `sentinel` (default) or `opa`. The free edition's "one policy set of up to
// five policies" is not enforced: the sandbox emulates a paid organization.
func (s *Server) createPolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManagePolicies, "policy-sets")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	desc := b.optString("description")
	global := b.optBool("global")
	kind := b.optString("kind")
	b.oneOf("kind", kind, "sentinel", "opa")
	policyIDs := b.relIDs("policies", "policies")
	if b.err != nil {
		return b.err
	}
	if e := checkName(name); e != nil {
		return e
	}
	if find(s.st.PolicySets, func(ps *policySet) bool { return ps.Org == org && ps.Name == name }) != nil {
		return errNameTaken()
	}
	ps := &policySet{record: s.st.newRecord("polset-"), Org: org, Name: name, Kind: "sentinel", PolicyIDs: []string{}}
	ps.UpdatedAt = ps.CreatedAt
	assign(&ps.Description, desc)
	assign(&ps.Global, global)
	assign(&ps.Kind, kind)
	// The `policies` relationship (go-tfe PolicySetCreateOptions.Policies)
	// names policies of the organization, of the set's kind.
	for _, id := range policyIDs {
		pol := s.st.Policies[id]
		if pol == nil || pol.Org != org || pol.Kind != ps.Kind {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("policies: policy %s not found among the %s policies of organization %s", id, ps.Kind, org), Pointer: "/data/relationships/policies"}
		}
		if !slices.Contains(ps.PolicyIDs, id) {
			ps.PolicyIDs = append(ps.PolicyIDs, id)
		}
	}
	s.st.PolicySets[ps.ID] = ps
	return writeOne(w, http.StatusCreated, ps, policySetResource)
}

func (s *Server) listPolicySets(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, canManagePolicies)
	if e != nil {
		return e
	}
	return writeList(w, r, sorted(s.st.PolicySets, func(ps *policySet) bool { return ps.Org == org }), policySetResource)
}

// policySetFor returns the set at id when p may manage policies in its
// organization, or nil.
func (st *state) policySetFor(p principal, id string) *policySet {
	return visible(st.PolicySets[id], func(ps *policySet) bool { return st.canManagePoliciesIn(p, ps.Org) })
}

func (s *Server) readPolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return writeOne(w, http.StatusOK, s.st.policySetFor(p, r.PathValue("id")), policySetResource)
}

func (s *Server) deletePolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.policySetFor(p, r.PathValue("id")), s.st.deletePolicySet)
}

// deletePolicySet removes a set; the policies in it stay. They are detached
// by the removal itself: a policy's sets are derived from the sets'
// PolicyIDs (see policies.go).
func (st *state) deletePolicySet(id string) {
	delete(st.PolicySets, id)
}
