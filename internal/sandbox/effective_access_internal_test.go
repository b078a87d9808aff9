package sandbox

import (
	"fmt"
	"slices"
	"testing"
)

// TestRoutesTo: routesTo names every route by which each team reaches a
// workspace (the organization's permissions, a grant on its project, a
// grant on the workspace), with the level and whether it administers the
// workspace; a team with none is absent, and moving the workspace to
// another project changes its project routes.
func TestRoutesTo(t *testing.T) {
	t.Parallel()
	st := newState()
	owner := &user{record: st.newRecord("user-"), Username: "o"}
	st.Users[owner.ID] = owner
	o := st.createOrganization("acme", "o@acme.test", owner)
	apps := &project{record: st.newRecord("prj-"), Org: "acme", Name: "apps"}
	st.Projects[apps.ID] = apps
	ws := &workspace{record: st.newRecord("ws-"), Org: "acme", Name: "w", ProjectID: apps.ID}
	st.Workspaces[ws.ID] = ws
	newTeam := func(name string, a orgAccess) *team {
		tm := &team{record: st.newRecord("team-"), Org: "acme", Name: name, Access: a}
		st.Teams[tm.ID] = tm
		return tm
	}
	newTeam("managers", orgAccess{ManageWorkspaces: true})
	both := newTeam("both", orgAccess{})
	readers := newTeam("readers", orgAccess{})
	newTeam("nobody", orgAccess{ReadWorkspaces: true})
	for tm, access := range map[*team]string{both: "maintain", readers: "read"} {
		lvl := teamProjectAccessLevels[access]
		tp := &teamProjectAccess{record: st.newRecord("tprj-"), Org: "acme", TeamID: tm.ID, ProjectID: apps.ID, Access: access, Project: lvl.project, Workspace: lvl.workspace}
		st.TeamProjectAccesses[tp.ID] = tp
	}
	ta := &teamAccess{record: st.newRecord("tws-"), Org: "acme", TeamID: both.ID, WorkspaceID: ws.ID, Access: "read", Permissions: teamAccessLevels["read"]}
	st.TeamAccesses[ta.ID] = ta

	describe := func() []string {
		var out []string
		for _, r := range st.routesTo(ws) {
			out = append(out, fmt.Sprintf("%s %s %s admin=%v runs=%s", st.Teams[r.TeamID].Name, r.Via, r.Access, r.Admin, r.Permissions.Runs))
		}
		return out
	}
	want := []string{
		"owners organization admin admin=true runs=apply",
		"managers organization admin admin=true runs=apply",
		"both project maintain admin=true runs=apply",
		"both workspace read admin=false runs=read",
		"readers project read admin=false runs=read",
	}
	if got := describe(); !slices.Equal(got, want) {
		t.Errorf("routes:\n got %q\nwant %q", got, want)
	}
	if o.OwnersTeamID == "" {
		t.Fatal("no owners team")
	}
	ws.ProjectID = o.DefaultProjectID
	want = []string{
		"owners organization admin admin=true runs=apply",
		"managers organization admin admin=true runs=apply",
		"both workspace read admin=false runs=read",
	}
	if got := describe(); !slices.Equal(got, want) {
		t.Errorf("after the move:\n got %q\nwant %q", got, want)
	}
}
