package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// vcsModule publishes the repository acme/terraform-aws-<name> from branch
// main with tests enabled, through an OAuth token of w's organization.
func (w *world) vcsModule(t testing.TB, tokenID, name string) (*tfe.RegistryModule, tfe.RegistryModuleID) {
	t.Helper()
	m, err := w.owner.RegistryModules.CreateWithVCSConnection(context.Background(), tfe.RegistryModuleCreateWithVCSConnectionOptions{
		VCSRepo: &tfe.RegistryModuleVCSRepoOptions{
			Identifier:        tfe.String("acme/terraform-aws-" + name),
			DisplayIdentifier: tfe.String("acme/terraform-aws-" + name),
			OAuthTokenID:      tfe.String(tokenID),
			OrganizationName:  tfe.String(w.org),
			Branch:            tfe.String("main"),
		},
		InitialVersion: tfe.String("1.2.0"),
		TestConfig:     &tfe.RegistryModuleTestConfigOptions{TestsEnabled: tfe.Bool(true)},
	})
	if err != nil {
		t.Fatalf("publish %s from VCS: %v", name, err)
	}
	return m, tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: name, Provider: "aws", RegistryName: tfe.PrivateRegistry}
}

func TestRegistryModulesVCS_branch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	oc := w.oauthClient(t)
	tokenID := oc.OAuthTokens[0].ID
	m, id := w.vcsModule(t, tokenID, "network")

	if m.Name != "network" || m.Provider != "aws" || m.Namespace != w.org || m.RegistryName != tfe.PrivateRegistry ||
		m.PublishingMechanism != tfe.PublishingMechanismBranch || m.Status != tfe.RegistryModuleStatusSetupComplete {
		t.Errorf("created %+v", m)
	}
	if m.VCSRepo == nil || m.VCSRepo.Identifier != "acme/terraform-aws-network" || m.VCSRepo.Branch != "main" ||
		m.VCSRepo.OAuthTokenID != tokenID || m.VCSRepo.ServiceProvider != "github" ||
		m.VCSRepo.RepositoryHTTPURL != "https://github.com/acme/terraform-aws-network" || m.VCSRepo.Tags {
		t.Errorf("vcs-repo %+v", m.VCSRepo)
	}
	if m.TestConfig == nil || !m.TestConfig.TestsEnabled {
		t.Errorf("test-config %+v", m.TestConfig)
	}
	if len(m.VersionStatuses) != 1 || m.VersionStatuses[0].Version != "1.2.0" || m.VersionStatuses[0].Status != tfe.RegistryModuleVersionStatusOk {
		t.Errorf("version statuses %+v", m.VersionStatuses)
	}
	read, err := w.owner.RegistryModules.Read(ctx, id)
	if err != nil || read.ID != m.ID || read.VCSRepo == nil || read.TestConfig == nil || !read.TestConfig.TestsEnabled {
		t.Fatalf("read: %+v, %v", read, err)
	}
	v, err := w.owner.RegistryModules.ReadVersion(ctx, id, "1.2.0")
	if err != nil || v.Status != tfe.RegistryModuleVersionStatusOk || v.Source != "github" {
		t.Errorf("initial version: %+v, %v", v, err)
	}

	// A later version's content comes from an upload (commit-sha names
	// the commit the real service would read).
	next, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.3.0"), CommitSHA: tfe.String("0123456789abcdef")})
	if err != nil || next.Status != tfe.RegistryModuleVersionStatusPending || next.Links["upload"] == nil {
		t.Fatalf("create version: %+v, %v", next, err)
	}
	if err := w.owner.RegistryModules.UploadTarGzip(ctx, next.Links["upload"].(string), bytes.NewReader(tarGz(t, map[string]string{"main.tf": "# net"}))); err != nil {
		t.Fatal(err)
	}
	if got, err := w.owner.RegistryModules.ReadVersion(ctx, id, "1.3.0"); err != nil || got.Status != tfe.RegistryModuleVersionStatusOk {
		t.Errorf("uploaded version: %+v, %v", got, err)
	}

	// Module test runs work for it as for a module made through the API:
	// the configuration comes from the test configuration version.
	tr := createRun(t, w.owner, m, uploadedVersion(t, w.owner, id, passModule), tfe.TestRunCreateOptions{})
	done := waitRun(t, w.owner, id, tr.ID, tfe.TestRunFinished, tfe.TestRunErrored)
	if done.Status != tfe.TestRunFinished || done.TestStatus != tfe.TestPass || done.TestsPassed != 3 {
		t.Errorf("test run of the VCS-published module: %+v\n%s", done, readLog(t, w.owner, id, tr.ID))
	}
}

// TestRegistryModulesVCS_tags publishes without a branch: go-tfe uses the
// older `POST /registry-modules`, the organization comes from the OAuth
// token, the module is tag-based and has no versions, and versions cannot
// be created through the API.
func TestRegistryModulesVCS_tags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	tokenID := w.oauthClient(t).OAuthTokens[0].ID
	m, err := w.owner.RegistryModules.CreateWithVCSConnection(ctx, tfe.RegistryModuleCreateWithVCSConnectionOptions{
		VCSRepo: &tfe.RegistryModuleVCSRepoOptions{
			Identifier: tfe.String("acme/terraform-google-bucket"), DisplayIdentifier: tfe.String("acme/terraform-google-bucket"),
			OAuthTokenID: tfe.String(tokenID), Tags: tfe.Bool(true),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "bucket" || m.Provider != "google" || m.Organization == nil || m.Organization.Name != w.org ||
		m.PublishingMechanism != tfe.PublishingMechanismTag || len(m.VersionStatuses) != 0 || m.TestConfig != nil ||
		m.VCSRepo == nil || !m.VCSRepo.Tags || m.VCSRepo.Branch != "" {
		t.Errorf("created %+v (vcs-repo %+v)", m, m.VCSRepo)
	}
	id := tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: "bucket", Provider: "google", RegistryName: tfe.PrivateRegistry}
	if _, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")}); err == nil || !strings.Contains(err.Error(), "tags") {
		t.Errorf("version of a tag-based module: %v", err)
	}
}

func TestRegistryModulesVCS_validation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tokenID := w.oauthClient(t).OAuthTokens[0].ID
	otherToken := func() string {
		o := &world{inst: w.inst, admin: w.admin, org: "other"}
		o.owner = w.organization(t, "other")
		return o.oauthClient(t).OAuthTokens[0].ID
	}()
	pool := w.agentPool(t)
	repo := func(change func(map[string]any)) map[string]any {
		r := map[string]any{"identifier": "acme/terraform-aws-vpc", "display-identifier": "acme/terraform-aws-vpc", "oauth-token-id": tokenID, "branch": "main", "organization-name": "acme"}
		change(r)
		return r
	}
	keep := func(map[string]any) {}
	for name, tc := range map[string]struct {
		attrs map[string]any
		want  string
	}{
		"no vcs-repo":            {map[string]any{}, "vcs-repo"},
		"vcs-repo not an object": {map[string]any{"vcs-repo": "acme/x"}, "vcs-repo"},
		"no identifier":          {map[string]any{"vcs-repo": repo(func(r map[string]any) { delete(r, "identifier") })}, "identifier"},
		"no display-identifier":  {map[string]any{"vcs-repo": repo(func(r map[string]any) { delete(r, "display-identifier") })}, "display-identifier"},
		"no oauth token":         {map[string]any{"vcs-repo": repo(func(r map[string]any) { delete(r, "oauth-token-id") })}, "oauth-token-id"},
		"github app":             {map[string]any{"vcs-repo": repo(func(r map[string]any) { delete(r, "oauth-token-id"); r["github-app-installation-id"] = "ghain-1" })}, "github-app-installation-id"},
		"unknown token":          {map[string]any{"vcs-repo": repo(func(r map[string]any) { r["oauth-token-id"] = "ot-nope" })}, "oauth-token-id"},
		"another org's token":    {map[string]any{"vcs-repo": repo(func(r map[string]any) { r["oauth-token-id"] = otherToken })}, "oauth-token-id"},
		"organization-name":      {map[string]any{"vcs-repo": repo(func(r map[string]any) { r["organization-name"] = "other" })}, "organization-name"},
		"branch and tags":        {map[string]any{"vcs-repo": repo(func(r map[string]any) { r["tags"] = true })}, "tags"},
		"repository name":        {map[string]any{"vcs-repo": repo(func(r map[string]any) { r["identifier"] = "acme/vpc" })}, "terraform-<provider>-<name>"},
		"bad name":               {map[string]any{"vcs-repo": repo(keep), "name": "a b", "provider": "aws"}, "name"},
		"bad provider":           {map[string]any{"vcs-repo": repo(keep), "name": "vpc", "provider": "AWS"}, "provider"},
		"initial version":        {map[string]any{"vcs-repo": repo(keep), "initial-version": "one"}, "initial-version"},
		"tests without branch":   {map[string]any{"vcs-repo": repo(func(r map[string]any) { delete(r, "branch") }), "test-config": map[string]any{"tests-enabled": true}}, "tests-enabled"},
		"agent mode, no pool":    {map[string]any{"vcs-repo": repo(keep), "test-config": map[string]any{"tests-enabled": true, "agent-execution-mode": "agent"}}, "agent-pool-id"},
		"remote mode with pool":  {map[string]any{"vcs-repo": repo(keep), "test-config": map[string]any{"agent-execution-mode": "remote", "agent-pool-id": pool.ID}}, "agent-pool-id"},
		"unknown mode":           {map[string]any{"vcs-repo": repo(keep), "test-config": map[string]any{"agent-execution-mode": "local"}}, "agent-execution-mode"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := rawJSONAPI(t, w, "POST", "/api/v2/organizations/acme/registry-modules/vcs", "registry-modules", tc.attrs, "")
			if r.Status != 422 || len(r.Doc.Errors) != 1 || !strings.Contains(r.Doc.Errors[0].Detail, tc.want) {
				t.Errorf("status %d, errors %+v; want 422 naming %s", r.Status, r.Doc.Errors, tc.want)
			}
		})
	}
	t.Run("agent mode with the organization's pool", func(t *testing.T) {
		t.Parallel()
		r := rawJSONAPI(t, w, "POST", "/api/v2/organizations/acme/registry-modules/vcs", "registry-modules",
			map[string]any{"vcs-repo": repo(func(r map[string]any) { r["identifier"] = "acme/terraform-aws-agented" }), "test-config": map[string]any{"tests-enabled": true, "agent-execution-mode": "agent", "agent-pool-id": pool.ID}}, "")
		if r.Status != 201 || !strings.Contains(string(r.one(t).Attributes["test-config"]), pool.ID) {
			t.Errorf("status %d, %s", r.Status, r.Body)
		}
	})
	t.Run("duplicate", func(t *testing.T) {
		t.Parallel()
		w.vcsModule(t, tokenID, "twice")
		if _, err := w.owner.RegistryModules.CreateWithVCSConnection(context.Background(), tfe.RegistryModuleCreateWithVCSConnectionOptions{
			VCSRepo: &tfe.RegistryModuleVCSRepoOptions{Identifier: tfe.String("acme/terraform-aws-twice"), DisplayIdentifier: tfe.String("x"), OAuthTokenID: tfe.String(tokenID), OrganizationName: tfe.String(w.org), Branch: tfe.String("dev")},
		}); err == nil || !strings.Contains(err.Error(), "already been taken") {
			t.Errorf("duplicate module: %v", err)
		}
	})
	// Only owners and manage-modules publish.
	t.Run("authorization", func(t *testing.T) {
		t.Parallel()
		plain := w.member(t, "plain@acme.test")
		_, err := plain.RegistryModules.CreateWithVCSConnection(context.Background(), tfe.RegistryModuleCreateWithVCSConnectionOptions{
			VCSRepo: &tfe.RegistryModuleVCSRepoOptions{Identifier: tfe.String("acme/terraform-aws-mine"), DisplayIdentifier: tfe.String("x"), OAuthTokenID: tfe.String(tokenID), OrganizationName: tfe.String(w.org), Branch: tfe.String("main")},
		})
		if !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("plain member published: %v", err)
		}
	})
}

// TestRegistryModulesVCS_persistence: OAuth clients and VCS connections
// survive a restart on the same --data file, and the snapshot holds none of
// the secrets sent.
func TestRegistryModulesVCS_persistence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "state.json")
	w := newWorldWith(t, sandbox.Options{Token: "admin-token", DataFile: data})
	oc, err := w.owner.OAuthClients.Create(ctx, w.org, tfe.OAuthClientCreateOptions{
		APIURL: tfe.String("https://api.github.com"), HTTPURL: tfe.String("https://github.com"),
		OAuthToken: tfe.String("ghp_secret-token-string"), Secret: tfe.String("client-secret-value"),
		ServiceProvider: tfe.ServiceProvider(tfe.ServiceProviderGithub),
	})
	if err != nil {
		t.Fatal(err)
	}
	m, id := w.vcsModule(t, oc.OAuthTokens[0].ID, "kept")
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ghp_secret-token-string", "client-secret-value"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the snapshot holds %q", secret)
		}
	}

	inst2 := sandbox.StartWithOptions(t, sandbox.Options{Token: "admin-token", DataFile: data})
	admin2 := client(t, inst2, "admin-token")
	if got, err := admin2.OAuthClients.Read(ctx, oc.ID); err != nil || len(got.OAuthTokens) != 1 || got.OAuthTokens[0].ID != oc.OAuthTokens[0].ID {
		t.Errorf("OAuth client after restart: %+v, %v", got, err)
	}
	got, err := admin2.RegistryModules.Read(ctx, id)
	if err != nil || got.ID != m.ID || got.VCSRepo == nil || got.VCSRepo.Branch != "main" || got.TestConfig == nil || !got.TestConfig.TestsEnabled ||
		got.PublishingMechanism != tfe.PublishingMechanismBranch {
		t.Errorf("module after restart: %+v, %v", got, err)
	}
}

// TestRegistryModulesVCS_update drives go-tfe's RegistryModules.Update:
// test-config and vcs-repo changes, each checked as at creation, and a
// refused update changes nothing.
func TestRegistryModulesVCS_update(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	_, id := w.vcsModule(t, w.oauthClient(t).OAuthTokens[0].ID, "net")
	pool := w.agentPool(t)

	up, err := w.owner.RegistryModules.Update(ctx, id, tfe.RegistryModuleUpdateOptions{
		TestConfig: &tfe.RegistryModuleTestConfigOptions{AgentExecutionMode: tfe.AgentExecutionModePtr(tfe.AgentExecutionModeAgent), AgentPoolID: tfe.String(pool.ID)},
	})
	if err != nil || up.TestConfig == nil || !up.TestConfig.TestsEnabled || up.TestConfig.AgentPoolID == nil || *up.TestConfig.AgentPoolID != pool.ID {
		t.Fatalf("agent execution: %+v, %v", up, err)
	}
	// Tests need a branch: going tag-based while they are enabled is refused.
	if _, err := w.owner.RegistryModules.Update(ctx, id, tfe.RegistryModuleUpdateOptions{VCSRepo: &tfe.RegistryModuleVCSRepoUpdateOptions{Tags: tfe.Bool(true)}}); err == nil || !strings.Contains(err.Error(), "tests-enabled") {
		t.Errorf("tags with tests enabled: %v", err)
	}
	up, err = w.owner.RegistryModules.Update(ctx, id, tfe.RegistryModuleUpdateOptions{
		TestConfig: &tfe.RegistryModuleTestConfigOptions{TestsEnabled: tfe.Bool(false), AgentExecutionMode: tfe.AgentExecutionModePtr(tfe.AgentExecutionModeRemote)},
		VCSRepo:    &tfe.RegistryModuleVCSRepoUpdateOptions{Tags: tfe.Bool(true), TagPrefix: tfe.String("v")},
	})
	if err != nil || up.PublishingMechanism != tfe.PublishingMechanismTag || up.VCSRepo == nil || up.VCSRepo.Branch != "" || !up.VCSRepo.Tags ||
		up.VCSRepo.TagPrefix != "v" || up.TestConfig == nil || up.TestConfig.TestsEnabled || up.TestConfig.AgentPoolID != nil {
		t.Fatalf("to tags: %+v (%+v, %+v), %v", up, up.VCSRepo, up.TestConfig, err)
	}
	up, err = w.owner.RegistryModules.Update(ctx, id, tfe.RegistryModuleUpdateOptions{VCSRepo: &tfe.RegistryModuleVCSRepoUpdateOptions{Branch: tfe.String("release")}})
	if err != nil || up.PublishingMechanism != tfe.PublishingMechanismBranch || up.VCSRepo.Branch != "release" || up.VCSRepo.Tags {
		t.Fatalf("back to a branch: %+v, %v", up, err)
	}

	// A module made through the API has no repository to change, and
	// no-code is not emulated.
	_, apiID := w.testModule(t, "plain")
	if _, err := w.owner.RegistryModules.Update(ctx, apiID, tfe.RegistryModuleUpdateOptions{VCSRepo: &tfe.RegistryModuleVCSRepoUpdateOptions{Branch: tfe.String("main")}}); err == nil || !strings.Contains(err.Error(), "vcs-repo") {
		t.Errorf("vcs-repo of an API module: %v", err)
	}
	if _, err := w.owner.RegistryModules.Update(ctx, id, tfe.RegistryModuleUpdateOptions{NoCode: tfe.Bool(true)}); err == nil || !strings.Contains(err.Error(), "no-code") {
		t.Errorf("no-code: %v", err)
	}
	got, err := w.owner.RegistryModules.Read(ctx, id)
	if err != nil || got.VCSRepo.Branch != "release" || got.TestConfig.TestsEnabled || got.NoCode {
		t.Errorf("after refused updates: %+v, %v", got, err)
	}
	plain := w.member(t, "plain@acme.test")
	if _, err := plain.RegistryModules.Update(ctx, id, tfe.RegistryModuleUpdateOptions{TestConfig: &tfe.RegistryModuleTestConfigOptions{TestsEnabled: tfe.Bool(true)}}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member's update: %v", err)
	}
}
