package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

func TestWorkspaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app"), Description: tfe.String("the app")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ws.ID, "ws-") || ws.Name != "app" || ws.Organization.Name != w.org {
		t.Errorf("created %+v", ws)
	}
	byName, err := w.owner.Workspaces.Read(ctx, w.org, "app")
	if err != nil || byName.ID != ws.ID {
		t.Errorf("read by name: %v", err)
	}
	if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")}); err == nil {
		t.Error("duplicate workspace name accepted")
	}
	for i := range 3 {
		if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("svc-" + string(rune('a'+i)))}); err != nil {
			t.Fatal(err)
		}
	}
	l, err := w.owner.Workspaces.List(ctx, w.org, &tfe.WorkspaceListOptions{Search: "svc", ListOptions: tfe.ListOptions{PageSize: 2}})
	if err != nil || len(l.Items) != 2 || l.TotalCount != 3 || l.NextPage != 2 {
		t.Errorf("search page: %d items, %+v, %v", len(l.Items), l.Pagination, err)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("mine")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member created a workspace: %v", err)
	}
	if err := w.owner.Workspaces.DeleteByID(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Workspaces.ReadByID(ctx, ws.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read deleted workspace: %v", err)
	}
}

// TestRemoteStateConsumers: the list hashicorp/tfe reads for every
// workspace is empty (the sandbox keeps no state), and 404 for an unknown
// workspace.
func TestRemoteStateConsumers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	l, err := w.owner.Workspaces.ListRemoteStateConsumers(ctx, ws.ID, nil)
	if err != nil || len(l.Items) != 0 || l.Pagination == nil || l.TotalCount != 0 {
		t.Fatalf("consumers: %+v, %v", l, err)
	}
	if _, err := w.owner.Workspaces.ListRemoteStateConsumers(ctx, "ws-nope", nil); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("unknown workspace: %v", err)
	}
}
