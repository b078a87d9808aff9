package sandbox_test

import (
	"context"
	"errors"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

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
