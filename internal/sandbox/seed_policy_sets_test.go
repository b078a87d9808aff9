package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// policySetSeed declares three sets: one of individual policies with a
// scope and parameters, one OPA set whose version is made from files beside
// the seed file, and a global one with an exclusion.
const policySetSeed = `{
  "users": [{"username": "fay", "email": "fay@example.com", "tokens": [{"value": "fay-test-token-0001"}]}],
  "organizations": [
    {"name": "sets", "owners": ["fay"],
     "workspaces": [{"id": "ws-App01", "name": "app"}, {"id": "ws-Web01", "name": "web"}],
     "policies": [{"id": "pol-Limit01", "name": "limit", "code": "main = rule { true }"}],
     "policy_sets": [
       {"id": "polset-Base01", "name": "base", "description": "the base", "policies": ["limit"], "workspaces": ["app", "web"], "workspace_exclusions": ["web"],
        "parameters": [{"key": "region", "value": "eu"}, {"key": "token", "value": "hush", "sensitive": true}]},
       {"id": "polset-Opa01", "name": "opa", "kind": "opa", "version_files": ["policies/policies.hcl", "policies/deny.rego"]},
       {"id": "polset-All01", "name": "all", "global": true, "workspace_exclusions": ["app"]}
     ]}
  ]
}`

func writeSeedFiles(t *testing.T, seed string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "seed.json")
	if err := os.WriteFile(file, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

var opaSetFiles = map[string]string{
	"policies/policies.hcl": "policy \"deny\" {\n  query = \"data.terraform.deny\"\n}\n",
	"policies/deny.rego":    "package terraform\n\ndeny contains msg if { false; msg := \"x\" }\n",
}

func TestSeedFile_policySets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := writeSeedFiles(t, policySetSeed, opaSetFiles)
	inst := sandbox.Start(t)
	if _, err := inst.Server.SeedFile(file, []byte(policySetSeed)); err != nil {
		t.Fatal(err)
	}
	c := client(t, inst, "fay-test-token-0001")
	base, err := c.PolicySets.Read(ctx, "polset-Base01")
	if err != nil || base.Name != "base" || base.Description != "the base" || base.Kind != tfe.Sentinel || base.PolicyCount != 1 || base.WorkspaceCount != 2 || len(base.WorkspaceExclusions) != 1 {
		t.Errorf("base: %+v, %v", base, err)
	}
	if got, _ := inst.Server.GovernedWorkspaces("polset-Base01"); !slices.Equal(got, []string{"ws-App01"}) {
		t.Errorf("base governs %v", got)
	}
	params, err := c.PolicySetParameters.List(ctx, "polset-Base01", nil)
	if err != nil || len(params.Items) != 2 || params.Items[0].Value != "eu" || params.Items[1].Value != "" || !params.Items[1].Sensitive {
		t.Errorf("parameters: %+v, %v", params, err)
	}
	opa, err := c.PolicySets.ReadWithOptions(ctx, "polset-Opa01", &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetCurrentVersion}})
	if err != nil || opa.Kind != tfe.OPA || opa.CurrentVersion == nil || opa.CurrentVersion.Status != tfe.PolicySetVersionReady {
		t.Errorf("opa: %+v, %v", opa, err)
	}
	if got, _ := inst.Server.GovernedWorkspaces("polset-All01"); !slices.Equal(got, []string{"ws-Web01"}) {
		t.Errorf("all governs %v", got)
	}

	// Each broken set is refused at its field, with nothing made.
	for name, c := range map[string]struct{ from, to, want string }{
		"global with workspaces": {`"global": true, "workspace_exclusions"`, `"global": true, "workspaces": ["web"], "workspace_exclusions"`, "policy_sets[2].workspaces: a global policy set"},
		"policies and a version": {`"kind": "opa", "version_files"`, `"kind": "opa", "policies": ["limit"], "version_files"`, "policy_sets[1].policies[0]: policy \"limit\" is a sentinel policy"},
		"unknown policy":         {`"policies": ["limit"]`, `"policies": ["nope"]`, "policy_sets[0].policies[0]: \"nope\" is not a name"},
		"unknown workspace":      {`"workspace_exclusions": ["web"]`, `"workspace_exclusions": ["db"]`, "policy_sets[0].workspace_exclusions[0]: \"db\" is not a workspace"},
		"bad parameter key":      {`"key": "region"`, `"key": "a-b"`, "policy_sets[0].parameters[0].key"},
		"errored version":        {`"policies/deny.rego"]`, `"policies/deny.rego", "policies/bad.rego"]`, "policy_sets[1].version_files: the version would error: bad.rego"},
		"duplicate name":         {`"name": "all"`, `"name": "base"`, "policy_sets[2].name"},
	} {
		seed := strings.Replace(policySetSeed, c.from, c.to, 1)
		files := map[string]string{"policies/bad.rego": "package"}
		for k, v := range opaSetFiles {
			files[k] = v
		}
		_, err := sandbox.Start(t).Server.SeedFile(writeSeedFiles(t, seed, files), []byte(seed))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", name, err, c.want)
		}
	}
}
