package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// Projects: the containers of workspaces that team project access
// (team_project_access.go) grants on. Every organization has a default
// project, which holds every workspace made without one: README.md
// "Projects".

// defaultProjectName is the name the real service gives every
// organization's default project.
const defaultProjectName = "Default Project"

type project struct {
	record
	Org         string `json:"org"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// ExecutionMode is the project's own default execution mode ("" inherits
	// the organization's) and AgentPoolID the pool of mode agent.
	ExecutionMode string `json:"execution_mode,omitempty"`
	AgentPoolID   string `json:"agent_pool_id,omitempty"`
	// AutoDestroyActivityDuration is inherited by the project's new
	// workspaces ("" for none).
	AutoDestroyActivityDuration string       `json:"auto_destroy_activity_duration,omitempty"`
	TagBindings                 []tagBinding `json:"tag_bindings,omitempty"`
}

// tagBinding is a key/value tag of a project.
type tagBinding struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// projectIn returns the project id of org, or nil: the lookup every route
// and seed check that names a project by ID makes.
func (st *state) projectIn(org, id string) *project {
	if p := st.Projects[id]; p != nil && p.Org == org {
		return p
	}
	return nil
}

// defaultProject is org's default project (nil only for a missing
// organization).
func (st *state) defaultProject(org string) *project {
	if o := st.Organizations[org]; o != nil {
		return st.Projects[o.DefaultProjectID]
	}
	return nil
}

// isDefaultProject reports whether p is its organization's default project.
func (st *state) isDefaultProject(p *project) bool {
	o := st.Organizations[p.Org]
	return o != nil && o.DefaultProjectID == p.ID
}

// projectOf is the project ws belongs to.
func (st *state) projectOf(ws *workspace) *project {
	if p := st.projectIn(ws.Org, ws.ProjectID); p != nil {
		return p
	}
	return st.defaultProject(ws.Org)
}

// workspacesOf lists the workspaces of project id, oldest first.
func (st *state) workspacesOf(id string) []*workspace {
	return sorted(st.Workspaces, func(ws *workspace) bool { return ws.ProjectID == id })
}

// projectByName finds org's project named name; the real service compares
// project names without regard to case.
func (st *state) projectByName(org, name string) *project {
	return find(st.Projects, func(p *project) bool { return p.Org == org && strings.EqualFold(p.Name, name) })
}

// addDefaultProject gives o its default project, under id ("" for a new
// random one).
func (st *state) addDefaultProject(o *organization, id string) {
	r := st.newRecord("prj-")
	if id != "" {
		r.ID = id
	}
	p := &project{record: r, Org: o.Name, Name: defaultProjectName}
	st.Projects[p.ID] = p
	o.DefaultProjectID = p.ID
}

// ensureProjects keeps the projects' invariants over a state from any
// source (an older snapshot, a seed): every organization has a default
// project, and every workspace is in a project of its organization.
func (st *state) ensureProjects() {
	for _, o := range sorted(st.Organizations, nil) {
		if st.projectIn(o.Name, o.DefaultProjectID) == nil {
			st.addDefaultProject(o, stableID("prj-", o.Name, defaultProjectName))
		}
	}
	for _, ws := range st.Workspaces {
		if st.projectIn(ws.Org, ws.ProjectID) == nil {
			if p := st.defaultProject(ws.Org); p != nil {
				ws.ProjectID = p.ID
			}
		}
	}
}

// deleteProject removes a project and what hangs off it: its teams'
// grants, and its place in agent pools' and OAuth clients' lists. Its workspaces must have gone first (the routes refuse
// otherwise; an organization's delete removes them).
func (st *state) deleteProject(id string) {
	deleteWhere(st.TeamProjectAccesses, func(tp *teamProjectAccess) bool { return tp.ProjectID == id }, func(id string) { delete(st.TeamProjectAccesses, id) })
	drop := func(p string) bool { return p == id }
	for _, ap := range st.AgentPools {
		ap.AllowedProjects = slices.DeleteFunc(ap.AllowedProjects, drop)
	}
	for _, oc := range st.OAuthClients {
		oc.ProjectIDs = slices.DeleteFunc(oc.ProjectIDs, drop)
	}
	st.forgetScopeTarget("projects", id)
	delete(st.Projects, id)
}

func (s *Server) registerProjects() {
	s.route("POST /api/v2/organizations/{org}/projects", s.createProject)
	s.route("GET /api/v2/organizations/{org}/projects", s.listProjects)
	s.route("GET /api/v2/projects/{id}", s.readProject)
	s.route("PATCH /api/v2/projects/{id}", s.updateProject)
	s.route("DELETE /api/v2/projects/{id}", s.deleteProjectRoute)
	s.route("GET /api/v2/projects/{id}/tag-bindings", s.listProjectTagBindings)
	s.route("GET /api/v2/projects/{id}/effective-tag-bindings", s.listProjectTagBindings)
	s.route("PATCH /api/v2/projects/{id}/tag-bindings", s.addProjectTagBindings)
}

func canManageProjects(a orgAccess) bool { return a.ManageProjects }

// seesAllProjects: the organization permissions that show every project
// (README.md "Projects", who sees a project).
func seesAllProjects(a orgAccess) bool {
	return a.ManageProjects || a.ReadProjects || a.ManageWorkspaces || a.ReadWorkspaces
}

// projectAccessOf is what p may do on prj: admin (owners, the organization
// token, manage-projects, an admin grant), and each project permission the
// union of p's teams' grants gives.
type projectAccess struct {
	see, admin, update, destroy, readTeams, manageTeams, createWorkspace, moveWorkspace bool
}

func (st *state) projectAccessOf(p principal, prj *project) projectAccess {
	var a projectAccess
	if !st.memberOf(p, prj.Org) {
		return a
	}
	if st.hasOrgAccess(p, prj.Org, canManageProjects) {
		return projectAccess{true, true, true, true, true, true, true, true}
	}
	a.see = st.hasOrgAccess(p, prj.Org, seesAllProjects)
	mine := map[string]bool{}
	for _, t := range st.teamsOf(p, prj.Org) {
		mine[t.ID] = true
	}
	for _, tp := range st.TeamProjectAccesses {
		if tp.ProjectID != prj.ID || !mine[tp.TeamID] {
			continue
		}
		a.see = true
		a.admin = a.admin || tp.Access == "admin"
		a.update = a.update || tp.Project.Settings == "update" || tp.Project.Settings == "delete"
		a.destroy = a.destroy || tp.Project.Settings == "delete"
		a.readTeams = a.readTeams || tp.Project.Teams != "none"
		a.manageTeams = a.manageTeams || tp.Project.Teams == "manage"
		a.createWorkspace = a.createWorkspace || tp.Workspace.Create
		a.moveWorkspace = a.moveWorkspace || tp.Workspace.Move
	}
	// A workspace grant in the project shows the project too; one pass over
	// the grants, as a list checks every project.
	for _, ta := range st.TeamAccesses {
		if a.see {
			break
		}
		if ws := st.Workspaces[ta.WorkspaceID]; mine[ta.TeamID] && ws != nil && ws.ProjectID == prj.ID {
			a.see = true
		}
	}
	return a
}

// projectFor returns the project at id when p may see it, else nil.
func (st *state) projectFor(p principal, id string) *project {
	return visible(st.Projects[id], func(prj *project) bool { return st.projectAccessOf(p, prj).see })
}

// projectResource renders a project for p: its settings, its counts, the
// caller's permissions, and its tag bindings' relationship.
func (st *state) projectResource(p principal) func(*project) resource {
	return func(prj *project) resource {
		a := st.projectAccessOf(p, prj)
		mode, pool := st.projectExecution(prj)
		own := prj.ExecutionMode != ""
		teams := 0
		for _, tp := range st.TeamProjectAccesses {
			if tp.ProjectID == prj.ID {
				teams++
			}
		}
		return resource{
			Type: "projects",
			ID:   prj.ID,
			Attributes: map[string]any{
				"name":                           prj.Name,
				"description":                    prj.Description,
				"created-at":                     timestamp(prj.CreatedAt),
				"is-unified":                     false,
				"workspace-count":                len(st.workspacesOf(prj.ID)),
				"team-count":                     teams,
				"stack-count":                    0,
				"auto-destroy-activity-duration": nullableString(prj.AutoDestroyActivityDuration),
				"default-execution-mode":         mode,
				"setting-overwrites":             map[string]any{"default-execution-mode": own, "default-agent-pool": own},
				"permissions": map[string]any{
					"can-read": a.see, "can-update": a.update, "can-destroy": a.destroy,
					"can-create-workspace": a.createWorkspace, "can-move-workspace": a.moveWorkspace,
					"can-read-teams": a.readTeams, "can-manage-teams": a.manageTeams,
				},
			},
			Relationships: map[string]any{
				"organization":           relOne("organizations", prj.Org),
				"default-agent-pool":     relOne("agent-pools", pool),
				"effective-tag-bindings": relMany("effective-tag-bindings", effectiveTagBindingIDs(prj)),
			},
			Links: map[string]any{"self": apiPath("projects", prj.ID)},
		}
	}
}

// effectiveTagBindingIDs names a project's bindings: a project inherits
// none, so its effective bindings are its own, one ID per key.
func effectiveTagBindingIDs(prj *project) []string {
	ids := make([]string, 0, len(prj.TagBindings))
	for _, tb := range prj.TagBindings {
		ids = append(ids, stableID("etb-", prj.ID, tb.Key))
	}
	return ids
}

// projectIncluded renders `include=effective_tag_bindings` for prjs.
func projectIncluded(r *http.Request, prjs []*project) []resource {
	if !includes(r)["effective_tag_bindings"] {
		return nil
	}
	var out []resource
	for _, prj := range prjs {
		for _, tb := range prj.TagBindings {
			out = append(out, resource{Type: "effective-tag-bindings", ID: stableID("etb-", prj.ID, tb.Key),
				Attributes: map[string]any{"key": tb.Key, "value": tb.Value}})
		}
	}
	return out
}

// projectExecution is the project's default execution mode and agent pool:
// its own, or else its organization's.
func (st *state) projectExecution(prj *project) (mode, pool string) {
	mode, pool = prj.ExecutionMode, prj.AgentPoolID
	if mode == "" {
		mode = "remote"
		if o := st.Organizations[prj.Org]; o != nil {
			if m, ok := o.setting("default-execution-mode").(string); ok {
				mode = m
			}
			pool = o.DefaultAgentPoolID
		}
	}
	if mode != "agent" || st.AgentPools[pool] == nil {
		pool = ""
	}
	return mode, pool
}

// projectNameRE is the real service's rule for project names: letters,
// digits, spaces, `-` and `_`, not starting or ending with a space, 3 to
// 40 characters.
var projectNameRE = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9 _-]{1,38}[A-Za-z0-9_-]$`)

// applyProjectAttributes reads what a create or update sends (name,
// description, auto-destroy-activity-duration, the execution settings and
// tag-bindings), checks all of it, and only then applies it to prj.
func (st *state) applyProjectAttributes(b *body, prj *project, creating bool) *apiError {
	var name *string
	if creating {
		n := b.reqString("name")
		name = &n
	} else {
		name = b.optString("name")
	}
	desc := b.optString("description")
	if b.err != nil {
		return b.err
	}
	if name != nil && !projectNameRE.MatchString(*name) {
		return errInvalidAttribute("name", "Name may only contain letters, numbers, spaces, - and _, may not start or end with a space, and must be 3 to 40 characters long")
	}
	if desc != nil && len([]rune(*desc)) > 256 {
		return errInvalidAttribute("description", "Description is too long (maximum is 256 characters)")
	}
	ttl := prj.AutoDestroyActivityDuration
	if b.has("auto-destroy-activity-duration") {
		ttl = ""
		if v := b.optString("auto-destroy-activity-duration"); v != nil {
			ttl = *v
		}
		if ttl != "" && !autoDestroyDurationRE.MatchString(ttl) {
			return errInvalidAttribute("auto-destroy-activity-duration", "Auto destroy activity duration has an incorrect format, we expect up to 4 numeric digits and 1 unit ('d' or 'h')")
		}
	}
	mode, pool, e := st.readProjectExecution(b, prj)
	if e != nil {
		return e
	}
	tags, e := readTagBindings(b, prj.TagBindings)
	if e != nil {
		return e
	}
	// Uniqueness last, as the service checks it after the attributes' forms.
	if name != nil && !strings.EqualFold(*name, prj.Name) && st.projectByName(prj.Org, *name) != nil {
		return errNameTaken()
	}
	assign(&prj.Name, name)
	assign(&prj.Description, desc)
	prj.AutoDestroyActivityDuration, prj.ExecutionMode, prj.AgentPoolID, prj.TagBindings = ttl, mode, pool, tags
	return nil
}

// readProjectExecution reads default-execution-mode, default-agent-pool-id
// and setting-overwrites into the project's own mode ("" inherits) and
// pool, with the real service's messages.
func (st *state) readProjectExecution(b *body, prj *project) (mode, pool string, e *apiError) {
	var overwrites struct {
		ExecutionMode *bool `json:"default-execution-mode"`
		AgentPool     *bool `json:"default-agent-pool"`
	}
	b.optObject("setting-overwrites", &overwrites)
	sent := b.optString("default-execution-mode")
	b.oneOf("default-execution-mode", sent, "remote", "local", "agent")
	sentPool := b.optString("default-agent-pool-id")
	if b.err != nil {
		return "", "", b.err
	}
	if overwrites.ExecutionMode != nil && overwrites.AgentPool != nil && *overwrites.ExecutionMode != *overwrites.AgentPool {
		return "", "", errInvalidAttribute("setting-overwrites", "If agent-pool and execution-mode are both included in setting-overwrites, their values must be the same.")
	}
	if (overwrites.ExecutionMode != nil && !*overwrites.ExecutionMode) || (overwrites.AgentPool != nil && !*overwrites.AgentPool) {
		return "", "", nil
	}
	mode, pool = prj.ExecutionMode, prj.AgentPoolID
	if sent != nil {
		mode = *sent
		if mode != "agent" {
			pool = ""
		}
	}
	if sentPool != nil && *sentPool != "" {
		if mode != "agent" {
			return "", "", errInvalidAttribute("default-agent-pool-id", "Default agent pool must not be specified unless using 'agent' execution mode")
		}
		pool = *sentPool
	}
	if mode == "agent" {
		if pool == "" {
			return "", "", errInvalidAttribute("default-agent-pool-id", "Default agent pool must be specified when using 'agent' execution mode")
		}
		if ap := st.AgentPools[pool]; ap == nil || ap.Org != prj.Org {
			return "", "", errInvalidAttribute("default-agent-pool-id", "Default agent pool "+pool+" not found in the organization")
		}
	}
	return mode, pool, nil
}

// readTagBindings reads the tag-bindings relationship, which replaces a
// project's bindings when sent (go-tfe sends each binding's key and value
// as attributes of the relationship's data).
func readTagBindings(b *body, have []tagBinding) ([]tagBinding, *apiError) {
	rel, ok := b.res.Relationships["tag-bindings"]
	if !ok || len(rel.Data) == 0 || string(rel.Data) == "null" {
		return have, nil
	}
	var ds []struct {
		Type       string     `json:"type"`
		Attributes tagBinding `json:"attributes"`
	}
	const pointer = "/data/relationships/tag-bindings"
	if err := json.Unmarshal(rel.Data, &ds); err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "tag-bindings must be an array of tag bindings", Pointer: pointer}
	}
	if len(ds) > 10 {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "cannot exceed 10 bindings per resource", Pointer: pointer}
	}
	out := []tagBinding{}
	for i, d := range ds {
		if d.Type != "tag-bindings" || d.Attributes.Key == "" {
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "each tag binding needs type \"tag-bindings\" and a key", Pointer: fmt.Sprintf("%s/data/%d", pointer, i)}
		}
		out = slices.DeleteFunc(out, func(tb tagBinding) bool { return tb.Key == d.Attributes.Key })
		out = append(out, d.Attributes)
	}
	return out, nil
}

// createProject: owners, the organization token and manage-projects.
// Names are unique in the organization, regardless of case (422).
func (s *Server) createProject(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManageProjects, "projects")
	if e != nil {
		return e
	}
	prj := &project{record: s.st.newRecord("prj-"), Org: org}
	if e := s.st.applyProjectAttributes(b, prj, true); e != nil {
		return e
	}
	s.st.Projects[prj.ID] = prj
	writeDoc(w, http.StatusCreated, document{Data: s.st.projectResource(p)(prj), Included: projectIncluded(r, []*project{prj})})
	return nil
}

// listProjects lists the projects p may see, by name. `filter[names]`
// keeps those named in a comma-separated list (whole names, in any case, as
// the service compares project names), `q` those whose
// name contains the text (any case), `filter[tagged][N][key]` (and
// `[value]`, when not empty) those bound to every such tag.
func (s *Server) listProjects(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	q := r.URL.Query()
	var names []string
	if v := q.Get("filter[names]"); v != "" {
		names = strings.Split(v, ",")
	}
	search := strings.ToLower(q.Get("q"))
	var tagged []tagBinding
	for i := 0; q.Has(fmt.Sprintf("filter[tagged][%d][key]", i)); i++ {
		tagged = append(tagged, tagBinding{Key: q.Get(fmt.Sprintf("filter[tagged][%d][key]", i)), Value: q.Get(fmt.Sprintf("filter[tagged][%d][value]", i))})
	}
	all := sorted(s.st.Projects, func(prj *project) bool {
		return prj.Org == org && (names == nil || slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, prj.Name) })) && prj.boundToAll(tagged) &&
			strings.Contains(strings.ToLower(prj.Name), search) && s.st.projectAccessOf(p, prj).see
	})
	slices.SortStableFunc(all, func(a, b *project) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	doc, shown, e := listPage(r, all, s.st.projectResource(p))
	if e != nil {
		return e
	}
	doc.Included = projectIncluded(r, shown)
	writeDoc(w, http.StatusOK, doc)
	return nil
}

func (s *Server) readProject(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	prj := s.st.projectFor(p, r.PathValue("id"))
	if prj == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.projectResource(p)(prj), Included: projectIncluded(r, []*project{prj})})
	return nil
}

// updateProject: those whose grant lets them update its settings, and
// owners and manage-projects. A caller who may see the project but not
// update it gets 404, like everyone else who may not.
func (s *Server) updateProject(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	prj := s.st.Projects[r.PathValue("id")]
	if prj == nil || !s.st.projectAccessOf(p, prj).update {
		return errNotFound()
	}
	b, e := decodeBody(r, "projects")
	if e != nil {
		return e
	}
	if e := s.st.applyProjectAttributes(b, prj, false); e != nil {
		return e
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.projectResource(p)(prj), Included: projectIncluded(r, []*project{prj})})
	return nil
}

// deleteProjectRoute deletes an empty project that is not its
// organization's default: 204. A project that still holds workspaces, or
// the default project, is a 422 and nothing changes.
func (s *Server) deleteProjectRoute(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	prj := s.st.Projects[r.PathValue("id")]
	if prj == nil || !s.st.projectAccessOf(p, prj).destroy {
		return errNotFound()
	}
	if s.st.isDefaultProject(prj) {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid attribute", Detail: "the default project cannot be deleted"}
	}
	if n := len(s.st.workspacesOf(prj.ID)); n > 0 {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid attribute",
			Detail: fmt.Sprintf("project %s still contains %d workspace(s): move or delete them first", prj.Name, n)}
	}
	s.st.deleteProject(prj.ID)
	writeNoContent(w)
	return nil
}

// boundToAll reports whether prj carries every binding of want: its key,
// and its value unless that is empty.
func (prj *project) boundToAll(want []tagBinding) bool {
	for _, w := range want {
		if !slices.ContainsFunc(prj.TagBindings, func(tb tagBinding) bool { return tb.Key == w.Key && (w.Value == "" || tb.Value == w.Value) }) {
			return false
		}
	}
	return true
}

// listProjectTagBindings serves a project's tag bindings and its effective
// ones, which for a project are the same (a project inherits none); the
// path says which type the items are. Whoever sees the project may.
func (s *Server) listProjectTagBindings(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	prj := s.st.projectFor(p, r.PathValue("id"))
	if prj == nil {
		return errNotFound()
	}
	typ, prefix := "tag-bindings", "tb-"
	if strings.HasSuffix(r.URL.Path, "/effective-tag-bindings") {
		typ, prefix = "effective-tag-bindings", "etb-"
	}
	return writeList(w, r, prj.TagBindings, func(tb tagBinding) resource {
		return resource{Type: typ, ID: stableID(prefix, prj.ID, tb.Key), Attributes: map[string]any{"key": tb.Key, "value": tb.Value}}
	})
}

// addProjectTagBindings adds bindings to a project (go-tfe's
// AddTagBindings): a key it has takes the new value; at most 10 in all
// (422). It answers 200 with every binding. Those who may update the
// project may.
func (s *Server) addProjectTagBindings(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	prj := s.st.Projects[r.PathValue("id")]
	if prj == nil || !s.st.projectAccessOf(p, prj).update {
		return errNotFound()
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody))
	var doc struct {
		Data []struct {
			Type       string     `json:"type"`
			Attributes tagBinding `json:"attributes"`
		} `json:"data"`
	}
	if err != nil || json.Unmarshal(raw, &doc) != nil || len(doc.Data) == 0 {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must be a list of at least one tag binding", Pointer: "/data"}
	}
	out := slices.Clone(prj.TagBindings)
	for i, d := range doc.Data {
		if d.Type != "tag-bindings" || d.Attributes.Key == "" {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid attribute", Detail: "each tag binding needs type \"tag-bindings\" and a key", Pointer: fmt.Sprintf("/data/%d", i)}
		}
		out = slices.DeleteFunc(out, func(tb tagBinding) bool { return tb.Key == d.Attributes.Key })
		out = append(out, d.Attributes)
	}
	if len(out) > 10 {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid attribute", Detail: "cannot exceed 10 bindings per resource", Pointer: "/data"}
	}
	prj.TagBindings = out
	return writeList(w, r, out, func(tb tagBinding) resource {
		return resource{Type: "tag-bindings", ID: stableID("tb-", prj.ID, tb.Key), Attributes: map[string]any{"key": tb.Key, "value": tb.Value}}
	})
}
