package sandbox_test

import (
	"context"
	"net/http"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// world is an in-process sandbox with one organization and clients for the
// identities the permission rules distinguish. Everything is made through
// go-tfe, as a test against the real service would.
type world struct {
	inst  *sandbox.Instance
	admin *tfe.Client
	owner *tfe.Client // a user in the owners team
	org   string
}

func client(t testing.TB, inst *sandbox.Instance, token string) *tfe.Client {
	t.Helper()
	// Its requests are recorded for the route contracts (route_contracts_test.go).
	hc := &http.Client{Transport: recordingTransport{next: http.DefaultTransport.(*http.Transport).Clone(), test: topTest(t)}}
	c, err := tfe.NewClient(&tfe.Config{Address: inst.URL, Token: token, HTTPClient: hc})
	if err != nil {
		t.Fatalf("go-tfe client: %v", err)
	}
	return c
}

func newWorld(t testing.TB) *world {
	t.Helper()
	return newWorldWith(t, sandbox.Options{})
}

// newWorldWith is newWorld on a sandbox started with opts.
func newWorldWith(t testing.TB, opts sandbox.Options) *world {
	t.Helper()
	inst := sandbox.StartWithOptions(t, opts)
	w := &world{inst: inst, admin: client(t, inst, inst.Token), org: "acme"}
	w.owner = w.organization(t, w.org)
	return w
}

// organization creates an organization on w's sandbox with the admin
// token and returns a client of its owner, a user in its owners team.
func (w *world) organization(t testing.TB, name string) *tfe.Client {
	t.Helper()
	ctx := context.Background()
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(name), Email: tfe.String("owner@" + name + ".test")}); err != nil {
		t.Fatalf("create organization %s: %v", name, err)
	}
	ms, err := w.admin.OrganizationMemberships.List(ctx, name, nil)
	if err != nil || len(ms.Items) != 1 {
		t.Fatalf("list memberships of %s: %v (%v)", name, err, ms)
	}
	tok, err := w.admin.UserTokens.Create(ctx, ms.Items[0].User.ID, tfe.UserTokenCreateOptions{Description: "owner"})
	if err != nil {
		t.Fatalf("owner token of %s: %v", name, err)
	}
	return client(t, w.inst, tok.Token)
}

// member invites a new user, puts them in teams, and returns their client.
func (w *world) member(t testing.TB, email string, teams ...*tfe.Team) *tfe.Client {
	t.Helper()
	ctx := context.Background()
	opts := tfe.OrganizationMembershipCreateOptions{Email: tfe.String(email), Teams: teams}
	m, err := w.owner.OrganizationMemberships.Create(ctx, w.org, opts)
	if err != nil {
		t.Fatalf("invite %s: %v", email, err)
	}
	tok, err := w.admin.UserTokens.Create(ctx, m.User.ID, tfe.UserTokenCreateOptions{Description: email})
	if err != nil {
		t.Fatalf("token for %s: %v", email, err)
	}
	return client(t, w.inst, tok.Token)
}

// team creates a team with the given organization access.
func (w *world) team(t testing.TB, name string, access *tfe.OrganizationAccessOptions) *tfe.Team {
	t.Helper()
	tm, err := w.owner.Teams.Create(context.Background(), w.org, tfe.TeamCreateOptions{Name: tfe.String(name), OrganizationAccess: access})
	if err != nil {
		t.Fatalf("create team %s: %v", name, err)
	}
	return tm
}

// teamClient returns a client using a new token of tm.
func (w *world) teamClient(t testing.TB, tm *tfe.Team) *tfe.Client {
	t.Helper()
	tok, err := w.owner.TeamTokens.Create(context.Background(), tm.ID)
	if err != nil {
		t.Fatalf("team token: %v", err)
	}
	return client(t, w.inst, tok.Token)
}

// orgClient returns a client using the organization token.
func (w *world) orgClient(t testing.TB) *tfe.Client {
	t.Helper()
	tok, err := w.owner.OrganizationTokens.Create(context.Background(), w.org)
	if err != nil {
		t.Fatalf("organization token: %v", err)
	}
	return client(t, w.inst, tok.Token)
}

func (w *world) agentPool(t testing.TB) *tfe.AgentPool {
	t.Helper()
	ap, err := w.owner.AgentPools.Create(context.Background(), w.org, tfe.AgentPoolCreateOptions{Name: tfe.String("pool-" + w.org)})
	if err != nil {
		t.Fatalf("create agent pool: %v", err)
	}
	return ap
}
