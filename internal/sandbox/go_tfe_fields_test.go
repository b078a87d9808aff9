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
	// The list is the organizations the token's user belongs to, in the same shape as a read.
	orgs, err := w.owner.Organizations.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(orgs.Items) != 1 || orgs.Items[0].Name != w.org || orgs.Items[0].DefaultExecutionMode != org.DefaultExecutionMode || orgs.Pagination == nil {
		t.Errorf("organizations %+v (pagination %+v), want only %s as read", orgs.Items, orgs.Pagination, w.org)
	}

	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	if ws.Actions == nil || !ws.Actions.IsDestroyable || !ws.AllowDestroyPlan || ws.Environment != "default" || !ws.FileTriggersEnabled ||
		!ws.Operations || !ws.SpeculativeEnabled || !ws.StructuredRunOutputEnabled || ws.Source != tfe.WorkspaceSourceAPI ||
		ws.TerraformVersion == "" || ws.TriggerPrefixes == nil || ws.TagNames == nil || ws.SettingOverwrites == nil ||
		ws.SettingOverwrites.ExecutionMode == nil || *ws.SettingOverwrites.ExecutionMode || ws.VCSRepo != nil || ws.Project == nil || ws.Project.ID == "" {
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
	goTFERoutes(t, w)
}

// goTFERoutes sends through go-tfe the routes no area's test sends through
// it (routeContracts), checking what it decodes.
func goTFERoutes(t *testing.T, w *world) {
	t.Helper()
	ctx := context.Background()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	m, err := w.owner.OrganizationMemberships.Create(ctx, w.org, tfe.OrganizationMembershipCreateOptions{Email: tfe.String("routes@acme.test")})
	must("invite", err)
	read, err := w.owner.OrganizationMemberships.Read(ctx, m.ID)
	if err != nil || read.ID != m.ID || read.Email != "routes@acme.test" {
		t.Errorf("membership %+v, %v", read, err)
	}
	team := w.team(t, "routes", nil)
	must("add by membership", w.owner.TeamMembers.Add(ctx, team.ID, tfe.TeamMemberAddOptions{OrganizationMembershipIDs: []string{m.ID}}))
	must("remove by membership", w.owner.TeamMembers.Remove(ctx, team.ID, tfe.TeamMemberRemoveOptions{OrganizationMembershipIDs: []string{m.ID}}))
	must("delete membership", w.owner.OrganizationMemberships.Delete(ctx, m.ID))

	tt, err := w.owner.TeamTokens.CreateWithOptions(ctx, team.ID, tfe.TeamTokenCreateOptions{Description: tfe.String("routes")})
	must("team token", err)
	if tt.Token == "" {
		t.Errorf("team token %+v: no secret on create", tt)
	}
	if _, err := w.owner.TeamTokens.Create(ctx, team.ID); err != nil {
		t.Fatalf("legacy team token: %v", err)
	}
	if got, err := w.owner.TeamTokens.Read(ctx, team.ID); err != nil || got.ID == "" || got.Token != "" {
		t.Errorf("team token read %+v, %v (the secret only on create)", got, err)
	}

	if _, err := w.owner.OrganizationTokens.Create(ctx, w.org); err != nil {
		t.Fatalf("organization token: %v", err)
	}
	if got, err := w.owner.OrganizationTokens.Read(ctx, w.org); err != nil || got.ID == "" || got.Token != "" {
		t.Errorf("organization token read %+v, %v (the secret only on create)", got, err)
	}
	must("delete organization token", w.owner.OrganizationTokens.Delete(ctx, w.org))

	if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("by-name")}); err != nil {
		t.Fatal(err)
	}
	must("delete workspace by name", w.owner.Workspaces.Delete(ctx, w.org, "by-name"))

	sets, err := w.owner.PolicySets.List(ctx, w.org, nil)
	if err != nil || len(sets.Items) == 0 || sets.Pagination == nil {
		t.Errorf("policy sets %+v, %v", sets, err)
	}
}
