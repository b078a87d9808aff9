package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

func TestAgentTokens_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)

	created, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("ci agents")})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if !strings.HasPrefix(created.ID, "at-") || created.Token == "" || created.Description != "ci agents" {
		t.Fatalf("create returned %+v", created)
	}
	if created.CreatedAt.IsZero() || time.Since(created.CreatedAt) > time.Minute {
		t.Errorf("created-at = %v", created.CreatedAt)
	}
	if created.CreatedBy == nil || !strings.HasPrefix(created.CreatedBy.ID, "user-") {
		t.Errorf("created-by = %+v", created.CreatedBy)
	}

	read, err := w.owner.AgentTokens.Read(ctx, created.ID)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if read.Token != "" || read.Description != "ci agents" || !read.CreatedAt.Equal(created.CreatedAt) || !read.LastUsedAt.IsZero() {
		t.Errorf("read returned %+v", read)
	}

	// The agent token does not authenticate API calls.
	if _, err := client(t, w.inst, created.Token).AgentPools.Read(ctx, pool.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("API call with an agent token: err = %v, want ErrUnauthorized", err)
	}

	if err := w.owner.AgentTokens.Delete(ctx, created.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := w.owner.AgentTokens.Read(ctx, created.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read after delete: err = %v, want ErrResourceNotFound", err)
	}
	if err := w.owner.AgentTokens.Delete(ctx, created.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second delete: err = %v, want ErrResourceNotFound", err)
	}
}

func TestAgentTokens_pagination(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	for i := range 45 {
		if _, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(fmt.Sprintf("t%02d", i))}); err != nil {
			t.Fatal(err)
		}
	}
	tests := map[string]struct {
		opts              *tfe.AgentTokenListOptions
		wantItems         int
		wantPage, wantNxt int
		wantPrev          int
		wantFirst         string
	}{
		"default page of 20": {opts: nil, wantItems: 20, wantPage: 1, wantNxt: 2, wantFirst: "t00"},
		"second page":        {opts: &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageNumber: 2}}, wantItems: 20, wantPage: 2, wantNxt: 3, wantPrev: 1, wantFirst: "t20"},
		"last partial page":  {opts: &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageNumber: 3}}, wantItems: 5, wantPage: 3, wantPrev: 2, wantFirst: "t40"},
		"page size 50":       {opts: &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageSize: 50}}, wantItems: 45, wantPage: 1, wantFirst: "t00"},
		"past the end":       {opts: &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageNumber: 9}}, wantItems: 0, wantPage: 9},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, err := w.owner.AgentTokens.ListWithOptions(ctx, pool.ID, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Items) != tc.wantItems || l.CurrentPage != tc.wantPage || l.NextPage != tc.wantNxt || l.PreviousPage != tc.wantPrev || l.TotalCount != 45 {
				t.Errorf("got %d items, pagination %+v", len(l.Items), *l.Pagination)
			}
			for _, it := range l.Items {
				if it.Token != "" {
					t.Errorf("list exposed the secret of %s", it.ID)
				}
			}
			if tc.wantFirst != "" && l.Items[0].Description != tc.wantFirst {
				t.Errorf("first item %q, want %q", l.Items[0].Description, tc.wantFirst)
			}
		})
	}
}

// TestAgentTokens_wireFormat checks what go-tfe cannot see: the exact
// `links` and `meta.pagination` members, nulls included.
func TestAgentTokens_wireFormat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	for range 3 {
		if _, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")}); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.inst.URL+"/api/v2/agent-pools/"+pool.ID+"/authentication-tokens?page%5Bsize%5D=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+w.inst.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.api+json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var doc struct {
		Data []struct {
			Type       string         `json:"type"`
			Attributes map[string]any `json:"attributes"`
		} `json:"data"`
		Links map[string]*string `json:"links"`
		Meta  struct {
			Pagination map[string]*int `json:"pagination"`
		} `json:"meta"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"self", "first", "prev", "next", "last"} {
		if _, ok := doc.Links[k]; !ok {
			t.Errorf("links.%s missing", k)
		}
	}
	if doc.Links["prev"] != nil || doc.Links["next"] == nil || !strings.Contains(*doc.Links["last"], "page%5Bnumber%5D=2") {
		t.Errorf("links = %v", doc.Links)
	}
	pg := doc.Meta.Pagination
	if *pg["current-page"] != 1 || pg["prev-page"] != nil || *pg["next-page"] != 2 || *pg["total-pages"] != 2 || *pg["total-count"] != 3 {
		t.Errorf("meta.pagination = %v", pg)
	}
	for _, d := range doc.Data {
		if d.Type != "authentication-tokens" {
			t.Errorf("type = %q", d.Type)
		}
		if v, ok := d.Attributes["token"]; !ok || v != nil {
			t.Errorf("token attribute = %v (present %v), want null", v, ok)
		}
		if ts, _ := d.Attributes["created-at"].(string); len(ts) != len("2006-01-02T15:04:05.000Z") || !strings.HasSuffix(ts, "Z") {
			t.Errorf("created-at = %q, want millisecond precision ending in Z", ts)
		}
	}
}

func TestAgentTokens_authorization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")})
	if err != nil {
		t.Fatal(err)
	}
	poolAdmins := w.team(t, "pool-admins", &tfe.OrganizationAccessOptions{ManageAgentPools: tfe.Bool(true)})
	plain := w.team(t, "plain", nil)

	// A second organization on the same sandbox.
	rivalOwner := w.organization(t, "rival")

	tests := map[string]struct {
		client  *tfe.Client
		allowed bool
	}{
		"owner":                         {w.owner, true},
		"admin token":                   {w.admin, true},
		"organization token":            {w.orgClient(t), true},
		"member of manage-agent-pools":  {w.member(t, "ops@acme.test", poolAdmins), true},
		"token of manage-agent-pools":   {w.teamClient(t, poolAdmins), true},
		"plain member":                  {w.member(t, "dev@acme.test", plain), false},
		"token of a plain team":         {w.teamClient(t, plain), false},
		"owner of another organization": {rivalOwner, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, listErr := tc.client.AgentTokens.List(ctx, pool.ID)
			_, readErr := tc.client.AgentTokens.Read(ctx, tok.ID)
			_, createErr := tc.client.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(name)})
			for op, err := range map[string]error{"list": listErr, "read": readErr, "create": createErr} {
				if tc.allowed && err != nil {
					t.Errorf("%s: %v", op, err)
				}
				if !tc.allowed && !errors.Is(err, tfe.ErrResourceNotFound) {
					t.Errorf("%s: err = %v, want ErrResourceNotFound", op, err)
				}
			}
		})
	}
}

func TestAgentTokens_errors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)

	if _, err := w.owner.AgentTokens.List(ctx, "apool-doesnotexist0001"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("list missing pool: %v", err)
	}
	if _, err := w.owner.AgentTokens.Create(ctx, "apool-doesnotexist0001", tfe.AgentTokenCreateOptions{Description: tfe.String("x")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("create in missing pool: %v", err)
	}
	if _, err := client(t, w.inst, "not-a-token").AgentTokens.List(ctx, pool.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("bad token: %v", err)
	}

	// 422s go-tfe would refuse to send, made with raw requests.
	tests := map[string]struct {
		body       string
		wantDetail string
	}{
		"missing description": {`{"data":{"type":"authentication-tokens","attributes":{}}}`, "description"},
		"blank description":   {`{"data":{"type":"authentication-tokens","attributes":{"description":"  "}}}`, "description"},
		"wrong type":          {`{"data":{"type":"authentication-tokens","attributes":{"description":7}}}`, "description must be a string"},
		"wrong data.type":     {`{"data":{"type":"workspaces","attributes":{"description":"x"}}}`, "data.type"},
		"no data":             {`{}`, "data"},
		"not json":            {`{`, "JSON:API"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.inst.URL+"/api/v2/agent-pools/"+pool.ID+"/authentication-tokens", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+w.inst.Token)
			req.Header.Set("Content-Type", "application/vnd.api+json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var doc struct {
				Errors []struct {
					Status, Title, Detail string
				} `json:"errors"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusUnprocessableEntity || len(doc.Errors) != 1 || doc.Errors[0].Status != "422" || !strings.Contains(doc.Errors[0].Detail, tc.wantDetail) {
				t.Errorf("status %d, errors %+v; want 422 naming %q", resp.StatusCode, doc.Errors, tc.wantDetail)
			}
		})
	}
}

// TestAgentTokens_lastUsed: an agent polling with its token sets the
// token's last-used-at; an API call with it (refused) does not; another
// token of the pool stays never used; BackdateToken moves both times back.
func TestAgentTokens_lastUsed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	used, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("used")})
	if err != nil {
		t.Fatal(err)
	}
	idle, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("idle")})
	if err != nil {
		t.Fatal(err)
	}
	poll := func(secret string) int {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, w.inst.URL+"/api/agent/jobs", nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	_, _ = client(t, w.inst, idle.Token).AgentPools.Read(ctx, pool.ID) // refused: not a use
	if got := poll(used.Token); got != http.StatusNoContent {
		t.Fatalf("poll with an agent token: %d, want 204", got)
	}
	for _, secret := range []string{"", "nonsense", w.inst.Token} {
		if got := poll(secret); got != http.StatusUnauthorized {
			t.Errorf("poll with %q: %d, want 401", secret, got)
		}
	}
	u, err := w.owner.AgentTokens.Read(ctx, used.ID)
	if err != nil {
		t.Fatal(err)
	}
	if u.LastUsedAt.IsZero() || time.Since(u.LastUsedAt) > time.Minute {
		t.Errorf("last-used-at of the polling token = %v, want now", u.LastUsedAt)
	}
	if i, err := w.owner.AgentTokens.Read(ctx, idle.ID); err != nil || !i.LastUsedAt.IsZero() {
		t.Errorf("last-used-at of the idle token = %v (%v), want null", i.LastUsedAt, err)
	}
	if err := w.inst.Server.BackdateToken(used.ID, 3*time.Hour); err != nil {
		t.Fatal(err)
	}
	b, err := w.owner.AgentTokens.Read(ctx, used.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !b.CreatedAt.Equal(u.CreatedAt.Add(-3*time.Hour)) || !b.LastUsedAt.Equal(u.LastUsedAt.Add(-3*time.Hour)) {
		t.Errorf("backdated: created %v last used %v, want %v and %v", b.CreatedAt, b.LastUsedAt, u.CreatedAt.Add(-3*time.Hour), u.LastUsedAt.Add(-3*time.Hour))
	}
	if err := w.inst.Server.BackdateToken("at-missing", time.Hour); err == nil {
		t.Error("backdating a missing token did not fail")
	}
}
