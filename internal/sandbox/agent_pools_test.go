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
