package sandbox

// The routes by which a team reaches a workspace: a grant on the workspace, a grant on its
// project, or an organization permission that covers every workspace. Permissions add up, so
// every route counts; README.md "Team project access", effective access.

// Route kinds, in the order teamRoutesTo reports them.
const (
	routeOrganization = "organization" // owners, manage-workspaces or manage-projects
	routeProject      = "project"      // a team-projects grant on the workspace's project
	routeWorkspace    = "workspace"    // a team-workspaces grant on the workspace
)

// accessRoute is one route by which a team reaches a workspace.
type accessRoute struct {
	TeamID string
	// Via is routeOrganization, routeProject or routeWorkspace; GrantID is
	// the grant's ID (tws-… or tprj-…), "" for an organization route.
	Via     string
	GrantID string
	// Access is the grant's level ("admin" for an organization route), Admin
	// whether the route administers the workspace (team access included),
	// and Permissions what it allows on the workspace.
	Access      string
	Admin       bool
	Permissions workspacePermissions
}

// teamRoutesTo lists every route by which team t reaches ws. It is the
// one place that decides a team's effective access to a workspace.
func (st *state) teamRoutesTo(t *team, ws *workspace) []accessRoute {
	var out []accessRoute
	if t.Org != ws.Org {
		return nil
	}
	if o := st.Organizations[ws.Org]; (o != nil && o.OwnersTeamID == t.ID) || t.Access.ManageWorkspaces || t.Access.ManageProjects {
		out = append(out, accessRoute{TeamID: t.ID, Via: routeOrganization, Access: "admin", Admin: true, Permissions: teamAccessLevels["admin"]})
	}
	if prj := st.projectOf(ws); prj != nil {
		if tp := st.teamProjectAccessOf(t.ID, prj.ID); tp != nil {
			out = append(out, accessRoute{TeamID: t.ID, Via: routeProject, GrantID: tp.ID, Access: tp.Access,
				Admin: tp.Access == "admin" || tp.Access == "maintain", Permissions: tp.Workspace.asWorkspacePermissions()})
		}
	}
	if ta := st.teamAccessOf(t.ID, ws.ID); ta != nil {
		out = append(out, accessRoute{TeamID: t.ID, Via: routeWorkspace, GrantID: ta.ID, Access: ta.Access, Admin: ta.Access == "admin", Permissions: ta.Permissions})
	}
	return out
}

// routesTo lists every route by which every team of ws's organization
// reaches ws, teams oldest first.
func (st *state) routesTo(ws *workspace) []accessRoute {
	var out []accessRoute
	for _, t := range sorted(st.Teams, func(t *team) bool { return t.Org == ws.Org }) {
		out = append(out, st.teamRoutesTo(t, ws)...)
	}
	return out
}

// asWorkspacePermissions is what a project grant allows on each workspace
// of the project, in a workspace grant's terms.
func (wp projectWorkspacePermissions) asWorkspacePermissions() workspacePermissions {
	return workspacePermissions{
		Runs: wp.Runs, Variables: wp.Variables, StateVersions: wp.StateVersions, SentinelMocks: wp.SentinelMocks,
		WorkspaceLocking: wp.Locking, RunTasks: wp.RunTasks, PolicyOverrides: wp.PolicyOverrides,
	}
}
