package sandbox

import (
	"net/http"
	"strings"
	"time"
)

// Workspaces: the basic records team access and the quickstart need. Not
// documented by the reference; shaped as go-tfe expects.

func (s *Server) registerWorkspaces() {
	s.route("POST /api/v2/organizations/{org}/workspaces", s.createWorkspace)
	s.route("GET /api/v2/organizations/{org}/workspaces", s.listWorkspaces)
	s.route("GET /api/v2/organizations/{org}/workspaces/{name}", s.readWorkspaceByName)
	s.route("DELETE /api/v2/organizations/{org}/workspaces/{name}", s.deleteWorkspaceByName)
	s.route("GET /api/v2/workspaces/{id}", s.readWorkspace)
	s.route("DELETE /api/v2/workspaces/{id}", s.deleteWorkspaceByID)
}

type workspace struct {
	record
	Org         string    `json:"org"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func workspaceResource(ws *workspace) resource {
	return resource{
		Type: "workspaces",
		ID:   ws.ID,
		Attributes: map[string]any{
			"name":           ws.Name,
			"description":    ws.Description,
			"created-at":     timestamp(ws.CreatedAt),
			"updated-at":     timestamp(ws.UpdatedAt),
			"execution-mode": "remote",
			"auto-apply":     false,
			"locked":         false,
			"resource-count": 0,
		},
		Relationships: map[string]any{"organization": relOne("organizations", ws.Org)},
		Links:         map[string]any{"self": apiPath("workspaces", ws.ID)},
	}
}

func canManageWorkspaces(a orgAccess) bool { return a.ManageWorkspaces }

// createWorkspace creates a workspace; owners and manage-workspaces may.
// Names follow nameRE and are unique in the organization (422).
func (s *Server) createWorkspace(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, canManageWorkspaces) {
		return errNotFound()
	}
	b, e := decodeBody(r, "workspaces")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	desc := b.optString("description")
	if b.err != nil {
		return b.err
	}
	if !nameRE.MatchString(name) {
		return errInvalidAttribute("name", "name may contain only letters, numbers, - and _")
	}
	if s.st.workspaceByName(org, name) != nil {
		return errInvalidAttribute("name", "name has already been taken")
	}
	ws := &workspace{record: s.st.newRecord("ws-"), Org: org, Name: name}
	ws.UpdatedAt = ws.CreatedAt
	if desc != nil {
		ws.Description = *desc
	}
	s.st.Workspaces[ws.ID] = ws
	writeDoc(w, http.StatusCreated, document{Data: workspaceResource(ws)})
	return nil
}

func (st *state) workspaceByName(org, name string) *workspace {
	for _, ws := range st.Workspaces {
		if ws.Org == org && ws.Name == name {
			return ws
		}
	}
	return nil
}

// canReadWorkspace: the sandbox lets every member of the organization read
// its workspaces' basic records (the real service narrows this by team
// access; no endpoint of the reference depends on that).
func (st *state) canReadWorkspace(p principal, ws *workspace) bool {
	return st.memberOf(p, ws.Org)
}

func (s *Server) listWorkspaces(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	search := r.URL.Query().Get("search[name]")
	all := sorted(s.st.Workspaces, func(ws *workspace) bool {
		return ws.Org == org && strings.Contains(ws.Name, search)
	})
	var data []resource
	for _, ws := range paginate(all, pg) {
		data = append(data, workspaceResource(ws))
	}
	writeDoc(w, http.StatusOK, pageDocument(r, pg, len(all), orEmpty(data)))
	return nil
}

func (s *Server) readWorkspaceByName(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.workspaceByName(r.PathValue("org"), r.PathValue("name"))
	if ws == nil || !s.st.canReadWorkspace(p, ws) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: workspaceResource(ws)})
	return nil
}

func (s *Server) readWorkspace(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.Workspaces[r.PathValue("id")]
	if ws == nil || !s.st.canReadWorkspace(p, ws) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: workspaceResource(ws)})
	return nil
}

func (s *Server) deleteWorkspaceByName(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.deleteWorkspaceRecord(w, p, s.st.workspaceByName(r.PathValue("org"), r.PathValue("name")))
}

func (s *Server) deleteWorkspaceByID(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.deleteWorkspaceRecord(w, p, s.st.Workspaces[r.PathValue("id")])
}

func (s *Server) deleteWorkspaceRecord(w http.ResponseWriter, p principal, ws *workspace) *apiError {
	if ws == nil || !s.st.canReadWorkspace(p, ws) || !s.st.hasOrgAccess(p, ws.Org, canManageWorkspaces) {
		return errNotFound()
	}
	s.st.deleteWorkspace(ws.ID)
	writeNoContent(w)
	return nil
}

// deleteWorkspace removes a workspace and what hangs off it.
func (st *state) deleteWorkspace(id string) {
	st.deleteTeamAccessWhere(func(ta *teamAccess) bool { return ta.WorkspaceID == id })
	delete(st.Workspaces, id)
}
