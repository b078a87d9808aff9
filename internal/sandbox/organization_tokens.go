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
