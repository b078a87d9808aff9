package sandbox_test

import (
	"context"
	"slices"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestTeamMembers: go-tfe's TeamMembers (what hashicorp/tfe's
// tfe_team_members uses) adds members by username and lists them with
// their usernames and memberships, which the team read includes.
func TestTeamMembers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	tm := w.team(t, "platform", nil)
	w.member(t, "ana@acme.test")
	w.member(t, "bo@acme.test")
	if err := w.owner.TeamMembers.Add(ctx, tm.ID, tfe.TeamMemberAddOptions{Usernames: []string{"ana", "bo"}}); err != nil {
		t.Fatal(err)
	}
	users, err := w.owner.TeamMembers.List(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range users {
		names = append(names, u.Username)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"ana", "bo"}) {
		t.Errorf("members %v, want [ana bo] (usernames come from the included user records)", names)
	}
	ms, err := w.owner.TeamMembers.ListOrganizationMemberships(ctx, tm.ID)
	if err != nil || len(ms) != 2 || ms[0].Email == "" {
		t.Errorf("memberships: %+v, %v", ms, err)
	}
	if err := w.owner.TeamMembers.Remove(ctx, tm.ID, tfe.TeamMemberRemoveOptions{Usernames: []string{"bo"}}); err != nil {
		t.Fatal(err)
	}
	if users, err := w.owner.TeamMembers.List(ctx, tm.ID); err != nil || len(users) != 1 || users[0].Username != "ana" {
		t.Errorf("after removing bo: %+v, %v", users, err)
	}
	// Without include, the read names the members without their records.
	team, err := w.owner.Teams.Read(ctx, tm.ID)
	if err != nil || len(team.Users) != 1 || team.Users[0].Username != "" {
		t.Errorf("plain read: %+v, %v", team, err)
	}
}

// TestTeamSettings: what hashicorp/tfe's tfe_team sends and reads back
// beyond a name is kept as sent: delegate-policy-overrides (beta) among the
// organization access, and sso-team-id (null until set, cleared by "").
func TestTeamSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	tm, err := w.owner.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String("policy-leads"), SSOTeamID: tfe.String("okta-group-7"),
		OrganizationAccess: &tfe.OrganizationAccessOptions{DelegatePolicyOverrides: tfe.Bool(true), ManagePolicies: tfe.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	read, err := w.owner.Teams.Read(ctx, tm.ID)
	if err != nil || read.SSOTeamID != "okta-group-7" || !read.OrganizationAccess.DelegatePolicyOverrides || !read.OrganizationAccess.ManagePolicies {
		t.Fatalf("created: %+v, %v", read, err)
	}
	upd, err := w.owner.Teams.Update(ctx, tm.ID, tfe.TeamUpdateOptions{SSOTeamID: tfe.String(""),
		OrganizationAccess: &tfe.OrganizationAccessOptions{DelegatePolicyOverrides: tfe.Bool(false)}})
	if err != nil || upd.SSOTeamID != "" || upd.OrganizationAccess.DelegatePolicyOverrides || !upd.OrganizationAccess.ManagePolicies {
		t.Errorf("updated: %+v, %v", upd, err)
	}
}
