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
		Relationships: map[string]any{"organization": relOne("organizations", ap.Org)},
		Links:         map[string]any{"self": apiPath("agent-pools", ap.ID)},
	}
}

// createAgentPool creates an agent pool: owners and manage-agent-pools.
// Names are unique in the organization (422). organization-scoped defaults
// to true.
func (s *Server) createAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, canManageAgentPools) {
		return errNotFound()
	}
	b, e := decodeBody(r, "agent-pools")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	scoped := b.optBool("organization-scoped")
	if b.err != nil {
		return b.err
	}
	for _, ap := range s.st.AgentPools {
		if ap.Org == org && ap.Name == name {
			return errInvalidAttribute("name", "name has already been taken")
		}
	}
	ap := &agentPool{record: s.st.newRecord("apool-"), Org: org, Name: name, OrganizationScoped: true}
	if scoped != nil {
		ap.OrganizationScoped = *scoped
	}
	s.st.AgentPools[ap.ID] = ap
	writeDoc(w, http.StatusCreated, document{Data: agentPoolResource(ap)})
	return nil
}

// canReadAgentPool: every member may see an organization's pools (workspace
// admins pick them for their workspaces); their tokens need
// manage-agent-pools (see agent_tokens.go).
func (st *state) canReadAgentPool(p principal, ap *agentPool) bool {
	return st.memberOf(p, ap.Org)
}

func (s *Server) listAgentPools(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	all := sorted(s.st.AgentPools, func(ap *agentPool) bool { return ap.Org == org })
	var data []resource
	for _, ap := range paginate(all, pg) {
		data = append(data, agentPoolResource(ap))
	}
	writeDoc(w, http.StatusOK, pageDocument(r, pg, len(all), orEmpty(data)))
	return nil
}

func (s *Server) readAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ap := s.st.AgentPools[r.PathValue("id")]
	if ap == nil || !s.st.canReadAgentPool(p, ap) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: agentPoolResource(ap)})
	return nil
}

// deleteAgentPool deletes a pool and revokes its agent tokens.
func (s *Server) deleteAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ap := s.st.AgentPools[r.PathValue("id")]
	if ap == nil || !s.st.canReadAgentPool(p, ap) || !s.st.hasOrgAccess(p, ap.Org, canManageAgentPools) {
		return errNotFound()
	}
	s.st.deleteAgentPool(ap.ID)
	writeNoContent(w)
	return nil
}

func (st *state) deleteAgentPool(id string) {
	for _, tok := range st.Tokens {
		if tok.Kind == tokenAgent && tok.PoolID == id {
			st.deleteToken(tok.ID)
		}
	}
	delete(st.AgentPools, id)
}
