package sandbox

import (
	"fmt"
	"net/http"
	"slices"
)

// OAuth clients (VCS providers) and their OAuth tokens, contacting no VCS: README.md
// "OAuth clients".

func (s *Server) registerOAuthClients() {
	s.route("POST /api/v2/organizations/{org}/oauth-clients", s.createOAuthClient)
	s.route("GET /api/v2/organizations/{org}/oauth-clients", s.listOAuthClients)
	s.route("GET /api/v2/oauth-clients/{id}", s.readOAuthClient)
	s.route("DELETE /api/v2/oauth-clients/{id}", s.deleteOAuthClient)
	s.route("GET /api/v2/oauth-clients/{id}/oauth-tokens", s.listOAuthClientTokens)
	s.route("GET /api/v2/organizations/{org}/oauth-tokens", s.listOAuthTokens)
	s.route("GET /api/v2/oauth-tokens/{id}", s.readOAuthToken)
}

type oauthClient struct {
	record
	Org                string `json:"org"`
	Name               string `json:"name,omitempty"`
	ServiceProvider    string `json:"service_provider"`
	APIURL             string `json:"api_url"`
	HTTPURL            string `json:"http_url"`
	Key                string `json:"key,omitempty"`
	RSAPublicKey       string `json:"rsa_public_key,omitempty"`
	OrganizationScoped bool   `json:"organization_scoped"`
	AgentPoolID        string `json:"agent_pool_id,omitempty"`
	// ProjectIDs are the projects the client is attached to (when not
	// organization scoped).
	ProjectIDs []string `json:"project_ids,omitempty"`
}

type oauthToken struct {
	record
	ClientID string `json:"client_id"`
	// UID is the provider's user id for the token; the sandbox makes one up.
	UID string `json:"uid"`
}

// serviceProviders maps each VCS type go-tfe knows to the display name the
// real service answers in `service-provider-display-name`.
var serviceProviders = map[string]string{
	"ado_server":                "Azure DevOps Server",
	"ado_services":              "Azure DevOps Services",
	"bitbucket_data_center":     "Bitbucket Data Center",
	"bitbucket_hosted":          "Bitbucket Cloud",
	"bitbucket_server":          "Bitbucket Server",
	"bitbucket_server_legacy":   "Bitbucket Server",
	"github":                    "GitHub",
	"github_enterprise":         "GitHub Enterprise",
	"gitlab_hosted":             "GitLab.com",
	"gitlab_community_edition":  "GitLab Community Edition",
	"gitlab_enterprise_edition": "GitLab Enterprise Edition",
}

// serviceProviderNames lists serviceProviders' keys in a fixed order, for
// error messages.
var serviceProviderNames = []string{
	"ado_server", "ado_services", "bitbucket_data_center", "bitbucket_hosted", "bitbucket_server",
	"bitbucket_server_legacy", "github", "github_enterprise", "gitlab_hosted",
	"gitlab_community_edition", "gitlab_enterprise_edition",
}

func canManageVCSSettings(a orgAccess) bool { return a.ManageVCSSettings }

func (st *state) oauthClientTokens(clientID string) []*oauthToken {
	return sorted(st.OAuthTokens, func(ot *oauthToken) bool { return ot.ClientID == clientID })
}

func (st *state) oauthClientResource(oc *oauthClient) resource {
	var tokens []string
	for _, ot := range st.oauthClientTokens(oc.ID) {
		tokens = append(tokens, ot.ID)
	}
	rels := map[string]any{
		"organization": relOne("organizations", oc.Org),
		"oauth-tokens": relMany("oauth-tokens", tokens),
		"projects":     relMany("projects", oc.ProjectIDs),
	}
	if oc.AgentPoolID != "" {
		rels["agent-pool"] = relOne("agent-pools", oc.AgentPoolID)
	}
	return resource{
		Type: "oauth-clients",
		ID:   oc.ID,
		Attributes: map[string]any{
			"name":                          nullableString(oc.Name),
			"service-provider":              oc.ServiceProvider,
			"service-provider-display-name": serviceProviders[oc.ServiceProvider],
			"api-url":                       oc.APIURL,
			"http-url":                      oc.HTTPURL,
			"key":                           nullableString(oc.Key),
			"secret":                        nil,
			"rsa-public-key":                nullableString(oc.RSAPublicKey),
			"organization-scoped":           oc.OrganizationScoped,
			"created-at":                    timestamp(oc.CreatedAt),
			// The path the provider sends its OAuth callback to and the
			// path that starts the flow, as the real service shapes them
			// (relative to the service's address: the sandbox runs no flow).
			"callback-url": "/auth/" + oc.ID + "/callback",
			"connect-path": "/auth/" + oc.ID + "?organization_id=" + oc.Org,
		},
		Relationships: rels,
		Links:         map[string]any{"self": apiPath("oauth-clients", oc.ID)},
	}
}

func oauthTokenResource(ot *oauthToken) resource {
	return resource{
		Type: "oauth-tokens",
		ID:   ot.ID,
		Attributes: map[string]any{
			"uid":                   ot.UID,
			"created-at":            timestamp(ot.CreatedAt),
			"has-ssh-key":           false,
			"service-provider-user": "sandbox",
		},
		Relationships: map[string]any{"oauth-client": relOne("oauth-clients", ot.ClientID)},
		Links:         map[string]any{"self": apiPath("oauth-tokens", ot.ID)},
	}
}

// createOAuthClient is go-tfe's OAuthClients.Create. api-url, http-url and
// service-provider are required; service-provider is one of the types
// go-tfe lists; oauth-token-string is required except for Bitbucket Server
// and Data Center, and private-key is only for Azure DevOps Server (as go-tfe
// checks before sending); organization-scoped defaults to true; an
// agent-pool must be the organization's, and the `projects` relationship's
// projects too (422 otherwise; kept and shown). The answer is 201
// with the client's `oauth-tokens` relationship naming the token made from
// oauth-token-string.
func (s *Server) createOAuthClient(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManageVCSSettings, "oauth-clients")
	if e != nil {
		return e
	}
	oc := &oauthClient{Org: org, OrganizationScoped: true}
	name := b.optString("name")
	oc.APIURL = b.reqString("api-url")
	oc.HTTPURL = b.reqString("http-url")
	oc.ServiceProvider = b.reqString("service-provider")
	key := b.optString("key")
	rsa := b.optString("rsa-public-key")
	tokenString := b.optString("oauth-token-string")
	privateKey := b.optString("private-key")
	b.optString("secret")
	scoped := b.optBool("organization-scoped")
	poolID := b.relID("agent-pool", "agent-pools")
	projects := b.relIDs("projects", "projects")
	if b.err != nil {
		return b.err
	}
	for _, id := range projects {
		if s.st.projectIn(org, id) == nil {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "project " + id + " not found in organization " + org, Pointer: "/data/relationships/projects"}
		}
	}
	if _, ok := serviceProviders[oc.ServiceProvider]; !ok {
		return errInvalidAttribute("service-provider", fmt.Sprintf("service-provider must be one of %s, got %q", quoteJoin(serviceProviderNames), oc.ServiceProvider))
	}
	bitbucketServer := oc.ServiceProvider == "bitbucket_server" || oc.ServiceProvider == "bitbucket_data_center"
	if (tokenString == nil || *tokenString == "") && !bitbucketServer {
		return errInvalidAttribute("oauth-token-string", "oauth-token-string is required for service provider "+oc.ServiceProvider)
	}
	if privateKey != nil && *privateKey != "" && oc.ServiceProvider != "ado_server" {
		return errInvalidAttribute("private-key", "private-key is only for service provider ado_server")
	}
	if poolID != "" {
		if ap := s.st.AgentPools[poolID]; ap == nil || ap.Org != org {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "agent-pool " + poolID + " not found in organization " + org, Pointer: "/data/relationships/agent-pool"}
		}
	}
	assign(&oc.Name, name)
	assign(&oc.Key, key)
	assign(&oc.RSAPublicKey, rsa)
	assign(&oc.OrganizationScoped, scoped)
	oc.AgentPoolID, oc.ProjectIDs = poolID, slices.Compact(slices.Sorted(slices.Values(projects)))
	oc.record = s.st.newRecord("oc-")
	s.st.OAuthClients[oc.ID] = oc
	if tokenString != nil && *tokenString != "" {
		ot := &oauthToken{record: s.st.newRecord("ot-"), ClientID: oc.ID, UID: randomString(8)}
		s.st.OAuthTokens[ot.ID] = ot
	}
	return writeOne(w, http.StatusCreated, oc, s.st.oauthClientResource)
}

func (s *Server) listOAuthClients(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, canManageVCSSettings)
	if e != nil {
		return e
	}
	return writeList(w, r, sorted(s.st.OAuthClients, func(oc *oauthClient) bool { return oc.Org == org }), s.st.oauthClientResource)
}

// oauthClientFor returns the client at id when p may manage VCS settings in
// its organization, or nil.
func (st *state) oauthClientFor(p principal, id string) *oauthClient {
	return visible(st.OAuthClients[id], func(oc *oauthClient) bool { return st.mayIn(p, oc.Org, canManageVCSSettings) })
}

// readOAuthClient is go-tfe's OAuthClients.Read; `include=oauth_tokens`
// adds the client's tokens to `included`.
func (s *Server) readOAuthClient(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	oc := s.st.oauthClientFor(p, r.PathValue("id"))
	if oc == nil {
		return errNotFound()
	}
	doc := document{Data: s.st.oauthClientResource(oc)}
	if includes(r)["oauth_tokens"] {
		for _, ot := range s.st.oauthClientTokens(oc.ID) {
			doc.Included = append(doc.Included, oauthTokenResource(ot))
		}
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// deleteOAuthClient deletes a client and its tokens. Registry modules
// published through one of its tokens keep their vcs-repo as they were (on
// the real service they stop receiving changes; the sandbox never receives
// any).
func (s *Server) deleteOAuthClient(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.oauthClientFor(p, r.PathValue("id")), s.st.deleteOAuthClient)
}

func (st *state) deleteOAuthClient(id string) {
	deleteWhere(st.OAuthTokens, func(ot *oauthToken) bool { return ot.ClientID == id }, func(id string) { delete(st.OAuthTokens, id) })
	delete(st.OAuthClients, id)
}

func (s *Server) listOAuthClientTokens(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	oc := s.st.oauthClientFor(p, r.PathValue("id"))
	if oc == nil {
		return errNotFound()
	}
	return writeList(w, r, s.st.oauthClientTokens(oc.ID), oauthTokenResource)
}

// listOAuthTokens is go-tfe's OAuthTokens.List: every token of the
// organization's clients, oldest first.
func (s *Server) listOAuthTokens(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, canManageVCSSettings)
	if e != nil {
		return e
	}
	clients := sorted(s.st.OAuthClients, func(oc *oauthClient) bool { return oc.Org == org })
	return writeList(w, r, sorted(s.st.OAuthTokens, func(ot *oauthToken) bool {
		return slices.ContainsFunc(clients, func(oc *oauthClient) bool { return oc.ID == ot.ClientID })
	}), oauthTokenResource)
}

// oauthTokenFor returns the token at id when p may manage its client, or
// nil.
func (st *state) oauthTokenFor(p principal, id string) *oauthToken {
	return visible(st.OAuthTokens[id], func(ot *oauthToken) bool { return st.oauthClientFor(p, ot.ClientID) != nil })
}

func (s *Server) readOAuthToken(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return writeOne(w, http.StatusOK, s.st.oauthTokenFor(p, r.PathValue("id")), oauthTokenResource)
}
