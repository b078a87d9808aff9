package sandbox

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/go-version"
)

// Registry modules published from a VCS repository, contacting no VCS: README.md
// "Registry modules".

// moduleVCSRepo is a module's VCS connection as created.
type moduleVCSRepo struct {
	Identifier        string `json:"identifier"`
	DisplayIdentifier string `json:"display_identifier"`
	OAuthTokenID      string `json:"oauth_token_id"`
	Branch            string `json:"branch,omitempty"`
	Tags              bool   `json:"tags,omitempty"`
	SourceDirectory   string `json:"source_directory,omitempty"`
	TagPrefix         string `json:"tag_prefix,omitempty"`
	// ServiceProvider and HTTPURL are the OAuth client's, for the
	// `service-provider` and `repository-http-url` of the answer.
	ServiceProvider string `json:"service_provider"`
	HTTPURL         string `json:"http_url"`
}

// moduleTestConfig is a module's `test-config`.
type moduleTestConfig struct {
	TestsEnabled       bool   `json:"tests_enabled"`
	AgentExecutionMode string `json:"agent_execution_mode,omitempty"`
	AgentPoolID        string `json:"agent_pool_id,omitempty"`
}

// vcsRepoInput is `vcs-repo` as go-tfe's RegistryModuleVCSRepoOptions
// sends it.
type vcsRepoInput struct {
	Identifier        *string `json:"identifier"`
	OAuthTokenID      *string `json:"oauth-token-id"`
	DisplayIdentifier *string `json:"display-identifier"`
	GHAInstallationID *string `json:"github-app-installation-id"`
	OrganizationName  *string `json:"organization-name"`
	Branch            *string `json:"branch"`
	Tags              *bool   `json:"tags"`
	SourceDirectory   *string `json:"source-directory"`
	TagPrefix         *string `json:"tag-prefix"`
}

// testConfigInput is `test-config` as go-tfe's
// RegistryModuleTestConfigOptions sends it.
type testConfigInput struct {
	TestsEnabled       *bool   `json:"tests-enabled"`
	AgentExecutionMode *string `json:"agent-execution-mode"`
	AgentPoolID        *string `json:"agent-pool-id"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// vcsRepoResource is the `vcs-repo` attribute, shaped as go-tfe's VCSRepo.
func vcsRepoResource(v *moduleVCSRepo) map[string]any {
	return map[string]any{
		"identifier":                 v.Identifier,
		"display-identifier":         v.DisplayIdentifier,
		"oauth-token-id":             v.OAuthTokenID,
		"branch":                     v.Branch,
		"tags":                       v.Tags,
		"tags-regex":                 nil,
		"ingress-submodules":         false,
		"source-directory":           v.SourceDirectory,
		"tag-prefix":                 v.TagPrefix,
		"service-provider":           v.ServiceProvider,
		"repository-http-url":        strings.TrimSuffix(v.HTTPURL, "/") + "/" + v.Identifier,
		"webhook-url":                nil,
		"github-app-installation-id": nil,
	}
}

// testConfigResource is the `test-config` attribute, shaped as go-tfe's
// TestConfig.
func testConfigResource(tc *moduleTestConfig) map[string]any {
	out := map[string]any{"tests-enabled": tc.TestsEnabled}
	if tc.AgentExecutionMode != "" {
		out["agent-execution-mode"] = tc.AgentExecutionMode
	}
	if tc.AgentPoolID != "" {
		out["agent-pool-id"] = tc.AgentPoolID
	}
	return out
}

// publishingMechanism is `branch` for a branch-based module and `git_tag`
// otherwise (the value the sandbox has always answered for modules made
// through the API).
func (m *registryModule) publishingMechanism() string {
	if m.branch() != "" {
		return "branch"
	}
	return "git_tag"
}

// branch is the branch a module is published from, or "".
func (m *registryModule) branch() string {
	if m.VCSRepo == nil {
		return ""
	}
	return m.VCSRepo.Branch
}

// repoModuleName infers name and provider from a repository identifier
// `owner/terraform-<provider>-<name>`, the registry's naming rule.
func repoModuleName(identifier string) (name, provider string, ok bool) {
	repo := identifier[strings.LastIndex(identifier, "/")+1:]
	rest, found := strings.CutPrefix(repo, "terraform-")
	if !found {
		return "", "", false
	}
	provider, name, found = strings.Cut(rest, "-")
	return name, provider, found && name != "" && provider != ""
}

// createRegistryModuleVCS serves `POST /organizations/:org/registry-modules/vcs` and the
// older `POST /registry-modules` (README.md "Registry modules").
func (s *Server) createRegistryModuleVCS(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	b, e := decodeBody(r, "registry-modules")
	if e != nil {
		return e
	}
	var repo vcsRepoInput
	var tc testConfigInput
	name := b.optString("name")
	provider := b.optString("provider")
	hasRepo := b.optObject("vcs-repo", &repo)
	initial := b.optString("initial-version")
	hasTests := b.optObject("test-config", &tc)
	if b.err != nil {
		return b.err
	}
	org := r.PathValue("org")
	if org == "" {
		// The older path: the organization is the OAuth token's.
		if ot := s.st.OAuthTokens[str(repo.OAuthTokenID)]; ot != nil && s.st.OAuthClients[ot.ClientID] != nil {
			org = s.st.OAuthClients[ot.ClientID].Org
		}
	}
	if !s.st.mayIn(p, org, canManageModules) {
		return errNotFound()
	}
	if !hasRepo {
		return errInvalidAttribute("vcs-repo", "vcs-repo is required")
	}
	m := &registryModule{Org: org, VCSRepo: &moduleVCSRepo{
		Identifier: str(repo.Identifier), DisplayIdentifier: str(repo.DisplayIdentifier), OAuthTokenID: str(repo.OAuthTokenID),
		Branch: str(repo.Branch), Tags: repo.Tags != nil && *repo.Tags, SourceDirectory: str(repo.SourceDirectory), TagPrefix: str(repo.TagPrefix),
	}}
	if e := s.st.checkVCSRepo(org, repo, m.VCSRepo); e != nil {
		return e
	}
	cfg, e := s.st.testConfigFor(org, m.branch(), hasTests, tc, nil)
	if e != nil {
		return e
	}
	m.TestConfig = cfg
	if name != nil && provider != nil {
		m.Name, m.Provider = *name, *provider
	} else {
		inferredName, inferredProvider, ok := repoModuleName(m.VCSRepo.Identifier)
		if !ok {
			return errInvalidAttribute("vcs-repo", fmt.Sprintf("vcs-repo.identifier %q does not follow terraform-<provider>-<name>: send name and provider", m.VCSRepo.Identifier))
		}
		m.Name, m.Provider = inferredName, inferredProvider
		if name != nil {
			m.Name = *name
		}
		if provider != nil {
			m.Provider = *provider
		}
	}
	if e := checkName(m.Name); e != nil {
		return e
	}
	if !moduleProviderRE.MatchString(m.Provider) {
		return errInvalidAttribute("provider", "provider may contain only lower-case letters and numbers")
	}
	if s.st.moduleByPath(org, org, m.Name, m.Provider) != nil {
		return errInvalidAttribute("name", "name has already been taken for this provider")
	}
	v := "0.0.0"
	if initial != nil && m.VCSRepo.Branch != "" {
		if _, err := version.NewSemver(*initial); err != nil {
			return errInvalidAttribute("initial-version", fmt.Sprintf("initial-version must be a semantic version such as 1.2.3, got %q", *initial))
		}
		v = *initial
	}
	m.record = s.st.newRecord("mod-")
	m.UpdatedAt = m.CreatedAt
	s.st.RegistryModules[m.ID] = m
	if m.VCSRepo.Branch != "" {
		mv := s.st.addModuleVersion(m, v)
		mv.Status, mv.Source = "ok", m.VCSRepo.ServiceProvider
	}
	return writeOne(w, http.StatusCreated, m, registryModuleResource)
}

// checkVCSRepo validates `vcs-repo` for org and fills the connection's
// provider details from its OAuth token.
func (st *state) checkVCSRepo(org string, in vcsRepoInput, out *moduleVCSRepo) *apiError {
	switch {
	case out.Identifier == "":
		return errInvalidAttribute("vcs-repo", "vcs-repo.identifier is required")
	case out.DisplayIdentifier == "":
		return errInvalidAttribute("vcs-repo", "vcs-repo.display-identifier is required")
	case out.OAuthTokenID == "" && str(in.GHAInstallationID) != "":
		return errInvalidAttribute("vcs-repo", "vcs-repo.github-app-installation-id: GitHub App installations are not emulated by the sandbox; connect through an OAuth client's oauth-token-id")
	case out.OAuthTokenID == "":
		return errInvalidAttribute("vcs-repo", "vcs-repo.oauth-token-id is required")
	case in.OrganizationName != nil && *in.OrganizationName != org:
		return errInvalidAttribute("vcs-repo", fmt.Sprintf("vcs-repo.organization-name must be %q, the organization in the path, got %q", org, *in.OrganizationName))
	case out.Branch != "" && out.Tags:
		return errInvalidAttribute("vcs-repo", "vcs-repo.branch must be empty when vcs-repo.tags is true")
	}
	ot := st.OAuthTokens[out.OAuthTokenID]
	var oc *oauthClient
	if ot != nil {
		oc = st.OAuthClients[ot.ClientID]
	}
	if oc == nil || oc.Org != org {
		return errInvalidAttribute("vcs-repo", fmt.Sprintf("vcs-repo.oauth-token-id %q is not an OAuth token of organization %s", out.OAuthTokenID, org))
	}
	out.ServiceProvider, out.HTTPURL = oc.ServiceProvider, oc.HTTPURL
	return nil
}

// testConfigFor applies a `test-config` that was sent over base (the
// module's current one, nil at creation; fields not sent keep their values)
// and checks the result for a module on branch ("" for one not published
// from a branch): an `agent` execution mode needs an agent pool of org, a
// `remote` one none, and tests need a branch. A module published from a
// branch always has a test config (tests disabled unless enabled); other
// modules have none (null) unless one is sent.
func (st *state) testConfigFor(org, branch string, sent bool, in testConfigInput, base *moduleTestConfig) (*moduleTestConfig, *apiError) {
	if !sent {
		if base == nil && branch != "" {
			return &moduleTestConfig{}, nil
		}
		if base != nil && base.TestsEnabled && branch == "" {
			return nil, errInvalidAttribute("test-config", "test-config.tests-enabled needs vcs-repo.branch: tests run only for branch-based modules")
		}
		return base, nil
	}
	tc := &moduleTestConfig{}
	if base != nil {
		*tc = *base
	}
	assign(&tc.TestsEnabled, in.TestsEnabled)
	assign(&tc.AgentExecutionMode, in.AgentExecutionMode)
	assign(&tc.AgentPoolID, in.AgentPoolID)
	if in.AgentExecutionMode != nil && *in.AgentExecutionMode == "remote" && in.AgentPoolID == nil {
		tc.AgentPoolID = ""
	}
	switch tc.AgentExecutionMode {
	case "", "remote":
		if tc.AgentPoolID != "" {
			return nil, errInvalidAttribute("test-config", "test-config.agent-pool-id is only for agent-execution-mode \"agent\"")
		}
	case "agent":
		if ap := st.AgentPools[tc.AgentPoolID]; ap == nil || ap.Org != org {
			return nil, errInvalidAttribute("test-config", fmt.Sprintf("test-config.agent-pool-id %q is not an agent pool of organization %s", tc.AgentPoolID, org))
		}
	default:
		return nil, errInvalidAttribute("test-config", fmt.Sprintf("test-config.agent-execution-mode must be agent or remote, got %q", tc.AgentExecutionMode))
	}
	if tc.TestsEnabled && branch == "" {
		return nil, errInvalidAttribute("test-config", "test-config.tests-enabled needs vcs-repo.branch: tests run only for branch-based modules")
	}
	return tc, nil
}

// updateRegistryModule is go-tfe's RegistryModules.Update (README.md "Registry modules").
func (s *Server) updateRegistryModule(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.moduleFor(r, p, true)
	if m == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "registry-modules")
	if e != nil {
		return e
	}
	var repo vcsRepoInput
	var tc testConfigInput
	noCode := b.optBool("no-code")
	hasRepo := b.optObject("vcs-repo", &repo)
	hasTests := b.optObject("test-config", &tc)
	bindings := b.relIDs("tag-bindings", "tag-bindings")
	if b.err != nil {
		return b.err
	}
	switch {
	case noCode != nil && *noCode:
		return errInvalidAttribute("no-code", "no-code provisioning is not emulated by the sandbox")
	case len(bindings) > 0:
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "tag-bindings: tags are not emulated by the sandbox", Pointer: "/data/relationships/tag-bindings"}
	case hasRepo && m.VCSRepo == nil:
		return errInvalidAttribute("vcs-repo", "vcs-repo can only change for a module published from a VCS repository")
	case hasRepo && str(repo.Branch) != "" && repo.Tags != nil && *repo.Tags:
		return errInvalidAttribute("vcs-repo", "vcs-repo.branch must be empty when vcs-repo.tags is true")
	}
	updated := *m
	if hasRepo {
		v := *m.VCSRepo
		if str(repo.Branch) != "" {
			v.Branch, v.Tags = *repo.Branch, false
		}
		if repo.Tags != nil && *repo.Tags {
			v.Branch, v.Tags = "", true
		}
		assign(&v.SourceDirectory, repo.SourceDirectory)
		assign(&v.TagPrefix, repo.TagPrefix)
		updated.VCSRepo = &v
	}
	cfg, e := s.st.testConfigFor(m.Org, updated.branch(), hasTests, tc, m.TestConfig)
	if e != nil {
		return e
	}
	updated.TestConfig = cfg
	updated.UpdatedAt = s.st.now()
	*m = updated
	return writeOne(w, http.StatusOK, m, registryModuleResource)
}
