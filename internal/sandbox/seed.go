package sandbox

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the demo seed file
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// demoSeed is the seed file of `--seed demo`: an organization tfgov-demo
// owned by a user (whose token it exports), a workspace, two teams, an agent
// pool and a private registry module with two published versions.
//
//go:embed seeds/demo.json
var demoSeed []byte

// DemoSeedFile returns the demo seed's file, an example of the format.
func DemoSeedFile() []byte { return slices.Clone(demoSeed) }

// SeedVar is one value a seed made, with the environment variable a user
// exports to use it.
type SeedVar struct {
	Env   string
	Value string
	About string
}

// seedRecord is the last seed applied, kept in the --data snapshot so that a
// restart without a seed flag applies it again (and prints its exports).
type seedRecord struct {
	Name string          `json:"name"`
	File json.RawMessage `json:"file"`
	// Tokens are the values made for the seed's tokens that the file gives
	// none, by token ID: the same values work after every restart on the
	// same --data file.
	Tokens map[string]string `json:"tokens,omitempty"`
	// Sources are the files the seed file names (policy code), by the name
	// it gives them: a restart needs neither the seed file nor its files.
	Sources map[string]string `json:"sources,omitempty"`
}

// Seed applies a named seed: the only one is "demo" (seeds/demo.json).
func (s *Server) Seed(name string) ([]SeedVar, error) {
	if name != "demo" {
		return nil, fmt.Errorf("unknown seed %q: the only seed is \"demo\" (or give your own with --seed-file)", name)
	}
	return s.seedFile("demo", demoSeed, nil)
}

// SeedFile applies the seed file raw (named file in errors) and returns the exports, in order:
// TFE_TOKEN (the first token in the file), TFE_ORGANIZATION (the first organization), then the
// file's env. A bad file, or one that contradicts the state (a name taken by an object with
// another ID), is refused with every problem and nothing is made. Seeding is idempotent: it
// makes what no seeding declared before and leaves the rest to the API (README.md "Seed files");
// a file the seed file names (a policy's source) is read relative to the seed file's directory.
func (s *Server) SeedFile(file string, raw []byte) ([]SeedVar, error) {
	dir := filepath.Dir(file)
	return s.seedFile(file, raw, func(name string) ([]byte, error) {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, name)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%q cannot be read (a path relative to the seed file's directory, %s): %w", name, dir, errors.Unwrap(err))
		}
		return b, nil
	})
}

// seedFile is SeedFile with source reading the files the seed names.
func (s *Server) seedFile(file string, raw []byte, source func(name string) ([]byte, error)) ([]SeedVar, error) {
	spec, sources, err := parseSeedFile(file, raw, source)
	if err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, err // parseSeedFile read it
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.migrateSeeded()
	if problems := s.st.seedConflicts(spec); len(problems) > 0 {
		return nil, &SeedFileError{File: file + " (against the state already there, from --data)", Problems: problems}
	}
	var made map[string]string
	if s.st.Seed != nil {
		made = s.st.Seed.Tokens
	}
	vars, tokens := s.st.applySeed(spec, made)
	rec := &seedRecord{Name: file, File: compact.Bytes(), Tokens: tokens}
	for name, b := range sources {
		if rec.Sources == nil {
			rec.Sources = map[string]string{}
		}
		rec.Sources[name] = string(b)
	}
	s.st.Seed = rec
	s.persistLocked()
	return vars, nil
}

// Reseed applies again the seed recorded in the state (a --data file seeded
// before) and returns its name and exports; none was: "", nil.
func (s *Server) Reseed() (string, []SeedVar, error) {
	s.mu.RLock()
	rec := s.st.Seed
	s.mu.RUnlock()
	if rec == nil {
		return "", nil, nil
	}
	vars, err := s.seedFile(rec.Name, rec.File, func(name string) ([]byte, error) {
		if b, ok := rec.Sources[name]; ok {
			return []byte(b), nil
		}
		return nil, fmt.Errorf("%q is not recorded in the --data file: start with --seed-file again", name)
	})
	return rec.Name, vars, err
}

// stableID derives an ID from names: the same names give the same ID on
// every start.
func stableID(prefix string, names ...string) string {
	sum := sha256.Sum256([]byte(prefix + "\x00" + strings.Join(names, "\x00")))
	out := make([]byte, 16)
	for i := range out {
		out[i] = idAlphabet[int(sum[i])%len(idAlphabet)]
	}
	return prefix + string(out)
}

// recordWithID is a new record with a given ID.
func (st *state) recordWithID(id string) record {
	r := st.newRecord("")
	r.ID = id
	return r
}

// seedConflicts lists where spec contradicts the state: an ID that is
// another object's, a name already taken under another ID.
func (st *state) seedConflicts(spec *seedSpec) []string {
	var out []string
	fail := func(path, format string, args ...any) { out = append(out, path+": "+fmt.Sprintf(format, args...)) }
	for _, u := range spec.Users {
		if have := st.Users[u.ID]; have != nil && have.Username != u.Username {
			fail(u.path+".id", "%q is already the ID of user %q", u.ID, have.Username)
		}
		if have := st.userByName(u.Username); have != nil && have.ID != u.ID {
			fail(u.path+".username", "user %q already exists with ID %s: give that ID, or another username", u.Username, have.ID)
		}
		for _, t := range u.Tokens {
			if have := st.Tokens[t.ID]; have != nil && (have.Kind != tokenUser || have.UserID != u.ID) {
				fail(t.path+".id", "%q is already the ID of another token", t.ID)
			}
			if t.Value != "" && st.userTokenByValue(u.ID, t.Value) == nil {
				if id, ok := st.TokenIndex[hashSecret(t.Value)]; ok && id != t.ID {
					fail(t.path+".value", "is already the value of token %s", id)
				}
			}
		}
	}
	for _, o := range spec.Organizations {
		for _, t := range o.Teams {
			if st.Seeded[t.ID] {
				continue
			}
			if have := st.Teams[t.ID]; have != nil && have.Org != o.Name {
				fail(t.path+".id", "%q is already the ID of team %q of organization %s", t.ID, have.Name, have.Org)
			}
			if have := find(st.Teams, func(x *team) bool { return x.Org == o.Name && x.Name == t.Name }); have != nil && have.ID != t.ID {
				fail(t.path+".name", "team %q already exists in %s with ID %s: give that ID, or another name", t.Name, o.Name, have.ID)
			}
		}
		for _, w := range o.Workspaces {
			if st.Seeded[w.ID] {
				continue
			}
			if have := st.Workspaces[w.ID]; have != nil && have.Org != o.Name {
				fail(w.path+".id", "%q is already the ID of workspace %q of organization %s", w.ID, have.Name, have.Org)
			}
			if have := st.workspaceByName(o.Name, w.Name); have != nil && have.ID != w.ID {
				fail(w.path+".name", "workspace %q already exists in %s with ID %s: give that ID, or another name", w.Name, o.Name, have.ID)
			}
		}
		for _, a := range o.AgentPools {
			if st.Seeded[a.ID] {
				continue
			}
			if have := st.AgentPools[a.ID]; have != nil && have.Org != o.Name {
				fail(a.path+".id", "%q is already the ID of agent pool %q of organization %s", a.ID, have.Name, have.Org)
			}
			if have := st.agentPoolNamed(o.Name, a.Name, a.ID); have != nil {
				fail(a.path+".name", "agent pool %q already exists in %s with ID %s: give that ID, or another name", a.Name, o.Name, have.ID)
			}
		}
		for _, m := range o.Modules {
			if st.Seeded[m.ID] {
				continue
			}
			if have := st.RegistryModules[m.ID]; have != nil && have.Org != o.Name {
				fail(m.path+".id", "%q is already the ID of module %s/%s of organization %s", m.ID, have.Name, have.Provider, have.Org)
			}
			if have := st.moduleByPath(o.Name, o.Name, m.Name, m.Provider); have != nil && have.ID != m.ID {
				fail(m.path+".name", "module %s/%s already exists in %s with ID %s: give that ID, or another name", m.Name, m.Provider, o.Name, have.ID)
			}
		}
		st.seedGovernedConflicts(o, fail)
		st.policySetConflicts(o, fail)
		st.seedProjectConflicts(o, fail)
	}
	return out
}

// applySeed makes what spec declares and the state lacks (seedConflicts
// found no contradiction) and returns the exports and the values made for
// tokens the file gives none. made holds those of an earlier start.
func (st *state) applySeed(spec *seedSpec, made map[string]string) ([]SeedVar, map[string]string) {
	var vars []SeedVar
	tokens := map[string]string{}
	users := map[string]*user{}
	for _, su := range spec.Users {
		u := st.Users[su.ID]
		if u == nil {
			u = &user{record: st.recordWithID(su.ID), Username: su.Username, Email: su.Email}
			st.Users[u.ID] = u
		}
		users[su.Username] = u
		for _, t := range su.Tokens {
			value := t.Value
			if value == "" {
				value = made[t.ID]
				if value == "" {
					value = randomString(14) + ".atlasv1." + randomString(60)
				}
				tokens[t.ID] = value
			}
			tok := st.Tokens[t.ID]
			if tok == nil && t.Value != "" {
				tok = st.userTokenByValue(u.ID, t.Value) // the token, made under an ID derived otherwise
			}
			if tok == nil {
				tok = &token{record: st.recordWithID(t.ID), Kind: tokenUser, UserID: u.ID, Description: t.Description, CreatedBy: u.ID}
				st.Tokens[tok.ID] = tok
			}
			// The value works, whatever the snapshot held.
			delete(st.TokenIndex, tok.Hash)
			tok.Hash = hashSecret(value)
			st.TokenIndex[tok.Hash] = tok.ID
			if vars == nil {
				vars = append(vars, SeedVar{Env: "TFE_TOKEN", Value: value, About: "user token of " + su.Username + " (" + t.ID + ")"})
			}
		}
	}
	// Memberships, organizations' records and module versions get stable
	// IDs too (an organization is addressed by name, but its external ID is
	// shown).
	addTo := func(t *team, org string, u *user) {
		if st.membershipOf(org, u.ID) == nil {
			m := st.addMember(org, u)
			delete(st.Memberships, m.ID)
			m.ID = stableID("ou-", org, u.Username)
			st.Memberships[m.ID] = m
		}
		if !slices.Contains(t.UserIDs, u.ID) {
			t.UserIDs = append(t.UserIDs, u.ID)
		}
	}
	for i, so := range spec.Organizations {
		if i == 0 {
			vars = append(vars, SeedVar{Env: "TFE_ORGANIZATION", Value: so.Name, About: "organization"})
		}
		o := st.Organizations[so.Name]
		if o == nil && st.Seeded[seedOrgKey(so.Name)] {
			continue // deleted through the API since a seed made it, with all it held
		}
		if o == nil {
			o = &organization{record: st.recordWithID(stableID("org-", so.Name)), Name: so.Name, Email: so.Email, OwnersTeamID: so.OwnersTeamID}
			st.Organizations[o.Name] = o
			st.Teams[so.OwnersTeamID] = &team{record: st.recordWithID(so.OwnersTeamID), Org: so.Name, Name: "owners", Visibility: "secret", Access: ownersAccess}
			st.addDefaultProject(o, so.DefaultProjectID)
		}
		if owners := st.Teams[o.OwnersTeamID]; owners != nil {
			for _, name := range so.Owners {
				if !st.Seeded[seedOwnerKey(so.Name, name)] {
					addTo(owners, so.Name, users[name])
				}
			}
		}
		for _, stm := range so.Teams {
			if st.Teams[stm.ID] != nil || st.Seeded[stm.ID] {
				continue
			}
			t := &team{record: st.recordWithID(stm.ID), Org: so.Name, Name: stm.Name, Visibility: stm.Visibility, Access: stm.Access}
			st.Teams[t.ID] = t
			for _, name := range stm.Members {
				addTo(t, so.Name, users[name])
			}
		}
		st.applyProjects(so)
		wsIDs := map[string]string{}
		for _, sw := range so.Workspaces {
			wsIDs[sw.Name] = sw.ID
			if st.Workspaces[sw.ID] != nil || st.Seeded[sw.ID] {
				continue
			}
			ws := &workspace{record: st.recordWithID(sw.ID), Org: so.Name, Name: sw.Name, Description: sw.Description, TagNames: withTags(nil, sw.TagNames, true), ProjectID: st.seedProjectID(so, sw.ProjectID)}
			ws.UpdatedAt = ws.CreatedAt
			st.Workspaces[ws.ID] = ws
		}
		for _, sa := range so.AgentPools {
			if st.AgentPools[sa.ID] != nil || st.Seeded[sa.ID] {
				continue
			}
			ap := &agentPool{record: st.recordWithID(sa.ID), Org: so.Name, Name: sa.Name, OrganizationScoped: sa.OrganizationScoped}
			for _, name := range sa.AllowedWorkspaces {
				ap.AllowedWorkspaces = append(ap.AllowedWorkspaces, wsIDs[name])
			}
			st.AgentPools[ap.ID] = ap
		}
		for _, sm := range so.Modules {
			m := st.RegistryModules[sm.ID]
			if m == nil && st.Seeded[sm.ID] {
				continue
			}
			if m == nil {
				m = &registryModule{record: st.recordWithID(sm.ID), Org: so.Name, Name: sm.Name, Provider: sm.Provider}
				m.UpdatedAt = m.CreatedAt
				st.RegistryModules[m.ID] = m
			}
			for _, v := range sm.Versions {
				if m.version(v) == nil && !st.Seeded[seedVersionKey(m.ID, v)] {
					mv := st.addModuleVersion(m, v)
					mv.ID, mv.Status = stableID("modver-", m.ID, v), "ok"
				}
			}
		}
		st.applyGoverned(so, seedOwnerID(so, users))
		st.applyPolicySets(so)
		st.applyProjectAccess(so)
	}
	st.ensureProjects()
	st.markSeeded(spec)
	return append(vars, spec.Env...), tokens
}

// userTokenByValue is the token of user userID whose secret is value, or nil.
func (st *state) userTokenByValue(userID, value string) *token {
	if tok := st.Tokens[st.TokenIndex[hashSecret(value)]]; tok != nil && tok.Kind == tokenUser && tok.UserID == userID {
		return tok
	}
	return nil
}

// The keys of Seeded: an object's ID, or what names an object without one.
func seedOrgKey(org string) string             { return "organization:" + org }
func seedOwnerKey(org, username string) string { return "owner:" + org + "/" + username }
func seedVersionKey(moduleID, v string) string { return "version:" + moduleID + "/" + v }
func seedDeprecationKey(moduleID, v string) string {
	return "deprecation:" + moduleID + "/" + v
}

// seedKeys lists the keys of every object spec declares but users and their tokens, which are
// the sandbox's credentials: made again on every seeding, so that the exports always work.
func seedKeys(spec *seedSpec) []string {
	var keys []string
	for _, so := range spec.Organizations {
		keys = append(keys, seedOrgKey(so.Name))
		for _, name := range so.Owners {
			keys = append(keys, seedOwnerKey(so.Name, name))
		}
		for _, t := range so.Teams {
			keys = append(keys, t.ID)
		}
		for _, w := range so.Workspaces {
			keys = append(keys, w.ID)
		}
		for _, a := range so.AgentPools {
			keys = append(keys, a.ID)
			for _, t := range a.Tokens {
				keys = append(keys, t.ID)
			}
		}
		for _, m := range so.Modules {
			keys = append(keys, m.ID)
			for _, v := range m.Versions {
				keys = append(keys, seedVersionKey(m.ID, v))
			}
			for _, v := range m.TestVariables {
				keys = append(keys, v.ID)
			}
			for _, d := range m.Deprecations {
				keys = append(keys, seedDeprecationKey(m.ID, d.Version))
			}
		}
		for _, p := range so.Policies {
			keys = append(keys, p.ID)
		}
		for _, g := range so.TeamAccess {
			keys = append(keys, g.ID)
		}
		for _, ps := range so.PolicySets {
			keys = append(keys, ps.ID)
		}
		for _, sp := range so.Projects {
			keys = append(keys, sp.ID)
		}
		for _, g := range so.ProjectAccess {
			keys = append(keys, g.ID)
		}
	}
	return keys
}

// markSeeded records every object spec declares as seeded: from now on the API's.
func (st *state) markSeeded(spec *seedSpec) {
	if st.Seeded == nil {
		st.Seeded = map[string]bool{}
	}
	for _, key := range seedKeys(spec) {
		st.Seeded[key] = true
	}
}

// migrateSeeded fills Seeded in a --data file written before it was kept: every object of the
// recorded seed, which each start made again until then.
func (st *state) migrateSeeded() {
	rec := st.Seed
	if rec == nil || st.Seeded != nil {
		return
	}
	st.Seeded = map[string]bool{}
	spec, _, err := parseSeedFile(rec.Name, rec.File, func(name string) ([]byte, error) {
		if b, ok := rec.Sources[name]; ok {
			return []byte(b), nil
		}
		return nil, fmt.Errorf("%q is not recorded", name)
	})
	if err == nil {
		st.markSeeded(spec)
	}
}
