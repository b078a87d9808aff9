package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// Fixture makers for acceptance tests. Each makes its record through the
// public API with go-tfe and deletes it when the test ends, so the tests run
// unchanged against a live organization.

func randomSuffix() string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func testAccAgentPool(t *testing.T) *tfe.AgentPool {
	t.Helper()
	c := testAccClient(t)
	pool, err := c.AgentPools.Create(context.Background(), testAccOrganization(), tfe.AgentPoolCreateOptions{Name: tfe.String(testAccName("pool"))})
	if err != nil {
		t.Fatalf("creating agent pool: %v", err)
	}
	t.Cleanup(func() {
		if err := c.AgentPools.Delete(context.Background(), pool.ID); err != nil && !isNotFound(err) {
			t.Errorf("deleting agent pool %s: %v", pool.ID, err)
		}
	})
	return pool
}

func testAccWorkspace(t *testing.T) *tfe.Workspace {
	t.Helper()
	c := testAccClient(t)
	ws, err := c.Workspaces.Create(context.Background(), testAccOrganization(), tfe.WorkspaceCreateOptions{Name: tfe.String(testAccName("ws"))})
	if err != nil {
		t.Fatalf("creating workspace: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Workspaces.DeleteByID(context.Background(), ws.ID); err != nil && !isNotFound(err) {
			t.Errorf("deleting workspace %s: %v", ws.ID, err)
		}
	})
	return ws
}

// testAccTeam makes a team with the given organization access (nil: none).
func testAccTeam(t *testing.T, access *tfe.OrganizationAccessOptions) *tfe.Team {
	t.Helper()
	c := testAccClient(t)
	tm, err := c.Teams.Create(context.Background(), testAccOrganization(), tfe.TeamCreateOptions{
		Name: tfe.String(testAccName("team")), OrganizationAccess: access, Visibility: tfe.String("organization"),
	})
	if err != nil {
		t.Fatalf("creating team: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Teams.Delete(context.Background(), tm.ID); err != nil && !isNotFound(err) {
			t.Errorf("deleting team %s: %v", tm.ID, err)
		}
	})
	return tm
}

// testAccRegistryModule makes a private module with provider "aws" and the
// given versions (created, not uploaded: they stay pending).
func testAccRegistryModule(t *testing.T, versions ...string) *tfe.RegistryModule {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	org := testAccOrganization()
	m, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{
		Name: tfe.String(testAccName("mod")), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry,
	})
	if err != nil {
		t.Fatalf("creating registry module: %v", err)
	}
	id := tfe.RegistryModuleID{Organization: org, Name: m.Name, Provider: m.Provider, Namespace: org, RegistryName: tfe.PrivateRegistry}
	t.Cleanup(func() {
		if err := c.RegistryModules.DeleteProvider(context.Background(), id); err != nil && !isNotFound(err) {
			t.Errorf("deleting registry module %s: %v", m.Name, err)
		}
	})
	for _, v := range versions {
		if _, err := c.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(v)}); err != nil {
			t.Fatalf("creating version %s of %s: %v", v, m.Name, err)
		}
	}
	return m
}

// testAccModule makes a private module for the test and returns how the
// provider names it.
func testAccModule(t *testing.T) moduleRef {
	t.Helper()
	m := testAccRegistryModule(t)
	return moduleRef{Organization: testAccOrganization(), Name: m.Name, Provider: m.Provider}
}

// testAccTestConfiguration uploads a directory of internal/testdata/module-tests as a
// configuration version of mod's tests and returns its ID.
func testAccTestConfiguration(t *testing.T, mod moduleRef, dir string) string {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	packed, err := packConfiguration(testModuleDir(t, dir), true)
	if err != nil {
		t.Fatal(err)
	}
	id, err := testRunClient{c}.uploadConfiguration(ctx, mod, packed.archive)
	if err != nil {
		t.Fatalf("uploading %s: %v", dir, err)
	}
	return id
}

// testAccTestRun queues a run of configuration version cvID in mod's tests,
// with default options, and returns it.
func testAccTestRun(t *testing.T, mod moduleRef, cvID string) *tfe.TestRun {
	t.Helper()
	tr, err := testAccClient(t).TestRuns.Create(context.Background(), tfe.TestRunCreateOptions{
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: cvID},
		RegistryModule: &tfe.RegistryModule{
			Name: mod.Name, Provider: mod.Provider, Namespace: mod.Organization, RegistryName: tfe.PrivateRegistry,
			Organization: &tfe.Organization{Name: mod.Organization},
		},
	})
	if err != nil {
		t.Fatalf("queuing a test run of %s: %v", mod, err)
	}
	return tr
}

// testModuleDir is the absolute path of internal/testdata/module-tests/<name>, a
// module with tests that need no provider download.
func testModuleDir(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "module-tests", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// cleanupErr reports a cleanup's error: against a live organization an
// ignored one is a leak nobody hears of. A 404 is fine: the test (or
// Terraform's destroy) deleted it already.
func cleanupErr(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && !isNotFound(err) {
		t.Errorf("cleanup: deleting %s: %v (it may be left in %s)", what, err, testAccOrganization())
	}
}

// testAccTeamToken makes a token of team teamID through the API, deleted
// at the end of the test.
func testAccTeamToken(t *testing.T, teamID string) string {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	tt, err := c.TeamTokens.Create(ctx, teamID)
	if err != nil {
		t.Fatalf("team token: %v", err)
	}
	t.Cleanup(func() { cleanupErr(t, "the token of team "+teamID, c.TeamTokens.Delete(ctx, teamID)) })
	return tt.Token
}

// testAccTeamTokenProvider makes a token of team and returns a provider
// block that uses it.
func testAccTeamTokenProvider(t *testing.T, team *tfe.Team) string {
	t.Helper()
	return fmt.Sprintf("provider \"tfgov\" {\n  token = %q\n}\n", testAccTeamToken(t, team.ID))
}
