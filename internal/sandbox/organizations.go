package sandbox

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Organizations and users: the account, organizations and the users in
// them. The reference names these endpoints but does not document them, so
// they are shaped as go-tfe sends and decodes them, with the attributes tests
// and the quickstart need. Where the sandbox chooses a behaviour the real
// service does not document, the handler says so.

func (s *Server) registerOrganizations() {
	s.route("GET /api/v2/account/details", s.readAccount)
	s.route("GET /api/v2/organizations", s.listOrganizations)
	s.route("POST /api/v2/organizations", s.createOrganization)
	s.route("GET /api/v2/organizations/{org}", s.readOrganization)
	s.route("PATCH /api/v2/organizations/{org}", s.updateOrganization)
	s.route("DELETE /api/v2/organizations/{org}", s.deleteOrganization)
}

type organization struct {
	record
	Name         string `json:"name"`
	Email        string `json:"email"`
	OwnersTeamID string `json:"owners_team_id"`
	// Settings are the settings changed from a new organization's
	// (organization_settings.go), by attribute name.
	Settings map[string]any `json:"settings,omitempty"`
	// DefaultProjectID is the project workspaces made without one join
	// (projects.go).
	DefaultProjectID string `json:"default_project_id,omitempty"`
	// DefaultAgentPoolID is the pool of default-execution-mode agent.
	DefaultAgentPoolID string `json:"default_agent_pool_id,omitempty"`
	// Subscription is what the admin subscription endpoint set last
	// (admin_subscriptions.go); nil for none.
	Subscription *subscription `json:"subscription,omitempty"`
}

type user struct {
	record
	Username  string `json:"username"`
	Email     string `json:"email"`
	SiteAdmin bool   `json:"site_admin"`
}

// nameRE is the real service's rule for organization, workspace and module
// names: letters, numbers, `-` and `_`.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// organizationResource renders an organization with the settings go-tfe's
// Organization decodes: those organization_settings.go lets owners change
// (at a new organization's values until they do), and the rest at a paid
// organization's: SAML off, not unified, no trial. `permissions` (which
// depend on the caller) is left out. The default agent pool is named while
// it exists; the default project always.
func (st *state) organizationResource(o *organization) resource {
	attrs := map[string]any{
		"name":                  o.Name,
		"email":                 o.Email,
		"external-id":           o.ID,
		"created-at":            timestamp(o.CreatedAt),
		"two-factor-conformant": true,
		"saml-enabled":          false,
		"is-unified":            false,
		"trial-expires-at":      nil,
	}
	o.settingsAttributes(attrs)
	pool := ""
	if st.AgentPools[o.DefaultAgentPoolID] != nil {
		pool = o.DefaultAgentPoolID
	}
	return resource{
		Type:          "organizations",
		ID:            o.Name,
		Attributes:    attrs,
		Relationships: map[string]any{"default-agent-pool": relOne("agent-pools", pool), "default-project": relOne("projects", o.DefaultProjectID)},
		Links:         map[string]any{"self": apiPath("organizations", o.Name)},
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
			// The sandbox has no sign-in, hence no second factor.
			"two-factor":         map[string]any{"enabled": false, "verified": false},
			"is-service-account": false,
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
// Names are unique across the sandbox: 422 "has already been taken". The
// settings of organization_settings.go are kept as sent, as by an update.
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
	settings := readOrgSettings(b, nil)
	if b.err != nil {
		return b.err
	}
	if e := checkName(name); e != nil {
		return e
	}
	if s.st.Organizations[name] != nil {
		return errNameTaken()
	}
	// A new organization has no agent pool yet for mode agent.
	if settings["default-execution-mode"] == "agent" {
		return errInvalidAttribute("default-execution-mode", "default-execution-mode agent needs a default agent pool: create the organization, then an agent pool, then update it")
	}
	owner := p.user
	if p.admin {
		owner = s.st.userByEmail(email)
	}
	o := s.st.createOrganization(name, email, owner)
	o.Settings = settings
	return writeOne(w, http.StatusCreated, o, s.st.organizationResource)
}

// createOrganization is the state change shared with the demo seed.
func (st *state) createOrganization(name, email string, owner *user) *organization {
	o := &organization{record: st.newRecord("org-"), Name: name, Email: email}
	owners := &team{record: st.newRecord("team-"), Org: name, Name: "owners", Visibility: "secret", Access: ownersAccess}
	o.OwnersTeamID = owners.ID
	st.Organizations[name] = o
	st.Teams[owners.ID] = owners
	st.addDefaultProject(o, "")
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

// listOrganizations is GET /organizations: the organizations the caller is a
// member of (all of them for the admin token), oldest first; README.md
// "Where the reference is silent".
func (s *Server) listOrganizations(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	orgs := sorted(s.st.Organizations, func(o *organization) bool { return s.st.memberOf(p, o.Name) })
	return writeList(w, r, orgs, s.st.organizationResource)
}

func (s *Server) readOrganization(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	return writeOne(w, http.StatusOK, s.st.Organizations[org], s.st.organizationResource)
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
	deleteWhere(st.Workspaces, func(ws *workspace) bool { return ws.Org == org }, st.deleteWorkspace)
	deleteWhere(st.Projects, func(p *project) bool { return p.Org == org }, st.deleteProject)
	deleteWhere(st.AgentPools, func(ap *agentPool) bool { return ap.Org == org }, st.deleteAgentPool)
	deleteWhere(st.OAuthClients, func(oc *oauthClient) bool { return oc.Org == org }, st.deleteOAuthClient)
	deleteWhere(st.RegistryModules, func(m *registryModule) bool { return m.Org == org }, st.deleteRegistryModule)
	deleteWhere(st.PolicySets, func(ps *policySet) bool { return ps.Org == org }, st.deletePolicySet)
	deleteWhere(st.Policies, func(pol *policy) bool { return pol.Org == org }, st.deletePolicy)
	deleteWhere(st.Teams, func(t *team) bool { return t.Org == org }, st.deleteTeam)
	deleteWhere(st.Memberships, func(m *membership) bool { return m.Org == org }, st.deleteMembership)
	deleteWhere(st.Tokens, func(t *token) bool { return t.Kind == tokenOrganization && t.Org == org }, st.deleteToken)
	delete(st.Organizations, org)
}
