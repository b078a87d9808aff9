package sandbox

import (
	"fmt"
	"net/http"
	"slices"
)

// Agent pools, which agent tokens (agent_tokens.go) belong to. Not
// documented by the reference; shaped as go-tfe expects.

func (s *Server) registerAgentPools() {
	s.route("POST /api/v2/organizations/{org}/agent-pools", s.createAgentPool)
	s.route("GET /api/v2/organizations/{org}/agent-pools", s.listAgentPools)
	s.route("GET /api/v2/agent-pools/{id}", s.readAgentPool)
	s.route("PATCH /api/v2/agent-pools/{id}", s.updateAgentPool)
	s.route("DELETE /api/v2/agent-pools/{id}", s.deleteAgentPool)
}

type agentPool struct {
	record
	Org                string `json:"org"`
	Name               string `json:"name"`
	OrganizationScoped bool   `json:"organization_scoped"`
	// AllowedWorkspaces may use the pool when it is not organization
	// scoped; ExcludedWorkspaces may not when it is. Workspace IDs.
	AllowedWorkspaces  []string `json:"allowed_workspaces,omitempty"`
	ExcludedWorkspaces []string `json:"excluded_workspaces,omitempty"`
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
		// The sandbox runs no agents and no workspace uses a pool, so
		// workspaces is always empty; it has no projects either.
		Relationships: map[string]any{
			"organization":        relOne("organizations", ap.Org),
			"workspaces":          relMany("workspaces", nil),
			"allowed-workspaces":  relMany("workspaces", ap.AllowedWorkspaces),
			"excluded-workspaces": relMany("workspaces", ap.ExcludedWorkspaces),
			"allowed-projects":    relMany("projects", nil),
		},
		Links: map[string]any{"self": apiPath("agent-pools", ap.ID)},
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
	if e := s.st.checkAgentPoolName(org, name, ""); e != nil {
		return e
	}
	ap := &agentPool{record: s.st.newRecord("apool-"), Org: org, Name: name, OrganizationScoped: true}
	if scoped != nil {
		ap.OrganizationScoped = *scoped
	}
	if e := s.st.setAgentPoolWorkspaces(ap, b); e != nil {
		return e
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

// updateAgentPool is PATCH /agent-pools/:id (go-tfe's Update and its
// UpdateAllowedWorkspaces/UpdateExcludedWorkspaces, which hashicorp/tfe's
// tfe_agent_pool and tfe_agent_pool_allowed_workspaces use): name and
// organization-scoped when sent; the allowed-workspaces and
// excluded-workspaces relationships, when sent, replace the lists (an empty
// array clears one). As on the real service, a workspace of another
// organization or none is a 422 and nothing changes; allowed-projects may
// only be empty, since the sandbox has no projects. Owners and
// manage-agent-pools; others get 404.
func (s *Server) updateAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ap := s.st.AgentPools[r.PathValue("id")]
	if ap == nil || !s.st.canReadAgentPool(p, ap) || !s.st.hasOrgAccess(p, ap.Org, canManageAgentPools) {
		return errNotFound()
	}
	b, e := decodeBody(r, "agent-pools")
	if e != nil {
		return e
	}
	name := b.optString("name")
	scoped := b.optBool("organization-scoped")
	if b.err != nil {
		return b.err
	}
	if name != nil {
		if *name == "" {
			return errInvalidAttribute("name", "name can't be blank")
		}
		if e := s.st.checkAgentPoolName(ap.Org, *name, ap.ID); e != nil {
			return e
		}
	}
	updated := *ap
	if e := s.st.setAgentPoolWorkspaces(&updated, b); e != nil {
		return e
	}
	if name != nil {
		updated.Name = *name
	}
	if scoped != nil {
		updated.OrganizationScoped = *scoped
	}
	*ap = updated
	writeDoc(w, http.StatusOK, document{Data: agentPoolResource(ap)})
	return nil
}

// checkAgentPoolName: names are unique in an organization (422).
func (st *state) checkAgentPoolName(org, name, self string) *apiError {
	for _, other := range st.AgentPools {
		if other.Org == org && other.Name == name && other.ID != self {
			return errInvalidAttribute("name", "name has already been taken")
		}
	}
	return nil
}

// setAgentPoolWorkspaces applies the allowed-workspaces and
// excluded-workspaces relationships of b to ap, each only when b sends it.
func (st *state) setAgentPoolWorkspaces(ap *agentPool, b *body) *apiError {
	for _, rel := range []struct {
		name string
		dst  *[]string
	}{{"allowed-workspaces", &ap.AllowedWorkspaces}, {"excluded-workspaces", &ap.ExcludedWorkspaces}} {
		if _, sent := b.res.Relationships[rel.name]; !sent {
			continue
		}
		ids := b.relIDs(rel.name, "workspaces")
		if b.err != nil {
			return b.err
		}
		for _, id := range ids {
			if ws := st.Workspaces[id]; ws == nil || ws.Org != ap.Org {
				return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship",
					Detail: fmt.Sprintf("%s: workspace %s not found in organization %s", rel.name, id, ap.Org), Pointer: "/data/relationships/" + rel.name}
			}
		}
		*rel.dst = slices.Compact(slices.Sorted(slices.Values(ids)))
	}
	if projects := b.relIDs("allowed-projects", "projects"); b.err != nil {
		return b.err
	} else if len(projects) > 0 {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship",
			Detail: fmt.Sprintf("allowed-projects: project %s not found", projects[0]), Pointer: "/data/relationships/allowed-projects"}
	}
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
