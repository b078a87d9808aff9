package sandbox

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"strings"
)

// Token kinds. API tokens (user, team, organization) authenticate requests;
// agent tokens authenticate agents, not API calls, so a request bearing one
// gets 401 like any unknown token.
const (
	tokenUser         = "user"
	tokenTeam         = "team"
	tokenOrganization = "organization"
	tokenAgent        = "agent"
)

// principal is who a request acts as.
//
// The reference leaves token issuing "not shown". The sandbox models the
// real service's four kinds: the admin token given at start-up (a site
// admin, for bootstrapping: it may do anything in every organization), user
// tokens, team tokens and organization tokens. A user's rights come from the
// teams they belong to; a team token has its team's rights; the organization
// token acts as an owner of its organization.
type principal struct {
	admin bool
	user  *user  // user tokens, and the admin's own user record
	token *token // nil for the admin token
}

// authenticate maps the bearer token to a principal. It returns false for a
// missing, unknown or non-API token.
func (s *Server) authenticate(r *http.Request) (principal, bool) {
	h := r.Header.Get("Authorization")
	secret, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || secret == "" {
		return principal{}, false
	}
	if subtle.ConstantTimeCompare([]byte(secret), []byte(s.adminToken)) == 1 {
		return principal{admin: true, user: s.st.Users[s.st.AdminUserID]}, true
	}
	id, ok := s.st.TokenIndex[hashSecret(secret)]
	if !ok {
		return principal{}, false
	}
	tok := s.st.Tokens[id]
	if tok == nil || tok.Kind == tokenAgent {
		return principal{}, false
	}
	p := principal{token: tok}
	if tok.Kind == tokenUser {
		p.user = s.st.Users[tok.UserID]
		if p.user == nil {
			return principal{}, false
		}
	}
	return p, true
}

// userID is the user a principal acts as, or "" for team and organization
// tokens (which act as their team or organization, not a user).
func (p principal) userID() string {
	if p.user != nil {
		return p.user.ID
	}
	return ""
}

// memberOf reports whether p belongs to org at all. Every organization-scoped
// lookup starts here, which is what makes cross-organization access
// impossible: a team or organization token is bound to its organization.
func (st *state) memberOf(p principal, org string) bool {
	if p.admin {
		return st.Organizations[org] != nil
	}
	if p.token != nil {
		switch p.token.Kind {
		case tokenTeam:
			t := st.Teams[p.token.TeamID]
			return t != nil && t.Org == org
		case tokenOrganization:
			return p.token.Org == org
		}
	}
	if p.user == nil {
		return false
	}
	for _, m := range st.Memberships {
		if m.Org == org && m.UserID == p.user.ID {
			return true
		}
	}
	return false
}

// teamsOf lists the teams of org that p acts through: a user's teams, or the
// team of a team token.
func (st *state) teamsOf(p principal, org string) []*team {
	if p.token != nil && p.token.Kind == tokenTeam {
		if t := st.Teams[p.token.TeamID]; t != nil && t.Org == org {
			return []*team{t}
		}
		return nil
	}
	if p.user == nil {
		return nil
	}
	var out []*team
	for _, t := range sorted(st.Teams, func(t *team) bool { return t.Org == org }) {
		if slices.Contains(t.UserIDs, p.user.ID) {
			out = append(out, t)
		}
	}
	return out
}

// isOwner reports whether p is an owner of org: the admin, a member of the
// owners team, or the owners team's token.
func (st *state) isOwner(p principal, org string) bool {
	if p.admin {
		return st.Organizations[org] != nil
	}
	o := st.Organizations[org]
	if o == nil {
		return false
	}
	for _, t := range st.teamsOf(p, org) {
		if t.ID == o.OwnersTeamID {
			return true
		}
	}
	return false
}

// actsAsOwner is isOwner, widened to the organization token, which the
// reference says acts as an owner.
func (st *state) actsAsOwner(p principal, org string) bool {
	if p.token != nil && p.token.Kind == tokenOrganization && p.token.Org == org {
		return true
	}
	return st.isOwner(p, org)
}

// hasOrgAccess reports whether p may do what the organization-access
// permission selected by allowed grants: owners and the organization token
// always may; others through any of their teams.
func (st *state) hasOrgAccess(p principal, org string, allowed func(orgAccess) bool) bool {
	if st.actsAsOwner(p, org) {
		return true
	}
	for _, t := range st.teamsOf(p, org) {
		if allowed(t.Access) {
			return true
		}
	}
	return false
}
