package sandbox

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// Workspaces: the basic records team access and the quickstart need. Not
// documented by the reference; shaped as go-tfe expects.

func (s *Server) registerWorkspaces() {
	s.route("POST /api/v2/organizations/{org}/workspaces", s.createWorkspace)
	s.route("GET /api/v2/organizations/{org}/workspaces", s.listWorkspaces)
	s.route("GET /api/v2/organizations/{org}/workspaces/{name}", s.readWorkspace)
	s.route("PATCH /api/v2/organizations/{org}/workspaces/{name}", s.updateWorkspace)
	s.route("POST /api/v2/organizations/{org}/workspaces/{name}/actions/safe-delete", s.safeDeleteWorkspace)
	s.route("DELETE /api/v2/organizations/{org}/workspaces/{name}", s.deleteWorkspace)
	s.route("GET /api/v2/workspaces/{id}", s.readWorkspace)
	s.route("PATCH /api/v2/workspaces/{id}", s.updateWorkspace)
	s.route("POST /api/v2/workspaces/{id}/actions/safe-delete", s.safeDeleteWorkspace)
	s.route("GET /api/v2/workspaces/{id}/relationships/remote-state-consumers", s.listRemoteStateConsumers)
	s.route("DELETE /api/v2/workspaces/{id}", s.deleteWorkspace)
}

type workspace struct {
	record
	Org         string    `json:"org"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	UpdatedAt   time.Time `json:"updated_at"`
	// ProjectID is the project the workspace is in (projects.go): always
	// one of its organization's.
	ProjectID string `json:"project_id,omitempty"`
	// TagNames are the workspace's tags, lower-case and sorted
	// (workspace_tags.go).
	TagNames []string `json:"tag_names,omitempty"`
	// TagBindings are its key/value tags (workspace_tag_bindings.go).
	TagBindings []tagBinding `json:"tag_bindings,omitempty"`
	// Settings are the settings changed from a new workspace's, by
	// attribute name; ExecutionMode is its own mode ("" inherits the
	// organization's) and AgentPoolID the pool of mode agent
	// (workspace_settings.go).
	Settings      map[string]any `json:"settings,omitempty"`
	ExecutionMode string         `json:"execution_mode,omitempty"`
	AgentPoolID   string         `json:"agent_pool_id,omitempty"`
}

// workspaceResource renders a workspace with what go-tfe's Workspace
// decodes: its settings and execution mode (workspace_settings.go), and the
// rest at the values of a workspace that has never run: unlocked, no
// resources, no VCS repository. `permissions` depend on the caller
// (workspaceRenderer adds them).
func (st *state) workspaceResource(ws *workspace) resource {
	res := resource{
		Type: "workspaces",
		ID:   ws.ID,
		Attributes: map[string]any{
			"name":                   ws.Name,
			"description":            ws.Description,
			"created-at":             timestamp(ws.CreatedAt),
			"updated-at":             timestamp(ws.UpdatedAt),
			"locked":                 false,
			"resource-count":         0,
			"actions":                map[string]any{"is-destroyable": true},
			"can-queue-destroy-plan": false,
			"environment":            "default",
			"project-remote-state":   false,
			"source":                 "tfe-api",
			"tag-names":              append([]string{}, ws.TagNames...),
			"vcs-repo":               nil,
		},
		Relationships: map[string]any{
			"organization": relOne("organizations", ws.Org),
			"project":      relOne("projects", ws.ProjectID),
			// The workspace's own key/value tags and its project's (workspace_tag_bindings.go).
			"effective-tag-bindings": relMany("effective-tag-bindings", effectiveBindingIDs(ws.ID, st.effectiveTagBindings(ws))),
		},
		Links: map[string]any{"self": apiPath("workspaces", ws.ID)},
	}
	st.workspaceSettingsAttributes(ws, &res)
	return res
}

func canManageWorkspaces(a orgAccess) bool { return a.ManageWorkspaces }

// createWorkspace creates a workspace; owners and manage-workspaces may.
// Names follow nameRE and are unique in the organization (422).
func (s *Server) createWorkspace(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManageWorkspaces, "workspaces")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	desc := b.optString("description")
	if b.err != nil {
		return b.err
	}
	if e := checkName(name); e != nil {
		return e
	}
	var tags []string
	if rel, ok := b.res.Relationships["tags"]; ok && len(rel.Data) > 0 && string(rel.Data) != "null" {
		names, e := s.st.tagsIn(org, rel.Data, "/data/relationships/tags/data")
		if e != nil {
			return e
		}
		tags = withTags(nil, names, true)
	}
	if s.st.workspaceByName(org, name) != nil {
		return errNameTaken()
	}
	bindings, e := readTagBindings(b, nil)
	if e != nil {
		return e
	}
	ws := &workspace{record: s.st.newRecord("ws-"), Org: org, Name: name, TagNames: tags, TagBindings: bindings, ProjectID: s.st.defaultProject(org).ID}
	ws.UpdatedAt = ws.CreatedAt
	assign(&ws.Description, desc)
	if e := s.st.applyWorkspaceSettings(b, ws); e != nil {
		return e
	}
	if prj := s.st.projectOf(ws); prj != nil && prj.AutoDestroyActivityDuration != "" && !b.has("auto-destroy-activity-duration") {
		ws.Settings["auto-destroy-activity-duration"] = prj.AutoDestroyActivityDuration // the project's default
	}
	s.st.Workspaces[ws.ID] = ws
	return writeOne(w, http.StatusCreated, ws, s.st.workspaceRenderer(p))
}

func (st *state) workspaceByName(org, name string) *workspace {
	return find(st.Workspaces, func(ws *workspace) bool { return ws.Org == org && ws.Name == name })
}

// canReadWorkspace: the sandbox lets every member of the organization read
// its workspaces' basic records (the real service narrows this by team
// access; no endpoint of the reference depends on that).
func (st *state) canReadWorkspace(p principal, ws *workspace) bool {
	return st.memberOf(p, ws.Org)
}

// listWorkspaces is go-tfe's Workspaces.List, by name (the real service's
// default order; `sort=-name` reverses it), paginated. Its filters combine:
// `search[name]` keeps names containing the text, case-insensitively;
// `search[wildcard-name]` matches `*` at either end (wildcardMatch);
// `search[tags]` keeps workspaces carrying every tag of a comma-separated
// list, `search[exclude-tags]` drops those carrying any; `filter[project][id]`
// keeps a project's.
func (s *Server) listWorkspaces(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	q := r.URL.Query()
	search := strings.ToLower(q.Get("search[name]"))
	wildcard := q.Get("search[wildcard-name]")
	tags, exclude := tagList(q.Get("search[tags]")), tagList(q.Get("search[exclude-tags]"))
	projectID := q.Get("filter[project][id]")
	all := sorted(s.st.Workspaces, func(ws *workspace) bool {
		return ws.Org == org && strings.Contains(strings.ToLower(ws.Name), search) && (projectID == "" || ws.ProjectID == projectID) &&
			(wildcard == "" || wildcardMatch(wildcard, ws.Name)) && ws.hasAllTags(tags) && !ws.hasAnyTag(exclude)
	})
	slices.SortStableFunc(all, func(a, b *workspace) int { return strings.Compare(a.Name, b.Name) })
	if q.Get("sort") == "-name" {
		slices.Reverse(all)
	}
	doc, shown, e := listPage(r, all, s.st.workspaceRenderer(p))
	if e != nil {
		return e
	}
	// include=effective_tag_bindings: a policy set's scope reads a page's tags in one request.
	if includes(r)["effective_tag_bindings"] {
		for _, ws := range shown {
			doc.Included = append(doc.Included, effectiveBindingResources(ws.ID, s.st.effectiveTagBindings(ws))...)
		}
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// workspaceFor returns ws when p may read it and, with manage, may manage
// workspaces; otherwise nil.
func (st *state) workspaceFor(p principal, ws *workspace, manage bool) *workspace {
	return visible(ws, func(ws *workspace) bool {
		return st.canReadWorkspace(p, ws) && st.mayIn(p, ws.Org, managing(manage, canManageWorkspaces))
	})
}

// workspaceAt is the workspace a request names, by `{org}/workspaces/{name}`
// or by `workspaces/{id}`.
func (st *state) workspaceAt(r *http.Request) *workspace {
	if id := r.PathValue("id"); id != "" {
		return st.Workspaces[id]
	}
	return st.workspaceByName(r.PathValue("org"), r.PathValue("name"))
}

// readWorkspace serves both read paths (by name and by ID).
func (s *Server) readWorkspace(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.workspaceFor(p, s.st.workspaceAt(r), false)
	if ws == nil {
		return errNotFound()
	}
	doc := document{Data: s.st.workspaceRenderer(p)(ws)}
	if includes(r)["effective_tag_bindings"] {
		doc.Included = effectiveBindingResources(ws.ID, s.st.effectiveTagBindings(ws))
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// listRemoteStateConsumers lists the workspaces that may read this one's
// state. The sandbox keeps no state, so none may: the list is always
// empty, as on the real service for a workspace that shares with nobody.
// hashicorp/tfe's tfe_workspace reads it; a 404 would make it take the
// sandbox for a Terraform Enterprise older than v202104 and report
// global_remote_state = true.
func (s *Server) listRemoteStateConsumers(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if s.st.workspaceFor(p, s.st.Workspaces[r.PathValue("id")], false) == nil {
		return errNotFound()
	}
	return writeList(w, r, []*workspace{}, s.st.workspaceRenderer(p))
}

// deleteWorkspace serves both delete paths (by name and by ID): owners,
// manage-workspaces and the workspace's admins may.
func (s *Server) deleteWorkspace(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.workspaceToManage(r, p), s.st.deleteWorkspace)
}

// deleteWorkspace removes a workspace and what hangs off it.
func (st *state) deleteWorkspace(id string) {
	st.deleteTeamAccessWhere(func(ta *teamAccess) bool { return ta.WorkspaceID == id })
	for _, ap := range st.AgentPools {
		ap.AllowedWorkspaces = slices.DeleteFunc(ap.AllowedWorkspaces, func(ws string) bool { return ws == id })
		ap.ExcludedWorkspaces = slices.DeleteFunc(ap.ExcludedWorkspaces, func(ws string) bool { return ws == id })
	}
	st.forgetScopeTarget("workspaces", id)
	delete(st.Workspaces, id)
}
