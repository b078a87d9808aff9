package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// seedDoc is a valid seed file with every section; the cases below break
// one field of it each.
const seedDoc = `{
  "users": [
    {"id": "user-Alice01", "username": "alice", "email": "alice@example.com",
     "tokens": [{"id": "at-AliceCI01", "description": "CI", "value": "alice-test-token-0001"}]},
    {"username": "bob", "email": "bob@example.com"}
  ],
  "organizations": [
    {"name": "acme", "owners": ["alice"], "default_project_id": "prj-AcmeDefault01",
     "projects": [{"id": "prj-Apps01", "name": "Apps", "description": "the apps"}, {"name": "tools"}],
     "teams": [
       {"id": "team-Platform01", "name": "platform", "visibility": "organization", "organization_access": {"manage_policies": true, "manage_agent_pools": true}, "members": ["bob"]},
       {"name": "developers"},
       {"id": "team-Readers01", "name": "readers", "visibility": "secret"}
     ],
     "workspaces": [{"id": "ws-App01", "name": "app", "project": "Apps"}, {"name": "web", "description": "the web site", "project": "Default Project"}],
     "agent_pools": [{"id": "apool-CI01", "name": "ci", "organization_scoped": false, "allowed_workspaces": ["app"],
       "tokens": [{"id": "at-CIOld01", "description": "old agent", "created_ago": "90d", "last_used_ago": "60d"}, {"description": "new agent", "created_ago": "720h"}]}],
     "registry_modules": [{"id": "mod-Network01", "name": "network", "provider": "aws", "versions": ["1.0.0", "1.1.0"],
       "test_variables": [{"id": "var-Region01", "key": "TF_VAR_region", "value": "eu-west-1", "description": "region", "sensitive": false, "hcl": false}],
       "deprecations": [{"version": "1.0.0", "reason": "Upgrade to 1.1.0.", "link": "https://example.com/upgrade"}]}],
     "policies": [
       {"id": "pol-Limit01", "name": "limit", "kind": "sentinel", "description": "d", "enforcement_level": "soft-mandatory", "code": "main = rule { true }"},
       {"name": "tags", "kind": "opa", "query": "data.terraform.deny", "code": "package terraform"}
     ],
     "team_access": [
       {"id": "tws-PlatformApp01", "team": "platform", "workspace": "app", "access": "write"},
       {"team": "readers", "workspace": "app", "access": "custom", "permissions": {"runs": "plan", "variables": "read", "state_versions": "read-outputs", "sentinel_mocks": "none", "workspace_locking": true, "run_tasks": false, "policy_overrides": false}}
     ],
     "policy_sets": [
       {"id": "polset-Base01", "name": "base", "description": "d", "kind": "sentinel", "global": false, "workspaces": ["app"],
        "parameters": [{"id": "var-Param01", "key": "region", "value": "eu", "sensitive": false}]}
     ],
     "project_access": [
       {"id": "tprj-PlatformApps01", "team": "platform", "project": "Apps", "access": "maintain"},
       {"team": "readers", "project": "Default Project", "access": "custom",
        "project_access": {"settings": "read", "teams": "read", "variable_sets": "none"},
        "workspace_access": {"runs": "plan", "sentinel_mocks": "none", "state_versions": "read", "variables": "read", "create": false, "locking": true, "move": false, "delete": false, "run_tasks": false, "policy_overrides": false}}
     ]}
  ],
  "env": [{"name": "TF_VAR_platform_team_id", "value": "team-Platform01", "about": "team platform"}]
}`

// withChange returns seedDoc with the value at path (dot-separated keys
// and list indexes) set to v, or removed when v is remove.
func withChange(t *testing.T, path string, v any) []byte {
	t.Helper()
	return changed(t, []byte(seedDoc), path, v)
}

// changed is withChange of the seed file raw.
func changed(t *testing.T, raw []byte, path string, v any) []byte {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	keys := strings.Split(path, ".")
	cur := doc
	for i, k := range keys {
		last := i == len(keys)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if v == remove {
					delete(c, k)
				} else {
					c[k] = v
				}
			}
			cur = c[k]
		case []any:
			var n int
			if err := json.Unmarshal([]byte(k), &n); err != nil {
				t.Fatalf("bad path %s", path)
			}
			if last {
				c[n] = v
			}
			cur = c[n]
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var remove = &struct{}{}

// TestSeedFile_refused: each bad field is refused at start, naming the file,
// the field's path and what is allowed, and nothing is made.
func TestSeedFile_refused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		raw  []byte // or a change to seedDoc
		path string
		v    any
		want string
	}{
		{name: "syntax", raw: []byte("{\n  \"users\": [,]\n}"), want: "seed file org.json: line 2, column 13: not valid JSON"},
		{name: "not an object", raw: []byte(`[]`), want: "(top level): must be an object, got a list"},
		{name: "unknown top-level field", path: "workspaces", v: []any{}, want: "workspaces: unknown field; allowed: env, organizations, users"},
		{name: "no organizations", path: "organizations", v: remove, want: "organizations: required: a list of at least one organization"},
		{name: "no token", path: "users.0.tokens", v: []any{}, want: "users: no user has a token"},
		{name: "team id prefix", path: "organizations.0.teams.2.id", v: "tm-Readers01", want: `organizations[0].teams[2].id: "tm-Readers01" is not a team ID: team- followed by 1 to 64 letters and digits`},
		{name: "team id characters", path: "organizations.0.teams.2.id", v: "team-a_b", want: `organizations[0].teams[2].id: "team-a_b" is not a team ID`},
		{name: "duplicate id", path: "organizations.0.teams.2.id", v: "team-Platform01", want: `organizations[0].teams[2].id: "team-Platform01" is already the ID of organizations[0].teams[0]: IDs must be unique`},
		{name: "visibility", path: "organizations.0.teams.2.visibility", v: "private", want: `organizations[0].teams[2].visibility: "private" is not a visibility: secret or organization`},
		{name: "team named owners", path: "organizations.0.teams.1.name", v: "owners", want: `organizations[0].teams[1].name: team name "owners" is also the owners team`},
		{name: "duplicate team name", path: "organizations.0.teams.1.name", v: "platform", want: `organizations[0].teams[1].name: team name "platform" is also organizations[0].teams[0].name`},
		{name: "access key", path: "organizations.0.teams.0.organization_access.manage_everything", v: true, want: "organizations[0].teams[0].organization_access.manage_everything: unknown field; allowed: access_secret_teams, delegate_policy_overrides, manage_agent_pools,"},
		{name: "access value", path: "organizations.0.teams.0.organization_access.manage_policies", v: "yes", want: "organizations[0].teams[0].organization_access.manage_policies: must be true or false, got a string"},
		{name: "unknown member", path: "organizations.0.teams.0.members.0", v: "carol", want: `organizations[0].teams[0].members[0]: "carol" is not a username of users[]; known: alice, bob`},
		{name: "no owners", path: "organizations.0.owners", v: []any{}, want: "organizations[0].owners: required: a list of at least one username of users[]"},
		{name: "org name", path: "organizations.0.name", v: "acme corp", want: `organizations[0].name: "acme corp" is not a valid name: letters, digits, - and _ only`},
		{name: "workspace name missing", path: "organizations.0.workspaces.1.name", v: remove, want: "organizations[0].workspaces[1].name: required"},
		{name: "allowed workspace unknown", path: "organizations.0.agent_pools.0.allowed_workspaces.0", v: "api", want: `organizations[0].agent_pools[0].allowed_workspaces[0]: "api" is not a workspace name of this organization's workspaces[]`},
		{name: "allowed workspaces on a scoped pool", path: "organizations.0.agent_pools.0.organization_scoped", v: true, want: "organizations[0].agent_pools[0].allowed_workspaces: applies only to a pool with organization_scoped = false"},
		{name: "module provider", path: "organizations.0.registry_modules.0.provider", v: "AWS", want: `organizations[0].registry_modules[0].provider: "AWS" is not a module provider: lowercase letters and digits only`},
		{name: "module version", path: "organizations.0.registry_modules.0.versions.1", v: "latest", want: `organizations[0].registry_modules[0].versions[1]: "latest" is not a semantic version such as 1.2.3`},
		{name: "duplicate version", path: "organizations.0.registry_modules.0.versions.1", v: "1.0.0", want: `organizations[0].registry_modules[0].versions[1]: version "1.0.0" is also organizations[0].registry_modules[0].versions[0]`},
		{name: "token value", path: "users.0.tokens.0.value", v: "short", want: `users[0].tokens[0].value: "short" is not a usable token value: at least 8 characters, no spaces`},
		{name: "username", path: "users.1.username", v: "bob smith", want: `users[1].username: "bob smith" is not a valid username`},
		{name: "email", path: "users.1.email", v: "bob", want: `users[1].email: "bob" is not an email address`},
		{name: "env reserved", path: "env.0.name", v: "TFE_TOKEN", want: `env[0].name: "TFE_TOKEN" is printed by the sandbox itself; not allowed: TFE_ADDRESS, TFE_HOSTNAME, TFE_ORGANIZATION, TFE_TOKEN, SSL_CERT_FILE`},
		{name: "env value type", path: "env.0.value", v: 3, want: "env[0].value: must be a string, got a number"},
		{name: "list expected", path: "organizations.0.workspaces", v: "app", want: "organizations[0].workspaces: must be a list, got a string"},
		// What tfgov governs: policies, team access, agent tokens, test variables, deprecations.
		{name: "policy kind", path: "organizations.0.policies.0.kind", v: "rego", want: `organizations[0].policies[0].kind: "rego" is not a policy kind: sentinel or opa`},
		{name: "opa policy without query", path: "organizations.0.policies.1.query", v: remove, want: "organizations[0].policies[1].query: required for an opa policy"},
		{name: "sentinel policy with query", path: "organizations.0.policies.0.query", v: "data.x", want: "organizations[0].policies[0].query: applies only to a policy with kind opa"},
		{name: "policy level", path: "organizations.0.policies.0.enforcement_level", v: "mandatory", want: `organizations[0].policies[0].enforcement_level: "mandatory" is not an enforcement level of a sentinel policy: hard-mandatory, soft-mandatory, advisory`},
		{name: "policy code and source", path: "organizations.0.policies.0.source", v: "limit.sentinel", want: "organizations[0].policies[0].source: give code or source, not both"},
		{name: "policy source missing", path: "organizations.0.policies.1", v: map[string]any{"name": "x", "source": "no-such.sentinel"}, want: `organizations[0].policies[1].source: "no-such.sentinel" cannot be read (a path relative to the seed file's directory, .): no such file or directory`},
		{name: "policy name", path: "organizations.0.policies.1.name", v: "limit", want: `organizations[0].policies[1].name: policy name "limit" is also organizations[0].policies[0].name`},
		{name: "policy id", path: "organizations.0.policies.0.id", v: "policy-1", want: `organizations[0].policies[0].id: "policy-1" is not a policy ID: pol- followed by`},
		{name: "grant of an unknown team", path: "organizations.0.team_access.0.team", v: "ops", want: `organizations[0].team_access[0].team: "ops" is not a team name of this organization's teams[] (or owners); known: developers, owners, platform, readers`},
		{name: "grant to an unknown workspace", path: "organizations.0.team_access.0.workspace", v: "api", want: `organizations[0].team_access[0].workspace: "api" is not a workspace name of this organization's workspaces[]; known: app, web`},
		{name: "grant access", path: "organizations.0.team_access.0.access", v: "owner", want: `organizations[0].team_access[0].access: "owner" is not an access level: read, plan, write, admin, custom`},
		{name: "grant without access", path: "organizations.0.team_access.0.access", v: remove, want: "organizations[0].team_access[0].access: required"},
		{name: "permissions of a fixed level", path: "organizations.0.team_access.0.permissions", v: map[string]any{"runs": "plan"}, want: "organizations[0].team_access[0].permissions: applies only to access custom: access write implies its permissions"},
		{name: "permission value", path: "organizations.0.team_access.1.permissions.runs", v: "write", want: `organizations[0].team_access[1].permissions.runs: "write" is not allowed: read, plan, apply`},
		{name: "permission key", path: "organizations.0.team_access.1.permissions.manage", v: true, want: "organizations[0].team_access[1].permissions.manage: unknown field; allowed: policy_overrides, run_tasks, runs, sentinel_mocks, state_versions, variables, workspace_locking"},
		{name: "grant twice", path: "organizations.0.team_access.1", v: map[string]any{"team": "platform", "workspace": "app", "access": "read"}, want: `organizations[0].team_access[1]: team "platform" already has access to workspace "app" in organizations[0].team_access[0]`},
		{name: "token age", path: "organizations.0.agent_pools.0.tokens.0.created_ago", v: "30 days", want: `organizations[0].agent_pools[0].tokens[0].created_ago: "30 days" is not an age: a duration such as 720h, 1h30m or 30d (days)`},
		{name: "token used before made", path: "organizations.0.agent_pools.0.tokens.1.last_used_ago", v: "31d", want: "organizations[0].agent_pools[0].tokens[1].last_used_ago: is longer ago than created_ago (720h)"},
		{name: "token without description", path: "organizations.0.agent_pools.0.tokens.1.description", v: remove, want: "organizations[0].agent_pools[0].tokens[1].description: required"},
		{name: "token id", path: "organizations.0.agent_pools.0.tokens.0.id", v: "at-AliceCI01", want: `organizations[0].agent_pools[0].tokens[0].id: "at-AliceCI01" is already the ID of users[0].tokens[0]`},
		{name: "test variable key", path: "organizations.0.registry_modules.0.test_variables.0.key", v: "1REGION", want: `organizations[0].registry_modules[0].test_variables[0].key: "1REGION" is not a test variable key`},
		{name: "test variable sensitive", path: "organizations.0.registry_modules.0.test_variables.0.sensitive", v: "yes", want: "organizations[0].registry_modules[0].test_variables[0].sensitive: must be true or false, got a string"},
		{name: "deprecation of an unknown version", path: "organizations.0.registry_modules.0.deprecations.0.version", v: "3.0.0", want: `organizations[0].registry_modules[0].deprecations[0].version: "3.0.0" is not a version of this module's versions: 1.0.0, 1.1.0`},
		{name: "version deprecated twice", path: "organizations.0.registry_modules.0.deprecations", v: []any{map[string]any{"version": "1.0.0"}, map[string]any{"version": "1.0.0", "reason": "again"}},
			want: `organizations[0].registry_modules[0].deprecations[1].version: deprecated version "1.0.0" is also organizations[0].registry_modules[0].deprecations[0].version`},
		// A token without an id is known by its description (its ID is derived from it, not from its place).
		{name: "agent tokens alike without an id", path: "organizations.0.agent_pools.0.tokens.0", v: map[string]any{"description": "new agent", "created_ago": "1h"},
			want: `organizations[0].agent_pools[0].tokens[1].description: "new agent" is also the description of organizations[0].agent_pools[0].tokens[0], and neither has an id: a token without an id is known by its description`},
		{name: "user tokens alike without an id", path: "users.1.tokens", v: []any{map[string]any{"value": "bob-test-token-0001"}, map[string]any{"value": "bob-test-token-0002"}},
			want: `users[1].tokens[1].description: none, as users[1].tokens[0] has none, and neither has an id: a token without an id is known by its description, so give one of them an id or another description (unique among this user's tokens without an id)`},
		// Projects and their grants.
		{name: "project name", path: "organizations.0.projects.1.name", v: "ab", want: `organizations[0].projects[1].name: "ab" is not a project name: letters, digits, spaces, - and _, 3 to 40 characters`},
		{name: "project named as the default", path: "organizations.0.projects.1.name", v: "default project", want: `organizations[0].projects[1].name: project name (in any case) "default project" is also the default project`},
		{name: "project name in another case", path: "organizations.0.projects.1.name", v: "APPS", want: `organizations[0].projects[1].name: project name (in any case) "apps" is also organizations[0].projects[0].name`},
		{name: "project id", path: "organizations.0.projects.0.id", v: "project-1", want: `organizations[0].projects[0].id: "project-1" is not a project ID: prj- followed by`},
		{name: "default project id", path: "organizations.0.default_project_id", v: "prj-Apps01", want: `organizations[0].projects[0].id: "prj-Apps01" is already the ID of organizations[0].default_project_id`},
		{name: "workspace in an unknown project", path: "organizations.0.workspaces.0.project", v: "Tools", want: `organizations[0].workspaces[0].project: "Tools" is not a project name of this organization's projects[] (or Default Project); known: Apps, Default Project, tools`},
		{name: "project grant of an unknown project", path: "organizations.0.project_access.0.project", v: "api", want: `organizations[0].project_access[0].project: "api" is not a project name`},
		{name: "project grant access", path: "organizations.0.project_access.0.access", v: "plan", want: `organizations[0].project_access[0].access: "plan" is not an access level: read, write, maintain, admin, custom`},
		{name: "project permissions of a fixed level", path: "organizations.0.project_access.0.workspace_access", v: map[string]any{"runs": "plan"}, want: "organizations[0].project_access[0].workspace_access: applies only to access custom: access maintain implies its permissions"},
		{name: "project permission value", path: "organizations.0.project_access.1.project_access.teams", v: "all", want: `organizations[0].project_access[1].project_access.teams: "all" is not allowed: none, read, manage`},
		{name: "project grant twice", path: "organizations.0.project_access.1", v: map[string]any{"team": "platform", "project": "Apps", "access": "read"}, want: `organizations[0].project_access[1]: team "platform" already has access to project "Apps" in organizations[0].project_access[0]`},
		{name: "deprecation link", path: "organizations.0.registry_modules.0.deprecations.0.link", v: "example.com/upgrade", want: `organizations[0].registry_modules[0].deprecations[0].link: "example.com/upgrade" is not an absolute http:// or https:// URL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw := tc.raw
			if raw == nil {
				raw = withChange(t, tc.path, tc.v)
			}
			inst := sandbox.Start(t)
			_, err := inst.Server.SeedFile("org.json", raw)
			var se *sandbox.SeedFileError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "seed file org.json") {
				t.Fatalf("got %v\nwant a SeedFileError with %q", err, tc.want)
			}
			if _, err := client(t, inst, inst.Token).Organizations.Read(context.Background(), "acme"); !errors.Is(err, tfe.ErrResourceNotFound) {
				t.Errorf("a refused seed made its organization: %v", err)
			}
		})
	}
	t.Run("valid", func(t *testing.T) {
		t.Parallel()
		if _, err := sandbox.Start(t).Server.SeedFile("org.json", []byte(seedDoc)); err != nil {
			t.Fatalf("the base document is refused: %v", err)
		}
	})
}

// TestSeedFile_madeAsDeclared: go-tfe, with the exported token, finds every
// object with the IDs the file gives; IDs it does not give are the same on
// another sandbox.
func TestSeedFile_madeAsDeclared(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst := sandbox.Start(t)
	vars, err := inst.Server.SeedFile("org.json", []byte(seedDoc))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	var order []string
	for _, v := range vars {
		env[v.Env] = v.Value
		order = append(order, v.Env)
	}
	if got := strings.Join(order, ","); got != "TFE_TOKEN,TFE_ORGANIZATION,TF_VAR_platform_team_id" {
		t.Errorf("exports %s", got)
	}
	if env["TFE_TOKEN"] != "alice-test-token-0001" || env["TFE_ORGANIZATION"] != "acme" {
		t.Errorf("exports %v", env)
	}
	c := client(t, inst, env["TFE_TOKEN"])
	team, err := c.Teams.Read(ctx, "team-Platform01")
	if err != nil || team.Name != "platform" || !team.OrganizationAccess.ManagePolicies || team.OrganizationAccess.ManageModules || team.Visibility != "organization" {
		t.Fatalf("team: %+v, %v", team, err)
	}
	if team.UserCount != 1 {
		t.Errorf("platform has %d members, want 1 (bob)", team.UserCount)
	}
	if ws, err := c.Workspaces.ReadByID(ctx, "ws-App01"); err != nil || ws.Name != "app" {
		t.Errorf("workspace: %+v, %v", ws, err)
	}
	pool, err := c.AgentPools.Read(ctx, "apool-CI01")
	if err != nil || pool.OrganizationScoped {
		t.Fatalf("agent pool: %+v, %v", pool, err)
	}
	tok, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")})
	if err != nil {
		t.Errorf("an agent token in the seeded pool: %v", err)
	} else if tok.Token == "" {
		t.Error("no agent token secret")
	}
	mid := tfe.RegistryModuleID{Organization: "acme", Namespace: "acme", Name: "network", Provider: "aws", RegistryName: tfe.PrivateRegistry}
	mod, err := c.RegistryModules.Read(ctx, mid)
	if err != nil || mod.ID != "mod-Network01" || len(mod.VersionStatuses) != 2 {
		t.Fatalf("module: %+v, %v", mod, err)
	}
	if _, err := c.TestVariables.Create(ctx, mid, tfe.VariableCreateOptions{Key: tfe.String("K"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)}); err != nil {
		t.Errorf("a test variable on the seeded module: %v", err)
	}
	teams, err := c.Teams.List(ctx, "acme", nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, tm := range teams.Items {
		ids[tm.Name] = tm.ID
	}
	if len(ids) != 4 {
		t.Errorf("teams %v, want owners, platform, developers, readers", ids)
	}
	other := sandbox.Start(t)
	if _, err := other.Server.SeedFile("org.json", []byte(seedDoc)); err != nil {
		t.Fatal(err)
	}
	teams2, err := client(t, other, "alice-test-token-0001").Teams.List(ctx, "acme", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range teams2.Items {
		if ids[tm.Name] != tm.ID {
			t.Errorf("team %s has ID %s on one sandbox and %s on another", tm.Name, ids[tm.Name], tm.ID)
		}
	}
	c2 := client(t, other, "alice-test-token-0001")
	for _, read := range []func(*tfe.Client) (string, error){
		func(c *tfe.Client) (string, error) {
			w, err := c.Workspaces.Read(ctx, "acme", "web")
			return idOf(w, err)
		},
		func(c *tfe.Client) (string, error) {
			o, err := c.Organizations.Read(ctx, "acme")
			return externalIDOf(o, err)
		},
	} {
		a, errA := read(c)
		b, errB := read(c2)
		if errA != nil || errB != nil || a != b || a == "" {
			t.Errorf("an ID differs between two sandboxes seeded alike: %q (%v), %q (%v)", a, errA, b, errB)
		}
	}
}

func idOf(w *tfe.Workspace, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return w.ID, nil
}

func externalIDOf(o *tfe.Organization, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return o.ExternalID, nil
}

// TestSeedFile_dataRestarts: on a --data file, the seed states what exists
// at the first start: changes made through the API survive a restart with
// the seed, a deleted object stays deleted, nothing is doubled, a restart
// without the seed flag applies the recorded seed and its tokens work (the
// one the file gives no value keeps its first value); an object the file
// declares for the first time is made, and refused when its name is taken
// under another ID.
func TestSeedFile_dataRestarts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "state.json")
	noValue := withChange(t, "users.0.tokens.0.value", remove)
	start := func() *sandbox.Instance { return sandbox.StartWithOptions(t, sandbox.Options{DataFile: data}) }

	first := start()
	vars, err := first.Server.SeedFile("org.json", noValue)
	if err != nil {
		t.Fatal(err)
	}
	token := vars[0].Value
	c := client(t, first, token)
	if _, err := c.Teams.Update(ctx, "team-Platform01", tfe.TeamUpdateOptions{Name: tfe.String("platform-renamed")}); err != nil {
		t.Fatal(err)
	}
	if err := c.Workspaces.DeleteByID(ctx, "ws-App01"); err != nil {
		t.Fatal(err)
	}

	// Restarted with the seed: the rename kept, the workspace still gone.
	second := start()
	again, err := second.Server.SeedFile("org.json", noValue)
	if err != nil {
		t.Fatal(err)
	}
	if again[0].Value != token {
		t.Errorf("the token changed across restarts: %s, then %s", token, again[0].Value)
	}
	c = client(t, second, token)
	if tm, err := c.Teams.Read(ctx, "team-Platform01"); err != nil || tm.Name != "platform-renamed" {
		t.Errorf("the team changed through the API: %+v, %v", tm, err)
	}
	if _, err := c.Workspaces.ReadByID(ctx, "ws-App01"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("the workspace deleted through the API is back: %v", err)
	}
	if wss, err := c.Workspaces.List(ctx, "acme", nil); err != nil || len(wss.Items) != 1 {
		t.Errorf("workspaces after two seedings: %d, %v", len(wss.Items), err)
	}

	// Restarted without a seed flag: the recorded seed, the same token.
	third := start()
	name, re, err := third.Server.Reseed()
	if err != nil || name != "org.json" || len(re) == 0 || re[0].Value != token {
		t.Fatalf("reseed: %s, %v, %v", name, re, err)
	}
	if _, err := client(t, third, token).Teams.Read(ctx, "team-Platform01"); err != nil {
		t.Errorf("the token after a restart without the seed: %v", err)
	}

	// A workspace the file declares for the first time is made.
	added := changed(t, noValue, "organizations.0.workspaces.1", map[string]any{"id": "ws-Docs01", "name": "docs"})
	if _, err := third.Server.SeedFile("org.json", added); err != nil {
		t.Fatal(err)
	}
	if _, err := client(t, third, token).Workspaces.ReadByID(ctx, "ws-Docs01"); err != nil {
		t.Errorf("a workspace new to the seed file: %v", err)
	}

	// A workspace made through the API, then declared with another ID.
	if _, err := client(t, third, token).Workspaces.Create(ctx, "acme", tfe.WorkspaceCreateOptions{Name: tfe.String("api")}); err != nil {
		t.Fatal(err)
	}
	clash := changed(t, added, "organizations.0.workspaces.1", map[string]any{"id": "ws-Api01", "name": "api"})
	_, err = third.Server.SeedFile("org.json", clash)
	if err == nil || !strings.Contains(err.Error(), `organizations[0].workspaces[1].name: workspace "api" already exists in acme with ID ws-`) {
		t.Errorf("a name taken under another ID: %v", err)
	}
}

// TestSeedFile_replacedThroughTheAPI (issue 53, row 7): what terraform test
// does to seeded objects, each destroyed and made again through the API
// (under new IDs), or destroyed; the next start on the --data file, with
// the seed file or without a seed flag, starts and keeps what the API did.
func TestSeedFile_replacedThroughTheAPI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "state.json")
	start := func() *sandbox.Instance { return sandbox.StartWithOptions(t, sandbox.Options{DataFile: data}) }
	first := start()
	if _, err := first.Server.SeedFile("org.json", []byte(seedDoc)); err != nil {
		t.Fatal(err)
	}
	c := client(t, first, "alice-test-token-0001")
	mod := tfe.RegistryModuleID{Organization: "acme", Namespace: "acme", Name: "network", Provider: "aws", RegistryName: tfe.PrivateRegistry}
	// Replaced: a policy, a grant, a test variable, a workspace and a team
	// the file gives no ID (its derived ID is gone).
	if err := c.Policies.Delete(ctx, "pol-Limit01"); err != nil {
		t.Fatal(err)
	}
	pol, err := c.Policies.Create(ctx, "acme", tfe.PolicyCreateOptions{Name: tfe.String("limit"), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.TeamAccess.Remove(ctx, "tws-PlatformApp01"); err != nil {
		t.Fatal(err)
	}
	grant, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: &tfe.Team{ID: "team-Platform01"}, Workspace: &tfe.Workspace{ID: "ws-App01"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.TestVariables.Delete(ctx, mod, "var-Region01"); err != nil {
		t.Fatal(err)
	}
	v, err := c.TestVariables.Create(ctx, mod, tfe.VariableCreateOptions{Key: tfe.String("TF_VAR_region"), Value: tfe.String("us-east-1"), Category: tfe.Category(tfe.CategoryEnv)})
	if err != nil {
		t.Fatal(err)
	}
	web, err := c.Workspaces.Read(ctx, "acme", "web")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Workspaces.DeleteByID(ctx, web.ID); err != nil {
		t.Fatal(err)
	}
	newWeb, err := c.Workspaces.Create(ctx, "acme", tfe.WorkspaceCreateOptions{Name: tfe.String("web")})
	if err != nil {
		t.Fatal(err)
	}
	// Destroyed: an agent token, a deprecation, a team.
	if err := c.AgentTokens.Delete(ctx, "at-CIOld01"); err != nil {
		t.Fatal(err)
	}
	if _, err := setDeprecation(ctx, c, mod, "1.0.0", deprecationBody{Status: "Undeprecated"}); err != nil {
		t.Fatal(err)
	}
	devs, err := teamNamed(ctx, c, "acme", "developers")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Teams.Delete(ctx, devs); err != nil {
		t.Fatal(err)
	}

	check := func(inst *sandbox.Instance) {
		t.Helper()
		c := client(t, inst, "alice-test-token-0001")
		if got, err := c.Policies.Read(ctx, pol.ID); err != nil || got.EnforcementLevel != tfe.EnforcementAdvisory {
			t.Errorf("the policy made again through the API: %+v, %v", got, err)
		}
		if got, err := c.TeamAccess.Read(ctx, grant.ID); err != nil || got.Access != tfe.AccessRead {
			t.Errorf("the grant made again through the API: %+v, %v", got, err)
		}
		if got, err := c.TestVariables.Read(ctx, mod, v.ID); err != nil || got.Value != "us-east-1" {
			t.Errorf("the test variable made again through the API: %+v, %v", got, err)
		}
		if got, err := c.Workspaces.Read(ctx, "acme", "web"); err != nil || got.ID != newWeb.ID {
			t.Errorf("the workspace made again through the API: %+v, %v", got, err)
		}
		for what, err := range map[string]error{
			"policy":    readErr(c.Policies.Read(ctx, "pol-Limit01")),
			"grant":     readErr(c.TeamAccess.Read(ctx, "tws-PlatformApp01")),
			"variable":  readErr(c.TestVariables.Read(ctx, mod, "var-Region01")),
			"workspace": readErr(c.Workspaces.ReadByID(ctx, web.ID)),
			"token":     readErr(c.AgentTokens.Read(ctx, "at-CIOld01")),
			"team":      readErr(c.Teams.Read(ctx, devs)),
		} {
			if !errors.Is(err, tfe.ErrResourceNotFound) {
				t.Errorf("the seeded %s deleted through the API is back: %v", what, err)
			}
		}
		if got, err := readVersion(ctx, c, mod, "1.0.0"); err != nil || got.Deprecation != nil {
			t.Errorf("the deprecation reverted through the API is back: %+v, %v", got, err)
		}
		if toks, err := c.AgentTokens.List(ctx, "apool-CI01"); err != nil || len(toks.Items) != 1 {
			t.Errorf("agent tokens: %+v, %v", toks, err)
		}
	}
	second := start()
	if _, err := second.Server.SeedFile("org.json", []byte(seedDoc)); err != nil {
		t.Fatalf("a restart with the seed after replacements through the API: %v", err)
	}
	check(second)
	third := start()
	if _, _, err := third.Server.Reseed(); err != nil {
		t.Fatalf("a restart without a seed flag after replacements through the API: %v", err)
	}
	check(third)
}

// TestSeedFile_tokensKeyedByDescription (issue 53, row 6): tokens without
// an id are known by their description, not their place: a token inserted
// before the others on a restart is made, and the others stay one each,
// their values working.
func TestSeedFile_tokensKeyedByDescription(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "state.json")
	start := func() *sandbox.Instance { return sandbox.StartWithOptions(t, sandbox.Options{DataFile: data}) }
	agent := func(d string) map[string]any { return map[string]any{"description": d, "created_ago": "1h"} }
	user := func(d, value string) map[string]any { return map[string]any{"description": d, "value": value} }
	before := changed(t, withChange(t, "organizations.0.agent_pools.0.tokens", []any{agent("a"), agent("b")}),
		"users.1.tokens", []any{user("ci", "bob-token-ci-0001")})
	after := changed(t, withChange(t, "organizations.0.agent_pools.0.tokens", []any{agent("new"), agent("a"), agent("b")}),
		"users.1.tokens", []any{user("laptop", "bob-token-laptop-01"), user("ci", "bob-token-ci-0001")})

	first := start()
	if _, err := first.Server.SeedFile("org.json", before); err != nil {
		t.Fatal(err)
	}
	ids := poolTokens(t, client(t, first, "alice-test-token-0001"), "apool-CI01")
	second := start()
	if _, err := second.Server.SeedFile("org.json", after); err != nil {
		t.Fatal(err)
	}
	got := poolTokens(t, client(t, second, "alice-test-token-0001"), "apool-CI01")
	if len(got) != 3 || got["a"] != ids["a"] || got["b"] != ids["b"] || got["new"] == "" {
		t.Errorf("pool tokens by description after inserting one: %v, were %v", got, ids)
	}
	for _, value := range []string{"bob-token-ci-0001", "bob-token-laptop-01"} {
		if _, err := client(t, second, value).Organizations.Read(ctx, "acme"); err != nil {
			t.Errorf("user token %s after inserting one: %v", value, err)
		}
	}
}

// poolTokens returns the IDs of pool's tokens by description, failing on a
// description seen twice.
func poolTokens(t *testing.T, c *tfe.Client, pool string) map[string]string {
	t.Helper()
	l, err := c.AgentTokens.List(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tok := range l.Items {
		if _, ok := out[tok.Description]; ok {
			t.Errorf("pool %s holds two tokens %q", pool, tok.Description)
		}
		out[tok.Description] = tok.ID
	}
	return out
}

func readErr[T any](_ T, err error) error { return err }

// teamNamed is the ID of org's team name.
func teamNamed(ctx context.Context, c *tfe.Client, org, name string) (string, error) {
	l, err := c.Teams.List(ctx, org, &tfe.TeamListOptions{Names: []string{name}})
	if err != nil {
		return "", err
	}
	for _, tm := range l.Items {
		if tm.Name == name {
			return tm.ID, nil
		}
	}
	return "", fmt.Errorf("no team %s in %s", name, org)
}

// TestSeedDemo_isAFile: the demo seed is a seed file, and it passes the
// same checks.
func TestSeedDemo_isAFile(t *testing.T) {
	t.Parallel()
	inst := sandbox.Start(t)
	vars, err := inst.Server.SeedFile("demo.json", sandbox.DemoSeedFile())
	if err != nil {
		t.Fatal(err)
	}
	if len(vars) != 11 || vars[0].Env != "TFE_TOKEN" || vars[2].Env != "TF_VAR_workspace_id" {
		t.Errorf("demo exports %v", vars)
	}
}

// TestSeedFile_projects: a seed file's projects, its default project's ID,
// its workspaces' projects and its project grants are made as declared,
// and read through go-tfe; a second seeding on the same state makes none
// again and keeps what the API changed.
func TestSeedFile_projects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst := sandbox.Start(t)
	if _, err := inst.Server.SeedFile("org.json", []byte(seedDoc)); err != nil {
		t.Fatal(err)
	}
	c := client(t, inst, "alice-test-token-0001")
	def, err := c.Projects.Read(ctx, "prj-AcmeDefault01")
	if err != nil || def.Name != "Default Project" {
		t.Fatalf("default project: %+v, %v", def, err)
	}
	apps, err := c.Projects.Read(ctx, "prj-Apps01")
	if err != nil || apps.Name != "Apps" || apps.Description != "the apps" {
		t.Errorf("project: %+v, %v", apps, err)
	}
	l, err := c.Projects.List(ctx, "acme", nil)
	if err != nil || l.TotalCount != 3 {
		t.Errorf("projects: %+v, %v", l, err)
	}
	for name, want := range map[string]string{"app": "prj-Apps01", "web": "prj-AcmeDefault01"} {
		if ws, err := c.Workspaces.Read(ctx, "acme", name); err != nil || ws.Project == nil || ws.Project.ID != want {
			t.Errorf("workspace %s: %+v, %v, want project %s", name, ws, err, want)
		}
	}
	g, err := c.TeamProjectAccess.Read(ctx, "tprj-PlatformApps01")
	if err != nil || g.Access != tfe.TeamProjectAccessMaintain || g.Team.ID != "team-Platform01" || g.Project.ID != "prj-Apps01" || !g.WorkspaceAccess.WorkspaceCreatePermission {
		t.Errorf("grant: %+v, %v", g, err)
	}
	gs, err := c.TeamProjectAccess.List(ctx, tfe.TeamProjectAccessListOptions{ProjectID: "prj-AcmeDefault01"})
	if err != nil || len(gs.Items) != 1 {
		t.Fatalf("grants of the default project: %+v, %v", gs, err)
	}
	if cg := gs.Items[0]; cg.Access != tfe.TeamProjectAccessCustom || cg.ProjectAccess.ProjectTeamsPermission != "read" || cg.WorkspaceAccess.WorkspaceRunsPermission != "plan" ||
		!cg.WorkspaceAccess.WorkspaceLockingPermission || cg.WorkspaceAccess.WorkspaceStateVersionsPermission != "read" {
		t.Errorf("custom grant: %+v %+v %+v", cg, cg.ProjectAccess, cg.WorkspaceAccess)
	}
	// The API's changes stand at the next seeding.
	if err := c.TeamProjectAccess.Remove(ctx, "tprj-PlatformApps01"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Projects.Update(ctx, "prj-Apps01", tfe.ProjectUpdateOptions{Description: tfe.String("changed")}); err != nil {
		t.Fatal(err)
	}
	if _, err := inst.Server.SeedFile("org.json", []byte(seedDoc)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TeamProjectAccess.Read(ctx, "tprj-PlatformApps01"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a removed grant is made again: %v", err)
	}
	if p, err := c.Projects.Read(ctx, "prj-Apps01"); err != nil || p.Description != "changed" {
		t.Errorf("a changed project: %+v, %v", p, err)
	}
}
