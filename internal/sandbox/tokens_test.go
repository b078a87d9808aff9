package sandbox_test

import (
	"context"
	"errors"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

func TestTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	tm := w.team(t, "ops", nil)
	first, err := w.owner.TeamTokens.Create(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	second, err := w.owner.TeamTokens.Create(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client(t, w.inst, first.Token).Teams.Read(ctx, tm.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("a regenerated team token's old secret still works: %v", err)
	}
	if _, err := client(t, w.inst, second.Token).Teams.Read(ctx, tm.ID); err != nil {
		t.Errorf("team token reads its team: %v", err)
	}
	if err := w.owner.TeamTokens.Delete(ctx, tm.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := client(t, w.inst, second.Token).Teams.Read(ctx, tm.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("deleted team token still works: %v", err)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.OrganizationTokens.Create(ctx, w.org); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member made the organization token: %v", err)
	}
}
