package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Teams, their organization access and their members. Not documented by the
// reference; shaped as go-tfe expects.

func (s *Server) registerTeams() {
	s.route("POST /api/v2/organizations/{org}/teams", s.createTeam)
	s.route("GET /api/v2/organizations/{org}/teams", s.listTeams)
	s.route("GET /api/v2/teams/{id}", s.readTeam)
	s.route("PATCH /api/v2/teams/{id}", s.updateTeam)
	s.route("DELETE /api/v2/teams/{id}", s.deleteTeam)
	s.route("POST /api/v2/teams/{id}/relationships/users", s.addTeamUsers)
	s.route("DELETE /api/v2/teams/{id}/relationships/users", s.removeTeamUsers)
	s.route("POST /api/v2/teams/{id}/relationships/organization-memberships", s.addTeamMemberships)
	s.route("DELETE /api/v2/teams/{id}/relationships/organization-memberships", s.removeTeamMemberships)
}

// orgAccess is a team's organization-level permissions, as go-tfe's
// OrganizationAccess names them.
type orgAccess struct {
	ManagePolicies        bool `json:"manage-policies"`
	ManagePolicyOverrides bool `json:"manage-policy-overrides"`
	// DelegatePolicyOverrides is a beta permission go-tfe and
	// hashicorp/tfe's tfe_team send and read; kept as sent.
	DelegatePolicyOverrides  bool `json:"delegate-policy-overrides"`
	ManageWorkspaces         bool `json:"manage-workspaces"`
	ManageVCSSettings        bool `json:"manage-vcs-settings"`
	ManageProviders          bool `json:"manage-providers"`
	ManageModules            bool `json:"manage-modules"`
	ManageRunTasks           bool `json:"manage-run-tasks"`
	ManageProjects           bool `json:"manage-projects"`
	ReadWorkspaces           bool `json:"read-workspaces"`
	ReadProjects             bool `json:"read-projects"`
	ManageMembership         bool `json:"manage-membership"`
	ManageTeams              bool `json:"manage-teams"`
	ManageOrganizationAccess bool `json:"manage-organization-access"`
	AccessSecretTeams        bool `json:"access-secret-teams"`
	ManageAgentPools         bool `json:"manage-agent-pools"`
}

// ownersAccess is the owners team's access: everything.
var ownersAccess = orgAccess{
	ManagePolicies: true, ManagePolicyOverrides: true, DelegatePolicyOverrides: true, ManageWorkspaces: true, ManageVCSSettings: true,
	ManageProviders: true, ManageModules: true, ManageRunTasks: true, ManageProjects: true,
	ReadWorkspaces: true, ReadProjects: true, ManageMembership: true, ManageTeams: true,
	ManageOrganizationAccess: true, AccessSecretTeams: true, ManageAgentPools: true,
}

type team struct {
	record
	Org                        string    `json:"org"`
	Name                       string    `json:"name"`
	Visibility                 string    `json:"visibility"`
	Access                     orgAccess `json:"access"`
	UserIDs                    []string  `json:"user_ids"`
	AllowMemberTokenManagement bool      `json:"allow_member_token_management"`
	// SSOTeamID links the team to an identity provider's group; the
	// sandbox has no SSO and only keeps it as sent.
	SSOTeamID string `json:"sso_team_id,omitempty"`
}

func (st *state) teamResource(t *team) resource {
	var memberships []string
	for _, m := range sorted(st.Memberships, func(m *membership) bool { return m.Org == t.Org }) {
		if slices.Contains(t.UserIDs, m.UserID) {
			memberships = append(memberships, m.ID)
		}
	}
	return resource{
		Type: "teams",
		ID:   t.ID,
		Attributes: map[string]any{
			"name":                          t.Name,
			"visibility":                    t.Visibility,
			"users-count":                   len(t.UserIDs),
			"is-unified":                    false,
			"allow-member-token-management": t.AllowMemberTokenManagement,
			"organization-access":           t.Access,
			"sso-team-id":                   nullableString(t.SSOTeamID),
		},
		Relationships: map[string]any{
			"organization":             relOne("organizations", t.Org),
			"users":                    relMany("users", t.UserIDs),
			"organization-memberships": relMany("organization-memberships", memberships),
		},
		Links: map[string]any{"self": apiPath("teams", t.ID)},
	}
}

// canSeeTeam: owners and teams with access-secret-teams see every team;
// other members see visible teams and the secret teams they belong to.
func (st *state) canSeeTeam(p principal, t *team) bool {
	return st.teamSeer(p, t.Org)(t)
}

// teamSeer is canSeeTeam for the teams of org, with p's memberships looked
// up once: a list of N teams checked each from scratch cost N scans of
// every team.
func (st *state) teamSeer(p principal, org string) func(*team) bool {
	if !st.memberOf(p, org) {
		return func(*team) bool { return false }
	}
	if st.hasOrgAccess(p, org, func(a orgAccess) bool { return a.AccessSecretTeams }) {
		return func(t *team) bool { return t.Org == org }
	}
	mine := map[string]bool{}
	for _, m := range st.teamsOf(p, org) {
		mine[m.ID] = true
	}
	return func(t *team) bool { return t.Org == org && (t.Visibility == "organization" || mine[t.ID]) }
}

func canManageTeams(a orgAccess) bool { return a.ManageTeams }

// teamFor returns the team at id when p can see it and, with manage, may
// manage teams; otherwise nil.
func (st *state) teamFor(p principal, id string, manage bool) *team {
	return visible(st.Teams[id], func(t *team) bool {
		return st.canSeeTeam(p, t) && st.mayIn(p, t.Org, managing(manage, canManageTeams))
	})
}

// createTeam creates a team. Visibility defaults to `secret`, as on the real
// service; names are unique in the organization (422 otherwise).
func (s *Server) createTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManageTeams, "teams")
	if e != nil {
		return e
	}
	t := &team{Org: org, Visibility: "secret"}
	t.Name = b.reqString("name")
	if e := s.st.applyTeamAttributes(b, t); e != nil {
		return e
	}
	t.record = s.st.newRecord("team-")
	s.st.Teams[t.ID] = t
	return writeOne(w, http.StatusCreated, t, s.st.teamResource)
}

// applyTeamAttributes reads the settable team attributes into t after
// checking them all; t is untouched on error.
func (st *state) applyTeamAttributes(b *body, t *team) *apiError {
	name := t.Name
	if n := b.optString("name"); n != nil {
		name = *n
	}
	vis := b.optString("visibility")
	b.oneOf("visibility", vis, "secret", "organization")
	access := t.Access
	b.optObject("organization-access", &access)
	allow := b.optBool("allow-member-token-management")
	sso := t.SSOTeamID
	if b.has("sso-team-id") {
		sso = ""
		assign(&sso, b.optString("sso-team-id"))
	}
	if b.err != nil {
		return b.err
	}
	if find(st.Teams, func(o *team) bool { return o.Org == t.Org && o.ID != t.ID && strings.EqualFold(o.Name, name) }) != nil {
		return errNameTaken()
	}
	if st.isOwnersTeam(t) && (access != ownersAccess || name != "owners") {
		return errInvalidAttribute("organization-access", "the owners team's name and organization access cannot be changed")
	}
	t.Name, t.Access, t.SSOTeamID = name, access, sso
	assign(&t.Visibility, vis)
	assign(&t.AllowMemberTokenManagement, allow)
	return nil
}

// listTeams lists the teams the caller can see, paginated: with
// `filter[names]` (comma-separated, go-tfe's Names) only those named
// exactly, with `q` (go-tfe's Query) those whose name contains the text,
// case-insensitively.
func (s *Server) listTeams(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	names := strings.Split(r.URL.Query().Get("filter[names]"), ",")
	query := strings.ToLower(r.URL.Query().Get("q"))
	sees := s.st.teamSeer(p, org)
	all := sorted(s.st.Teams, func(t *team) bool {
		return sees(t) && (names[0] == "" || slices.Contains(names, t.Name)) &&
			strings.Contains(strings.ToLower(t.Name), query)
	})
	return writeList(w, r, all, s.st.teamResource)
}

// readTeam reads a team. `include=users` adds its members' user records
// (go-tfe's TeamMembers.List, which hashicorp/tfe's tfe_team_members reads
// for the usernames) and `include=organization-memberships` their
// memberships (TeamMembers.ListOrganizationMemberships), as the real
// service does.
func (s *Server) readTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.teamFor(p, r.PathValue("id"), false)
	if t == nil {
		return errNotFound()
	}
	inc := includes(r)
	doc := document{Data: s.st.teamResource(t)}
	for _, id := range t.UserIDs {
		if u := s.st.Users[id]; u != nil && inc["users"] {
			doc.Included = append(doc.Included, userResource(u))
		}
		if m := s.st.membershipOf(t.Org, id); m != nil && inc["organization-memberships"] {
			doc.Included = append(doc.Included, s.st.membershipResource(m))
		}
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

func (s *Server) updateTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.teamFor(p, r.PathValue("id"), true)
	if t == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "teams")
	if e != nil {
		return e
	}
	if e := s.st.applyTeamAttributes(b, t); e != nil {
		return e
	}
	return writeOne(w, http.StatusOK, t, s.st.teamResource)
}

// deleteTeam deletes a team and its tokens. The owners team cannot be
// deleted (422), as on the real service.
func (s *Server) deleteTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.teamFor(p, r.PathValue("id"), true)
	if t != nil && s.st.isOwnersTeam(t) {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid request", Detail: "the owners team cannot be deleted"}
	}
	return deleteOne(w, t, s.st.deleteTeam)
}

// isOwnersTeam reports whether t is its organization's owners team.
func (st *state) isOwnersTeam(t *team) bool {
	o := st.Organizations[t.Org]
	return o != nil && o.OwnersTeamID == t.ID
}

func (st *state) deleteTeam(id string) {
	deleteWhere(st.Tokens, func(tok *token) bool { return tok.Kind == tokenTeam && tok.TeamID == id }, st.deleteToken)
	st.deleteTeamAccessWhere(func(ta *teamAccess) bool { return ta.TeamID == id })
	deleteWhere(st.TeamProjectAccesses, func(tp *teamProjectAccess) bool { return tp.TeamID == id }, func(id string) { delete(st.TeamProjectAccesses, id) })
	delete(st.Teams, id)
}

// changeTeamUsers adds or removes users named by a linkage body. Members
// added must already belong to the organization (422 otherwise); the owners
// team keeps at least one member.
func (s *Server) changeTeamUsers(w http.ResponseWriter, r *http.Request, p principal, linkType string, add bool) *apiError {
	t := s.st.teamFor(p, r.PathValue("id"), true)
	if t == nil {
		return errNotFound()
	}
	ids, e := decodeLinkage(r, linkType)
	if e != nil {
		return e
	}
	var users []string
	for _, id := range ids {
		var u *user
		if linkType == "users" {
			u = s.st.userByName(id)
		} else if m := s.st.Memberships[id]; m != nil && m.Org == t.Org {
			u = s.st.Users[m.UserID]
		}
		if u == nil || !s.st.memberOf(principal{user: u}, t.Org) {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("%s %q is not a member of organization %s", linkType, id, t.Org), Pointer: "/data"}
		}
		users = append(users, u.ID)
	}
	if add {
		for _, id := range users {
			if !slices.Contains(t.UserIDs, id) {
				t.UserIDs = append(t.UserIDs, id)
			}
		}
	} else {
		left := slices.DeleteFunc(slices.Clone(t.UserIDs), func(id string) bool { return slices.Contains(users, id) })
		if s.st.isOwnersTeam(t) && len(left) == 0 {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid request", Detail: "the owners team must keep at least one member"}
		}
		t.UserIDs = left
	}
	writeNoContent(w)
	return nil
}

func (s *Server) addTeamUsers(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.changeTeamUsers(w, r, p, "users", true)
}

func (s *Server) removeTeamUsers(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.changeTeamUsers(w, r, p, "users", false)
}

func (s *Server) addTeamMemberships(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.changeTeamUsers(w, r, p, "organization-memberships", true)
}

func (s *Server) removeTeamMemberships(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.changeTeamUsers(w, r, p, "organization-memberships", false)
}
