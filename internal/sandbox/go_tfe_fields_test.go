package sandbox_test

import (
	"context"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestGoTFEFields reads each supporting record through go-tfe and checks
// the fields its types expect that the sandbox once left out (decoded as
// zero values then), at the values a new record has on the real service.
func TestGoTFEFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)

	org, err := w.owner.Organizations.Read(ctx, w.org)
	if err != nil {
		t.Fatal(err)
	}
	// A new organization's session settings are null (0 to go-tfe) on the
	// real service, not its 14-day default (organization_settings.go).
	if org.DefaultExecutionMode != "remote" || org.CollaboratorAuthPolicy != tfe.AuthPolicyPassword || org.SessionTimeout != 0 ||
		org.SessionRemember != 0 || !org.TwoFactorConformant || org.UserTokensEnabled == nil || !*org.UserTokensEnabled || !org.SpeculativePlanManagementEnabled {
		t.Errorf("organization %+v", org)
	}

	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	if ws.Actions == nil || !ws.Actions.IsDestroyable || !ws.AllowDestroyPlan || ws.Environment != "default" || !ws.FileTriggersEnabled ||
		!ws.Operations || !ws.SpeculativeEnabled || !ws.StructuredRunOutputEnabled || ws.Source != tfe.WorkspaceSourceAPI ||
		ws.TerraformVersion == "" || ws.TriggerPrefixes == nil || ws.TagNames == nil || ws.SettingOverwrites == nil ||
		ws.SettingOverwrites.ExecutionMode == nil || *ws.SettingOverwrites.ExecutionMode || ws.VCSRepo != nil {
		t.Errorf("workspace %+v", ws)
	}

	// go-tfe makes an empty list of a relationship that is missing, so the
	// lists are checked in the raw answers.
	emptyLists := func(path string, rels ...string) {
		t.Helper()
		res := policyRaw(t, w, "GET", path, "").one(t)
		for _, rel := range rels {
			if got := string(res.Relationships[rel].Data); got != "[]" {
				t.Errorf("%s: relationships.%s.data = %s, want []", path, rel, got)
			}
		}
	}
	pool := w.agentPool(t)
	emptyLists("/api/v2/agent-pools/"+pool.ID, "workspaces", "allowed-workspaces", "allowed-projects", "excluded-workspaces")

	ps, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("base")})
	if err != nil {
		t.Fatal(err)
	}
	if ps.AgentEnabled || ps.VCSRepo != nil || ps.PoliciesPath != "" {
		t.Errorf("policy set %+v", ps)
	}
	emptyLists("/api/v2/policy-sets/"+ps.ID, "workspaces", "workspace-exclusions", "projects", "project-exclusions")

	u, err := w.owner.Users.ReadCurrent(ctx)
	if err != nil || u.TwoFactor == nil || u.TwoFactor.Enabled {
		t.Errorf("user %+v, %v", u, err)
	}

	// A failed version carries its error in the module's version-statuses.
	_, id := w.testModule(t, "broken")
	v, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.owner.RegistryModules.UploadTarGzip(ctx, v.Links["upload"].(string), strings.NewReader("not an archive")); err != nil {
		t.Fatal(err)
	}
	m, err := w.owner.RegistryModules.Read(ctx, id)
	if err != nil || len(m.VersionStatuses) != 1 || !strings.Contains(m.VersionStatuses[0].Error, "gzip") {
		t.Errorf("version statuses %+v, %v", m.VersionStatuses, err)
	}
	if m.TestConfig != nil || m.VCSRepo != nil || m.PublishingMechanism != tfe.PublishingMechanismTag {
		t.Errorf("a module made through the API: test-config %+v, vcs-repo %+v, %s", m.TestConfig, m.VCSRepo, m.PublishingMechanism)
	}
}
