package sandbox

import (
	"fmt"
	"net/http"
)

// The "Team access" section of the reference: team-workspaces, a team's permissions on one
// workspace. Levels, defaults and who may: README.md "Team access".

type teamAccess struct {
	record
	Org         string `json:"org"`
	TeamID      string `json:"team_id"`
	WorkspaceID string `json:"workspace_id"`
	Access      string `json:"access"`
	// Permissions are always the effective ones: the implied set for a
	// fixed level, the chosen set for custom.
	Permissions workspacePermissions `json:"permissions"`
}

type workspacePermissions struct {
	Runs             string `json:"runs"`
	Variables        string `json:"variables"`
	StateVersions    string `json:"state-versions"`
	SentinelMocks    string `json:"sentinel-mocks"`
	WorkspaceLocking bool   `json:"workspace-locking"`
	RunTasks         bool   `json:"run-tasks"`
	PolicyOverrides  bool   `json:"policy-overrides"`
}

const teamAccessCustom = "custom"

// teamAccessLevels are the permissions each fixed level implies (the table in
// the section comment).
var teamAccessLevels = map[string]workspacePermissions{
	"read":  {Runs: "read", Variables: "read", StateVersions: "read", SentinelMocks: "none"},
	"plan":  {Runs: "plan", Variables: "read", StateVersions: "read", SentinelMocks: "none"},
	"write": {Runs: "apply", Variables: "write", StateVersions: "write", SentinelMocks: "read", WorkspaceLocking: true},
	"admin": {Runs: "apply", Variables: "write", StateVersions: "write", SentinelMocks: "read", WorkspaceLocking: true, RunTasks: true},
}

// teamAccessCustomDefaults are the reference's defaults for a new custom grant.
var teamAccessCustomDefaults = workspacePermissions{Runs: "read", Variables: "none", StateVersions: "none", SentinelMocks: "none"}

// teamAccessPermissionAttrs describes each permission attribute: its name in the
// API, its name in the real service's messages, its allowed values (nil
// for a boolean) and where it lives in workspacePermissions.
var teamAccessPermissionAttrs = []struct {
	attr    string
	label   string
	allowed []string
	str     func(*workspacePermissions) *string
	flag    func(*workspacePermissions) *bool
}{
	{"runs", "Runs", []string{"read", "plan", "apply"}, func(w *workspacePermissions) *string { return &w.Runs }, nil},
	{"variables", "Variables", []string{"none", "read", "write"}, func(w *workspacePermissions) *string { return &w.Variables }, nil},
	{"state-versions", "State versions", []string{"none", "read-outputs", "read", "write"}, func(w *workspacePermissions) *string { return &w.StateVersions }, nil},
	{"sentinel-mocks", "Sentinel mocks", []string{"none", "read"}, func(w *workspacePermissions) *string { return &w.SentinelMocks }, nil},
	{"workspace-locking", "Workspace locking", nil, nil, func(w *workspacePermissions) *bool { return &w.WorkspaceLocking }},
	{"run-tasks", "Run tasks", nil, nil, func(w *workspacePermissions) *bool { return &w.RunTasks }},
	{"policy-overrides", "Policy overrides", nil, nil, func(w *workspacePermissions) *bool { return &w.PolicyOverrides }},
}

func (s *Server) registerTeamAccess() {
	s.route("GET /api/v2/team-workspaces", s.listTeamAccess)
	s.route("POST /api/v2/team-workspaces", s.addTeamAccess)
	s.route("GET /api/v2/team-workspaces/{id}", s.showTeamAccess)
	s.route("PATCH /api/v2/team-workspaces/{id}", s.updateTeamAccess)
	s.route("DELETE /api/v2/team-workspaces/{id}", s.removeTeamAccess)
}

func teamAccessResource(ta *teamAccess) resource {
	perms := ta.Permissions
	return resource{
		Type: "team-workspaces",
		ID:   ta.ID,
		Attributes: map[string]any{
			"access":            ta.Access,
			"runs":              perms.Runs,
			"variables":         perms.Variables,
			"state-versions":    perms.StateVersions,
			"sentinel-mocks":    perms.SentinelMocks,
			"workspace-locking": perms.WorkspaceLocking,
			"run-tasks":         perms.RunTasks,
			"policy-overrides":  perms.PolicyOverrides,
		},
		Relationships: map[string]any{
			"team":      teamAccessRelationship("teams", ta.TeamID, apiPath("teams", ta.TeamID)),
			"workspace": teamAccessRelationship("workspaces", ta.WorkspaceID, apiPath("workspaces", ta.WorkspaceID)),
		},
		Links: map[string]any{"self": apiPath("team-workspaces", ta.ID)},
	}
}

// teamAccessRelationship is a to-one relationship with links.related, as the
// reference shows team-workspaces' team and workspace.
func teamAccessRelationship(typ, id, related string) map[string]any {
	rel := relOne(typ, id)
	rel["links"] = map[string]any{"related": related}
	return rel
}

// teamAccessIncluded renders the records `include=team,workspace` asks for,
// each once.
func (st *state) teamAccessIncluded(r *http.Request, tas []*teamAccess) []resource {
	inc := includes(r)
	var out []resource
	seen := map[string]bool{}
	for _, ta := range tas {
		if t := st.Teams[ta.TeamID]; inc["team"] && t != nil && !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, st.teamResource(t))
		}
		if ws := st.Workspaces[ta.WorkspaceID]; inc["workspace"] && ws != nil && !seen[ws.ID] {
			seen[ws.ID] = true
			out = append(out, st.workspaceResource(ws))
		}
	}
	return out
}

// canManageTeamAccess: whoever administers ws, the workspace's can-update (owners, the
// organization token, the owners team's token, manage-workspaces and workspace admins), may see
// and change every grant of ws: one rule for both endpoints (README "Team access").
func (st *state) canManageTeamAccess(p principal, ws *workspace) bool {
	return st.memberOf(p, ws.Org) && st.workspaceAccessOf(p, ws).admin
}

// canSeeTeamAccess: those who may manage the workspace's grants, and the
// members (or token) of the grant's own team.
func (st *state) canSeeTeamAccess(p principal, ta *teamAccess) bool {
	ws := st.Workspaces[ta.WorkspaceID]
	return ws != nil && st.teamAccessVisible(p, ws)(ta)
}

// teamAccessVisible is canSeeTeamAccess for the grants of ws, worked out
// once: the principal's teams in the organization take a pass over all of
// them, so a list checks each grant against the result (checking each
// grant from scratch made a page of 100 grants among 1,000 teams take
// 120 ms).
func (st *state) teamAccessVisible(p principal, ws *workspace) func(*teamAccess) bool {
	switch {
	case !st.memberOf(p, ws.Org):
		return func(*teamAccess) bool { return false }
	case st.canManageTeamAccess(p, ws):
		return func(*teamAccess) bool { return true }
	}
	mine := map[string]bool{}
	for _, t := range st.teamsOf(p, ws.Org) {
		mine[t.ID] = true
	}
	return func(ta *teamAccess) bool { return mine[ta.TeamID] }
}

// teamAccessOf returns the grant of team on workspace, if any.
func (st *state) teamAccessOf(teamID, workspaceID string) *teamAccess {
	for _, ta := range st.TeamAccesses {
		if ta.TeamID == teamID && ta.WorkspaceID == workspaceID {
			return ta
		}
	}
	return nil
}

// listTeamAccess lists a workspace's grants that the caller may see, oldest
// first. `filter[workspace][id]` is required: without it the sandbox answers
// 400 naming the parameter (the reference does not say; go-tfe refuses to
// send such a request). Without page[number] or page[size] the list is not
// paginated and holds every grant, with no `links` or `meta`; with either,
// it is paginated (20 a page by default) with `links` and `meta.pagination`.
func (s *Server) listTeamAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	wsID := r.URL.Query().Get("filter[workspace][id]")
	if wsID == "" {
		return errBadRequest("filter[workspace][id]", "is required")
	}
	ws := s.st.Workspaces[wsID]
	if ws == nil || !s.st.memberOf(p, ws.Org) {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	visible := s.st.teamAccessVisible(p, ws)
	all := sorted(s.st.TeamAccesses, func(ta *teamAccess) bool {
		return ta.WorkspaceID == ws.ID && visible(ta)
	})
	shown := all
	if pg.Requested {
		shown = paginate(all, pg)
	}
	data := make([]resource, 0, len(shown))
	for _, ta := range shown {
		data = append(data, teamAccessResource(ta))
	}
	doc := document{Data: data}
	if pg.Requested {
		doc = pageDocument(r, pg, len(all), data)
	}
	doc.Included = s.st.teamAccessIncluded(r, shown)
	writeDoc(w, http.StatusOK, doc)
	return nil
}

func (s *Server) showTeamAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ta := s.st.TeamAccesses[r.PathValue("id")]
	if ta == nil || !s.st.canSeeTeamAccess(p, ta) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: teamAccessResource(ta), Included: s.st.teamAccessIncluded(r, []*teamAccess{ta})})
	return nil
}

// readTeamAccessPermissions applies the permission attributes present in b to perms,
// for the given access level. With a fixed level any permission present is
// a 422 in the real service's words, naming the attribute and the level.
// Null counts as absent. b.err holds the first problem.
func readTeamAccessPermissions(b *body, access string, perms workspacePermissions) workspacePermissions {
	for _, pa := range teamAccessPermissionAttrs {
		if !b.present(pa.attr) {
			continue
		}
		if access != teamAccessCustom {
			b.fail(errInvalidAttribute(pa.attr, fmt.Sprintf("%s is read-only when access level is '%s'; use the 'custom' access level to set this attribute.", pa.label, access)))
			return perms
		}
		if pa.flag != nil {
			if v := b.optBool(pa.attr); v != nil {
				*pa.flag(&perms) = *v
			}
			continue
		}
		v := b.optString(pa.attr)
		b.oneOf(pa.attr, v, pa.allowed...)
		if v != nil && b.err == nil {
			*pa.str(&perms) = *v
		}
	}
	return perms
}

var teamAccessValues = []string{"read", "plan", "write", "admin", teamAccessCustom}

// addTeamAccess grants a team access to a workspace and answers 200 (the
// reference's status for this POST) with the grant. `access` is required;
// the relationships `workspace` and `team` are required and must be of
// those types (422 naming them). A missing workspace or team, a team of
// another organization, or a caller who may not manage the workspace's
// grants is a 404. A team that already holds a grant on the workspace is a
// 422 "Team has already been taken" pointing at the team relationship.
func (s *Server) addTeamAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	b, e := decodeBody(r, "team-workspaces")
	if e != nil {
		return e
	}
	access := b.reqString("access")
	b.oneOf("access", &access, teamAccessValues...)
	wsID := b.reqRelID("workspace", "workspaces")
	teamID := b.reqRelID("team", "teams")
	if b.err != nil {
		return b.err
	}
	perms := teamAccessCustomDefaults
	if access != teamAccessCustom {
		perms = teamAccessLevels[access]
	}
	perms = readTeamAccessPermissions(b, access, perms)
	if b.err != nil {
		return b.err
	}
	ws := s.st.Workspaces[wsID]
	if ws == nil || !s.st.canManageTeamAccess(p, ws) {
		return &apiError{Status: http.StatusNotFound, Title: "not found", Detail: "workspace " + wsID + " not found"}
	}
	t := s.st.Teams[teamID]
	if t == nil || t.Org != ws.Org {
		return &apiError{Status: http.StatusNotFound, Title: "not found", Detail: "team " + teamID + " not found"}
	}
	if s.st.teamAccessOf(t.ID, ws.ID) != nil {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid attribute", Detail: "Team has already been taken", Pointer: "/data/relationships/team"}
	}
	ta := &teamAccess{record: s.st.newRecord("tws-"), Org: ws.Org, TeamID: t.ID, WorkspaceID: ws.ID, Access: access, Permissions: perms}
	s.st.TeamAccesses[ta.ID] = ta
	writeDoc(w, http.StatusOK, document{Data: teamAccessResource(ta)})
	return nil
}

// updateTeamAccess changes a grant's access and permissions. Everything is
// optional. Moving to a fixed level sets the implied permissions; a
// permission sent while the resulting level is fixed is a 422. Moving from
// a fixed level to `custom` starts from the permissions the grant had (the
// real service stores them), so `access: custom` alone changes no right;
// permissions sent with it replace those. The team and workspace of a grant
// cannot change: relationships in the body are ignored. Callers who may see
// the grant but not manage it get 404, like everyone else who may not.
func (s *Server) updateTeamAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ta := s.st.TeamAccesses[r.PathValue("id")]
	if ta == nil {
		return errNotFound()
	}
	ws := s.st.Workspaces[ta.WorkspaceID]
	if ws == nil || !s.st.canManageTeamAccess(p, ws) {
		return errNotFound()
	}
	b, e := decodeBody(r, "team-workspaces")
	if e != nil {
		return e
	}
	access := ta.Access
	if v := b.optString("access"); v != nil {
		b.oneOf("access", v, teamAccessValues...)
		access = *v
	}
	if b.err != nil {
		return b.err
	}
	perms := ta.Permissions
	if access != teamAccessCustom {
		perms = teamAccessLevels[access]
	}
	perms = readTeamAccessPermissions(b, access, perms)
	if b.err != nil {
		return b.err
	}
	ta.Access, ta.Permissions = access, perms
	writeDoc(w, http.StatusOK, document{Data: teamAccessResource(ta)})
	return nil
}

// removeTeamAccess removes a grant: 204.
func (s *Server) removeTeamAccess(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ta := s.st.TeamAccesses[r.PathValue("id")]
	if ta == nil {
		return errNotFound()
	}
	ws := s.st.Workspaces[ta.WorkspaceID]
	if ws == nil || !s.st.canManageTeamAccess(p, ws) {
		return errNotFound()
	}
	delete(s.st.TeamAccesses, ta.ID)
	writeNoContent(w)
	return nil
}

// deleteTeamAccessWhere removes every grant that drop selects; deleting a
// workspace or a team removes its grants.
func (st *state) deleteTeamAccessWhere(drop func(*teamAccess) bool) {
	for id, ta := range st.TeamAccesses {
		if drop(ta) {
			delete(st.TeamAccesses, id)
		}
	}
}
