package sandbox

import (
	"net/http"
	"slices"
	"strings"
)

// Organization memberships: inviting users (accepted at once), listing,
// reading and removing them. Not documented by the reference; shaped as
// go-tfe expects.

func (s *Server) registerMemberships() {
	s.route("POST /api/v2/organizations/{org}/organization-memberships", s.createMembership)
	s.route("GET /api/v2/organizations/{org}/organization-memberships", s.listMemberships)
	s.route("GET /api/v2/organization-memberships/{id}", s.readMembership)
	s.route("DELETE /api/v2/organization-memberships/{id}", s.deleteMembership)
}

type membership struct {
	record
	Org    string `json:"org"`
	UserID string `json:"user_id"`
	Email  string `json:"email"`
}

// addMember makes u a member of org (idempotent) and returns the membership.
func (st *state) addMember(org string, u *user) *membership {
	if m := st.membershipOf(org, u.ID); m != nil {
		return m
	}
	m := &membership{record: st.newRecord("ou-"), Org: org, UserID: u.ID, Email: u.Email}
	st.Memberships[m.ID] = m
	return m
}

// membershipOf returns the membership of the user userID in org, or nil.
func (st *state) membershipOf(org, userID string) *membership {
	return find(st.Memberships, func(m *membership) bool { return m.Org == org && m.UserID == userID })
}

// membershipFor returns the membership at id when p is a member of its
// organization and, with manage, may manage memberships; otherwise nil.
func (st *state) membershipFor(p principal, id string, manage bool) *membership {
	return visible(st.Memberships[id], func(m *membership) bool { return st.mayIn(p, m.Org, managing(manage, canManageMembership)) })
}

func canManageMembership(a orgAccess) bool { return a.ManageMembership }

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
	org, b, e := s.st.decodeIn(r, p, canManageMembership, "organization-memberships")
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
	if s.st.membershipOf(org, u.ID) != nil {
		return errInvalidAttribute("email", "email has already been taken: "+email+" is already a member")
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
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	all := sorted(s.st.Memberships, func(m *membership) bool { return m.Org == org })
	doc, items, e := listPage(r, all, s.st.membershipResource)
	if e != nil {
		return e
	}
	for _, m := range items {
		doc.Included = append(doc.Included, userResource(s.st.Users[m.UserID]))
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

func (s *Server) readMembership(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.membershipFor(p, r.PathValue("id"), false)
	if m == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.membershipResource(m), Included: []resource{userResource(s.st.Users[m.UserID])}})
	return nil
}

// deleteMembership removes a user from the organization and its teams.
func (s *Server) deleteMembership(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.membershipFor(p, r.PathValue("id"), true), s.st.deleteMembership)
}

// deleteMembership removes a membership and its user from the
// organization's teams.
func (st *state) deleteMembership(id string) {
	m := st.Memberships[id]
	for _, t := range st.Teams {
		if t.Org == m.Org {
			t.UserIDs = slices.DeleteFunc(t.UserIDs, func(id string) bool { return id == m.UserID })
		}
	}
	delete(st.Memberships, id)
}
