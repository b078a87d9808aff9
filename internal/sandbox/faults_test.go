package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const deprecationRoute = "PATCH /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}"

// TestFaults_deprecation shows the reference's 500 and 503 for module
// deprecation: go-tfe without retries reports them, the fault runs out
// after its count, and nothing changes meanwhile.
func TestFaults_deprecation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "network", "aws", "1.0.0", "1.1.0")
	srv := w.inst.Server
	path := "/api/v2/organizations/acme/registry-modules/private/acme/network/aws/1.0.0"

	if err := srv.InjectFault(sandbox.Fault{Method: "PATCH", Path: path, Status: 503, Count: 1}); err != nil {
		t.Fatal(err)
	}
	if err := srv.InjectFault(sandbox.Fault{Route: deprecationRoute, Path: path, Status: 500, Count: 1, Detail: "database unavailable"}); err != nil {
		t.Fatal(err)
	}
	body := deprecationBody{Status: "Deprecated", Reason: "old"}

	// The other version's path does not match.
	if _, err := setDeprecation(ctx, w.owner, mod, "1.1.0", body); err != nil {
		t.Errorf("other version: %v", err)
	}
	// A bad token is refused before any fault, which stays pending.
	if _, err := setDeprecation(ctx, client(t, w.inst, "nope"), mod, "1.0.0", body); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("bad token: %v", err)
	}
	if _, err := setDeprecation(ctx, w.owner, mod, "1.0.0", body); err == nil || !strings.Contains(err.Error(), "service unavailable") {
		t.Errorf("first call: %v, want service unavailable", err)
	}
	if _, err := setDeprecation(ctx, w.owner, mod, "1.0.0", body); err == nil || !strings.Contains(err.Error(), "database unavailable") {
		t.Errorf("second call: %v, want the 500's detail", err)
	}
	if read, err := readVersion(ctx, w.owner, mod, "1.0.0"); err != nil || read.Deprecation != nil {
		t.Errorf("a faulted call changed the version: %+v, %v", read, err)
	}
	if got := srv.Faults(); len(got) != 0 {
		t.Errorf("faults left: %+v", got)
	}
	if _, err := setDeprecation(ctx, w.owner, mod, "1.0.0", body); err != nil {
		t.Errorf("after the faults: %v", err)
	}
	if n := srv.Stats()[deprecationRoute]; n < 5 {
		t.Errorf("stats counted %d deprecation requests, want the faulted ones too", n)
	}
}

// TestFaults_retried shows go-tfe with RetryServerErrors riding out a 503.
func TestFaults_retried(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "network", "aws", "1.0.0")
	c, err := tfe.NewClient(&tfe.Config{Address: w.inst.URL, Token: w.inst.Token, RetryServerErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.inst.Server.InjectFault(sandbox.Fault{Path: "/api/v2/organizations/acme/registry-modules/private/acme/network/aws/1.0.0", Status: 503, Count: 1}); err != nil {
		t.Fatal(err)
	}
	dep, err := setDeprecation(ctx, c, mod, "1.0.0", deprecationBody{Status: "Deprecated", Reason: "old"})
	if err != nil || dep.Deprecation == nil || dep.Deprecation.Reason != "old" {
		t.Fatalf("retried deprecate: %+v, %v", dep, err)
	}
}

func TestFaults_adminEndpoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	do := func(token, method, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, method, w.inst.URL+"/_sandbox/faults", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw)
	}
	// A member's own user token: valid for the API, but not the admin's.
	tok, err := w.admin.UserTokens.Create(ctx, mustAdminlessUser(t, w), tfe.UserTokenCreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	tests := map[string]struct {
		token, body string
		want        int
		wantText    string
	}{
		"not admin":       {tok.Token, `{"route":"GET /api/v2/organizations/{org}","status":500,"count":1}`, 404, ""},
		"no route":        {w.inst.Token, `{"status":500,"count":1}`, 400, "route or path is required"},
		"bad status":      {w.inst.Token, `{"route":"GET /api/v2/organizations/{org}","status":200,"count":1}`, 400, "status must be between 400 and 599"},
		"bad count":       {w.inst.Token, `{"route":"GET /api/v2/organizations/{org}","status":500}`, 400, "count must be at least 1"},
		"relative path":   {w.inst.Token, `{"path":"api/v2/x","status":500,"count":1}`, 400, "path must start with /"},
		"unknown member":  {w.inst.Token, `{"route":"GET /api/v2/organizations/{org}","status":500,"count":1,"times":3}`, 400, "unknown field"},
		"not json":        {w.inst.Token, `{`, 400, "fault object"},
		"a good fault":    {w.inst.Token, `{"route":"GET /api/v2/organizations/{org}","status":503,"count":2}`, 201, `"count":2`},
		"a 429, to check": {w.inst.Token, `{"route":"GET /api/v2/organizations/{org}/workspaces","status":429,"count":1}`, 201, `"status":429`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			status, text := do(tc.token, http.MethodPost, tc.body)
			if status != tc.want || !strings.Contains(text, tc.wantText) {
				t.Errorf("POST: %d %q, want %d containing %q", status, text, tc.want, tc.wantText)
			}
		})
	}

	status, text := do(w.inst.Token, http.MethodGet, "")
	var listed struct{ Faults []sandbox.Fault }
	if err := json.Unmarshal([]byte(text), &listed); status != 200 || err != nil || len(listed.Faults) != 2 {
		t.Fatalf("GET: %d %s", status, text)
	}
	// The 503 answers reads of the organization twice, then goes.
	for i := range 2 {
		if _, err := w.owner.Organizations.Read(ctx, w.org); err == nil || !strings.Contains(err.Error(), "service unavailable") {
			t.Errorf("read %d: %v, want service unavailable", i, err)
		}
	}
	if _, err := w.owner.Organizations.Read(ctx, w.org); err != nil {
		t.Errorf("third read: %v", err)
	}
	// A 429 carries X-RateLimit-Reset, so go-tfe backs off and retries.
	if _, err := w.owner.Workspaces.List(ctx, w.org, nil); err != nil {
		t.Errorf("list after a 429: %v", err)
	}
	if status, _ := do(w.inst.Token, http.MethodPost, `{"route":"GET /api/v2/organizations/{org}","status":500,"count":5}`); status != 201 {
		t.Fatal(status)
	}
	if status, _ := do(w.inst.Token, http.MethodDelete, ""); status != http.StatusNoContent {
		t.Errorf("DELETE: %d", status)
	}
	if len(w.inst.Server.Faults()) != 0 {
		t.Errorf("faults after DELETE: %+v", w.inst.Server.Faults())
	}
	if _, err := w.owner.Organizations.Read(ctx, w.org); err != nil {
		t.Errorf("read after DELETE: %v", err)
	}
}

// mustAdminlessUser invites a member and returns their user id.
func mustAdminlessUser(t *testing.T, w *world) string {
	t.Helper()
	m, err := w.owner.OrganizationMemberships.Create(context.Background(), w.org, tfe.OrganizationMembershipCreateOptions{Email: tfe.String("someone@acme.test")})
	if err != nil {
		t.Fatal(err)
	}
	return m.User.ID
}

func TestFaults_invalid(t *testing.T) {
	t.Parallel()
	inst := sandbox.Start(t)
	for name, f := range map[string]sandbox.Fault{
		"empty":      {},
		"status 302": {Route: "GET /api/v2/ping", Status: 302, Count: 1},
		"count 0":    {Path: "/api/v2/x", Status: 500},
	} {
		if err := inst.Server.InjectFault(f); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
