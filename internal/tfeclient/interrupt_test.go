package tfeclient

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestWriteContext: a write's context outlives its caller's cancellation
// (Terraform's stop) for the wait, ends with the caller's deadline, and a
// write after the stop is not sent.
func TestWriteContext(t *testing.T) {
	t.Parallel()
	t.Run("carried past the stop", func(t *testing.T) {
		t.Parallel()
		ctx, stop := context.WithCancel(context.Background())
		wctx, release, err := writeContext(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		stop()
		time.Sleep(10 * time.Millisecond)
		if wctx.Err() != nil {
			t.Errorf("the write's context ended with its caller's: %v", wctx.Err())
		}
		if !stopRequested(wctx) {
			t.Error("stopRequested is false after the stop")
		}
	})
	t.Run("the deadline holds", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		wctx, release, err := writeContext(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		select {
		case <-wctx.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the write's context outlived its caller's deadline")
		}
	})
	t.Run("not sent after the stop", func(t *testing.T) {
		t.Parallel()
		ctx, stop := context.WithCancel(context.Background())
		stop()
		called := false
		err := Carried(ctx, func(context.Context) error { called = true; return nil })
		var ns *NotSentError
		if called || !errors.As(err, &ns) || !errors.Is(err, context.Canceled) {
			t.Errorf("a write after the stop: called %v, error %v; want not sent", called, err)
		}
	})
}

// TestCarriedWrites: through go-tfe, against a sandbox
// answering after 400 ms, a grant whose POST was sent before Terraform
// asked the provider to stop is carried to its answer (the caller gets
// the grant, not "context canceled" with the grant on the service), a
// write after the stop is not sent, and a read after it stops at once.
func TestCarriedWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst := sandbox.StartWithOptions(t, sandbox.Options{Latency: 400 * time.Millisecond})
	admin, err := tfe.NewClient(&tfe.Config{Address: inst.URL, Token: inst.Token})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("stop"), Email: tfe.String("o@stop.invalid")}); err != nil {
		t.Fatal(err)
	}
	ws, err := admin.Workspaces.Create(ctx, "stop", tfe.WorkspaceCreateOptions{Name: tfe.String("ws")})
	if err != nil {
		t.Fatal(err)
	}
	var teams []*tfe.Team
	for _, name := range []string{"a", "b"} {
		tm, err := admin.Teams.Create(ctx, "stop", tfe.TeamCreateOptions{Name: tfe.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		teams = append(teams, tm)
	}
	c, err := tfe.NewClient(&tfe.Config{Address: inst.URL, Token: inst.Token, HTTPClient: &http.Client{
		Transport: &retryTransport{next: http.DefaultTransport, max: 2, minWait: time.Millisecond, maxWait: time.Millisecond},
	}})
	if err != nil {
		t.Fatal(err)
	}
	carryWrites(c)

	inst.Server.ResetStats()
	applyCtx, stop := context.WithCancel(ctx)
	time.AfterFunc(150*time.Millisecond, stop) // the POST is in flight
	ta, err := c.TeamAccess.Add(applyCtx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: teams[0], Workspace: ws})
	if err != nil {
		t.Fatalf("a grant sent before the stop: %v; want its answer", err)
	}
	if ta.ID == "" || ta.Team.ID != teams[0].ID {
		t.Errorf("grant %+v", ta)
	}
	_, err = c.TeamAccess.Add(applyCtx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: teams[1], Workspace: ws})
	var ns *NotSentError
	if !errors.As(err, &ns) {
		t.Errorf("a grant after the stop: %v, want not sent", err)
	}
	if n := inst.Server.Stats()["POST /api/v2/team-workspaces"]; n != 1 {
		t.Errorf("%d POSTs reached the service, want 1 (the one sent before the stop)", n)
	}
	start := time.Now()
	if _, err := c.TeamAccess.List(applyCtx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID}); !errors.Is(err, context.Canceled) {
		t.Errorf("a read after the stop: %v, want context canceled", err)
	}
	if d := time.Since(start); d > 300*time.Millisecond {
		t.Errorf("a read after the stop took %s", d)
	}
	l, err := admin.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
	if err != nil || len(l.Items) != 1 || l.Items[0].ID != ta.ID {
		t.Errorf("the workspace's grants: %v, want exactly %s", err, ta.ID)
	}
}

// TestCarriedWrites_projectGrant: a project grant whose POST reached the
// service before Terraform's stop is carried to its answer. The scenario
// machine found it uncarried (make scenarios STEPS=150 SEED=33, actions
// CtrlC and the edits: Ctrl-C with answers held back 30 ms left
// tprj-... on the service, neither in state nor named). The stop comes as
// the sandbox receives the POST (Server.OnRequest), and its answer is held
// back after the service acts.
func TestCarriedWrites_projectGrant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst, admin, c := stopWorld(t)
	prj, err := admin.Projects.Create(ctx, "stop", tfe.ProjectCreateOptions{Name: "prj"})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := admin.Teams.Create(ctx, "stop", tfe.TeamCreateOptions{Name: tfe.String("a")})
	if err != nil {
		t.Fatal(err)
	}
	applyCtx, stop := context.WithCancel(ctx)
	defer stop()
	inst.Server.OnRequest(func(route string) {
		if route == "POST /api/v2/team-projects" {
			stop()
		}
	})
	defer inst.Server.OnRequest(nil)
	g, err := c.TeamProjectAccess.Add(applyCtx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: tm, Project: prj})
	if err != nil {
		t.Fatalf("a project grant sent before the stop: %v; want its answer", err)
	}
	if g.ID == "" {
		t.Errorf("grant %+v", g)
	}
	if _, err := c.TeamProjectAccess.Update(applyCtx, g.ID, tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessWrite)}); !errors.As(err, new(*NotSentError)) {
		t.Errorf("a project grant's update after the stop: %v, want not sent", err)
	}
}

// TestCarriedWrites_policySet: a policy set's create and its parameter's,
// sent before Terraform's stop, are carried to their answers (the scenario
// machine's Ctrl-C, STEPS=5000 SEED=5401, left a set the service had made
// neither in state nor named); a write after the stop is not sent.
func TestCarriedWrites_policySet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst, admin, c := stopWorld(t)
	for _, route := range []string{"POST /api/v2/organizations/{org}/policy-sets", "POST /api/v2/policy-sets/{id}/parameters"} {
		applyCtx, stop := context.WithCancel(ctx)
		inst.Server.OnRequest(func(r string) {
			if r == route {
				stop()
			}
		})
		var set *tfe.PolicySet
		var err error
		if route == "POST /api/v2/organizations/{org}/policy-sets" {
			set, err = c.PolicySets.Create(applyCtx, "stop", tfe.PolicySetCreateOptions{Name: tfe.String("s0"), Kind: tfe.Sentinel})
		} else {
			set, err = admin.PolicySets.Create(ctx, "stop", tfe.PolicySetCreateOptions{Name: tfe.String("s1"), Kind: tfe.Sentinel})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.PolicySetParameters.Create(applyCtx, set.ID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("k"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryPolicySet)})
		}
		inst.Server.OnRequest(nil)
		if err != nil {
			t.Fatalf("%s sent before the stop: %v; want its answer", route, err)
		}
		if _, err := c.PolicySets.Update(applyCtx, set.ID, tfe.PolicySetUpdateOptions{Description: tfe.String("after")}); !errors.As(err, new(*NotSentError)) {
			t.Errorf("a policy set's update after the stop: %v, want not sent", err)
		}
		stop()
	}
}

// stopWorld is a sandbox answering slowly, with organization "stop", its admin's client and a
// client whose writes are carried past a stop.
func stopWorld(t *testing.T) (*sandbox.Instance, *tfe.Client, *tfe.Client) {
	t.Helper()
	inst := sandbox.StartWithOptions(t, sandbox.Options{Chaos: sandbox.Chaos{Seed: 1, Slow: 1, SlowDelay: 200 * time.Millisecond}})
	admin, err := tfe.NewClient(&tfe.Config{Address: inst.URL, Token: inst.Token})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Organizations.Create(context.Background(), tfe.OrganizationCreateOptions{Name: tfe.String("stop"), Email: tfe.String("o@stop.invalid")}); err != nil {
		t.Fatal(err)
	}
	c, err := tfe.NewClient(&tfe.Config{Address: inst.URL, Token: inst.Token, HTTPClient: &http.Client{
		Transport: &retryTransport{next: http.DefaultTransport, max: 2, minWait: time.Millisecond, maxWait: time.Millisecond},
	}})
	if err != nil {
		t.Fatal(err)
	}
	carryWrites(c)
	return inst, admin, c
}
