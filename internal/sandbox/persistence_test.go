package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestPersistence restarts a sandbox on the same --data file: what it had,
// tokens included, is still there; what was deleted stays deleted.
func TestPersistence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "state.json")
	start := func() string {
		return sandbox.StartWithOptions(t, sandbox.Options{Token: "admin-token", DataFile: data}).URL
	}
	url1 := start()
	inst1 := &sandbox.Instance{URL: url1, Token: "admin-token"}
	admin := client(t, inst1, "admin-token")
	if _, err := admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("kept"), Email: tfe.String("o@kept.test")}); err != nil {
		t.Fatal(err)
	}
	pool, err := admin.AgentPools.Create(ctx, "kept", tfe.AgentPoolCreateOptions{Name: tfe.String("p")})
	if err != nil {
		t.Fatal(err)
	}
	keep, err := admin.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("keep")})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := admin.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("gone")})
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.AgentTokens.Delete(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	tm, err := admin.Teams.Create(ctx, "kept", tfe.TeamCreateOptions{Name: tfe.String("t")})
	if err != nil {
		t.Fatal(err)
	}
	teamTok, err := admin.TeamTokens.Create(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	prj, err := admin.Projects.Create(ctx, "kept", tfe.ProjectCreateOptions{Name: "kept project"})
	if err != nil {
		t.Fatal(err)
	}
	grant, err := admin.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessMaintain, Team: tm, Project: prj})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := admin.Workspaces.Create(ctx, "kept", tfe.WorkspaceCreateOptions{Name: tfe.String("w"), Project: prj})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), keep.Token) || strings.Contains(string(raw), teamTok.Token) {
		t.Error("the snapshot holds a secret in clear")
	}

	url2 := start()
	inst2 := &sandbox.Instance{URL: url2, Token: "admin-token"}
	admin2 := client(t, inst2, "admin-token")
	got, err := admin2.AgentTokens.Read(ctx, keep.ID)
	if err != nil || got.Description != "keep" || !got.CreatedAt.Equal(keep.CreatedAt) {
		t.Errorf("token after restart: %+v, %v", got, err)
	}
	if _, err := admin2.AgentTokens.Read(ctx, gone.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("deleted token after restart: %v", err)
	}
	if _, err := client(t, inst2, teamTok.Token).Teams.Read(ctx, tm.ID); err != nil {
		t.Errorf("team token after restart: %v", err)
	}
	if g, err := admin2.TeamProjectAccess.Read(ctx, grant.ID); err != nil || g.Access != tfe.TeamProjectAccessMaintain || g.Project.ID != prj.ID {
		t.Errorf("project grant after restart: %+v, %v", g, err)
	}
	if w, err := client(t, inst2, teamTok.Token).Workspaces.ReadByID(ctx, ws.ID); err != nil || w.Project.ID != prj.ID || !w.Permissions.CanUpdate {
		t.Errorf("a workspace of the project, read by the project's maintainers after restart: %+v, %v", w, err)
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(data), ".tfgov-sandbox-*")); len(matches) != 0 {
		t.Errorf("temporary snapshot files left behind: %v", matches)
	}
}

// TestConcurrentClients drives one sandbox from many goroutines; run with
// -race.
func TestConcurrentClients(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	const workers, each = 16, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(fmt.Sprintf("w%d-%d", i, j))})
				if err != nil {
					errs <- err
					return
				}
				if _, err := w.owner.AgentTokens.Read(ctx, tok.ID); err != nil {
					errs <- err
					return
				}
				if _, err := w.owner.AgentTokens.List(ctx, pool.ID); err != nil {
					errs <- err
					return
				}
				if j%2 == 0 {
					if err := w.owner.AgentTokens.Delete(ctx, tok.ID); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	l, err := w.owner.AgentTokens.ListWithOptions(ctx, pool.ID, &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if want := workers * each / 2; l.TotalCount != want {
		t.Errorf("%d tokens left, want %d", l.TotalCount, want)
	}
}

func TestSeedDemo(t *testing.T) {
	t.Parallel()
	inst := sandbox.Start(t)
	vars, err := inst.Server.Seed("demo")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, v := range vars {
		env[v.Env] = v.Value
	}
	c := client(t, inst, env["TFE_TOKEN"])
	ctx := context.Background()
	if _, err := c.AgentPools.Read(ctx, env["TF_VAR_agent_pool_id"]); err != nil {
		t.Errorf("seeded agent pool: %v", err)
	}
	if _, err := c.Workspaces.ReadByID(ctx, env["TF_VAR_workspace_id"]); err != nil {
		t.Errorf("seeded workspace: %v", err)
	}
	org := env["TFE_ORGANIZATION"]
	mod, err := c.RegistryModules.Read(ctx, tfe.RegistryModuleID{Organization: org, Namespace: org, Name: env["TF_VAR_module_name"], Provider: env["TF_VAR_module_provider"], RegistryName: tfe.PrivateRegistry})
	if err != nil || len(mod.VersionStatuses) != 2 {
		t.Errorf("seeded module: %+v, %v", mod, err)
	}
	// Seeding again is idempotent: the same IDs and token, nothing doubled.
	again, err := inst.Server.Seed("demo")
	if err != nil {
		t.Fatalf("seeding twice: %v", err)
	}
	if !reflect.DeepEqual(again, vars) {
		t.Errorf("seeding twice exported %v, then %v", vars, again)
	}
	pools, err := c.AgentPools.List(ctx, org, nil)
	if err != nil || len(pools.Items) != 1 {
		t.Errorf("after seeding twice: %d pools, %v", len(pools.Items), err)
	}
	if _, err := inst.Server.Seed("other"); err == nil {
		t.Error("unknown seed accepted")
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	w.inst.Server.ResetStats()
	tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := w.owner.AgentTokens.Read(ctx, tok.ID); err != nil {
			t.Fatal(err)
		}
	}
	stats := w.inst.Server.Stats()
	if stats["GET /api/v2/authentication-tokens/{id}"] != 3 || stats["POST /api/v2/agent-pools/{id}/authentication-tokens"] != 1 {
		t.Errorf("stats = %v", stats)
	}
	if n := w.inst.Server.RequestsTo("GET", "/api/v2/authentication-tokens/"+tok.ID); n != 3 {
		t.Errorf("RequestsTo = %d, want 3", n)
	}
}
