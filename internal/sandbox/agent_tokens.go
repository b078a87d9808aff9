package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The "Agent tokens" section of the reference.
//
// Authorization: the reference says only that agent tokens are secrets that
// belong to an agent pool. As on the real service, reading, creating and
// destroying them needs the organization's "manage agent pools" permission:
// owners, the organization token, and teams (members or team tokens) with
// manage-agent-pools. Everyone else gets 404, as for a missing pool.

func (s *Server) registerAgentTokens() {
	s.route("GET /api/v2/agent-pools/{id}/authentication-tokens", s.listAgentTokens)
	s.route("POST /api/v2/agent-pools/{id}/authentication-tokens", s.createAgentToken)
	s.route("GET /api/v2/authentication-tokens/{id}", s.readAuthenticationToken)
	s.route("DELETE /api/v2/authentication-tokens/{id}", s.deleteAuthenticationToken)
	s.mux.HandleFunc("GET /api/agent/jobs", s.agentJobs)
}

// agentJobs is the one request of the agent API (outside /api/v2, which
// refuses agent tokens) that the sandbox serves: an agent polling for a
// job, authenticated by its agent token. The reference says only that a
// token's last-used-at is "null when never used"; here, as on the real
// service, a token is used when an agent authenticates with it: the poll
// sets the token's last-used-at to now. The sandbox runs no agent jobs, so
// the answer is always 204 (no job). Any other bearer: 401.
func (s *Server) agentJobs(w http.ResponseWriter, r *http.Request) {
	s.count("GET /api/agent/jobs")
	s.countPath(r)
	secret, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	var tok *token
	if id, ok := s.st.TokenIndex[hashSecret(secret)]; ok && secret != "" {
		if t := s.st.Tokens[id]; t != nil && t.Kind == tokenAgent {
			tok = t
		}
	}
	if tok != nil {
		tok.LastUsedAt = s.st.now()
		s.persistLocked()
	}
	s.mu.Unlock()
	if tok == nil {
		writeError(w, &apiError{Status: http.StatusUnauthorized, Title: "unauthorized", Detail: "a valid agent token is required"})
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// BackdateToken moves the created-at and (when set) last-used-at of token
// id back by d, as if it had been made and last used d earlier: the
// sandbox's switch for tests of what happens to old tokens (a real
// service's tokens age on their own). It fails for an unknown token.
func (s *Server) BackdateToken(id string, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.st.Tokens[id]
	if t == nil {
		return fmt.Errorf("no token %s", id)
	}
	t.CreatedAt = t.CreatedAt.Add(-d)
	if !t.LastUsedAt.IsZero() {
		t.LastUsedAt = t.LastUsedAt.Add(-d)
	}
	s.persistLocked()
	return nil
}

// listAgentTokens lists a pool's tokens, oldest first, 20 a page by default,
// with `links` and `meta.pagination` as the reference shows; `token` is
// always null.
func (s *Server) listAgentTokens(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ap := s.st.agentPoolFor(p, r.PathValue("id"), true)
	if ap == nil {
		return errNotFound()
	}
	return writeList(w, r, sorted(s.st.Tokens, func(t *token) bool { return t.Kind == tokenAgent && t.PoolID == ap.ID }), storedTokenResource)
}

// createAgentToken creates a token and answers 201 with the secret, the
// only time it is ever returned. go-tfe sends `data.type` `agent-tokens`
// where the reference says `authentication-tokens`: both are accepted, and
// the answer is always `authentication-tokens`. `description` is required
// and must be a non-blank string (422 naming it otherwise). `created-by`
// relates to the user who made it, or is null for team and organization
// tokens, which act as no user (go-tfe decodes it as a user).
func (s *Server) createAgentToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ap := s.st.agentPoolFor(p, r.PathValue("id"), true)
	if ap == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "authentication-tokens", "agent-tokens")
	if e != nil {
		return e
	}
	desc := b.reqString("description")
	if b.err != nil {
		return b.err
	}
	return s.st.writeNewToken(w, &token{record: s.st.newRecord("at-"), Kind: tokenAgent, PoolID: ap.ID, Description: desc, CreatedBy: p.userID()})
}

// tokenFor returns the token at id when p may see it. The path is shared by
// every kind of token (go-tfe reads user and team tokens by id here too), so
// the rule depends on the kind: agent tokens need manage-agent-pools on
// their pool; user tokens are visible to their user; team tokens to whoever
// may manage the team's tokens; the organization token to owners.
func (st *state) tokenFor(p principal, id string) *token {
	t := st.Tokens[id]
	if t == nil {
		return nil
	}
	switch t.Kind {
	case tokenAgent:
		if st.agentPoolFor(p, t.PoolID, true) != nil {
			return t
		}
	case tokenUser:
		if p.admin || p.userID() == t.UserID {
			return t
		}
	case tokenTeam:
		if st.teamForTokens(p, t.TeamID) != nil {
			return t
		}
	case tokenOrganization:
		if st.isOwner(p, t.Org) {
			return t
		}
	}
	return nil
}

// readAuthenticationToken shows a token with `token` null.
func (s *Server) readAuthenticationToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return writeOne(w, http.StatusOK, s.st.tokenFor(p, r.PathValue("id")), storedTokenResource)
}

// deleteAuthenticationToken revokes a token: 204, and the secret stops
// working at once.
func (s *Server) deleteAuthenticationToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.tokenFor(p, r.PathValue("id")), s.st.deleteToken)
}
