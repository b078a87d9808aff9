package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

func TestTeamsAndMembers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	secret := w.team(t, "secret-ops", &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true)})
	if secret.Visibility != "secret" || !secret.OrganizationAccess.ManagePolicies || secret.OrganizationAccess.ManageWorkspaces {
		t.Errorf("created team %+v access %+v", secret, secret.OrganizationAccess)
	}
	visible, err := w.owner.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String("visible"), Visibility: tfe.String("organization")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String("visible")}); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("duplicate team name: %v", err)
	}

	dev := w.member(t, "dev@acme.test")
	list, err := dev.Teams.List(ctx, w.org, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, tm := range list.Items {
		names = append(names, tm.Name)
	}
	if strings.Join(names, ",") != "visible" {
		t.Errorf("a plain member sees teams %v, want only the visible one", names)
	}
	if _, err := dev.Teams.Read(ctx, secret.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member read a secret team: %v", err)
	}
	// Members of a secret team see it.
	if err := w.owner.TeamMembers.Add(ctx, secret.ID, tfe.TeamMemberAddOptions{Usernames: []string{"dev"}}); err != nil {
		t.Fatal(err)
	}
	if got, err := dev.Teams.Read(ctx, secret.ID); err != nil || got.UserCount != 1 {
		t.Errorf("member read own secret team: %+v, %v", got, err)
	}
	// Plain members cannot manage teams.
	if _, err := dev.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String("mine")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member created a team: %v", err)
	}
	if err := w.owner.TeamMembers.Remove(ctx, secret.ID, tfe.TeamMemberRemoveOptions{Usernames: []string{"dev"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.owner.TeamMembers.Add(ctx, visible.ID, tfe.TeamMemberAddOptions{Usernames: []string{"stranger"}}); err == nil {
		t.Error("added a user who is not a member of the organization")
	}
	if err := w.owner.Teams.Delete(ctx, visible.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Teams.Read(ctx, visible.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read deleted team: %v", err)
	}
}
