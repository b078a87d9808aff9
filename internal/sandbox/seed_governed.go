package sandbox

// Seeding what tfgov governs (seed_file_governed.go): the conflicts with
// the state and the making, merged by ID as the rest of a seed is.

// seedGovernedConflicts lists where the governed objects of the
// organization so contradict the state.
func (st *state) seedGovernedConflicts(so seedOrg, fail func(path, format string, args ...any)) {
	for _, sp := range so.Policies {
		if st.Seeded[sp.ID] {
			continue
		}
		if have := st.Policies[sp.ID]; have != nil && have.Org != so.Name {
			fail(sp.path+".id", "%q is already the ID of policy %q of organization %s", sp.ID, have.Name, have.Org)
		}
		if have := find(st.Policies, func(x *policy) bool { return x.Org == so.Name && x.Name == sp.Name }); have != nil && have.ID != sp.ID {
			fail(sp.path+".name", "policy %q already exists in %s with ID %s: give that ID, or another name", sp.Name, so.Name, have.ID)
		}
	}
	for _, sg := range so.TeamAccess {
		if st.Seeded[sg.ID] {
			continue
		}
		if have := st.TeamAccesses[sg.ID]; have != nil && (have.TeamID != sg.TeamID || have.WorkspaceID != sg.WorkspaceID) {
			fail(sg.path+".id", "%q is already the ID of another team access (team %s, workspace %s)", sg.ID, have.TeamID, have.WorkspaceID)
		}
		if have := st.teamAccessOf(sg.TeamID, sg.WorkspaceID); have != nil && have.ID != sg.ID {
			fail(sg.path+".team", "team %q already has access to workspace %q with ID %s: give that ID", sg.Team, sg.Workspace, have.ID)
		}
	}
	for _, sa := range so.AgentPools {
		for _, t := range sa.Tokens {
			if st.Seeded[t.ID] {
				continue
			}
			if have := st.Tokens[t.ID]; have != nil && (have.Kind != tokenAgent || have.PoolID != sa.ID) {
				fail(t.path+".id", "%q is already the ID of another token", t.ID)
			}
		}
	}
	for _, sm := range so.Modules {
		for _, v := range sm.TestVariables {
			if st.Seeded[v.ID] {
				continue
			}
			if have := st.TestVariables[v.ID]; have != nil && (have.ModuleID != sm.ID || have.Key != v.Key) {
				fail(v.path+".id", "%q is already the ID of another test variable (key %s)", v.ID, have.Key)
			}
			if st.keyTaken(sm.ID, v.Key, v.ID) {
				fail(v.path+".key", "module %s/%s already has a test variable %s with another ID: give that ID, or another key", sm.Name, sm.Provider, v.Key)
			}
		}
	}
}

// applyGoverned makes the governed objects of the organization so that the
// state lacks and no seed made before; createdBy is the user the agent tokens were made by (its
// first owner). Objects that exist are kept as they are, and so is what the API deleted: an
// object seeded before, or one whose parent (a team, workspace, pool or module) it deleted.
func (st *state) applyGoverned(so seedOrg, createdBy string) {
	for _, sp := range so.Policies {
		if st.Policies[sp.ID] != nil || st.Seeded[sp.ID] {
			continue
		}
		pol := &policy{record: st.recordWithID(sp.ID), Org: so.Name, Name: sp.Name, Description: sp.Description, Kind: sp.Kind, Query: sp.Query, Level: sp.Level}
		if sp.Code != nil {
			pol.Code, pol.Uploaded, pol.UpdatedAt = sp.Code, true, pol.CreatedAt
		}
		st.Policies[pol.ID] = pol
	}
	for _, sg := range so.TeamAccess {
		if st.TeamAccesses[sg.ID] != nil || st.Seeded[sg.ID] || st.Teams[sg.TeamID] == nil || st.Workspaces[sg.WorkspaceID] == nil {
			continue
		}
		st.TeamAccesses[sg.ID] = &teamAccess{record: st.recordWithID(sg.ID), Org: so.Name, TeamID: sg.TeamID, WorkspaceID: sg.WorkspaceID, Access: sg.Access, Permissions: sg.Permissions}
	}
	for _, sa := range so.AgentPools {
		for _, t := range sa.Tokens {
			if st.Tokens[t.ID] != nil || st.Seeded[t.ID] || st.AgentPools[sa.ID] == nil {
				continue
			}
			// The secret is made and forgotten, as the service keeps only a
			// hash: a seeded token is managed (listed, pruned, revoked) by its
			// ID, never used (README.md "Seed files").
			tok := &token{record: st.recordWithID(t.ID), Kind: tokenAgent, PoolID: sa.ID, Description: t.Description, CreatedBy: createdBy}
			tok.CreatedAt = tok.CreatedAt.Add(-t.CreatedAgo)
			if t.LastUsed {
				tok.LastUsedAt = st.now().Add(-t.LastUsedAgo)
			}
			st.issueToken(tok)
		}
	}
	for _, sm := range so.Modules {
		m := st.RegistryModules[sm.ID]
		if m == nil {
			continue
		}
		for _, v := range sm.TestVariables {
			if st.TestVariables[v.ID] != nil || st.Seeded[v.ID] {
				continue
			}
			st.TestVariables[v.ID] = &testVariable{record: st.recordWithID(v.ID), ModuleID: m.ID, Key: v.Key, Value: v.Value, Description: v.Description,
				Category: testVariableCategory, HCL: v.HCL, Sensitive: v.Sensitive, VersionID: newVersionID()}
		}
		for _, d := range sm.Deprecations {
			mv := m.version(d.Version)
			if mv == nil || mv.Deprecation != nil || st.Seeded[seedDeprecationKey(m.ID, d.Version)] {
				continue
			}
			t := st.now()
			mv.Deprecation = &deprecation{ID: stableID("dep-", mv.ID), Reason: d.Reason, Link: d.Link, CreatedAt: t, UpdatedAt: t}
			mv.UpdatedAt = t
		}
	}
}

// seedOwnerID is the ID of the first owner of so, among users.
func seedOwnerID(so seedOrg, users map[string]*user) string {
	if len(so.Owners) == 0 || users[so.Owners[0]] == nil {
		return ""
	}
	return users[so.Owners[0]].ID
}
