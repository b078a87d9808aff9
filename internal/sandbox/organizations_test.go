package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

func TestOrganizations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)

	org, err := w.owner.Organizations.Read(ctx, w.org)
	if err != nil || org.Name != w.org || org.Email != "owner@acme.test" {
		t.Fatalf("read: %+v, %v", org, err)
	}
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(w.org), Email: tfe.String("x@y.z")}); err == nil || !strings.Contains(err.Error(), "already been taken") {
		t.Errorf("duplicate name: %v", err)
	}
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("bad name"), Email: tfe.String("x@y.z")}); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("bad name: %v", err)
	}
	// A user creating an organization becomes its owner.
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("devs-own"), Email: tfe.String("dev@acme.test")}); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.AgentPools.Create(ctx, "devs-own", tfe.AgentPoolCreateOptions{Name: tfe.String("p")}); err != nil {
		t.Errorf("the creator should own the organization: %v", err)
	}
	// ... and nobody else sees it.
	if _, err := w.owner.Organizations.Read(ctx, "devs-own"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("another organization's owner read it: %v", err)
	}
	// Team and organization tokens cannot create organizations.
	if _, err := w.orgClient(t).Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("nope"), Email: tfe.String("a@b.c")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("organization token created an organization: %v", err)
	}
}

// TestOrganizationDelete_cascades deletes everything inside.
func TestOrganizationDelete_cascades(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	tm := w.team(t, "devs", nil)
	teamClient := w.teamClient(t, tm)
	if err := w.owner.Organizations.Delete(ctx, w.org); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"org":   func() error { _, err := w.admin.Organizations.Read(ctx, w.org); return err }(),
		"pool":  func() error { _, err := w.admin.AgentPools.Read(ctx, pool.ID); return err }(),
		"token": func() error { _, err := w.admin.AgentTokens.Read(ctx, tok.ID); return err }(),
		"ws":    func() error { _, err := w.admin.Workspaces.ReadByID(ctx, ws.ID); return err }(),
		"team":  func() error { _, err := w.admin.Teams.Read(ctx, tm.ID); return err }(),
	} {
		if !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s after organization delete: %v", name, err)
		}
	}
	if _, err := teamClient.Teams.Read(ctx, tm.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("deleted team's token still works: %v", err)
	}
}
