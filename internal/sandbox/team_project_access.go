package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
)

// Team project access: team-projects, a team's permissions on one project and, through it, on
// every workspace of the project. Levels, defaults and who may: README.md "Team project access".

type teamProjectAccess struct {
	record
	Org       string `json:"org"`
	TeamID    string `json:"team_id"`
	ProjectID string `json:"project_id"`
	Access    string `json:"access"`
	// Project and Workspace are always the effective permissions: the
	// implied set for a fixed level, the chosen set for custom.
	Project   projectPermissions          `json:"project_access"`
	Workspace projectWorkspacePermissions `json:"workspace_access"`
}

// projectPermissions are a grant's permissions on the project itself.
type projectPermissions struct {
	Settings     string `json:"settings"`
	Teams        string `json:"teams"`
	VariableSets string `json:"variable-sets"`
}

// projectWorkspacePermissions are a grant's permissions on every workspace
// of the project.
type projectWorkspacePermissions struct {
	Runs            string `json:"runs"`
	SentinelMocks   string `json:"sentinel-mocks"`
	StateVersions   string `json:"state-versions"`
	Variables       string `json:"variables"`
	Create          bool   `json:"create"`
	Locking         bool   `json:"locking"`
	Move            bool   `json:"move"`
	Delete          bool   `json:"delete"`
	RunTasks        bool   `json:"run-tasks"`
	PolicyOverrides bool   `json:"policy-overrides"`
}

// teamProjectAccessOf returns the grant of team on project, if any.
func (st *state) teamProjectAccessOf(teamID, projectID string) *teamProjectAccess {
	return find(st.TeamProjectAccesses, func(tp *teamProjectAccess) bool { return tp.TeamID == teamID && tp.ProjectID == projectID })
}

const projectAccessCustom = "custom"

var teamProjectAccessValues = []string{"read", "write", "maintain", "admin", projectAccessCustom}

// teamProjectAccessLevels are what each fixed level implies, on the project
// and on its workspaces (README.md "Team project access").
var teamProjectAccessLevels = map[string]struct {
	project   projectPermissions
	workspace projectWorkspacePermissions
}{
	"read": {projectPermissions{"read", "none", "none"},
		projectWorkspacePermissions{Runs: "read", SentinelMocks: "none", StateVersions: "read", Variables: "read"}},
	"write": {projectPermissions{"read", "none", "none"},
		projectWorkspacePermissions{Runs: "apply", SentinelMocks: "read", StateVersions: "write", Variables: "write", Locking: true}},
	"maintain": {projectPermissions{"read", "none", "none"},
		projectWorkspacePermissions{Runs: "apply", SentinelMocks: "read", StateVersions: "write", Variables: "write", Create: true, Locking: true, Delete: true, RunTasks: true}},
	"admin": {projectPermissions{"delete", "manage", "write"},
		projectWorkspacePermissions{Runs: "apply", SentinelMocks: "read", StateVersions: "write", Variables: "write", Create: true, Locking: true, Move: true, Delete: true, RunTasks: true}},
}

// The defaults of a new custom grant: read the project, nothing more.
var (
	customProjectDefaults   = projectPermissions{Settings: "read", Teams: "none", VariableSets: "none"}
	customWorkspaceDefaults = projectWorkspacePermissions{Runs: "read", SentinelMocks: "none", StateVersions: "none", Variables: "none"}
)

// projectPermissionAttrs and projectWorkspacePermissionAttrs describe each
// attribute of project-access and workspace-access: its allowed values (nil
// for a boolean) and where it lives.
type permissionAttr[P any] struct {
	attr    string
	allowed []string
	str     func(*P) *string
	flag    func(*P) *bool
}

var projectPermissionAttrs = []permissionAttr[projectPermissions]{
	{"settings", []string{"read", "update", "delete"}, func(p *projectPermissions) *string { return &p.Settings }, nil},
	{"teams", []string{"none", "read", "manage"}, func(p *projectPermissions) *string { return &p.Teams }, nil},
	{"variable-sets", []string{"none", "read", "write"}, func(p *projectPermissions) *string { return &p.VariableSets }, nil},
}

var projectWorkspacePermissionAttrs = []permissionAttr[projectWorkspacePermissions]{
	{"runs", []string{"read", "plan", "apply"}, func(p *projectWorkspacePermissions) *string { return &p.Runs }, nil},
	{"sentinel-mocks", []string{"none", "read"}, func(p *projectWorkspacePermissions) *string { return &p.SentinelMocks }, nil},
	{"state-versions", []string{"none", "read-outputs", "read", "write"}, func(p *projectWorkspacePermissions) *string { return &p.StateVersions }, nil},
	{"variables", []string{"none", "read", "write"}, func(p *projectWorkspacePermissions) *string { return &p.Variables }, nil},
	{"create", nil, nil, func(p *projectWorkspacePermissions) *bool { return &p.Create }},
	{"locking", nil, nil, func(p *projectWorkspacePermissions) *bool { return &p.Locking }},
	{"move", nil, nil, func(p *projectWorkspacePermissions) *bool { return &p.Move }},
	{"delete", nil, nil, func(p *projectWorkspacePermissions) *bool { return &p.Delete }},
	{"run-tasks", nil, nil, func(p *projectWorkspacePermissions) *bool { return &p.RunTasks }},
	{"policy-overrides", nil, nil, func(p *projectWorkspacePermissions) *bool { return &p.PolicyOverrides }},
}

// readPermissionObject applies the object attribute group of b (project-access
// or workspace-access) to perms. With a fixed level, a value that differs
// from what the level implies is a 422 naming it; the same value is
// accepted (hashicorp/tfe sends the state's values back). b.err holds the
// first problem.
func readPermissionObject[P any](b *body, group, access string, attrs []permissionAttr[P], perms P) P {
	var raw map[string]json.RawMessage
	if !b.optObject(group, &raw) {
		return perms
	}
	for _, pa := range attrs {
		v, ok := raw[pa.attr]
		if !ok || string(v) == "null" {
			continue
		}
		name := group + "." + pa.attr
		next := perms
		if pa.flag != nil {
			var f bool
			if json.Unmarshal(v, &f) != nil {
				b.fail(errInvalidAttribute(group, name+" must be a boolean"))
				return perms
			}
			*pa.flag(&next) = f
		} else {
			var s string
			if json.Unmarshal(v, &s) != nil {
				b.fail(errInvalidAttribute(group, name+" must be a string"))
				return perms
			}
			if !slices.Contains(pa.allowed, s) {
				b.fail(errInvalidAttribute(group, fmt.Sprintf("%s must be one of %s, got %q", name, strings.Join(pa.allowed, ", "), s)))
				return perms
			}
			*pa.str(&next) = s
		}
		if access != projectAccessCustom && !reflect.DeepEqual(next, perms) {
			b.fail(errInvalidAttribute(group, fmt.Sprintf("%s is read-only when access level is '%s'; use the 'custom' access level to set this attribute.", name, access)))
			return perms
		}
		perms = next
	}
	return perms
}

func (s *Server) registerTeamProjectAccess() {
	s.route("GET /api/v2/team-projects", s.listTeamProjectAccess)
	s.route("POST /api/v2/team-projects", s.addTeamProjectAccess)
	s.route("GET /api/v2/team-projects/{id}", s.showTeamProjectAccess)
	s.route("PATCH /api/v2/team-projects/{id}", s.updateTeamProjectAccess)
	s.route("DELETE /api/v2/team-projects/{id}", s.removeTeamProjectAccess)
}

func teamProjectAccessResource(tp *teamProjectAccess) resource {
	return resource{
		Type: "team-projects",
		ID:   tp.ID,
		Attributes: map[string]any{
			"access":           tp.Access,
			"project-access":   tp.Project,
			"workspace-access": tp.Workspace,
		},
		Relationships: map[string]any{
			"team":    teamAccessRelationship("teams", tp.TeamID, apiPath("teams", tp.TeamID)),
			"project": teamAccessRelationship("projects", tp.ProjectID, apiPath("projects", tp.ProjectID)),
		},
		Links: map[string]any{"self": apiPath("team-projects", tp.ID)},
	}
}

// canManageTeamProjectAccess: owners, the organization and owners team
// tokens, manage-projects, and teams whose grant on prj manages its teams
// (admin, or custom with teams "manage") see and change every grant of prj.
func (st *state) canManageTeamProjectAccess(p principal, prj *project) bool {
	a := st.projectAccessOf(p, prj)
	return a.admin || a.manageTeams
}

// teamProjectAccessVisible is which grants of prj p sees: every one for
// those who manage them or whose grant reads the project's teams; the
// grants of p's own teams for other members; none for everyone else.
func (st *state) teamProjectAccessVisible(p principal, prj *project) func(*teamProjectAccess) bool {
	a := st.projectAccessOf(p, prj)
	switch {
	case !st.memberOf(p, prj.Org):
		return func(*teamProjectAccess) bool { return false }
	case a.admin || a.readTeams:
		return func(*teamProjectAccess) bool { return true }
	}
	mine := map[string]bool{}
	for _, t := range st.teamsOf(p, prj.Org) {
		mine[t.ID] = true
	}
	return func(tp *teamProjectAccess) bool { return mine[tp.TeamID] }
}

// teamProjectAccessIncluded renders `include=team,project`, each once.
func (st *state) teamProjectAccessIncluded(r *http.Request, p principal, tps []*teamProjectAccess) []resource {
	inc := includes(r)
	var out []resource
	seen := map[string]bool{}
	for _, tp := range tps {
		if t := st.Teams[tp.TeamID]; inc["team"] && t != nil && !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, st.teamResource(t))
		}
		if prj := st.Projects[tp.ProjectID]; inc["project"] && prj != nil && !seen[prj.ID] {
			seen[prj.ID] = true
			out = append(out, st.projectResource(p)(prj))
		}
	}
	return out
}

// listTeamProjectAccess lists a project's grants that the caller may see,
// oldest first, paginated. `filter[project][id]` is required: without it
// the sandbox answers 400 naming the parameter (go-tfe refuses to send such
// a request). A project the caller may not see is a 404.
func (s *Server) listTeamProjectAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	id := r.URL.Query().Get("filter[project][id]")
	if id == "" {
		return errBadRequest("filter[project][id]", "is required")
	}
	prj := s.st.projectFor(p, id)
	if prj == nil {
		return errNotFound()
	}
	seen := s.st.teamProjectAccessVisible(p, prj)
	all := sorted(s.st.TeamProjectAccesses, func(tp *teamProjectAccess) bool { return tp.ProjectID == prj.ID && seen(tp) })
	doc, shown, e := listPage(r, all, teamProjectAccessResource)
	if e != nil {
		return e
	}
	doc.Included = s.st.teamProjectAccessIncluded(r, p, shown)
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// teamProjectAccessFor is the grant at id when p may see it (manage: and
// change it), else nil.
func (st *state) teamProjectAccessFor(p principal, id string, manage bool) *teamProjectAccess {
	return visible(st.TeamProjectAccesses[id], func(tp *teamProjectAccess) bool {
		prj := st.Projects[tp.ProjectID]
		if prj == nil {
			return false
		}
		if manage {
			return st.canManageTeamProjectAccess(p, prj)
		}
		return st.teamProjectAccessVisible(p, prj)(tp)
	})
}

func (s *Server) showTeamProjectAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	tp := s.st.teamProjectAccessFor(p, r.PathValue("id"), false)
	if tp == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: teamProjectAccessResource(tp), Included: s.st.teamProjectAccessIncluded(r, p, []*teamProjectAccess{tp})})
	return nil
}

// readProjectGrant reads access, project-access and workspace-access over
// the grant's current permissions (a new grant's: the custom defaults).
// Moving to a fixed level sets what it implies; moving to custom keeps the
// permissions the grant had, and those sent replace them.
func readProjectGrant(b *body, access string, pp projectPermissions, wp projectWorkspacePermissions) (string, projectPermissions, projectWorkspacePermissions) {
	if v := b.optString("access"); v != nil {
		b.oneOf("access", v, teamProjectAccessValues...)
		access = *v
	}
	if b.err != nil {
		return access, pp, wp
	}
	if lvl, ok := teamProjectAccessLevels[access]; ok {
		pp, wp = lvl.project, lvl.workspace
	}
	pp = readPermissionObject(b, "project-access", access, projectPermissionAttrs, pp)
	wp = readPermissionObject(b, "workspace-access", access, projectWorkspacePermissionAttrs, wp)
	return access, pp, wp
}

// addTeamProjectAccess grants a team access to a project: 201 with the
// grant. `access` and the `team` and `project` relationships are required
// (422 naming them). A missing project or team, a team of another
// organization, or a caller who may not manage the project's grants is a
// 404. A team that already holds a grant on the project is a 422 "Team has
// already been taken", as for workspaces.
func (s *Server) addTeamProjectAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	b, e := decodeBody(r, "team-projects")
	if e != nil {
		return e
	}
	b.reqString("access")
	prjID := b.reqRelID("project", "projects")
	teamID := b.reqRelID("team", "teams")
	if b.err != nil {
		return b.err
	}
	access, pp, wp := readProjectGrant(b, "", customProjectDefaults, customWorkspaceDefaults)
	if b.err != nil {
		return b.err
	}
	prj := s.st.Projects[prjID]
	if prj == nil || !s.st.canManageTeamProjectAccess(p, prj) {
		return &apiError{Status: http.StatusNotFound, Title: "not found", Detail: "project " + prjID + " not found"}
	}
	t := s.st.Teams[teamID]
	if t == nil || t.Org != prj.Org {
		return &apiError{Status: http.StatusNotFound, Title: "not found", Detail: "team " + teamID + " not found"}
	}
	if s.st.teamProjectAccessOf(t.ID, prj.ID) != nil {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid attribute", Detail: "Team has already been taken", Pointer: "/data/relationships/team"}
	}
	tp := &teamProjectAccess{record: s.st.newRecord("tprj-"), Org: prj.Org, TeamID: t.ID, ProjectID: prj.ID, Access: access, Project: pp, Workspace: wp}
	s.st.TeamProjectAccesses[tp.ID] = tp
	writeDoc(w, http.StatusCreated, document{Data: teamProjectAccessResource(tp)})
	return nil
}

// updateTeamProjectAccess changes a grant's access and permissions
// (readProjectGrant); the team and project cannot change (relationships are
// ignored). Those who may see the grant but not manage it get 404.
func (s *Server) updateTeamProjectAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	tp := s.st.teamProjectAccessFor(p, r.PathValue("id"), true)
	if tp == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "team-projects")
	if e != nil {
		return e
	}
	access, pp, wp := readProjectGrant(b, tp.Access, tp.Project, tp.Workspace)
	if b.err != nil {
		return b.err
	}
	tp.Access, tp.Project, tp.Workspace = access, pp, wp
	writeDoc(w, http.StatusOK, document{Data: teamProjectAccessResource(tp)})
	return nil
}

// removeTeamProjectAccess removes a grant: 204.
func (s *Server) removeTeamProjectAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.teamProjectAccessFor(p, r.PathValue("id"), true), func(id string) { delete(s.st.TeamProjectAccesses, id) })
}
