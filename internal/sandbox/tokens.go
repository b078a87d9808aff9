package sandbox

import (
	"net/http"
	"time"
)

// Authentication tokens: the one token record behind user, team,
// organization and agent tokens, and user tokens. Team tokens are in
// team_tokens.go, organization tokens in organization_tokens.go, agent tokens
// (a section of the reference) in agent_tokens.go.

func (s *Server) registerUserTokens() {
	s.route("POST /api/v2/users/{id}/authentication-tokens", s.createUserToken)
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

// storedTokenResource renders a token after the response that created it:
// without its secret.
func storedTokenResource(t *token) resource { return tokenResource(t, "") }

// writeNewToken issues t and answers 201 with the secret, which only this
// response carries.
func (st *state) writeNewToken(w http.ResponseWriter, t *token) *apiError {
	writeDoc(w, http.StatusCreated, document{Data: tokenResource(t, st.issueToken(t))})
	return nil
}

// decodeTokenDescription reads the optional description of a user or team
// token create. go-tfe's token options carry no primary type, so its bodies
// have an empty data.type; both that and the real type are accepted.
func decodeTokenDescription(r *http.Request) (string, *apiError) {
	b, e := decodeBody(r, "authentication-tokens", "")
	if e != nil {
		return "", e
	}
	desc := b.optString("description")
	if b.err != nil {
		return "", b.err
	}
	if desc == nil {
		return "", nil
	}
	return *desc, nil
}

// createUserToken is POST /users/:id/authentication-tokens. A user may make
// tokens for themselves; the admin for anyone.
func (s *Server) createUserToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	u := s.st.Users[r.PathValue("id")]
	if u == nil || (!p.admin && p.userID() != u.ID) {
		return errNotFound()
	}
	desc, e := decodeTokenDescription(r)
	if e != nil {
		return e
	}
	return s.st.writeNewToken(w, &token{record: s.st.newRecord("at-"), Kind: tokenUser, UserID: u.ID, CreatedBy: p.userID(), Description: desc})
}
