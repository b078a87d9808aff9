package sandbox

import (
	"net/http"
)

// Organization tokens: an organization's one token. Not documented by the
// reference; shaped as go-tfe expects.

func (s *Server) registerOrganizationTokens() {
	s.route("POST /api/v2/organizations/{org}/authentication-token", s.createOrganizationToken)
	s.route("GET /api/v2/organizations/{org}/authentication-token", s.readOrganizationToken)
	s.route("DELETE /api/v2/organizations/{org}/authentication-token", s.deleteOrganizationToken)
}

func (st *state) organizationToken(org string) *token {
	return find(st.Tokens, func(tok *token) bool { return tok.Kind == tokenOrganization && tok.Org == org })
}

// organizationTokenFor returns org's token when p is an owner, or nil.
func (st *state) organizationTokenFor(p principal, org string) *token {
	if !st.isOwner(p, org) {
		return nil
	}
	return st.organizationToken(org)
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
	return s.st.writeNewToken(w, &token{record: s.st.newRecord("at-"), Kind: tokenOrganization, Org: org, CreatedBy: p.userID()})
}

func (s *Server) readOrganizationToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return writeOne(w, http.StatusOK, s.st.organizationTokenFor(p, r.PathValue("org")), storedTokenResource)
}

func (s *Server) deleteOrganizationToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.organizationTokenFor(p, r.PathValue("org")), s.st.deleteToken)
}
