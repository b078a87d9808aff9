package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

func TestAgentPools(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	if !strings.HasPrefix(pool.ID, "apool-") || !pool.OrganizationScoped {
		t.Errorf("created %+v", pool)
	}
	l, err := w.owner.AgentPools.List(ctx, w.org, nil)
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("list: %v", err)
	}
	tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.owner.AgentPools.Delete(ctx, pool.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.AgentTokens.Read(ctx, tok.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a deleted pool's token survived: %v", err)
	}
}

// TestAgentPoolUpdate: PATCH /agent-pools/:id through go-tfe's Update,
// UpdateAllowedWorkspaces and UpdateExcludedWorkspaces (what hashicorp/tfe's
// tfe_agent_pool and tfe_agent_pool_allowed_workspaces send).
func TestAgentPoolUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	ws1, ws2 := taWorkspace(t, w, "app-1"), taWorkspace(t, w, "app-2")

	got, err := w.owner.AgentPools.Update(ctx, pool.ID, tfe.AgentPoolUpdateOptions{Name: tfe.String("renamed"), OrganizationScoped: tfe.Bool(false)})
	if err != nil || got.Name != "renamed" || got.OrganizationScoped {
		t.Fatalf("update: %+v, %v", got, err)
	}
	got, err = w.owner.AgentPools.UpdateAllowedWorkspaces(ctx, pool.ID, tfe.AgentPoolAllowedWorkspacesUpdateOptions{
		AllowedWorkspaces: []*tfe.Workspace{{ID: ws2.ID}, {ID: ws1.ID}},
	})
	if err != nil || len(got.AllowedWorkspaces) != 2 || got.Name != "renamed" {
		t.Fatalf("allowed workspaces: %+v, %v", got, err)
	}
	read, err := w.owner.AgentPools.Read(ctx, pool.ID)
	if err != nil || len(read.AllowedWorkspaces) != 2 || read.OrganizationScoped {
		t.Fatalf("read back: %+v, %v", read, err)
	}
	if got, err = w.owner.AgentPools.UpdateExcludedWorkspaces(ctx, pool.ID, tfe.AgentPoolExcludedWorkspacesUpdateOptions{
		ExcludedWorkspaces: []*tfe.Workspace{{ID: ws1.ID}},
	}); err != nil || len(got.ExcludedWorkspaces) != 1 || len(got.AllowedWorkspaces) != 2 {
		t.Fatalf("excluded workspaces: %+v, %v", got, err)
	}

	// A workspace that does not exist is a 422 and changes nothing.
	if _, err := w.owner.AgentPools.UpdateAllowedWorkspaces(ctx, pool.ID, tfe.AgentPoolAllowedWorkspacesUpdateOptions{
		AllowedWorkspaces: []*tfe.Workspace{{ID: "ws-doesnotexist"}},
	}); err == nil || !strings.Contains(err.Error(), "ws-doesnotexist") {
		t.Errorf("unknown workspace: %v", err)
	}
	if _, err := w.owner.AgentPools.Create(ctx, w.org, tfe.AgentPoolCreateOptions{Name: tfe.String("other")}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.AgentPools.Update(ctx, pool.ID, tfe.AgentPoolUpdateOptions{Name: tfe.String("other")}); err == nil {
		t.Error("a second pool's name was accepted")
	}
	// Deleting a workspace takes it off the lists; an empty list clears.
	if err := w.owner.Workspaces.DeleteByID(ctx, ws2.ID); err != nil {
		t.Fatal(err)
	}
	if read, _ = w.owner.AgentPools.Read(ctx, pool.ID); read == nil || len(read.AllowedWorkspaces) != 1 || read.AllowedWorkspaces[0].ID != ws1.ID {
		t.Fatalf("after deleting %s: %+v", ws2.ID, read)
	}
	if got, err = w.owner.AgentPools.UpdateAllowedWorkspaces(ctx, pool.ID, tfe.AgentPoolAllowedWorkspacesUpdateOptions{AllowedWorkspaces: []*tfe.Workspace{}}); err != nil || len(got.AllowedWorkspaces) != 0 {
		t.Fatalf("clearing: %+v, %v", got, err)
	}

	// Only owners and manage-agent-pools may change a pool; others get 404.
	reader := w.member(t, "reader@acme.test")
	if _, err := reader.AgentPools.Update(ctx, pool.ID, tfe.AgentPoolUpdateOptions{Name: tfe.String("mine")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("member without manage-agent-pools: %v", err)
	}
}
