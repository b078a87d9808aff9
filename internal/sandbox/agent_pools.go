package sandbox

import (
	"net/http"
)

// Agent pools, which agent tokens (agent_tokens.go) belong to. Not
// documented by the reference; shaped as go-tfe expects.

func (s *Server) registerAgentPools() {
	s.route("POST /api/v2/organizations/{org}/agent-pools", s.createAgentPool)
	s.route("GET /api/v2/organizations/{org}/agent-pools", s.listAgentPools)
	s.route("GET /api/v2/agent-pools/{id}", s.readAgentPool)
	s.route("DELETE /api/v2/agent-pools/{id}", s.deleteAgentPool)
}

type agentPool struct {
	record
	Org                string `json:"org"`
	Name               string `json:"name"`
	OrganizationScoped bool   `json:"organization_scoped"`
}

func canManageAgentPools(a orgAccess) bool { return a.ManageAgentPools }

func agentPoolResource(ap *agentPool) resource {
	return resource{
		Type: "agent-pools",
		ID:   ap.ID,
		Attributes: map[string]any{
			"name":                ap.Name,
			"created-at":          timestamp(ap.CreatedAt),
			"organization-scoped": ap.OrganizationScoped,
			"agent-count":         0,
		},
		// No workspace uses a pool in the sandbox, and pools have no
		// workspace or project restrictions: the lists go-tfe decodes are
		// empty.
		Relationships: map[string]any{
			"organization":        relOne("organizations", ap.Org),
			"workspaces":          relMany("workspaces", nil),
			"allowed-workspaces":  relMany("workspaces", nil),
			"allowed-projects":    relMany("projects", nil),
			"excluded-workspaces": relMany("workspaces", nil),
		},
		Links: map[string]any{"self": apiPath("agent-pools", ap.ID)},
	}
}

// createAgentPool creates an agent pool: owners and manage-agent-pools.
// Names are unique in the organization (422). organization-scoped defaults
// to true.
func (s *Server) createAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManageAgentPools, "agent-pools")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	scoped := b.optBool("organization-scoped")
	if b.err != nil {
		return b.err
	}
	if find(s.st.AgentPools, func(ap *agentPool) bool { return ap.Org == org && ap.Name == name }) != nil {
		return errNameTaken()
	}
	ap := &agentPool{record: s.st.newRecord("apool-"), Org: org, Name: name, OrganizationScoped: true}
	assign(&ap.OrganizationScoped, scoped)
	s.st.AgentPools[ap.ID] = ap
	return writeOne(w, http.StatusCreated, ap, agentPoolResource)
}

// canReadAgentPool: every member may see an organization's pools (workspace
// admins pick them for their workspaces); their tokens need
// manage-agent-pools (see agent_tokens.go).
func (st *state) canReadAgentPool(p principal, ap *agentPool) bool {
	return st.memberOf(p, ap.Org)
}

func (s *Server) listAgentPools(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	return writeList(w, r, sorted(s.st.AgentPools, func(ap *agentPool) bool { return ap.Org == org }), agentPoolResource)
}

// agentPoolFor returns the pool at id when p may read it and, with manage,
// may manage agent pools; otherwise nil.
func (st *state) agentPoolFor(p principal, id string, manage bool) *agentPool {
	return visible(st.AgentPools[id], func(ap *agentPool) bool {
		return st.canReadAgentPool(p, ap) && st.mayIn(p, ap.Org, managing(manage, canManageAgentPools))
	})
}

func (s *Server) readAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return writeOne(w, http.StatusOK, s.st.agentPoolFor(p, r.PathValue("id"), false), agentPoolResource)
}

// deleteAgentPool deletes a pool and revokes its agent tokens.
func (s *Server) deleteAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.agentPoolFor(p, r.PathValue("id"), true), s.st.deleteAgentPool)
}

func (st *state) deleteAgentPool(id string) {
	deleteWhere(st.Tokens, func(tok *token) bool { return tok.Kind == tokenAgent && tok.PoolID == id }, st.deleteToken)
	delete(st.AgentPools, id)
}
