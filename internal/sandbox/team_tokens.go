package sandbox

import (
	"net/http"
	"slices"
	"strings"
)

// Team tokens: the legacy one-per-team token and described tokens beside it.
// Not documented by the reference; shaped as go-tfe expects.

func (s *Server) registerTeamTokens() {
	s.route("POST /api/v2/teams/{id}/authentication-token", s.createTeamToken)
	s.route("POST /api/v2/teams/{id}/authentication-tokens", s.createTeamToken)
	s.route("GET /api/v2/teams/{id}/authentication-token", s.readTeamToken)
	s.route("DELETE /api/v2/teams/{id}/authentication-token", s.deleteTeamToken)
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
