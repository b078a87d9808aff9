package sandbox

import "fmt"

// SeedVar is one value a seed made, with the environment variable a user
// exports to use it.
type SeedVar struct {
	Env   string
	Value string
	About string
}

// Seed fills the sandbox with a ready-made organization for a named
// scenario and returns what it made, in order. The only scenario is "demo":
// an organization owned by a user (whose token it returns), a workspace,
// two teams, an agent pool and a private registry module with two
// published versions. Seeding twice is an error, not a duplicate.
func (s *Server) Seed(name string) ([]SeedVar, error) {
	if name != "demo" {
		return nil, fmt.Errorf("unknown seed %q: the only seed is \"demo\"", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	const org = "tfgov-demo"
	if s.st.Organizations[org] != nil {
		return nil, fmt.Errorf("organization %s already exists (a --data snapshot that was seeded before?)", org)
	}
	st := s.st
	owner := st.userByEmail("demo-owner@tfgov.invalid")
	st.createOrganization(org, owner.Email, owner)
	tok := &token{record: st.newRecord("at-"), Kind: tokenUser, UserID: owner.ID, Description: "demo", CreatedBy: owner.ID}
	secret := st.issueToken(tok)

	ws := &workspace{record: st.newRecord("ws-"), Org: org, Name: "demo-app", Description: "Workspace made by the demo seed"}
	ws.UpdatedAt = ws.CreatedAt
	st.Workspaces[ws.ID] = ws

	platform := &team{record: st.newRecord("team-"), Org: org, Name: "platform", Visibility: "organization",
		Access: orgAccess{ManagePolicies: true, ManageAgentPools: true, ManageModules: true, ReadWorkspaces: true}}
	developers := &team{record: st.newRecord("team-"), Org: org, Name: "developers", Visibility: "organization",
		Access: orgAccess{ReadWorkspaces: true}}
	st.Teams[platform.ID] = platform
	st.Teams[developers.ID] = developers

	pool := &agentPool{record: st.newRecord("apool-"), Org: org, Name: "demo-pool", OrganizationScoped: true}
	st.AgentPools[pool.ID] = pool

	mod := &registryModule{record: st.newRecord("mod-"), Org: org, Name: "network", Provider: "aws"}
	st.RegistryModules[mod.ID] = mod
	for _, v := range []string{"1.0.0", "1.1.0"} {
		st.addModuleVersion(mod, v).Status = "ok"
	}
	s.persistLocked()

	return []SeedVar{
		{Env: "TFE_TOKEN", Value: secret, About: "user token of demo-owner, an owner of " + org},
		{Env: "TFE_ORGANIZATION", Value: org, About: "organization"},
		{Env: "TF_VAR_workspace_id", Value: ws.ID, About: "workspace demo-app"},
		{Env: "TF_VAR_platform_team_id", Value: platform.ID, About: "team platform"},
		{Env: "TF_VAR_developers_team_id", Value: developers.ID, About: "team developers"},
		{Env: "TF_VAR_agent_pool_id", Value: pool.ID, About: "agent pool demo-pool"},
		{Env: "TF_VAR_module_name", Value: mod.Name, About: "registry module " + org + "/" + mod.Name + "/" + mod.Provider + " (versions 1.0.0, 1.1.0)"},
		{Env: "TF_VAR_module_provider", Value: mod.Provider, About: "registry module provider"},
		// The quickstart's module_deprecation.tf deprecates this version;
		// its own variables keep it apart from the other module examples.
		{Env: "TF_VAR_deprecation_module_name", Value: mod.Name, About: "module whose version the quickstart deprecates"},
		{Env: "TF_VAR_deprecation_module_provider", Value: mod.Provider, About: "its provider"},
		{Env: "TF_VAR_deprecation_module_version", Value: "1.0.0", About: "the version the quickstart deprecates"},
	}, nil
}
