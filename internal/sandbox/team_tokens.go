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
	return find(st.Tokens, func(tok *token) bool { return tok.Kind == tokenTeam && tok.TeamID == teamID && tok.Legacy })
}

// teamForTokens returns the team at id when p may see it and manage its
// tokens, or nil.
func (st *state) teamForTokens(p principal, id string) *team {
	return visible(st.Teams[id], func(t *team) bool { return st.canSeeTeam(p, t) && st.canManageTeamToken(p, t) })
}

// legacyTeamTokenFor returns the legacy token of the team at id when p may
// manage the team's tokens, or nil.
func (st *state) legacyTeamTokenFor(p principal, id string) *token {
	if t := st.teamForTokens(p, id); t != nil {
		return st.legacyTeamToken(t.ID)
	}
	return nil
}

// createTeamToken serves both token paths: the singular
// `teams/:id/authentication-token` regenerates the team's one legacy token
// (the old secret stops working), the plural `authentication-tokens` adds a
// described token beside it.
func (s *Server) createTeamToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	t := s.st.teamForTokens(p, r.PathValue("id"))
	if t == nil {
		return errNotFound()
	}
	desc, e := decodeTokenDescription(r)
	if e != nil {
		return e
	}
	legacy := strings.HasSuffix(r.URL.Path, "/authentication-token")
	if legacy {
		if old := s.st.legacyTeamToken(t.ID); old != nil {
			s.st.deleteToken(old.ID)
		}
	}
	return s.st.writeNewToken(w, &token{record: s.st.newRecord("at-"), Kind: tokenTeam, TeamID: t.ID, Legacy: legacy, CreatedBy: p.userID(), Description: desc})
}

func (s *Server) readTeamToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return writeOne(w, http.StatusOK, s.st.legacyTeamTokenFor(p, r.PathValue("id")), storedTokenResource)
}

func (s *Server) deleteTeamToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.legacyTeamTokenFor(p, r.PathValue("id")), s.st.deleteToken)
}
