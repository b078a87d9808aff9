package sandbox_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestTeamProjectAccess_levels: each fixed level implies its permissions on
// the project and its workspaces, a custom grant starts from the defaults
// and keeps what is sent, and a permission that differs from what a fixed
// level implies is refused naming it.
func TestTeamProjectAccess_levels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	p := w.project(t, "apps")
	type want struct {
		settings, teams, runs, variables string
		create, move, delete, locking    bool
	}
	for access, exp := range map[tfe.TeamProjectAccessType]want{
		tfe.TeamProjectAccessRead:     {"read", "none", "read", "read", false, false, false, false},
		tfe.TeamProjectAccessWrite:    {"read", "none", "apply", "write", false, false, false, true},
		tfe.TeamProjectAccessMaintain: {"read", "none", "apply", "write", true, false, true, true},
		tfe.TeamProjectAccessAdmin:    {"delete", "manage", "apply", "write", true, true, true, true},
		tfe.TeamProjectAccessCustom:   {"read", "none", "read", "none", false, false, false, false},
	} {
		tm := w.team(t, "team-"+string(access), nil)
		tp, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: access, Team: tm, Project: p})
		if err != nil {
			t.Fatalf("%s: %v", access, err)
		}
		got, err := w.owner.TeamProjectAccess.Read(ctx, tp.ID)
		if err != nil {
			t.Fatal(err)
		}
		pa, wa := got.ProjectAccess, got.WorkspaceAccess
		if !strings.HasPrefix(got.ID, "tprj-") || got.Access != access || got.Team.ID != tm.ID || got.Project.ID != p.ID ||
			(want{string(pa.ProjectSettingsPermission), string(pa.ProjectTeamsPermission), string(wa.WorkspaceRunsPermission), string(wa.WorkspaceVariablesPermission),
				wa.WorkspaceCreatePermission, wa.WorkspaceMovePermission, wa.WorkspaceDeletePermission, wa.WorkspaceLockingPermission}) != exp {
			t.Errorf("%s: %+v %+v %+v", access, got, pa, wa)
		}
	}

	tm := w.team(t, "custom", nil)
	tp, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessCustom, Team: tm, Project: p,
		ProjectAccess:   &tfe.TeamProjectAccessProjectPermissionsOptions{Teams: tfe.ProjectTeamsPermission(tfe.ProjectTeamsPermissionRead)},
		WorkspaceAccess: &tfe.TeamProjectAccessWorkspacePermissionsOptions{Runs: tfe.WorkspaceRunsPermission(tfe.WorkspaceRunsPermissionPlan), Locking: tfe.Bool(true)}})
	if err != nil || tp.ProjectAccess.ProjectTeamsPermission != "read" || tp.ProjectAccess.ProjectSettingsPermission != "read" ||
		tp.WorkspaceAccess.WorkspaceRunsPermission != "plan" || !tp.WorkspaceAccess.WorkspaceLockingPermission || tp.WorkspaceAccess.WorkspaceStateVersionsPermission != "none" {
		t.Fatalf("custom: %+v, %v", tp, err)
	}
	// Moving to a fixed level and back to custom: the level's permissions stay until changed.
	if _, err := w.owner.TeamProjectAccess.Update(ctx, tp.ID, tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessWrite)}); err != nil {
		t.Fatal(err)
	}
	back, err := w.owner.TeamProjectAccess.Update(ctx, tp.ID, tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessCustom),
		WorkspaceAccess: &tfe.TeamProjectAccessWorkspacePermissionsOptions{Delete: tfe.Bool(true)}})
	if err != nil || back.WorkspaceAccess.WorkspaceRunsPermission != "apply" || !back.WorkspaceAccess.WorkspaceDeletePermission || back.ProjectAccess.ProjectTeamsPermission != "none" {
		t.Errorf("write, then custom: %+v, %v", back, err)
	}

	for name, tc := range map[string]struct {
		opts tfe.TeamProjectAccessUpdateOptions
		want string
	}{
		"a fixed level's permission": {tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessRead),
			WorkspaceAccess: &tfe.TeamProjectAccessWorkspacePermissionsOptions{Create: tfe.Bool(true)}}, "workspace-access.create is read-only when access level is 'read'"},
		"a bad value": {tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessCustom), ProjectAccess: &tfe.TeamProjectAccessProjectPermissionsOptions{Teams: tfe.ProjectTeamsPermission("all")}},
			`project-access.teams must be one of none, read, manage, got "all"`},
	} {
		if _, err := w.owner.TeamProjectAccess.Update(ctx, tp.ID, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
	// The same value as the level implies is accepted: hashicorp/tfe sends its state back.
	if _, err := w.owner.TeamProjectAccess.Update(ctx, tp.ID, tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessRead),
		WorkspaceAccess: &tfe.TeamProjectAccessWorkspacePermissionsOptions{Create: tfe.Bool(false)}}); err != nil {
		t.Errorf("a fixed level's own value: %v", err)
	}
}

// TestTeamProjectAccess_lifecycle: the list needs filter[project][id] and
// pages; a second grant for a team and project is a 422; remove, then
// read and remove again, is 404.
func TestTeamProjectAccess_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	p := w.project(t, "apps")
	a, b := w.team(t, "a", nil), w.team(t, "b", nil)
	ga, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessAdmin, Team: a, Project: p})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: b, Project: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: a, Project: p}); err == nil ||
		!strings.Contains(err.Error(), "Team has already been taken") {
		t.Errorf("duplicate: %v", err)
	}
	l, err := w.owner.TeamProjectAccess.List(ctx, tfe.TeamProjectAccessListOptions{ProjectID: p.ID})
	if err != nil || len(l.Items) != 2 || l.Items[0].ID != ga.ID || l.TotalCount != 2 {
		t.Errorf("list %+v, %v", l, err)
	}
	far, err := w.owner.TeamProjectAccess.List(ctx, tfe.TeamProjectAccessListOptions{ProjectID: p.ID, ListOptions: tfe.ListOptions{PageNumber: 999, PageSize: 100}})
	if err != nil || len(far.Items) != 0 || far.CurrentPage != 999 || far.TotalCount != 2 {
		t.Errorf("page 999: %+v, %v", far, err)
	}
	if got := policyRaw(t, w, "GET", "/api/v2/team-projects", ""); got.Status != http.StatusBadRequest || !strings.Contains(string(got.Body), "filter[project][id]") {
		t.Errorf("without the filter: %d %s", got.Status, got.Body)
	}
	if err := w.owner.TeamProjectAccess.Remove(ctx, ga.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.TeamProjectAccess.Read(ctx, ga.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read after remove: %v", err)
	}
	if err := w.owner.TeamProjectAccess.Remove(ctx, ga.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("remove twice: %v", err)
	}
	// Deleting a team removes its grants.
	if err := w.owner.Teams.Delete(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if l, err := w.owner.TeamProjectAccess.List(ctx, tfe.TeamProjectAccessListOptions{ProjectID: p.ID}); err != nil || len(l.Items) != 0 {
		t.Errorf("after the team's delete: %+v, %v", l, err)
	}
}

// TestTeamProjectAccess_whoMay: a project admin grant (its team's token)
// manages every grant of the project; a read grant's team sees only its
// own grant and changes none; a member with no grant gets 404.
func TestTeamProjectAccess_whoMay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	p := w.project(t, "apps")
	admins, readers, others := w.team(t, "admins", nil), w.team(t, "readers", nil), w.team(t, "others", nil)
	if _, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessAdmin, Team: admins, Project: p}); err != nil {
		t.Fatal(err)
	}
	admin := w.teamClient(t, admins)
	rg, err := admin.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: readers, Project: p})
	if err != nil {
		t.Fatalf("a project admin adds a grant: %v", err)
	}
	reader := w.teamClient(t, readers)
	l, err := reader.TeamProjectAccess.List(ctx, tfe.TeamProjectAccessListOptions{ProjectID: p.ID})
	if err != nil || len(l.Items) != 1 || l.Items[0].ID != rg.ID {
		t.Errorf("a reader lists %+v, %v", l, err)
	}
	if _, err := reader.TeamProjectAccess.Update(ctx, rg.ID, tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessAdmin)}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a reader raises its own grant: %v, want 404", err)
	}
	other := w.teamClient(t, others)
	if _, err := other.TeamProjectAccess.List(ctx, tfe.TeamProjectAccessListOptions{ProjectID: p.ID}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a member without access lists: %v, want 404", err)
	}
	if _, err := other.TeamProjectAccess.Read(ctx, rg.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a member without access reads: %v, want 404", err)
	}
	if err := admin.TeamProjectAccess.Remove(ctx, rg.ID); err != nil {
		t.Errorf("a project admin removes a grant: %v", err)
	}
}

// TestTeamProjectAccess_reachesWorkspaces: a grant on a project counts on
// every workspace in it, those made later included: maintain and admin
// administer them (can-update, every team-workspaces grant seen and
// managed), read only reads; moving a workspace out of the project ends
// the route.
func TestTeamProjectAccess_reachesWorkspaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	p := w.project(t, "apps")
	maintainers, readers, other := w.team(t, "maintainers", nil), w.team(t, "readers", nil), w.team(t, "other", nil)
	for tm, access := range map[*tfe.Team]tfe.TeamProjectAccessType{maintainers: tfe.TeamProjectAccessMaintain, readers: tfe.TeamProjectAccessRead} {
		if _, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: access, Team: tm, Project: p}); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("later"), Project: p})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: other, Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	maint, read := w.teamClient(t, maintainers), w.teamClient(t, readers)
	mws, err := maint.Workspaces.ReadByID(ctx, ws.ID)
	if err != nil || !mws.Permissions.CanUpdate || !mws.Permissions.CanQueueApply {
		t.Errorf("maintain: %+v, %v", mws.Permissions, err)
	}
	if l, err := maint.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID}); err != nil || len(l.Items) != 1 {
		t.Errorf("maintain sees every workspace grant: %+v, %v", l, err)
	}
	if _, err := maint.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{Description: tfe.String("by maintainers")}); err != nil {
		t.Errorf("maintain updates the workspace: %v", err)
	}
	rws, err := read.Workspaces.ReadByID(ctx, ws.ID)
	if err != nil || rws.Permissions.CanUpdate || !rws.Permissions.CanReadSettings || rws.Permissions.CanQueueRun || !rws.Permissions.CanReadVariable {
		t.Errorf("read: %+v, %v", rws.Permissions, err)
	}
	if _, err := w.owner.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{Project: w.defaultProject(t)}); err != nil {
		t.Fatal(err)
	}
	if mws, err := maint.Workspaces.ReadByID(ctx, ws.ID); err != nil || mws.Permissions.CanUpdate || mws.Permissions.CanReadSettings {
		t.Errorf("out of the project: %+v, %v", mws.Permissions, err)
	}
}
