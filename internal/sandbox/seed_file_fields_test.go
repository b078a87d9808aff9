package sandbox_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// seedObjects are the objects of seedDoc, one of each kind a seed file
// nests, by their path in withChange's form.
var seedObjects = map[string]string{
	"top level":            "",
	"user":                 "users.0",
	"token":                "users.0.tokens.0",
	"organization":         "organizations.0",
	"team":                 "organizations.0.teams.0",
	"organization_access":  "organizations.0.teams.0.organization_access",
	"workspace":            "organizations.0.workspaces.1",
	"agent pool":           "organizations.0.agent_pools.0",
	"registry module":      "organizations.0.registry_modules.0",
	"env":                  "env.0",
	"policy":               "organizations.0.policies.0",
	"team access":          "organizations.0.team_access.1",
	"permissions":          "organizations.0.team_access.1.permissions",
	"agent token":          "organizations.0.agent_pools.0.tokens.0",
	"test variable":        "organizations.0.registry_modules.0.test_variables.0",
	"deprecation":          "organizations.0.registry_modules.0.deprecations.0",
	"project":              "organizations.0.projects.0",
	"project access":       "organizations.0.project_access.1",
	"project_access":       "organizations.0.project_access.1.project_access",
	"workspace_access":     "organizations.0.project_access.1.workspace_access",
	"policy set":           "organizations.0.policy_sets.0",
	"policy set parameter": "organizations.0.policy_sets.0.parameters.0",
}

// seedErrPath is a withChange path as the seed file's errors write it:
// users.0.tokens.0.extra -> users[0].tokens[0].extra.
func seedErrPath(path string) string {
	return regexp.MustCompile(`\.(\d+)`).ReplaceAllString(path, "[$1]")
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// TestSeedFile_everyFieldRead: every nested object of a seed
// file refuses a field it does not know, naming its path and the fields it
// allows; and every field it allows is read: a value no field takes (an
// object with an unknown key) is refused at that field's path. A field
// that were allowed but ignored would pass silently, and the seed would
// make something other than what the file says.
func TestSeedFile_everyFieldRead(t *testing.T) {
	t.Parallel()
	allowedRE := regexp.MustCompile(`unknown field; allowed: ([a-z_, ]+)`)
	for kind, path := range seedObjects {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			probe := joinPath(path, "no_such_field")
			err := seedErr(t, withChange(t, probe, "x"))
			m := allowedRE.FindStringSubmatch(err)
			if m == nil || !strings.Contains(err, seedErrPath(probe)+": unknown field") {
				t.Fatalf("an unknown field of the %s is not refused at %s: %s", kind, seedErrPath(probe), err)
			}
			allowed := strings.Split(m[1], ", ")
			if len(allowed) < 2 {
				t.Fatalf("the %s allows %v", kind, allowed)
			}
			for _, key := range allowed {
				field := joinPath(path, key)
				err := seedErr(t, withChange(t, field, map[string]any{"no_such_field": true}))
				if !strings.Contains(err, seedErrPath(field)) {
					t.Errorf("%s: a value no field takes is accepted (the field is allowed but not read): %s", seedErrPath(field), err)
				}
			}
		})
	}
}

// seedErr returns the error of seeding raw, failing the test when it is
// not a SeedFileError.
func seedErr(t *testing.T, raw []byte) string {
	t.Helper()
	_, err := sandbox.Start(t).Server.SeedFile("org.json", raw)
	var se *sandbox.SeedFileError
	if !errors.As(err, &se) {
		t.Fatalf("seeding: %v, want a SeedFileError", err)
	}
	return err.Error()
}

// TestSeedFile_everyFieldMade: every field a seed file allows shows, with
// the value the file gives, on what the sandbox makes (through go-tfe; a
// user token's ID and description have no API that reads them back, its
// value authenticates).
func TestSeedFile_everyFieldMade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	raw := []byte(`{
  "users": [
    {"id": "user-Carol01", "username": "carol", "email": "carol@example.com",
     "tokens": [{"id": "at-CarolCI01", "description": "carol's CI", "value": "carol-test-token-0001"}]},
    {"username": "dave", "email": "dave@example.com"}
  ],
  "organizations": [
    {"name": "fields", "email": "billing@example.com", "owners": ["carol"], "owners_team_id": "team-Owners01",
     "teams": [{"id": "team-Ops01", "name": "ops", "visibility": "organization", "organization_access": {"manage_workspaces": true}, "members": ["dave"]}],
     "workspaces": [{"id": "ws-Site01", "name": "site", "description": "the site", "tag_names": ["web", "prod"]}],
     "agent_pools": [{"id": "apool-Edge01", "name": "edge", "organization_scoped": false, "allowed_workspaces": ["site"]}],
     "registry_modules": [{"id": "mod-Vpc01", "name": "vpc", "provider": "google", "versions": ["0.1.0", "0.2.0", "1.0.0"]}]}
  ],
  "env": [{"name": "TF_VAR_ops", "value": "team-Ops01", "about": "the ops team"}]
}`)
	inst := sandbox.Start(t)
	vars, err := inst.Server.SeedFile("org.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(vars, func(v sandbox.SeedVar) bool { return v.Env == "TF_VAR_ops" }); i < 0 || vars[i].Value != "team-Ops01" || vars[i].About != "the ops team" {
		t.Errorf("env: %+v", vars)
	}
	c := client(t, inst, "carol-test-token-0001")
	if u, err := c.Users.ReadCurrent(ctx); err != nil || u.ID != "user-Carol01" || u.Username != "carol" || u.Email != "carol@example.com" {
		t.Errorf("user: %+v, %v", u, err)
	}
	if o, err := c.Organizations.Read(ctx, "fields"); err != nil || o.Email != "billing@example.com" {
		t.Errorf("organization: %+v, %v", o, err)
	}
	if tm, err := c.Teams.Read(ctx, "team-Owners01"); err != nil || tm.Name != "owners" || tm.UserCount != 1 {
		t.Errorf("owners team: %+v, %v", tm, err)
	}
	if tm, err := c.Teams.Read(ctx, "team-Ops01"); err != nil || tm.Name != "ops" || tm.Visibility != "organization" || tm.UserCount != 1 ||
		tm.OrganizationAccess == nil || !tm.OrganizationAccess.ManageWorkspaces || tm.OrganizationAccess.ManagePolicies {
		t.Errorf("team: %+v, %v", tm, err)
	}
	ws, err := c.Workspaces.ReadByID(ctx, "ws-Site01")
	if err != nil {
		t.Fatalf("workspace: %v", err)
	}
	if ws.Name != "site" || ws.Description != "the site" {
		t.Errorf("workspace: name %q, description %q", ws.Name, ws.Description)
	} else if tags := slices.Sorted(slices.Values(ws.TagNames)); !slices.Equal(tags, []string{"prod", "web"}) {
		t.Errorf("workspace tags: %v", tags)
	}
	pool, err := c.AgentPools.ReadWithOptions(ctx, "apool-Edge01", &tfe.AgentPoolReadOptions{})
	if err != nil || pool.Name != "edge" || pool.OrganizationScoped || len(pool.AllowedWorkspaces) != 1 || pool.AllowedWorkspaces[0].ID != "ws-Site01" {
		t.Errorf("agent pool: %+v, %v", pool, err)
	}
	mod, err := c.RegistryModules.Read(ctx, tfe.RegistryModuleID{Organization: "fields", Namespace: "fields", Name: "vpc", Provider: "google", RegistryName: tfe.PrivateRegistry})
	if err != nil || mod.ID != "mod-Vpc01" {
		t.Fatalf("module: %+v, %v", mod, err)
	}
	var versions []string
	for _, v := range mod.VersionStatuses {
		versions = append(versions, v.Version)
	}
	if slices.Sort(versions); !slices.Equal(versions, []string{"0.1.0", "0.2.0", "1.0.0"}) {
		t.Errorf("module versions: %v", versions)
	}
}
