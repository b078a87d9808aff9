package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// governedSeed is a seed file with one of each object tfgov governs, made
// by hand; its Sentinel policy's code is a file beside it.
const governedSeed = `{
  "users": [{"username": "erin", "email": "erin@example.com", "tokens": [{"value": "erin-test-token-0001"}]}],
  "organizations": [
    {"name": "governed", "owners": ["erin"],
     "teams": [{"id": "team-Dev01", "name": "dev"}, {"id": "team-Ops01", "name": "ops"}],
     "workspaces": [{"id": "ws-Site01", "name": "site"}],
     "agent_pools": [{"id": "apool-Build01", "name": "build",
       "tokens": [{"id": "at-Stale01", "description": "old agent", "created_ago": "90d", "last_used_ago": "1440h"},
                  {"id": "at-Never01", "description": "never used", "created_ago": "2h30m"}]}],
     "registry_modules": [{"name": "vpc", "provider": "aws", "versions": ["1.0.0", "2.0.0"],
       "test_variables": [{"id": "var-Region01", "key": "TF_VAR_region", "value": "eu-west-1", "description": "region"},
                          {"id": "var-Secret01", "key": "API_KEY", "value": "hush", "sensitive": true, "hcl": true}],
       "deprecations": [{"version": "1.0.0", "reason": "Upgrade to 2.0.0.", "link": "https://example.com/vpc"}]}],
     "policies": [
       {"id": "pol-Limit01", "name": "limit", "description": "At most five destroys.", "enforcement_level": "soft-mandatory", "source": "policies/limit.sentinel"},
       {"id": "pol-Tags01", "name": "tags", "kind": "opa", "query": "data.terraform.policies.tags.deny", "code": "package terraform.policies.tags\n"},
       {"id": "pol-Empty01", "name": "empty"}
     ],
     "team_access": [
       {"id": "tws-DevSite01", "team": "dev", "workspace": "site", "access": "write"},
       {"id": "tws-OpsSite01", "team": "ops", "workspace": "site", "access": "custom", "permissions": {"runs": "plan", "state_versions": "read-outputs", "workspace_locking": true}},
       {"id": "tws-OwnSite01", "team": "owners", "workspace": "site", "access": "admin"}
     ]}
  ]
}`

const limitSentinel = "main = rule { true }\n"

// writeGovernedSeed writes governedSeed and its policy file into a new
// directory and returns the seed file's path.
func writeGovernedSeed(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "policies"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "policies", "limit.sentinel"), []byte(limitSentinel), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "seed.json")
	if err := os.WriteFile(file, []byte(governedSeed), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestSeedFile_governedMade: what a seed file declares of what
// tfgov governs reads back through go-tfe as the API shows it: policies
// with their code (a file relative to the seed file, or inline), team
// access (fixed and custom, by team and workspace name), agent tokens with
// their ages, module test variables and a deprecation. After a restart on
// the --data file, without the seed file or its policy file, the seed
// applies again and changes nothing.
func TestSeedFile_governedMade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := writeGovernedSeed(t)
	data := filepath.Join(t.TempDir(), "state.json")
	inst := sandbox.StartWithOptions(t, sandbox.Options{DataFile: data})
	seededAt := time.Now()
	if _, err := inst.Server.SeedFile(file, []byte(governedSeed)); err != nil {
		t.Fatal(err)
	}
	c := client(t, inst, "erin-test-token-0001")

	pol, err := c.Policies.Read(ctx, "pol-Limit01")
	if err != nil || pol.Name != "limit" || pol.Kind != tfe.Sentinel || pol.Description != "At most five destroys." || pol.EnforcementLevel != tfe.EnforcementSoft || pol.Query != nil {
		t.Errorf("sentinel policy: %+v, %v", pol, err)
	}
	if code, err := c.Policies.Download(ctx, "pol-Limit01"); err != nil || string(code) != limitSentinel {
		t.Errorf("sentinel policy code: %q, %v", code, err)
	}
	pol, err = c.Policies.Read(ctx, "pol-Tags01")
	if err != nil || pol.Kind != tfe.OPA || pol.Query == nil || *pol.Query != "data.terraform.policies.tags.deny" || pol.EnforcementLevel != tfe.EnforcementAdvisory {
		t.Errorf("opa policy: %+v, %v", pol, err)
	}
	if code, err := c.Policies.Download(ctx, "pol-Tags01"); err != nil || string(code) != "package terraform.policies.tags\n" {
		t.Errorf("opa policy code: %q, %v", code, err)
	}
	if pol, err := c.Policies.Read(ctx, "pol-Empty01"); err != nil || pol.EnforcementLevel != tfe.EnforcementHard || pol.Description != "" {
		t.Errorf("policy without code: %+v, %v", pol, err)
	} else if _, err := c.Policies.Download(ctx, "pol-Empty01"); err == nil {
		t.Error("a policy the seed gives no code has code to download")
	}

	ta, err := c.TeamAccess.Read(ctx, "tws-DevSite01")
	if err != nil || ta.Access != tfe.AccessWrite || ta.Team.ID != "team-Dev01" || ta.Workspace.ID != "ws-Site01" || ta.Runs != tfe.RunsPermissionApply {
		t.Errorf("write grant: %+v, %v", ta, err)
	}
	ta, err = c.TeamAccess.Read(ctx, "tws-OpsSite01")
	if err != nil || ta.Access != tfe.AccessCustom || ta.Runs != tfe.RunsPermissionPlan || ta.StateVersions != tfe.StateVersionsPermissionReadOutputs ||
		ta.Variables != tfe.VariablesPermissionNone || !ta.WorkspaceLocking || ta.RunTasks {
		t.Errorf("custom grant (unset permissions the service's defaults): %+v, %v", ta, err)
	}
	owners, err := c.TeamAccess.Read(ctx, "tws-OwnSite01")
	if err != nil || owners.Access != tfe.AccessAdmin {
		t.Errorf("owners' grant: %+v, %v", owners, err)
	} else if tm, err := c.Teams.Read(ctx, owners.Team.ID); err != nil || tm.Name != "owners" {
		t.Errorf("owners' grant team: %+v, %v", tm, err)
	}

	toks, err := c.AgentTokens.List(ctx, "apool-Build01")
	if err != nil || len(toks.Items) != 2 {
		t.Fatalf("agent tokens: %+v, %v", toks, err)
	}
	byID := map[string]*tfe.AgentToken{}
	for _, tok := range toks.Items {
		byID[tok.ID] = tok
	}
	near := func(what string, got time.Time, ago time.Duration) {
		t.Helper()
		if want := seededAt.Add(-ago); got.Before(want.Add(-time.Minute)) || got.After(want.Add(time.Minute)) {
			t.Errorf("%s: %s, want about %s", what, got, want)
		}
	}
	if stale := byID["at-Stale01"]; stale == nil || stale.Description != "old agent" {
		t.Errorf("stale token: %+v", stale)
	} else {
		near("stale token created-at", stale.CreatedAt, 90*24*time.Hour)
		near("stale token last-used-at", stale.LastUsedAt, 1440*time.Hour)
	}
	if never := byID["at-Never01"]; never == nil || !never.LastUsedAt.IsZero() {
		t.Errorf("never-used token: %+v", never)
	} else {
		near("never-used token created-at", never.CreatedAt, 150*time.Minute)
	}

	mod := tfe.RegistryModuleID{Organization: "governed", Namespace: "governed", Name: "vpc", Provider: "aws", RegistryName: tfe.PrivateRegistry}
	v, err := c.TestVariables.Read(ctx, mod, "var-Region01")
	if err != nil || v.Key != "TF_VAR_region" || v.Value != "eu-west-1" || v.Description != "region" || v.Category != tfe.CategoryEnv || v.Sensitive || v.HCL {
		t.Errorf("test variable: %+v, %v", v, err)
	}
	if v, err := c.TestVariables.Read(ctx, mod, "var-Secret01"); err != nil || !v.Sensitive || !v.HCL || v.Value != "" {
		t.Errorf("sensitive test variable (its value never shown): %+v, %v", v, err)
	}
	dep, err := readVersion(ctx, c, mod, "1.0.0")
	if err != nil || dep.Deprecation == nil || dep.Deprecation.Reason != "Upgrade to 2.0.0." || dep.Deprecation.Link != "https://example.com/vpc" {
		t.Errorf("deprecated version: %+v, %v", dep, err)
	}
	if other, err := readVersion(ctx, c, mod, "2.0.0"); err != nil || other.Deprecation != nil {
		t.Errorf("2.0.0 is deprecated too: %+v, %v", other, err)
	}

	// A restart on the --data file, with the seed file's directory gone.
	if err := os.RemoveAll(filepath.Dir(file)); err != nil {
		t.Fatal(err)
	}
	again := sandbox.StartWithOptions(t, sandbox.Options{DataFile: data})
	if _, _, err := again.Server.Reseed(); err != nil {
		t.Fatalf("reseed without the seed file: %v", err)
	}
	c = client(t, again, "erin-test-token-0001")
	if code, err := c.Policies.Download(ctx, "pol-Limit01"); err != nil || string(code) != limitSentinel {
		t.Errorf("policy code after a restart: %q, %v", code, err)
	}
	if toks, err := c.AgentTokens.List(ctx, "apool-Build01"); err != nil || len(toks.Items) != 2 {
		t.Errorf("agent tokens after a restart: %+v, %v", toks, err)
	}
	if tas, err := c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: "ws-Site01"}); err != nil || len(tas.Items) != 3 {
		t.Errorf("grants after a restart: %+v, %v", tas, err)
	}
}

// TestSeedFile_governedConflicts: a governed object the file declares for
// the first time that the state holds under another ID (a grant, a policy
// of that name, a test variable of that key, each made through the API) is
// refused at its field, and nothing is made.
func TestSeedFile_governedConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst := sandbox.Start(t)
	firstSeed := changed(t, withChange(t, "organizations.0.team_access", remove), "organizations.0.registry_modules.0.test_variables", remove)
	firstSeed = changed(t, firstSeed, "organizations.0.policies", []any{map[string]any{"name": "tags", "kind": "opa", "query": "data.terraform.deny"}})
	if _, err := inst.Server.SeedFile("org.json", firstSeed); err != nil {
		t.Fatal(err)
	}
	c := client(t, inst, "alice-test-token-0001")
	if _, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: &tfe.Team{ID: "team-Platform01"}, Workspace: &tfe.Workspace{ID: "ws-App01"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Policies.Create(ctx, "acme", tfe.PolicyCreateOptions{Name: tfe.String("limit"), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}); err != nil {
		t.Fatal(err)
	}
	mod := tfe.RegistryModuleID{Organization: "acme", Namespace: "acme", Name: "network", Provider: "aws", RegistryName: tfe.PrivateRegistry}
	if _, err := c.TestVariables.Create(ctx, mod, tfe.VariableCreateOptions{Key: tfe.String("TF_VAR_region"), Value: tfe.String("x"), Category: tfe.Category(tfe.CategoryEnv)}); err != nil {
		t.Fatal(err)
	}
	_, err := inst.Server.SeedFile("org.json", []byte(seedDoc))
	for _, want := range []string{
		`organizations[0].team_access[0].team: team "platform" already has access to workspace "app" with ID tws-`,
		`organizations[0].policies[0].name: policy "limit" already exists in acme with ID pol-`,
		`organizations[0].registry_modules[0].test_variables[0].key: module network/aws already has a test variable TF_VAR_region with another ID: give that ID, or another key`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
	if _, err := c.TeamAccess.Read(ctx, "tws-PlatformApp01"); err == nil {
		t.Error("a refused seed made a grant")
	}
	if vars, err := c.TestVariables.List(ctx, mod, nil); err != nil || len(vars.Items) != 1 {
		t.Errorf("a refused seed made a test variable: %+v, %v", vars, err)
	}
}
