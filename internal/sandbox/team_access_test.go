package sandbox_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// taWorkspace creates a workspace through go-tfe.
func taWorkspace(t testing.TB, w *world, name string) *tfe.Workspace {
	t.Helper()
	ws, err := w.owner.Workspaces.Create(context.Background(), w.org, tfe.WorkspaceCreateOptions{Name: tfe.String(name)})
	if err != nil {
		t.Fatalf("create workspace %s: %v", name, err)
	}
	return ws
}

// taGrant adds a fixed-level grant as the owner.
func taGrant(t testing.TB, w *world, tm *tfe.Team, ws *tfe.Workspace, access tfe.AccessType) *tfe.TeamAccess {
	t.Helper()
	ta, err := w.owner.TeamAccess.Add(context.Background(), tfe.TeamAccessAddOptions{Access: tfe.Access(access), Team: tm, Workspace: ws})
	if err != nil {
		t.Fatalf("grant %s on %s to %s: %v", access, ws.Name, tm.Name, err)
	}
	return ta
}

// taPermissions is the comparable part of a TeamAccess.
type taPermissions struct {
	Runs             tfe.RunsPermissionType
	Variables        tfe.VariablesPermissionType
	StateVersions    tfe.StateVersionsPermissionType
	SentinelMocks    tfe.SentinelMocksPermissionType
	WorkspaceLocking bool
	RunTasks         bool
	PolicyOverrides  bool
}

func taPermsOf(ta *tfe.TeamAccess) taPermissions {
	return taPermissions{ta.Runs, ta.Variables, ta.StateVersions, ta.SentinelMocks, ta.WorkspaceLocking, ta.RunTasks, ta.PolicyOverrides}
}

// rawTeamAccess sends a request go-tfe cannot send and decodes the answer.
func rawTeamAccess(t *testing.T, w *world, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, w.inst.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/vnd.api+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if resp.StatusCode != http.StatusNoContent {
		if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
			t.Fatalf("%s %s: decoding: %v", method, path, err)
		}
	}
	return resp.StatusCode, doc
}

func taErrorDetail(doc map[string]any) (title, detail, pointer string) {
	errs, _ := doc["errors"].([]any)
	if len(errs) != 1 {
		return "", "", ""
	}
	e, _ := errs[0].(map[string]any)
	title, _ = e["title"].(string)
	detail, _ = e["detail"].(string)
	if src, ok := e["source"].(map[string]any); ok {
		pointer, _ = src["pointer"].(string)
	}
	return title, detail, pointer
}

func TestTeamAccess_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	tm := w.team(t, "devs", nil)

	added, err := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: tm, Workspace: ws})
	if err != nil {
		t.Fatalf("add: %v", err)
	}
	if !strings.HasPrefix(added.ID, "tws-") || added.Access != tfe.AccessRead || added.Team == nil || added.Team.ID != tm.ID || added.Workspace == nil || added.Workspace.ID != ws.ID {
		t.Fatalf("add returned %+v", added)
	}

	read, err := w.owner.TeamAccess.Read(ctx, added.ID)
	if err != nil {
		t.Fatalf("show: %v", err)
	}
	if read.ID != added.ID || read.Access != tfe.AccessRead || taPermsOf(read) != taPermsOf(added) {
		t.Errorf("show returned %+v, add returned %+v", read, added)
	}

	// read -> custom with two permissions: the others keep what read gave.
	upd, err := w.owner.TeamAccess.Update(ctx, added.ID, tfe.TeamAccessUpdateOptions{
		Access: tfe.Access(tfe.AccessCustom), Runs: tfe.RunsPermission(tfe.RunsPermissionApply), StateVersions: tfe.StateVersionsPermission(tfe.StateVersionsPermissionReadOutputs),
	})
	if err != nil {
		t.Fatalf("update to custom: %v", err)
	}
	want := taPermissions{Runs: "apply", Variables: "read", StateVersions: "read-outputs", SentinelMocks: "none"}
	if upd.Access != tfe.AccessCustom || taPermsOf(upd) != want {
		t.Errorf("update to custom: access %s, permissions %+v, want %+v", upd.Access, taPermsOf(upd), want)
	}

	// A custom grant takes a permission alone.
	upd, err = w.owner.TeamAccess.Update(ctx, added.ID, tfe.TeamAccessUpdateOptions{Variables: tfe.VariablesPermission(tfe.VariablesPermissionWrite)})
	if err != nil {
		t.Fatalf("update variables: %v", err)
	}
	want.Variables = "write"
	if upd.Access != tfe.AccessCustom || taPermsOf(upd) != want {
		t.Errorf("update variables: access %s, permissions %+v, want %+v", upd.Access, taPermsOf(upd), want)
	}

	// custom -> admin: the implied permissions replace the custom ones.
	upd, err = w.owner.TeamAccess.Update(ctx, added.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessAdmin)})
	if err != nil {
		t.Fatalf("update to admin: %v", err)
	}
	wantAdmin := taPermissions{Runs: "apply", Variables: "write", StateVersions: "write", SentinelMocks: "read", WorkspaceLocking: true, RunTasks: true}
	if upd.Access != tfe.AccessAdmin || taPermsOf(upd) != wantAdmin {
		t.Errorf("update to admin: access %s, permissions %+v", upd.Access, taPermsOf(upd))
	}

	if err := w.owner.TeamAccess.Remove(ctx, added.ID); err != nil {
		t.Fatalf("remove: %v", err)
	}
	if _, err := w.owner.TeamAccess.Read(ctx, added.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("show after remove: err = %v, want ErrResourceNotFound", err)
	}
	if _, err := w.owner.TeamAccess.Update(ctx, added.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessRead)}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("update after remove: err = %v, want ErrResourceNotFound", err)
	}
	if err := w.owner.TeamAccess.Remove(ctx, added.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second remove: err = %v, want ErrResourceNotFound", err)
	}
	// Removed, the team may be granted again.
	taGrant(t, w, tm, ws, tfe.AccessPlan)
}

func TestTeamAccess_levels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	tests := map[tfe.AccessType]taPermissions{
		tfe.AccessRead:  {Runs: "read", Variables: "read", StateVersions: "read", SentinelMocks: "none"},
		tfe.AccessPlan:  {Runs: "plan", Variables: "read", StateVersions: "read", SentinelMocks: "none"},
		tfe.AccessWrite: {Runs: "apply", Variables: "write", StateVersions: "write", SentinelMocks: "read", WorkspaceLocking: true},
		tfe.AccessAdmin: {Runs: "apply", Variables: "write", StateVersions: "write", SentinelMocks: "read", WorkspaceLocking: true, RunTasks: true},
		// custom with nothing set: the reference's defaults.
		tfe.AccessCustom: {Runs: "read", Variables: "none", StateVersions: "none", SentinelMocks: "none"},
	}
	for level, want := range tests {
		t.Run(string(level), func(t *testing.T) {
			t.Parallel()
			tm := w.team(t, "team-"+string(level), nil)
			ta := taGrant(t, w, tm, ws, level)
			if ta.Access != level || taPermsOf(ta) != want {
				t.Errorf("add %s: access %s, permissions %+v, want %+v", level, ta.Access, taPermsOf(ta), want)
			}
			read, err := w.owner.TeamAccess.Read(ctx, ta.ID)
			if err != nil || taPermsOf(read) != want {
				t.Errorf("show %s: %+v, %v", level, read, err)
			}
		})
	}
}

func TestTeamAccess_customPermissions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	type opts = tfe.TeamAccessAddOptions
	tests := map[string]struct {
		opts opts
		want taPermissions
	}{
		"runs plan":                   {opts{Runs: tfe.RunsPermission("plan")}, taPermissions{Runs: "plan", Variables: "none", StateVersions: "none", SentinelMocks: "none"}},
		"runs apply":                  {opts{Runs: tfe.RunsPermission("apply")}, taPermissions{Runs: "apply", Variables: "none", StateVersions: "none", SentinelMocks: "none"}},
		"variables read":              {opts{Variables: tfe.VariablesPermission("read")}, taPermissions{Runs: "read", Variables: "read", StateVersions: "none", SentinelMocks: "none"}},
		"variables write":             {opts{Variables: tfe.VariablesPermission("write")}, taPermissions{Runs: "read", Variables: "write", StateVersions: "none", SentinelMocks: "none"}},
		"state-versions read-outputs": {opts{StateVersions: tfe.StateVersionsPermission("read-outputs")}, taPermissions{Runs: "read", Variables: "none", StateVersions: "read-outputs", SentinelMocks: "none"}},
		"state-versions read":         {opts{StateVersions: tfe.StateVersionsPermission("read")}, taPermissions{Runs: "read", Variables: "none", StateVersions: "read", SentinelMocks: "none"}},
		"state-versions write":        {opts{StateVersions: tfe.StateVersionsPermission("write")}, taPermissions{Runs: "read", Variables: "none", StateVersions: "write", SentinelMocks: "none"}},
		"sentinel-mocks read":         {opts{SentinelMocks: tfe.SentinelMocksPermission("read")}, taPermissions{Runs: "read", Variables: "none", StateVersions: "none", SentinelMocks: "read"}},
		"workspace-locking":           {opts{WorkspaceLocking: tfe.Bool(true)}, taPermissions{Runs: "read", Variables: "none", StateVersions: "none", SentinelMocks: "none", WorkspaceLocking: true}},
		"run-tasks":                   {opts{RunTasks: tfe.Bool(true)}, taPermissions{Runs: "read", Variables: "none", StateVersions: "none", SentinelMocks: "none", RunTasks: true}},
		"policy-overrides":            {opts{PolicyOverrides: tfe.Bool(true)}, taPermissions{Runs: "read", Variables: "none", StateVersions: "none", SentinelMocks: "none", PolicyOverrides: true}},
		"every permission set": {
			opts{Runs: tfe.RunsPermission("apply"), Variables: tfe.VariablesPermission("write"), StateVersions: tfe.StateVersionsPermission("write"), SentinelMocks: tfe.SentinelMocksPermission("read"), WorkspaceLocking: tfe.Bool(true), RunTasks: tfe.Bool(true), PolicyOverrides: tfe.Bool(true)},
			taPermissions{"apply", "write", "write", "read", true, true, true},
		},
		"every permission explicitly least": {
			opts{Runs: tfe.RunsPermission("read"), Variables: tfe.VariablesPermission("none"), StateVersions: tfe.StateVersionsPermission("none"), SentinelMocks: tfe.SentinelMocksPermission("none"), WorkspaceLocking: tfe.Bool(false), RunTasks: tfe.Bool(false), PolicyOverrides: tfe.Bool(false)},
			taPermissions{Runs: "read", Variables: "none", StateVersions: "none", SentinelMocks: "none"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := tc.opts
			o.Access = tfe.Access(tfe.AccessCustom)
			o.Team = w.team(t, strings.ReplaceAll(name, " ", "-"), nil)
			o.Workspace = ws
			ta, err := w.owner.TeamAccess.Add(ctx, o)
			if err != nil {
				t.Fatalf("add: %v", err)
			}
			if ta.Access != tfe.AccessCustom || taPermsOf(ta) != tc.want {
				t.Errorf("add: %+v, want %+v", taPermsOf(ta), tc.want)
			}
			read, err := w.owner.TeamAccess.Read(ctx, ta.ID)
			if err != nil || taPermsOf(read) != tc.want {
				t.Errorf("show: %+v (%v), want %+v", read, err, tc.want)
			}
		})
	}
}

// TestTeamAccess_policyOverrides: go-tfe sends policy-overrides, and the
// real service returns it; it round-trips like the other permissions.
func TestTeamAccess_policyOverrides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	tm := w.team(t, "reviewers", nil)
	ta, err := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessCustom), PolicyOverrides: tfe.Bool(true), Team: tm, Workspace: ws})
	if err != nil || !ta.PolicyOverrides {
		t.Fatalf("add with policy-overrides: %+v, %v", ta, err)
	}
	ta, err = w.owner.TeamAccess.Update(ctx, ta.ID, tfe.TeamAccessUpdateOptions{PolicyOverrides: tfe.Bool(false)})
	if err != nil || ta.PolicyOverrides {
		t.Fatalf("update policy-overrides to false: %+v, %v", ta, err)
	}
	ta, err = w.owner.TeamAccess.Update(ctx, ta.ID, tfe.TeamAccessUpdateOptions{PolicyOverrides: tfe.Bool(true)})
	if err != nil || !ta.PolicyOverrides {
		t.Fatalf("update policy-overrides to true: %+v, %v", ta, err)
	}
	if read, err := w.owner.TeamAccess.Read(ctx, ta.ID); err != nil || !read.PolicyOverrides {
		t.Errorf("show: %+v, %v", read, err)
	}
	// With a fixed level it is read-only like the rest.
	if _, err := w.owner.TeamAccess.Update(ctx, ta.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessWrite), PolicyOverrides: tfe.Bool(true)}); err == nil ||
		!strings.Contains(err.Error(), "Policy overrides is read-only when access level is 'write'; use the 'custom' access level to set this attribute.") {
		t.Errorf("policy-overrides with write: err = %v", err)
	}
}

// TestTeamAccess_readOnlyPermissions: a permission sent with a fixed level
// is a 422 in the real service's words, on add and on update, and changes
// nothing.
func TestTeamAccess_readOnlyPermissions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	tests := map[string]struct {
		access tfe.AccessType
		add    tfe.TeamAccessAddOptions
		detail string
	}{
		"runs with read":              {tfe.AccessRead, tfe.TeamAccessAddOptions{Runs: tfe.RunsPermission("apply")}, "Runs is read-only when access level is 'read'; use the 'custom' access level to set this attribute."},
		"variables with plan":         {tfe.AccessPlan, tfe.TeamAccessAddOptions{Variables: tfe.VariablesPermission("write")}, "Variables is read-only when access level is 'plan'; use the 'custom' access level to set this attribute."},
		"state-versions with write":   {tfe.AccessWrite, tfe.TeamAccessAddOptions{StateVersions: tfe.StateVersionsPermission("read")}, "State versions is read-only when access level is 'write'; use the 'custom' access level to set this attribute."},
		"sentinel-mocks with admin":   {tfe.AccessAdmin, tfe.TeamAccessAddOptions{SentinelMocks: tfe.SentinelMocksPermission("read")}, "Sentinel mocks is read-only when access level is 'admin'; use the 'custom' access level to set this attribute."},
		"workspace-locking with read": {tfe.AccessRead, tfe.TeamAccessAddOptions{WorkspaceLocking: tfe.Bool(false)}, "Workspace locking is read-only when access level is 'read'; use the 'custom' access level to set this attribute."},
		"run-tasks with admin":        {tfe.AccessAdmin, tfe.TeamAccessAddOptions{RunTasks: tfe.Bool(true)}, "Run tasks is read-only when access level is 'admin'; use the 'custom' access level to set this attribute."},
		"policy-overrides with plan":  {tfe.AccessPlan, tfe.TeamAccessAddOptions{PolicyOverrides: tfe.Bool(true)}, "Policy overrides is read-only when access level is 'plan'; use the 'custom' access level to set this attribute."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tm := w.team(t, strings.ReplaceAll(name, " ", "-"), nil)
			o := tc.add
			o.Access, o.Team, o.Workspace = tfe.Access(tc.access), tm, ws
			_, err := w.owner.TeamAccess.Add(ctx, o)
			if err == nil || err.Error() != "invalid attribute\n\n"+tc.detail {
				t.Errorf("add: err = %v, want %q", err, tc.detail)
			}
			l, lerr := w.owner.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
			if lerr != nil {
				t.Fatal(lerr)
			}
			if slices.ContainsFunc(l.Items, func(ta *tfe.TeamAccess) bool { return ta.Team.ID == tm.ID }) {
				t.Errorf("a refused add left a grant")
			}

			// The same permission on an existing grant of that level.
			ta := taGrant(t, w, tm, ws, tc.access)
			u := tfe.TeamAccessUpdateOptions{Runs: o.Runs, Variables: o.Variables, StateVersions: o.StateVersions, SentinelMocks: o.SentinelMocks,
				WorkspaceLocking: o.WorkspaceLocking, RunTasks: o.RunTasks, PolicyOverrides: o.PolicyOverrides}
			if _, err := w.owner.TeamAccess.Update(ctx, ta.ID, u); err == nil || !strings.Contains(err.Error(), tc.detail) {
				t.Errorf("update: err = %v, want %q", err, tc.detail)
			}
			if read, err := w.owner.TeamAccess.Read(ctx, ta.ID); err != nil || taPermsOf(read) != taPermsOf(ta) || read.Access != tc.access {
				t.Errorf("a refused update changed the grant: %+v, %v", read, err)
			}
		})
	}

	// The pointer names the attribute.
	tm := w.team(t, "pointer", nil)
	status, doc := rawTeamAccess(t, w, http.MethodPost, "/api/v2/team-workspaces", w.inst.Token, fmt.Sprintf(
		`{"data":{"type":"team-workspaces","attributes":{"access":"read","state-versions":"write"},"relationships":{"workspace":{"data":{"type":"workspaces","id":%q}},"team":{"data":{"type":"teams","id":%q}}}}}`, ws.ID, tm.ID))
	if title, _, pointer := taErrorDetail(doc); status != http.StatusUnprocessableEntity || title != "invalid attribute" || pointer != "/data/attributes/state-versions" {
		t.Errorf("status %d, errors %v", status, doc["errors"])
	}
	// Null is the same as absent.
	status, doc = rawTeamAccess(t, w, http.MethodPost, "/api/v2/team-workspaces", w.inst.Token, fmt.Sprintf(
		`{"data":{"type":"team-workspaces","attributes":{"access":"read","runs":null},"relationships":{"workspace":{"data":{"type":"workspaces","id":%q}},"team":{"data":{"type":"teams","id":%q}}}}}`, ws.ID, tm.ID))
	if status != http.StatusOK {
		t.Errorf("null permission with read: status %d, %v", status, doc)
	}
}

func TestTeamAccess_duplicate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	other := taWorkspace(t, w, "other")
	tm := w.team(t, "devs", nil)
	first := taGrant(t, w, tm, ws, tfe.AccessRead)

	for _, level := range []tfe.AccessType{tfe.AccessRead, tfe.AccessAdmin, tfe.AccessCustom} {
		_, err := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(level), Team: tm, Workspace: ws})
		if err == nil || err.Error() != "invalid attribute\n\nTeam has already been taken" {
			t.Errorf("second add (%s): err = %v, want 422 Team has already been taken", level, err)
		}
	}
	l, err := w.owner.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
	if err != nil || len(l.Items) != 1 || l.Items[0].ID != first.ID || l.Items[0].Access != tfe.AccessRead {
		t.Errorf("after refused duplicates: %v, %v", l, err)
	}
	// The same team on another workspace is another grant.
	taGrant(t, w, tm, other, tfe.AccessWrite)

	status, doc := rawTeamAccess(t, w, http.MethodPost, "/api/v2/team-workspaces", w.inst.Token, fmt.Sprintf(
		`{"data":{"type":"team-workspaces","attributes":{"access":"plan"},"relationships":{"workspace":{"data":{"type":"workspaces","id":%q}},"team":{"data":{"type":"teams","id":%q}}}}}`, ws.ID, tm.ID))
	if _, detail, pointer := taErrorDetail(doc); status != http.StatusUnprocessableEntity || detail != "Team has already been taken" || pointer != "/data/relationships/team" {
		t.Errorf("raw duplicate: status %d, errors %v", status, doc["errors"])
	}
}

// TestTeamAccess_list: not paginated unless a page parameter is given,
// then paginated with meta.pagination.
func TestTeamAccess_list(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	other := taWorkspace(t, w, "other")
	var ids []string
	for i := range 25 {
		ids = append(ids, taGrant(t, w, w.team(t, fmt.Sprintf("t%02d", i), nil), ws, tfe.AccessRead).ID)
	}
	taGrant(t, w, w.team(t, "elsewhere", nil), other, tfe.AccessRead)

	tests := map[string]struct {
		opts                         tfe.ListOptions
		wantFirst, wantN             int
		wantPage, wantNext, wantPrev int
		wantTotal, wantPages         int
	}{
		"no page parameters: everything": {tfe.ListOptions{}, 0, 25, 0, 0, 0, 0, 0},
		"page size 10":                   {tfe.ListOptions{PageSize: 10}, 0, 10, 1, 2, 0, 25, 3},
		"page 2 of 10":                   {tfe.ListOptions{PageNumber: 2, PageSize: 10}, 10, 10, 2, 3, 1, 25, 3},
		"last page of 10":                {tfe.ListOptions{PageNumber: 3, PageSize: 10}, 20, 5, 3, 0, 2, 25, 3},
		"page number alone: 20 a page":   {tfe.ListOptions{PageNumber: 2}, 20, 5, 2, 0, 1, 25, 2},
		"page 1 alone":                   {tfe.ListOptions{PageNumber: 1}, 0, 20, 1, 2, 0, 25, 2},
		"past the end":                   {tfe.ListOptions{PageNumber: 9, PageSize: 10}, 0, 0, 9, 0, 0, 25, 3},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, err := w.owner.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{ListOptions: tc.opts, WorkspaceID: ws.ID})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Items) != tc.wantN {
				t.Fatalf("got %d items, want %d", len(l.Items), tc.wantN)
			}
			for i, it := range l.Items {
				if it.ID != ids[tc.wantFirst+i] {
					t.Errorf("item %d = %s, want %s (oldest first)", i, it.ID, ids[tc.wantFirst+i])
				}
				if it.Workspace == nil || it.Workspace.ID != ws.ID {
					t.Errorf("item %d is on workspace %+v", i, it.Workspace)
				}
			}
			pg := l.Pagination
			if pg.CurrentPage != tc.wantPage || pg.NextPage != tc.wantNext || pg.PreviousPage != tc.wantPrev || pg.TotalCount != tc.wantTotal || pg.TotalPages != tc.wantPages {
				t.Errorf("pagination %+v", *pg)
			}
		})
	}

	// On the wire: no meta and no links without page parameters.
	status, doc := rawTeamAccess(t, w, http.MethodGet, "/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D="+ws.ID, w.inst.Token, "")
	if _, ok := doc["meta"]; status != http.StatusOK || ok {
		t.Errorf("unpaginated: status %d, meta present %v", status, ok)
	}
	if data, _ := doc["data"].([]any); len(data) != 25 {
		t.Errorf("unpaginated: %d items", len(data))
	}
	status, doc = rawTeamAccess(t, w, http.MethodGet, "/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D="+ws.ID+"&page%5Bsize%5D=10", w.inst.Token, "")
	links, _ := doc["links"].(map[string]any)
	if next, _ := links["next"].(string); status != http.StatusOK || !strings.Contains(next, "page%5Bnumber%5D=2") || !strings.Contains(next, "filter%5Bworkspace%5D%5Bid%5D="+ws.ID) {
		t.Errorf("paginated links = %v", links)
	}

	// An empty workspace lists [] (not null).
	empty := taWorkspace(t, w, "empty")
	_, doc = rawTeamAccess(t, w, http.MethodGet, "/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D="+empty.ID, w.inst.Token, "")
	if data, ok := doc["data"].([]any); !ok || len(data) != 0 {
		t.Errorf("empty workspace: data = %#v", doc["data"])
	}
}

// TestTeamAccess_wireFormat checks what go-tfe does not: links,
// relationship links, include, and that an unknown attribute such as
// plan-outputs is accepted and not returned.
func TestTeamAccess_wireFormat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	tm := w.team(t, "devs", nil)
	status, doc := rawTeamAccess(t, w, http.MethodPost, "/api/v2/team-workspaces", w.inst.Token, fmt.Sprintf(
		`{"data":{"type":"team-workspaces","attributes":{"access":"custom","runs":"read","variables":"none","state-versions":"none","plan-outputs":"none","sentinel-mocks":"none","workspace-locking":false},"relationships":{"workspace":{"data":{"type":"workspaces","id":%q}},"team":{"data":{"type":"teams","id":%q}}}}}`, ws.ID, tm.ID))
	if status != http.StatusOK {
		t.Fatalf("add with plan-outputs: status %d, %v", status, doc)
	}
	data, _ := doc["data"].(map[string]any)
	id, _ := data["id"].(string)
	attrs, _ := data["attributes"].(map[string]any)
	if data["type"] != "team-workspaces" || !strings.HasPrefix(id, "tws-") {
		t.Errorf("data = %v", data)
	}
	if _, ok := attrs["plan-outputs"]; ok {
		t.Errorf("plan-outputs was returned: %v", attrs)
	}
	for _, k := range []string{"access", "runs", "variables", "state-versions", "sentinel-mocks", "workspace-locking", "run-tasks", "policy-overrides"} {
		if _, ok := attrs[k]; !ok {
			t.Errorf("attribute %s missing", k)
		}
	}
	if links, _ := data["links"].(map[string]any); links["self"] != "/api/v2/team-workspaces/"+id {
		t.Errorf("links = %v", data["links"])
	}
	rels, _ := data["relationships"].(map[string]any)
	for name, want := range map[string][2]string{"team": {"teams", tm.ID}, "workspace": {"workspaces", ws.ID}} {
		rel, _ := rels[name].(map[string]any)
		d, _ := rel["data"].(map[string]any)
		l, _ := rel["links"].(map[string]any)
		if d["type"] != want[0] || d["id"] != want[1] || l["related"] != "/api/v2/"+want[0]+"/"+want[1] {
			t.Errorf("relationships.%s = %v", name, rel)
		}
	}

	// include=team,workspace on show and list.
	for _, path := range []string{"/api/v2/team-workspaces/" + id + "?include=team,workspace", "/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=" + ws.ID + "&include=team%2Cworkspace"} {
		_, doc := rawTeamAccess(t, w, http.MethodGet, path, w.inst.Token, "")
		inc, _ := doc["included"].([]any)
		var got []string
		for _, r := range inc {
			m, _ := r.(map[string]any)
			got = append(got, fmt.Sprint(m["type"], "/", m["id"]))
		}
		slices.Sort(got)
		if want := []string{"teams/" + tm.ID, "workspaces/" + ws.ID}; !slices.Equal(got, want) {
			t.Errorf("%s: included %v, want %v", path, got, want)
		}
	}

	// go-tfe decodes the included team into the relation.
	req, err := w.owner.NewRequest(http.MethodGet, "team-workspaces/"+id, &struct {
		Include string `url:"include"`
	}{"team"})
	if err != nil {
		t.Fatal(err)
	}
	ta := &tfe.TeamAccess{}
	if err := req.Do(context.Background(), ta); err != nil || ta.Team == nil || ta.Team.Name != "devs" {
		t.Errorf("include=team through go-tfe: %+v, %v", ta.Team, err)
	}
}

func TestTeamAccess_errors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	tm := w.team(t, "devs", nil)
	ta := taGrant(t, w, tm, ws, tfe.AccessCustom)

	w.organization(t, "rival")
	rivalTeam, err := w.admin.Teams.Create(ctx, "rival", tfe.TeamCreateOptions{Name: tfe.String("spies")})
	if err != nil {
		t.Fatal(err)
	}
	rivalWs, err := w.admin.Workspaces.Create(ctx, "rival", tfe.WorkspaceCreateOptions{Name: tfe.String("target")})
	if err != nil {
		t.Fatal(err)
	}

	// 404s through go-tfe.
	for name, err := range map[string]error{
		"list of a missing workspace": func() error {
			_, e := w.owner.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: "ws-doesnotexist00001"})
			return e
		}(),
		"show a missing grant": func() error { _, e := w.owner.TeamAccess.Read(ctx, "tws-doesnotexist0001"); return e }(),
		"add to a missing workspace": func() error {
			_, e := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access("read"), Team: tm, Workspace: &tfe.Workspace{ID: "ws-doesnotexist00001"}})
			return e
		}(),
		"add a missing team": func() error {
			_, e := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access("read"), Team: &tfe.Team{ID: "team-doesnotexist001"}, Workspace: ws})
			return e
		}(),
		"add a team of another org": func() error {
			_, e := w.admin.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access("read"), Team: rivalTeam, Workspace: ws})
			return e
		}(),
		"add to another org's workspace": func() error {
			_, e := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access("read"), Team: tm, Workspace: rivalWs})
			return e
		}(),
		"list another org's workspace": func() error {
			_, e := w.owner.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: rivalWs.ID})
			return e
		}(),
	} {
		if !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s: err = %v, want ErrResourceNotFound", name, err)
		}
	}
	if _, err := client(t, w.inst, "not-a-token").TeamAccess.Read(ctx, ta.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("bad token: %v", err)
	}

	rel := fmt.Sprintf(`"relationships":{"workspace":{"data":{"type":"workspaces","id":%q}},"team":{"data":{"type":"teams","id":%q}}}`, ws.ID, w.team(t, "fresh", nil).ID)
	tests := map[string]struct {
		method, path, body string
		status             int
		wantDetail         string
	}{
		"list without filter":      {http.MethodGet, "/api/v2/team-workspaces", "", http.StatusBadRequest, "filter[workspace][id]"},
		"bad page size":            {http.MethodGet, "/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=" + ws.ID + "&page%5Bsize%5D=x", "", http.StatusBadRequest, "page[size]"},
		"missing access":           {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"team-workspaces","attributes":{},` + rel + `}}`, 422, "access is required"},
		"unknown access":           {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"team-workspaces","attributes":{"access":"owner"},` + rel + `}}`, 422, "access must be one of read, plan, write, admin, custom"},
		"access not a string":      {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"team-workspaces","attributes":{"access":3},` + rel + `}}`, 422, "access must be a string"},
		"bad runs":                 {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"team-workspaces","attributes":{"access":"custom","runs":"destroy"},` + rel + `}}`, 422, "runs must be one of read, plan, apply"},
		"bad state-versions":       {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"team-workspaces","attributes":{"access":"custom","state-versions":"all"},` + rel + `}}`, 422, "state-versions must be one of none, read-outputs, read, write"},
		"locking not a boolean":    {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"team-workspaces","attributes":{"access":"custom","workspace-locking":"yes"},` + rel + `}}`, 422, "workspace-locking must be a boolean"},
		"missing workspace":        {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"team-workspaces","attributes":{"access":"read"},"relationships":{"team":{"data":{"type":"teams","id":"team-x"}}}}}`, 422, "workspace is required"},
		"missing team":             {http.MethodPost, "/api/v2/team-workspaces", fmt.Sprintf(`{"data":{"type":"team-workspaces","attributes":{"access":"read"},"relationships":{"workspace":{"data":{"type":"workspaces","id":%q}}}}}`, ws.ID), 422, "team is required"},
		"team of the wrong type":   {http.MethodPost, "/api/v2/team-workspaces", fmt.Sprintf(`{"data":{"type":"team-workspaces","attributes":{"access":"read"},"relationships":{"workspace":{"data":{"type":"workspaces","id":%q}},"team":{"data":{"type":"users","id":"x"}}}}}`, ws.ID), 422, `team.data.type must be "teams"`},
		"wrong data.type":          {http.MethodPost, "/api/v2/team-workspaces", `{"data":{"type":"teams","attributes":{"access":"read"},` + rel + `}}`, 422, "data.type"},
		"not json":                 {http.MethodPost, "/api/v2/team-workspaces", `{`, 422, "JSON:API"},
		"update to unknown access": {http.MethodPatch, "/api/v2/team-workspaces/" + ta.ID, `{"data":{"type":"team-workspaces","attributes":{"access":"root"}}}`, 422, "access must be one of"},
		"update bad variables":     {http.MethodPatch, "/api/v2/team-workspaces/" + ta.ID, `{"data":{"type":"team-workspaces","attributes":{"variables":"all"}}}`, 422, "variables must be one of none, read, write"},
	}
	t.Run("raw", func(t *testing.T) {
		for name, tc := range tests {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				status, doc := rawTeamAccess(t, w, tc.method, tc.path, w.inst.Token, tc.body)
				_, detail, _ := taErrorDetail(doc)
				if status != tc.status || !strings.Contains(detail, tc.wantDetail) {
					t.Errorf("status %d, errors %v; want %d naming %q", status, doc["errors"], tc.status, tc.wantDetail)
				}
			})
		}
	})
	// None of the refused requests changed the grant.
	if read, err := w.owner.TeamAccess.Read(ctx, ta.ID); err != nil || read.Access != tfe.AccessCustom || read.Variables != "none" {
		t.Errorf("grant after refused updates: %+v, %v", read, err)
	}
}

// TestTeamAccess_cascade: deleting a workspace or a team removes its grants.
func TestTeamAccess_cascade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	keep := taWorkspace(t, w, "keep")
	gone := w.team(t, "gone", nil)
	stays := w.team(t, "stays", nil)
	onDeletedWs := taGrant(t, w, stays, ws, tfe.AccessRead)
	ofDeletedTeam := taGrant(t, w, gone, keep, tfe.AccessWrite)
	survivor := taGrant(t, w, stays, keep, tfe.AccessPlan)

	if err := w.owner.Workspaces.DeleteByID(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.owner.Teams.Delete(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{onDeletedWs.ID, ofDeletedTeam.ID} {
		if _, err := w.owner.TeamAccess.Read(ctx, id); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("grant %s after its parent was deleted: err = %v", id, err)
		}
	}
	l, err := w.owner.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: keep.ID})
	if err != nil || len(l.Items) != 1 || l.Items[0].ID != survivor.ID {
		t.Errorf("grants left on keep: %+v, %v", l, err)
	}
}

// TestTeamAccess_authorization follows the reference's points 5 and 6:
// members see the grants of their own teams (secret ones included);
// owners, workspace admins, the organization token and the owners team
// token see and change all of them; everyone else gets 404.
func TestTeamAccess_authorization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	otherWs := taWorkspace(t, w, "other")

	devs := w.team(t, "devs", nil) // secret: the default visibility
	ops := w.team(t, "ops", nil)
	if _, err := w.owner.Teams.Update(ctx, ops.ID, tfe.TeamUpdateOptions{Visibility: tfe.String("organization")}); err != nil {
		t.Fatal(err)
	}
	admins := w.team(t, "admins", nil)
	outsiders := w.team(t, "outsiders", nil)
	// Admin elsewhere does not make a workspace admin here.
	otherAdmins := w.team(t, "other-admins", nil)
	// "Manage all workspaces" administers every workspace, with no grant.
	managers := w.team(t, "managers", &tfe.OrganizationAccessOptions{ManageWorkspaces: tfe.Bool(true)})
	viewers := w.team(t, "viewers", &tfe.OrganizationAccessOptions{ReadWorkspaces: tfe.Bool(true)})

	devsGrant := taGrant(t, w, devs, ws, tfe.AccessRead)
	opsGrant := taGrant(t, w, ops, ws, tfe.AccessWrite)
	adminsGrant := taGrant(t, w, admins, ws, tfe.AccessAdmin)
	taGrant(t, w, otherAdmins, otherWs, tfe.AccessAdmin)
	all := []string{devsGrant.ID, opsGrant.ID, adminsGrant.ID}

	owners, err := w.owner.Teams.List(ctx, w.org, &tfe.TeamListOptions{Names: []string{"owners"}})
	if err != nil || len(owners.Items) != 1 {
		t.Fatalf("owners team: %v, %v", owners, err)
	}

	rivalOwner := w.organization(t, "rival")

	tests := map[string]struct {
		client *tfe.Client
		// sees lists the grants of ws the caller sees; nil means the
		// list itself is a 404.
		sees   []string
		manage bool
	}{
		"owner":                          {w.owner, all, true},
		"admin token":                    {w.admin, all, true},
		"organization token":             {w.orgClient(t), all, true},
		"owners team token":              {w.teamClient(t, owners.Items[0]), all, true},
		"workspace admin (member)":       {w.member(t, "lead@acme.test", admins), all, true},
		"workspace admin (team token)":   {w.teamClient(t, admins), all, true},
		"manage workspaces (member)":     {w.member(t, "manager@acme.test", managers), all, true},
		"manage workspaces (team token)": {w.teamClient(t, managers), all, true},
		"view all workspaces":            {w.teamClient(t, viewers), []string{}, false},
		"member of a secret team":        {w.member(t, "dev@acme.test", devs), []string{devsGrant.ID}, false},
		"member of two teams":            {w.member(t, "both@acme.test", devs, ops), []string{devsGrant.ID, opsGrant.ID}, false},
		"other team token":               {w.teamClient(t, ops), []string{opsGrant.ID}, false},
		"member of a team with no grant": {w.member(t, "new@acme.test", outsiders), []string{}, false},
		"admin of another workspace":     {w.member(t, "elsewhere@acme.test", otherAdmins), []string{}, false},
		"owner of another organization":  {rivalOwner, nil, false},
	}
	// The group waits for its parallel subtests before the checks below.
	t.Run("callers", func(t *testing.T) {
		for name, tc := range tests {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				l, err := tc.client.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
				switch {
				case tc.sees == nil:
					if !errors.Is(err, tfe.ErrResourceNotFound) {
						t.Errorf("list: err = %v, want ErrResourceNotFound", err)
					}
				case err != nil:
					t.Errorf("list: %v", err)
				default:
					var got []string
					for _, it := range l.Items {
						got = append(got, it.ID)
					}
					// Those who manage may also see grants other subtests add.
					if tc.manage {
						for _, id := range tc.sees {
							if !slices.Contains(got, id) {
								t.Errorf("list lacks %s: %v", id, got)
							}
						}
					} else if !slices.Equal(taOrNone(got), tc.sees) {
						t.Errorf("list = %v, want %v", got, tc.sees)
					}
				}
				for _, id := range all {
					_, err := tc.client.TeamAccess.Read(ctx, id)
					if visible := slices.Contains(tc.sees, id); visible && err != nil {
						t.Errorf("show %s: %v", id, err)
					} else if !visible && !errors.Is(err, tfe.ErrResourceNotFound) {
						t.Errorf("show %s: err = %v, want ErrResourceNotFound", id, err)
					}
				}

				fresh := w.team(t, "fresh-"+strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(name), nil)
				added, addErr := tc.client.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: fresh, Workspace: ws})
				if !tc.manage {
					if !errors.Is(addErr, tfe.ErrResourceNotFound) {
						t.Errorf("add: err = %v, want ErrResourceNotFound", addErr)
					}
					// Seeing a grant is not changing it.
					for _, id := range all {
						if _, err := tc.client.TeamAccess.Update(ctx, id, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessAdmin)}); !errors.Is(err, tfe.ErrResourceNotFound) {
							t.Errorf("update %s: err = %v, want ErrResourceNotFound", id, err)
						}
						if err := tc.client.TeamAccess.Remove(ctx, id); !errors.Is(err, tfe.ErrResourceNotFound) {
							t.Errorf("remove %s: err = %v, want ErrResourceNotFound", id, err)
						}
					}
					return
				}
				if addErr != nil {
					t.Fatalf("add: %v", addErr)
				}
				if _, err := tc.client.TeamAccess.Update(ctx, added.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessCustom), Runs: tfe.RunsPermission(tfe.RunsPermissionPlan)}); err != nil {
					t.Errorf("update: %v", err)
				}
				if err := tc.client.TeamAccess.Remove(ctx, added.ID); err != nil {
					t.Errorf("remove: %v", err)
				}
			})
		}
	})

	// Nothing the refused callers tried changed the grants.
	for _, want := range []*tfe.TeamAccess{devsGrant, opsGrant, adminsGrant} {
		got, err := w.owner.TeamAccess.Read(ctx, want.ID)
		if err != nil || got.Access != want.Access {
			t.Errorf("grant %s after the authorization tests: %+v, %v", want.ID, got, err)
		}
	}

	// Losing admin on the workspace ends workspace-admin rights.
	lead := w.member(t, "former@acme.test", admins)
	if _, err := w.owner.TeamAccess.Update(ctx, adminsGrant.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessWrite)}); err != nil {
		t.Fatal(err)
	}
	if _, err := lead.TeamAccess.Read(ctx, devsGrant.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("former workspace admin reads a secret team's grant: err = %v", err)
	}
	if _, err := lead.TeamAccess.Update(ctx, adminsGrant.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessAdmin)}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("former workspace admin restores admin: err = %v", err)
	}
}

func taOrNone(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}

// TestTeamAccess_snapshot: grants survive a restart from the --data
// snapshot, permissions and all.
func TestTeamAccess_snapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "state.json")
	start := func() *tfe.Client {
		inst := sandbox.StartWithOptions(t, sandbox.Options{DataFile: file, Token: "admin-token"})
		return client(t, inst, inst.Token)
	}
	c := start()
	if _, err := c.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("acme"), Email: tfe.String("o@acme.test")}); err != nil {
		t.Fatal(err)
	}
	ws, err := c.Workspaces.Create(ctx, "acme", tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := c.Teams.Create(ctx, "acme", tfe.TeamCreateOptions{Name: tfe.String("devs")})
	if err != nil {
		t.Fatal(err)
	}
	ta, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessCustom), Runs: tfe.RunsPermission("plan"), PolicyOverrides: tfe.Bool(true), Team: tm, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	c = start()
	got, err := c.TeamAccess.Read(ctx, ta.ID)
	if err != nil || got.Access != tfe.AccessCustom || taPermsOf(got) != taPermsOf(ta) || got.Team.ID != tm.ID {
		t.Errorf("after restart: %+v, %v", got, err)
	}
}

// TestTeamAccess_canUpdateRule: a workspace's can-update and the team access endpoints follow one
// rule, as the provider relies on (DESIGN.md "Gone or cannot see"): whoever the workspace read says
// may update it sees every grant and may add, update and remove them; anyone else sees only their
// own teams' grants and changes none.
func TestTeamAccess_canUpdateRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	secret := w.team(t, "secret", nil)
	secretGrant := taGrant(t, w, secret, ws, tfe.AccessRead)
	type caller struct {
		name string
		team *tfe.Team // its grant on ws is its own to see
		c    *tfe.Client
	}
	var callers []caller
	for i, access := range []*tfe.OrganizationAccessOptions{
		nil,
		{ManageWorkspaces: tfe.Bool(true)},
		{ReadWorkspaces: tfe.Bool(true)},
		{ManagePolicies: tfe.Bool(true), ManageAgentPools: tfe.Bool(true)},
	} {
		for _, grant := range []tfe.AccessType{"", tfe.AccessRead, tfe.AccessWrite, tfe.AccessAdmin} {
			tm := w.team(t, fmt.Sprintf("t%d-%s", i, cmp.Or(string(grant), "none")), access)
			if grant != "" {
				taGrant(t, w, tm, ws, grant)
			}
			callers = append(callers,
				caller{"team token " + tm.Name, tm, w.teamClient(t, tm)},
				caller{"member of " + tm.Name, tm, w.member(t, tm.Name+"@acme.test", tm)})
		}
	}
	callers = append(callers, caller{"owner", nil, w.owner}, caller{"organization token", nil, w.orgClient(t)})
	for _, c := range callers {
		t.Run(c.name, func(t *testing.T) {
			read, err := c.c.Workspaces.ReadByID(ctx, ws.ID)
			if err != nil {
				t.Fatalf("workspace read: %v", err)
			}
			canUpdate := read.Permissions != nil && read.Permissions.CanUpdate
			l, err := c.c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
			if err != nil {
				t.Fatalf("list: %v", err)
			}
			seesSecret, seesOthers := false, false
			for _, g := range l.Items {
				seesSecret = seesSecret || g.ID == secretGrant.ID
				seesOthers = seesOthers || c.team == nil || g.Team.ID != c.team.ID
			}
			if seesSecret != canUpdate || (!canUpdate && seesOthers) {
				t.Errorf("can-update %v, but the list shows another team's grant: %v (any: %v)", canUpdate, seesSecret, seesOthers)
			}
			_, err = c.c.TeamAccess.Update(ctx, secretGrant.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessRead)})
			if (err == nil) != canUpdate {
				t.Errorf("can-update %v, but updating another team's grant: %v", canUpdate, err)
			}
			fresh := w.team(t, "fresh-"+strings.ReplaceAll(c.name, " ", "-"), nil)
			added, err := c.c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: fresh, Workspace: ws})
			if (err == nil) != canUpdate {
				t.Fatalf("can-update %v, but adding a grant: %v", canUpdate, err)
			}
			if added != nil {
				if err := c.c.TeamAccess.Remove(ctx, added.ID); err != nil {
					t.Errorf("removing the grant it added: %v", err)
				}
			}
		})
	}
}
