package sandbox

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-version"
)

// The supporting endpoints: organizations, users and memberships, teams and
// their members, team and organization tokens, workspaces, agent pools,
// registry modules and policy sets. The reference names them but does not
// document them, so they are shaped as go-tfe sends and decodes them, with
// the attributes tests and the quickstart need. Where the sandbox chooses
// a behaviour the real service does not document, the handler says so.

type organization struct {
	record
	Name         string `json:"name"`
	Email        string `json:"email"`
	OwnersTeamID string `json:"owners_team_id"`
}

type user struct {
	record
	Username  string `json:"username"`
	Email     string `json:"email"`
	SiteAdmin bool   `json:"site_admin"`
}

type membership struct {
	record
	Org    string `json:"org"`
	UserID string `json:"user_id"`
	Email  string `json:"email"`
}

// orgAccess is a team's organization-level permissions, as go-tfe's
// OrganizationAccess names them.
type orgAccess struct {
	ManagePolicies           bool `json:"manage-policies"`
	ManagePolicyOverrides    bool `json:"manage-policy-overrides"`
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
	ManagePolicies: true, ManagePolicyOverrides: true, ManageWorkspaces: true, ManageVCSSettings: true,
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
}

// token is any authentication token. Only the SHA-256 of its secret is kept
// (in state.TokenIndex); the secret itself exists only in the response that
// created it.
type token struct {
	record
	Kind        string    `json:"kind"`
	Description string    `json:"description"`
	UserID      string    `json:"user_id,omitempty"`
	TeamID      string    `json:"team_id,omitempty"`
	Org         string    `json:"org,omitempty"`
	PoolID      string    `json:"pool_id,omitempty"`
	Legacy      bool      `json:"legacy,omitempty"`
	CreatedBy   string    `json:"created_by,omitempty"`
	Hash        string    `json:"hash"`
	LastUsedAt  time.Time `json:"last_used_at"`
}

type workspace struct {
	record
	Org         string    `json:"org"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	UpdatedAt   time.Time `json:"updated_at"`
}

type agentPool struct {
	record
	Org                string `json:"org"`
	Name               string `json:"name"`
	OrganizationScoped bool   `json:"organization_scoped"`
}

type registryModule struct {
	record
	Org       string           `json:"org"`
	Name      string           `json:"name"`
	Provider  string           `json:"provider"`
	UpdatedAt time.Time        `json:"updated_at"`
	Versions  []*moduleVersion `json:"versions"`
}

type moduleVersion struct {
	ID        string    `json:"id"`
	Version   string    `json:"version"`
	Status    string    `json:"status"`
	Error     string    `json:"error,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Deprecation is set while the version is deprecated
	// (module_deprecation.go).
	Deprecation *deprecation `json:"deprecation,omitempty"`
}

type policySet struct {
	record
	Org         string    `json:"org"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Kind        string    `json:"kind"`
	Global      bool      `json:"global"`
	PolicyIDs   []string  `json:"policy_ids"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// nameRE is the real service's rule for organization, workspace and module
// names: letters, numbers, `-` and `_`.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func (s *Server) registerFixtures() {
	s.route("GET /api/v2/account/details", s.readAccount)

	s.route("POST /api/v2/organizations", s.createOrganization)
	s.route("GET /api/v2/organizations/{org}", s.readOrganization)
	s.route("DELETE /api/v2/organizations/{org}", s.deleteOrganization)

	s.route("POST /api/v2/users/{id}/authentication-tokens", s.createUserToken)

	s.route("POST /api/v2/organizations/{org}/organization-memberships", s.createMembership)
	s.route("GET /api/v2/organizations/{org}/organization-memberships", s.listMemberships)
	s.route("GET /api/v2/organization-memberships/{id}", s.readMembership)
	s.route("DELETE /api/v2/organization-memberships/{id}", s.deleteMembership)

	s.route("POST /api/v2/organizations/{org}/teams", s.createTeam)
	s.route("GET /api/v2/organizations/{org}/teams", s.listTeams)
	s.route("GET /api/v2/teams/{id}", s.readTeam)
	s.route("PATCH /api/v2/teams/{id}", s.updateTeam)
	s.route("DELETE /api/v2/teams/{id}", s.deleteTeam)
	s.route("POST /api/v2/teams/{id}/relationships/users", s.addTeamUsers)
	s.route("DELETE /api/v2/teams/{id}/relationships/users", s.removeTeamUsers)
	s.route("POST /api/v2/teams/{id}/relationships/organization-memberships", s.addTeamMemberships)
	s.route("DELETE /api/v2/teams/{id}/relationships/organization-memberships", s.removeTeamMemberships)

	s.route("POST /api/v2/teams/{id}/authentication-token", s.createTeamToken)
	s.route("POST /api/v2/teams/{id}/authentication-tokens", s.createTeamToken)
	s.route("GET /api/v2/teams/{id}/authentication-token", s.readTeamToken)
	s.route("DELETE /api/v2/teams/{id}/authentication-token", s.deleteTeamToken)

	s.route("POST /api/v2/organizations/{org}/authentication-token", s.createOrganizationToken)
	s.route("GET /api/v2/organizations/{org}/authentication-token", s.readOrganizationToken)
	s.route("DELETE /api/v2/organizations/{org}/authentication-token", s.deleteOrganizationToken)

	s.route("POST /api/v2/organizations/{org}/workspaces", s.createWorkspace)
	s.route("GET /api/v2/organizations/{org}/workspaces", s.listWorkspaces)
	s.route("GET /api/v2/organizations/{org}/workspaces/{name}", s.readWorkspaceByName)
	s.route("DELETE /api/v2/organizations/{org}/workspaces/{name}", s.deleteWorkspaceByName)
	s.route("GET /api/v2/workspaces/{id}", s.readWorkspace)
	s.route("DELETE /api/v2/workspaces/{id}", s.deleteWorkspaceByID)

	s.route("POST /api/v2/organizations/{org}/agent-pools", s.createAgentPool)
	s.route("GET /api/v2/organizations/{org}/agent-pools", s.listAgentPools)
	s.route("GET /api/v2/agent-pools/{id}", s.readAgentPool)
	s.route("DELETE /api/v2/agent-pools/{id}", s.deleteAgentPool)

	s.route("POST /api/v2/organizations/{org}/registry-modules", s.createRegistryModule)
	s.route("GET /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}", s.readRegistryModule)
	s.route("DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}", s.deleteRegistryModule)
	s.route("GET /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/version", s.readModuleVersion)
	s.route("DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}", s.deleteModuleVersion)
	s.route("POST /api/v2/registry-modules/{org}/{name}/{provider}/versions", s.createModuleVersion)

	s.route("POST /api/v2/organizations/{org}/policy-sets", s.createPolicySet)
	s.route("GET /api/v2/organizations/{org}/policy-sets", s.listPolicySets)
	s.route("GET /api/v2/policy-sets/{id}", s.readPolicySet)
	s.route("DELETE /api/v2/policy-sets/{id}", s.deletePolicySet)
}

// ---- organizations and users

func organizationResource(o *organization) resource {
	return resource{
		Type: "organizations",
		ID:   o.Name,
		Attributes: map[string]any{
			"name":        o.Name,
			"email":       o.Email,
			"external-id": o.ID,
			"created-at":  timestamp(o.CreatedAt),
		},
		Links: map[string]any{"self": apiPath("organizations", o.Name)},
	}
}

func userResource(u *user) resource {
	return resource{
		Type: "users",
		ID:   u.ID,
		Attributes: map[string]any{
			"username":      u.Username,
			"email":         u.Email,
			"is-site-admin": u.SiteAdmin,
		},
		Links: map[string]any{"self": apiPath("users", u.ID)},
	}
}

// readAccount is GET /account/details: the user a user token (or the admin
// token) acts as. Team and organization tokens have no user: 404.
func (s *Server) readAccount(w http.ResponseWriter, _ *http.Request, p principal) *apiError {
	if p.user == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: userResource(p.user)})
	return nil
}

// createOrganization creates an organization with its owners team. A user
// creating it becomes its owner, as on the real service; the admin token
// makes the user with the given email the owner (creating that user if
// needed) so a bootstrap can hand the organization to an ordinary user.
// Team and organization tokens may not create organizations: 404.
// Names are unique across the sandbox: 422 "has already been taken".
func (s *Server) createOrganization(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if p.user == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "organizations")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	email := b.reqString("email")
	if b.err != nil {
		return b.err
	}
	if !nameRE.MatchString(name) {
		return errInvalidAttribute("name", "name may contain only letters, numbers, - and _")
	}
	if s.st.Organizations[name] != nil {
		return errInvalidAttribute("name", "name has already been taken")
	}
	owner := p.user
	if p.admin {
		owner = s.st.userByEmail(email)
	}
	o := s.st.createOrganization(name, email, owner)
	writeDoc(w, http.StatusCreated, document{Data: organizationResource(o)})
	return nil
}

// createOrganization is the state change shared with the demo seed.
func (st *state) createOrganization(name, email string, owner *user) *organization {
	o := &organization{record: st.newRecord("org-"), Name: name, Email: email}
	owners := &team{record: st.newRecord("team-"), Org: name, Name: "owners", Visibility: "secret", Access: ownersAccess}
	o.OwnersTeamID = owners.ID
	st.Organizations[name] = o
	st.Teams[owners.ID] = owners
	st.addMember(name, owner)
	owners.UserIDs = append(owners.UserIDs, owner.ID)
	return o
}

// userByEmail finds the user with email, creating one (username from the
// email's local part, made unique) when there is none.
func (st *state) userByEmail(email string) *user {
	for _, u := range st.Users {
		if strings.EqualFold(u.Email, email) {
			return u
		}
	}
	base := strings.ToLower(strings.SplitN(email, "@", 2)[0])
	base = regexp.MustCompile(`[^a-z0-9_-]`).ReplaceAllString(base, "-")
	name := base
	for i := 2; st.userByName(name) != nil; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	u := &user{record: st.newRecord("user-"), Username: name, Email: email}
	st.Users[u.ID] = u
	return u
}

func (st *state) userByName(name string) *user {
	for _, u := range st.Users {
		if u.Username == name {
			return u
		}
	}
	return nil
}

// addMember makes u a member of org (idempotent) and returns the membership.
func (st *state) addMember(org string, u *user) *membership {
	for _, m := range st.Memberships {
		if m.Org == org && m.UserID == u.ID {
			return m
		}
	}
	m := &membership{record: st.newRecord("ou-"), Org: org, UserID: u.ID, Email: u.Email}
	st.Memberships[m.ID] = m
	return m
}

func (s *Server) readOrganization(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	o := s.st.Organizations[r.PathValue("org")]
	if o == nil || !s.st.memberOf(p, o.Name) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: organizationResource(o)})
	return nil
}

// deleteOrganization deletes an organization and everything in it. Only
// owners may (the organization token may not delete its own organization).
func (s *Server) deleteOrganization(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	o := s.st.Organizations[r.PathValue("org")]
	if o == nil || !s.st.isOwner(p, o.Name) {
		return errNotFound()
	}
	s.st.deleteOrganization(o.Name)
	writeNoContent(w)
	return nil
}

// deleteOrganization removes org and, through the per-kind deletes, every
// record that belongs to it.
func (st *state) deleteOrganization(org string) {
	for _, ws := range st.Workspaces {
		if ws.Org == org {
			st.deleteWorkspace(ws.ID)
		}
	}
	for _, ap := range st.AgentPools {
		if ap.Org == org {
			st.deleteAgentPool(ap.ID)
		}
	}
	for _, m := range st.RegistryModules {
		if m.Org == org {
			st.deleteRegistryModule(m.ID)
		}
	}
	for _, ps := range st.PolicySets {
		if ps.Org == org {
			st.deletePolicySet(ps.ID)
		}
	}
	for _, pol := range st.Policies {
		if pol.Org == org {
			st.deletePolicy(pol.ID)
		}
	}
	for _, t := range st.Teams {
		if t.Org == org {
			st.deleteTeam(t.ID)
		}
	}
	for id, m := range st.Memberships {
		if m.Org == org {
			delete(st.Memberships, id)
		}
	}
	for _, t := range st.Tokens {
		if t.Kind == tokenOrganization && t.Org == org {
			st.deleteToken(t.ID)
		}
	}
	delete(st.Organizations, org)
}

// ---- tokens

// issueToken stores t and returns its secret, which is not kept.
func (st *state) issueToken(t *token) string {
	secret := randomString(14) + ".atlasv1." + randomString(60)
	t.Hash = hashSecret(secret)
	st.Tokens[t.ID] = t
	st.TokenIndex[t.Hash] = t.ID
	return secret
}

func (st *state) deleteToken(id string) {
	if t := st.Tokens[id]; t != nil {
		delete(st.TokenIndex, t.Hash)
		delete(st.Tokens, id)
	}
}

// tokenResource renders any authentication token. secret is non-empty only
// in the response that created the token.
func tokenResource(t *token, secret string) resource {
	res := resource{
		Type: "authentication-tokens",
		ID:   t.ID,
		Attributes: map[string]any{
			"created-at":   timestamp(t.CreatedAt),
			"last-used-at": nullableTime(t.LastUsedAt),
			"description":  nullableString(t.Description),
			"token":        nullableString(secret),
		},
		Relationships: map[string]any{"created-by": relOne("users", t.CreatedBy)},
		Links:         map[string]any{"self": apiPath("authentication-tokens", t.ID)},
	}
	if t.Kind == tokenAgent {
		// Agent tokens always carry a description (it is required).
		res.Attributes["description"] = t.Description
	}
	if t.Kind == tokenTeam {
		res.Relationships["team"] = relOne("teams", t.TeamID)
	}
	return res
}

// createUserToken is POST /users/:id/authentication-tokens. A user may make
// tokens for themselves; the admin for anyone.
func (s *Server) createUserToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	u := s.st.Users[r.PathValue("id")]
	if u == nil || (!p.admin && p.userID() != u.ID) {
		return errNotFound()
	}
	// go-tfe's token options carry no primary type, so its bodies have an
	// empty data.type; both that and the real type are accepted.
	b, e := decodeBody(r, "authentication-tokens", "")
	if e != nil {
		return e
	}
	desc := b.optString("description")
	if b.err != nil {
		return b.err
	}
	t := &token{record: s.st.newRecord("at-"), Kind: tokenUser, UserID: u.ID, CreatedBy: p.userID()}
	if desc != nil {
		t.Description = *desc
	}
	secret := s.st.issueToken(t)
	writeDoc(w, http.StatusCreated, document{Data: tokenResource(t, secret)})
	return nil
}

// ---- memberships

func (st *state) membershipResource(m *membership) resource {
	var teams []string
	for _, t := range sorted(st.Teams, func(t *team) bool { return t.Org == m.Org }) {
		if slices.Contains(t.UserIDs, m.UserID) {
			teams = append(teams, t.ID)
		}
	}
	return resource{
		Type: "organization-memberships",
		ID:   m.ID,
		Attributes: map[string]any{
			"status":     "active",
			"email":      m.Email,
			"created-at": timestamp(m.CreatedAt),
		},
		Relationships: map[string]any{
			"organization": relOne("organizations", m.Org),
			"user":         relOne("users", m.UserID),
			"teams":        relMany("teams", teams),
		},
		Links: map[string]any{"self": apiPath("organization-memberships", m.ID)},
	}
}

// createMembership invites a user by email. The sandbox sends no email:
// the invitation is accepted at once (status `active`), creating the user if
// no user has that email. Owners and teams with manage-membership may invite.
// Inviting an existing member is a 422, as on the real service.
func (s *Server) createMembership(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, func(a orgAccess) bool { return a.ManageMembership }) {
		return errNotFound()
	}
	b, e := decodeBody(r, "organization-memberships")
	if e != nil {
		return e
	}
	email := b.reqString("email")
	teamIDs := b.relIDs("teams", "teams")
	if b.err != nil {
		return b.err
	}
	if !strings.Contains(email, "@") {
		return errInvalidAttribute("email", "email must be an email address")
	}
	for _, id := range teamIDs {
		if t := s.st.Teams[id]; t == nil || t.Org != org {
			return &apiError{Status: http.StatusNotFound, Title: "not found", Detail: "team " + id + " not found"}
		}
	}
	u := s.st.userByEmail(email)
	for _, m := range s.st.Memberships {
		if m.Org == org && m.UserID == u.ID {
			return errInvalidAttribute("email", "email has already been taken: "+email+" is already a member")
		}
	}
	m := s.st.addMember(org, u)
	for _, id := range teamIDs {
		t := s.st.Teams[id]
		if !slices.Contains(t.UserIDs, u.ID) {
			t.UserIDs = append(t.UserIDs, u.ID)
		}
	}
	writeDoc(w, http.StatusCreated, document{Data: s.st.membershipResource(m), Included: []resource{userResource(u)}})
	return nil
}

// listMemberships lists an organization's memberships with their users
// always included (go-tfe's `include=user` is honoured either way).
func (s *Server) listMemberships(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	all := sorted(s.st.Memberships, func(m *membership) bool { return m.Org == org })
	var data []resource
	var included []resource
	for _, m := range paginate(all, pg) {
		data = append(data, s.st.membershipResource(m))
		included = append(included, userResource(s.st.Users[m.UserID]))
	}
	doc := pageDocument(r, pg, len(all), orEmpty(data))
	doc.Included = included
	writeDoc(w, http.StatusOK, doc)
	return nil
}

func (s *Server) readMembership(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.Memberships[r.PathValue("id")]
	if m == nil || !s.st.memberOf(p, m.Org) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.membershipResource(m), Included: []resource{userResource(s.st.Users[m.UserID])}})
	return nil
}

// deleteMembership removes a user from the organization and its teams.
func (s *Server) deleteMembership(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.Memberships[r.PathValue("id")]
	if m == nil || !s.st.memberOf(p, m.Org) || !s.st.hasOrgAccess(p, m.Org, func(a orgAccess) bool { return a.ManageMembership }) {
		return errNotFound()
	}
	for _, t := range s.st.Teams {
		if t.Org == m.Org {
			t.UserIDs = slices.DeleteFunc(t.UserIDs, func(id string) bool { return id == m.UserID })
		}
	}
	delete(s.st.Memberships, m.ID)
	writeNoContent(w)
	return nil
}

// ---- teams

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
	if !st.memberOf(p, t.Org) {
		return false
	}
	if t.Visibility == "organization" || st.hasOrgAccess(p, t.Org, func(a orgAccess) bool { return a.AccessSecretTeams }) {
		return true
	}
	return slices.ContainsFunc(st.teamsOf(p, t.Org), func(m *team) bool { return m.ID == t.ID })
}

func canManageTeams(a orgAccess) bool { return a.ManageTeams }

// createTeam creates a team. Visibility defaults to `secret`, as on the real
// service; names are unique in the organization (422 otherwise).
func (s *Server) createTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, canManageTeams) {
		return errNotFound()
	}
	b, e := decodeBody(r, "teams")
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
	writeDoc(w, http.StatusCreated, document{Data: s.st.teamResource(t)})
	return nil
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
	if b.err != nil {
		return b.err
	}
	for _, o := range st.Teams {
		if o.Org == t.Org && o.ID != t.ID && strings.EqualFold(o.Name, name) {
			return errInvalidAttribute("name", "name has already been taken")
		}
	}
	if o := st.Organizations[t.Org]; o != nil && o.OwnersTeamID == t.ID && (access != ownersAccess || name != "owners") {
		return errInvalidAttribute("organization-access", "the owners team's name and organization access cannot be changed")
	}
	t.Name, t.Access = name, access
	if vis != nil {
		t.Visibility = *vis
	}
	if allow != nil {
		t.AllowMemberTokenManagement = *allow
	}
	return nil
}

// listTeams lists the teams the caller can see, paginated.
func (s *Server) listTeams(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	names := strings.Split(r.URL.Query().Get("filter[names]"), ",")
	all := sorted(s.st.Teams, func(t *team) bool {
		return t.Org == org && s.st.canSeeTeam(p, t) && (names[0] == "" || slices.Contains(names, t.Name))
	})
	var data []resource
	for _, t := range paginate(all, pg) {
		data = append(data, s.st.teamResource(t))
	}
	writeDoc(w, http.StatusOK, pageDocument(r, pg, len(all), orEmpty(data)))
	return nil
}

func (s *Server) readTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.Teams[r.PathValue("id")]
	if t == nil || !s.st.canSeeTeam(p, t) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.teamResource(t)})
	return nil
}

func (s *Server) updateTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.Teams[r.PathValue("id")]
	if t == nil || !s.st.canSeeTeam(p, t) || !s.st.hasOrgAccess(p, t.Org, canManageTeams) {
		return errNotFound()
	}
	b, e := decodeBody(r, "teams")
	if e != nil {
		return e
	}
	if e := s.st.applyTeamAttributes(b, t); e != nil {
		return e
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.teamResource(t)})
	return nil
}

// deleteTeam deletes a team and its tokens. The owners team cannot be
// deleted (422), as on the real service.
func (s *Server) deleteTeam(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.Teams[r.PathValue("id")]
	if t == nil || !s.st.canSeeTeam(p, t) || !s.st.hasOrgAccess(p, t.Org, canManageTeams) {
		return errNotFound()
	}
	if o := s.st.Organizations[t.Org]; o != nil && o.OwnersTeamID == t.ID {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid request", Detail: "the owners team cannot be deleted"}
	}
	s.st.deleteTeam(t.ID)
	writeNoContent(w)
	return nil
}

func (st *state) deleteTeam(id string) {
	for _, tok := range st.Tokens {
		if tok.Kind == tokenTeam && tok.TeamID == id {
			st.deleteToken(tok.ID)
		}
	}
	st.deleteTeamAccessWhere(func(ta *teamAccess) bool { return ta.TeamID == id })
	delete(st.Teams, id)
}

// changeTeamUsers adds or removes users named by a linkage body. Members
// added must already belong to the organization (422 otherwise); the owners
// team keeps at least one member.
func (s *Server) changeTeamUsers(w http.ResponseWriter, r *http.Request, p principal, linkType string, add bool) *apiError {
	t := s.st.Teams[r.PathValue("id")]
	if t == nil || !s.st.canSeeTeam(p, t) || !s.st.hasOrgAccess(p, t.Org, canManageTeams) {
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
		if o := s.st.Organizations[t.Org]; o != nil && o.OwnersTeamID == t.ID && len(left) == 0 {
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

// canManageTeamToken: owners and manage-teams, or a member of the team when
// the team allows member token management.
func (st *state) canManageTeamToken(p principal, t *team) bool {
	if st.hasOrgAccess(p, t.Org, canManageTeams) {
		return true
	}
	return t.AllowMemberTokenManagement && p.user != nil && slices.Contains(t.UserIDs, p.user.ID)
}

func (st *state) legacyTeamToken(teamID string) *token {
	for _, tok := range st.Tokens {
		if tok.Kind == tokenTeam && tok.TeamID == teamID && tok.Legacy {
			return tok
		}
	}
	return nil
}

// createTeamToken serves both token paths: the singular
// `teams/:id/authentication-token` regenerates the team's one legacy token
// (the old secret stops working), the plural `authentication-tokens` adds a
// described token beside it.
func (s *Server) createTeamToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.Teams[r.PathValue("id")]
	if t == nil || !s.st.canSeeTeam(p, t) || !s.st.canManageTeamToken(p, t) {
		return errNotFound()
	}
	// go-tfe's token options carry no primary type, so its bodies have an
	// empty data.type; both that and the real type are accepted.
	b, e := decodeBody(r, "authentication-tokens", "")
	if e != nil {
		return e
	}
	desc := b.optString("description")
	if b.err != nil {
		return b.err
	}
	legacy := strings.HasSuffix(r.URL.Path, "/authentication-token")
	if legacy {
		if old := s.st.legacyTeamToken(t.ID); old != nil {
			s.st.deleteToken(old.ID)
		}
	}
	tok := &token{record: s.st.newRecord("at-"), Kind: tokenTeam, TeamID: t.ID, Legacy: legacy, CreatedBy: p.userID()}
	if desc != nil {
		tok.Description = *desc
	}
	secret := s.st.issueToken(tok)
	writeDoc(w, http.StatusCreated, document{Data: tokenResource(tok, secret)})
	return nil
}

func (s *Server) readTeamToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.Teams[r.PathValue("id")]
	if t == nil || !s.st.canSeeTeam(p, t) || !s.st.canManageTeamToken(p, t) {
		return errNotFound()
	}
	tok := s.st.legacyTeamToken(t.ID)
	if tok == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: tokenResource(tok, "")})
	return nil
}

func (s *Server) deleteTeamToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.Teams[r.PathValue("id")]
	if t == nil || !s.st.canSeeTeam(p, t) || !s.st.canManageTeamToken(p, t) {
		return errNotFound()
	}
	tok := s.st.legacyTeamToken(t.ID)
	if tok == nil {
		return errNotFound()
	}
	s.st.deleteToken(tok.ID)
	writeNoContent(w)
	return nil
}

// ---- organization tokens

func (st *state) organizationToken(org string) *token {
	for _, tok := range st.Tokens {
		if tok.Kind == tokenOrganization && tok.Org == org {
			return tok
		}
	}
	return nil
}

// createOrganizationToken (re)generates the organization's one token; the
// old secret stops working. Only owners may.
func (s *Server) createOrganizationToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.isOwner(p, org) {
		return errNotFound()
	}
	if old := s.st.organizationToken(org); old != nil {
		s.st.deleteToken(old.ID)
	}
	tok := &token{record: s.st.newRecord("at-"), Kind: tokenOrganization, Org: org, CreatedBy: p.userID()}
	secret := s.st.issueToken(tok)
	writeDoc(w, http.StatusCreated, document{Data: tokenResource(tok, secret)})
	return nil
}

func (s *Server) readOrganizationToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	tok := s.st.organizationToken(org)
	if tok == nil || !s.st.isOwner(p, org) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: tokenResource(tok, "")})
	return nil
}

func (s *Server) deleteOrganizationToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	tok := s.st.organizationToken(org)
	if tok == nil || !s.st.isOwner(p, org) {
		return errNotFound()
	}
	s.st.deleteToken(tok.ID)
	writeNoContent(w)
	return nil
}

// ---- workspaces

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

// ---- agent pools

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

// ---- registry modules

func canManageModules(a orgAccess) bool { return a.ManageModules }

func (m *registryModule) version(v string) *moduleVersion {
	for _, mv := range m.Versions {
		if mv.Version == v {
			return mv
		}
	}
	return nil
}

func registryModuleResource(m *registryModule) resource {
	statuses := make([]map[string]any, 0, len(m.Versions))
	// The real service lists the newest version first.
	for i := len(m.Versions) - 1; i >= 0; i-- {
		statuses = append(statuses, map[string]any{"version": m.Versions[i].Version, "status": m.Versions[i].Status})
	}
	status := "pending"
	if slices.ContainsFunc(m.Versions, func(v *moduleVersion) bool { return v.Status == "ok" }) {
		status = "setup_complete"
	}
	return resource{
		Type: "registry-modules",
		ID:   m.ID,
		Attributes: map[string]any{
			"name":                 m.Name,
			"provider":             m.Provider,
			"namespace":            m.Org,
			"registry-name":        "private",
			"status":               status,
			"version-statuses":     statuses,
			"no-code":              false,
			"publishing-mechanism": "git_tag",
			"created-at":           timestamp(m.CreatedAt),
			"updated-at":           timestamp(m.UpdatedAt),
			"permissions": map[string]any{
				"can-delete": true, "can-resync": true, "can-retry": true,
			},
		},
		Relationships: map[string]any{"organization": relOne("organizations", m.Org)},
		Links: map[string]any{
			"self": apiPath("organizations", m.Org, "registry-modules", "private", m.Org, m.Name, m.Provider),
		},
	}
}

func moduleVersionResource(m *registryModule, mv *moduleVersion, upload string) resource {
	res := resource{
		Type: "registry-module-versions",
		ID:   mv.ID,
		Attributes: map[string]any{
			"version":    mv.Version,
			"status":     mv.Status,
			"source":     "tfe-api",
			"created-at": timestamp(mv.CreatedAt),
			"updated-at": timestamp(mv.UpdatedAt),
		},
		Relationships: map[string]any{
			"registry-module": relOne("registry-modules", m.ID),
			"deprecation":     deprecationRelationship(mv),
		},
		Links: map[string]any{},
	}
	if upload != "" {
		res.Links["upload"] = upload
	}
	return res
}

// moduleByPath finds a private module by organization, namespace, name and
// provider. The namespace of a private module is its organization.
func (st *state) moduleByPath(org, ns, name, provider string) *registryModule {
	if ns != org {
		return nil
	}
	for _, m := range st.RegistryModules {
		if m.Org == org && m.Name == name && m.Provider == provider {
			return m
		}
	}
	return nil
}

var moduleProviderRE = regexp.MustCompile(`^[a-z0-9]+$`)

// createRegistryModule creates a private module with no versions (go-tfe's
// RegistryModules.Create). Owners and manage-modules may. name follows
// nameRE, provider is lower-case letters and digits; the triple is unique
// (422). Only the private registry is emulated.
func (s *Server) createRegistryModule(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, canManageModules) {
		return errNotFound()
	}
	b, e := decodeBody(r, "registry-modules")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	provider := b.reqString("provider")
	registry := b.optString("registry-name")
	b.oneOf("registry-name", registry, "private")
	ns := b.optString("namespace")
	if b.err != nil {
		return b.err
	}
	if !nameRE.MatchString(name) {
		return errInvalidAttribute("name", "name may contain only letters, numbers, - and _")
	}
	if !moduleProviderRE.MatchString(provider) {
		return errInvalidAttribute("provider", "provider may contain only lower-case letters and numbers")
	}
	if ns != nil && *ns != "" && *ns != org {
		return errInvalidAttribute("namespace", "namespace of a private module must be the organization name")
	}
	if s.st.moduleByPath(org, org, name, provider) != nil {
		return errInvalidAttribute("name", "name has already been taken for this provider")
	}
	m := &registryModule{record: s.st.newRecord("mod-"), Org: org, Name: name, Provider: provider}
	m.UpdatedAt = m.CreatedAt
	s.st.RegistryModules[m.ID] = m
	writeDoc(w, http.StatusCreated, document{Data: registryModuleResource(m)})
	return nil
}

func (s *Server) readRegistryModule(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.moduleByPath(r.PathValue("org"), r.PathValue("ns"), r.PathValue("name"), r.PathValue("provider"))
	if m == nil || !s.st.memberOf(p, m.Org) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: registryModuleResource(m)})
	return nil
}

// deleteRegistryModule deletes a module (one provider) and its versions.
func (s *Server) deleteRegistryModule(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.moduleByPath(r.PathValue("org"), r.PathValue("ns"), r.PathValue("name"), r.PathValue("provider"))
	if m == nil || !s.st.memberOf(p, m.Org) || !s.st.hasOrgAccess(p, m.Org, canManageModules) {
		return errNotFound()
	}
	s.st.deleteRegistryModule(m.ID)
	writeNoContent(w)
	return nil
}

// deleteRegistryModule removes a module and what hangs off it.
func (st *state) deleteRegistryModule(id string) {
	st.deleteModuleTests(id)
	for _, v := range st.moduleTestVariables(id) {
		delete(st.TestVariables, v.ID)
	}
	delete(st.RegistryModules, id)
}

// readModuleVersion is go-tfe's ReadVersion:
// `.../private/:ns/:name/:provider/version?module_version=V`; with
// include=deprecation it also carries the version's deprecation
// (module_deprecation.go).
func (s *Server) readModuleVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.moduleByPath(r.PathValue("org"), r.PathValue("ns"), r.PathValue("name"), r.PathValue("provider"))
	if m == nil || !s.st.memberOf(p, m.Org) {
		return errNotFound()
	}
	mv := m.version(r.URL.Query().Get("module_version"))
	if mv == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: moduleVersionResource(m, mv, ""), Included: includedDeprecation(r, mv)})
	return nil
}

// deleteModuleVersion deletes one version of a module.
func (s *Server) deleteModuleVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.moduleByPath(r.PathValue("org"), r.PathValue("ns"), r.PathValue("name"), r.PathValue("provider"))
	if m == nil || !s.st.memberOf(p, m.Org) || !s.st.hasOrgAccess(p, m.Org, canManageModules) {
		return errNotFound()
	}
	mv := m.version(r.PathValue("version"))
	if mv == nil {
		return errNotFound()
	}
	s.st.deleteModuleVersion(m, mv.Version)
	writeNoContent(w)
	return nil
}

// deleteModuleVersion removes one version and what hangs off it.
func (st *state) deleteModuleVersion(m *registryModule, v string) {
	m.Versions = slices.DeleteFunc(m.Versions, func(mv *moduleVersion) bool { return mv.Version == v })
}

// maxModuleArchive bounds a module version's upload.
const maxModuleArchive = 100 << 20

// createModuleVersion is go-tfe's CreateVersion: it adds a `pending`
// version whose `links.upload` is a one-time address on the upload
// listener. Uploading a .tar.gz moves the version to `ok`; anything else to
// `reg_ingress_failed`, as on the real service. The version must be valid
// semver and new for the module (422).
func (s *Server) createModuleVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	m := s.st.moduleByPath(org, org, r.PathValue("name"), r.PathValue("provider"))
	if m == nil || !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, canManageModules) {
		return errNotFound()
	}
	b, e := decodeBody(r, "registry-module-versions")
	if e != nil {
		return e
	}
	v := b.reqString("version")
	if b.err != nil {
		return b.err
	}
	if _, err := version.NewSemver(v); err != nil {
		return errInvalidAttribute("version", fmt.Sprintf("version must be a semantic version such as 1.2.3, got %q", v))
	}
	if m.version(v) != nil {
		return errInvalidAttribute("version", "version "+v+" already exists")
	}
	mv := s.st.addModuleVersion(m, v)
	upload := s.uploads.newUploadURL(maxModuleArchive, func(st *state, body []byte) *apiError {
		mod := st.RegistryModules[m.ID]
		if mod == nil || mod.version(v) == nil {
			return errNotFound()
		}
		target := mod.version(v)
		target.UpdatedAt = now()
		// A bad archive is the version's failure, not the upload's.
		target.Status, target.Error = "ok", ""
		if err := checkTarGz(body); err != nil {
			target.Status, target.Error = "reg_ingress_failed", err.Error()
		}
		return nil
	})
	writeDoc(w, http.StatusCreated, document{Data: moduleVersionResource(m, mv, upload)})
	return nil
}

// addModuleVersion records a pending version (shared with the demo seed).
func (st *state) addModuleVersion(m *registryModule, v string) *moduleVersion {
	t := now()
	mv := &moduleVersion{ID: newID("modver-"), Version: v, Status: "pending", CreatedAt: t, UpdatedAt: t}
	m.Versions = append(m.Versions, mv)
	m.UpdatedAt = t
	return mv
}

// checkTarGz reports whether raw is a readable gzip-compressed tar archive.
func checkTarGz(raw []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("not a gzip archive: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		_, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("not a tar archive: %w", err)
		}
	}
}

// ---- policy sets

func canManagePolicies(a orgAccess) bool { return a.ManagePolicies }

func policySetResource(ps *policySet) resource {
	return resource{
		Type: "policy-sets",
		ID:   ps.ID,
		Attributes: map[string]any{
			"name":            ps.Name,
			"description":     nullableString(ps.Description),
			"kind":            ps.Kind,
			"global":          ps.Global,
			"overridable":     false,
			"policy-count":    len(ps.PolicyIDs),
			"workspace-count": 0,
			"project-count":   0,
			"created-at":      timestamp(ps.CreatedAt),
			"updated-at":      timestamp(ps.UpdatedAt),
		},
		Relationships: map[string]any{
			"organization": relOne("organizations", ps.Org),
			"policies":     relMany("policies", ps.PolicyIDs),
		},
		Links: map[string]any{"self": apiPath("policy-sets", ps.ID)},
	}
}

// createPolicySet creates a policy set: owners, the organization token and
// teams with manage-policies. Names follow nameRE (spaces are refused here,
// as in policy names) and are unique in the organization; kind is
// `sentinel` (default) or `opa`. The free edition's "one policy set of up to
// five policies" is not enforced: the sandbox emulates a paid organization.
func (s *Server) createPolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, canManagePolicies) {
		return errNotFound()
	}
	b, e := decodeBody(r, "policy-sets")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	desc := b.optString("description")
	global := b.optBool("global")
	kind := b.optString("kind")
	b.oneOf("kind", kind, "sentinel", "opa")
	policyIDs := b.relIDs("policies", "policies")
	if b.err != nil {
		return b.err
	}
	if !nameRE.MatchString(name) {
		return errInvalidAttribute("name", "name may contain only letters, numbers, - and _")
	}
	for _, ps := range s.st.PolicySets {
		if ps.Org == org && ps.Name == name {
			return errInvalidAttribute("name", "name has already been taken")
		}
	}
	ps := &policySet{record: s.st.newRecord("polset-"), Org: org, Name: name, Kind: "sentinel", PolicyIDs: []string{}}
	ps.UpdatedAt = ps.CreatedAt
	if desc != nil {
		ps.Description = *desc
	}
	if global != nil {
		ps.Global = *global
	}
	if kind != nil {
		ps.Kind = *kind
	}
	// The `policies` relationship (go-tfe PolicySetCreateOptions.Policies)
	// names policies of the organization, of the set's kind.
	for _, id := range policyIDs {
		pol := s.st.Policies[id]
		if pol == nil || pol.Org != org || pol.Kind != ps.Kind {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("policies: policy %s not found among the %s policies of organization %s", id, ps.Kind, org), Pointer: "/data/relationships/policies"}
		}
		if !slices.Contains(ps.PolicyIDs, id) {
			ps.PolicyIDs = append(ps.PolicyIDs, id)
		}
	}
	s.st.PolicySets[ps.ID] = ps
	writeDoc(w, http.StatusCreated, document{Data: policySetResource(ps)})
	return nil
}

func (s *Server) listPolicySets(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.memberOf(p, org) || !s.st.hasOrgAccess(p, org, canManagePolicies) {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	all := sorted(s.st.PolicySets, func(ps *policySet) bool { return ps.Org == org })
	var data []resource
	for _, ps := range paginate(all, pg) {
		data = append(data, policySetResource(ps))
	}
	writeDoc(w, http.StatusOK, pageDocument(r, pg, len(all), orEmpty(data)))
	return nil
}

func (s *Server) readPolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps := s.st.PolicySets[r.PathValue("id")]
	if ps == nil || !s.st.memberOf(p, ps.Org) || !s.st.hasOrgAccess(p, ps.Org, canManagePolicies) {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: policySetResource(ps)})
	return nil
}

func (s *Server) deletePolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps := s.st.PolicySets[r.PathValue("id")]
	if ps == nil || !s.st.memberOf(p, ps.Org) || !s.st.hasOrgAccess(p, ps.Org, canManagePolicies) {
		return errNotFound()
	}
	s.st.deletePolicySet(ps.ID)
	writeNoContent(w)
	return nil
}

// deletePolicySet removes a set; the policies in it stay. They are detached
// by the removal itself: a policy's sets are derived from the sets'
// PolicyIDs (see policies.go).
func (st *state) deletePolicySet(id string) {
	delete(st.PolicySets, id)
}

// orEmpty turns a nil slice into an empty one so `data` is `[]`, not null.
func orEmpty(rs []resource) []resource {
	if rs == nil {
		return []resource{}
	}
	return rs
}
