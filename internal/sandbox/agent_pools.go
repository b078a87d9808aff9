package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
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
	// AllowedProjects' workspaces may use the pool when it is not
	// organization scoped. Project IDs.
	AllowedProjects []string `json:"allowed_projects,omitempty"`
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
		// workspaces is always empty.
		Relationships: map[string]any{
			"organization":        relOne("organizations", ap.Org),
			"workspaces":          relMany("workspaces", nil),
			"allowed-workspaces":  relMany("workspaces", ap.AllowedWorkspaces),
			"excluded-workspaces": relMany("workspaces", ap.ExcludedWorkspaces),
			"allowed-projects":    relMany("projects", ap.AllowedProjects),
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
	if s.st.agentPoolNamed(org, name, "") != nil {
		return errNameTaken()
	}
	ap := &agentPool{record: s.st.newRecord("apool-"), Org: org, Name: name, OrganizationScoped: true}
	assign(&ap.OrganizationScoped, scoped)
	if e := s.st.setAgentPoolWorkspaces(ap, b); e != nil {
		return e
	}
	s.st.AgentPools[ap.ID] = ap
	return writeOne(w, http.StatusCreated, ap, agentPoolResource)
}

// canReadAgentPool: every member may see an organization's pools (workspace
// admins pick them for their workspaces); their tokens need
// manage-agent-pools (see agent_tokens.go).
func (st *state) canReadAgentPool(p principal, ap *agentPool) bool {
	return st.memberOf(p, ap.Org)
}

// listAgentPools is go-tfe's AgentPools.List, oldest first, paginated:
// with `q` (go-tfe's Query) only pools whose name contains the text,
// case-insensitively; with `filter[allowed_workspaces][name]` only pools
// that workspace may use (organization-scoped ones unless they exclude
// it, others when they allow it); `sort=name` (or `-name`) orders by name.
func (s *Server) listAgentPools(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	q := r.URL.Query()
	query := strings.ToLower(q.Get("q"))
	wsName, byWorkspace := q.Get("filter[allowed_workspaces][name]"), q.Has("filter[allowed_workspaces][name]")
	ws := s.st.workspaceByName(org, wsName)
	all := sorted(s.st.AgentPools, func(ap *agentPool) bool {
		if ap.Org != org || !strings.Contains(strings.ToLower(ap.Name), query) {
			return false
		}
		if !byWorkspace {
			return true
		}
		if ws == nil {
			return false
		}
		if ap.OrganizationScoped {
			return !slices.Contains(ap.ExcludedWorkspaces, ws.ID)
		}
		return slices.Contains(ap.AllowedWorkspaces, ws.ID)
	})
	switch q.Get("sort") {
	case "name":
		slices.SortStableFunc(all, func(a, b *agentPool) int { return strings.Compare(a.Name, b.Name) })
	case "-name":
		slices.SortStableFunc(all, func(a, b *agentPool) int { return strings.Compare(b.Name, a.Name) })
	}
	return writeList(w, r, all, agentPoolResource)
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

// updateAgentPool is PATCH /agent-pools/:id (go-tfe's Update and its
// UpdateAllowedWorkspaces/UpdateExcludedWorkspaces, which hashicorp/tfe's
// tfe_agent_pool and tfe_agent_pool_allowed_workspaces use): name and
// organization-scoped when sent; the allowed-workspaces and
// excluded-workspaces relationships, when sent, replace the lists (an empty
// array clears one), and so does allowed-projects. As on the real service, a
// workspace or project of another organization or none is a 422 and nothing
// changes. Owners and manage-agent-pools; others get 404.
func (s *Server) updateAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ap := s.st.agentPoolFor(p, r.PathValue("id"), true)
	if ap == nil {
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
		if s.st.agentPoolNamed(ap.Org, *name, ap.ID) != nil {
			return errNameTaken()
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
	return writeOne(w, http.StatusOK, ap, agentPoolResource)
}

// agentPoolNamed is the pool of org called name other than the one with
// ID except, or nil: names are unique in an organization.
func (st *state) agentPoolNamed(org, name, except string) *agentPool {
	return find(st.AgentPools, func(ap *agentPool) bool { return ap.Org == org && ap.Name == name && ap.ID != except })
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
	if _, sent := b.res.Relationships["allowed-projects"]; !sent {
		return nil
	}
	projects := b.relIDs("allowed-projects", "projects")
	if b.err != nil {
		return b.err
	}
	for _, id := range projects {
		if st.projectIn(ap.Org, id) == nil {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship",
				Detail: fmt.Sprintf("allowed-projects: project %s not found in organization %s", id, ap.Org), Pointer: "/data/relationships/allowed-projects"}
		}
	}
	ap.AllowedProjects = slices.Compact(slices.Sorted(slices.Values(projects)))
	return nil
}

// deleteAgentPool deletes a pool and revokes its agent tokens.
func (s *Server) deleteAgentPool(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.agentPoolFor(p, r.PathValue("id"), true), s.st.deleteAgentPool)
}

func (st *state) deleteAgentPool(id string) {
	deleteWhere(st.Tokens, func(tok *token) bool { return tok.Kind == tokenAgent && tok.PoolID == id }, st.deleteToken)
	delete(st.AgentPools, id)
}
