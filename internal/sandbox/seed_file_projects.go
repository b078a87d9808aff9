package sandbox

import (
	"slices"
	"strings"
)

// The seed file's projects and team project access (README.md "Seed files"): an organization's
// projects[], the project of each of its workspaces, and project_access[], the teams' grants.

type seedProject struct {
	path, ID, Name, Description string
}

type seedProjectAccess struct {
	path, ID, Team, Project string
	TeamID, ProjectID       string
	Access                  string
	ProjectPerms            projectPermissions
	WorkspacePerms          projectWorkspacePermissions
}

// projects checks the organization orgName's projects[]; names collects
// their names (the default project's included) and IDs, for workspaces'
// project and project_access[].
func (p *seedParser) projects(o *seedObj, orgName, defaultID string, names map[string]string) []seedProject {
	var out []seedProject
	seen := map[string]string{strings.ToLower(defaultProjectName): "the default project"}
	names[defaultProjectName] = defaultID
	o.list("projects", func(path string, v any) {
		po := p.object(path, v, "description", "id", "name")
		if po == nil {
			return
		}
		sp := seedProject{path: path}
		sp.Name = po.str("name", true, func(s string) string {
			if !projectNameRE.MatchString(s) {
				return "is not a project name: letters, digits, spaces, - and _, 3 to 40 characters, not starting or ending with a space"
			}
			return ""
		})
		p.unique(seen, join(path, "name"), "project name (in any case)", strings.ToLower(sp.Name))
		sp.Description = po.str("description", false, func(s string) string {
			if len([]rune(s)) > 256 {
				return "is longer than 256 characters"
			}
			return ""
		})
		sp.ID = po.id("prj-", "a project", orgName, sp.Name)
		names[sp.Name] = sp.ID
		out = append(out, sp)
	})
	return out
}

// projectAccessSection checks the organization's project_access[]: each
// names a team of teams[] (or owners) and a project of projects[] (or the
// default project).
func (p *seedParser) projectAccessSection(o *seedObj, orgName string, teams, projects map[string]string) []seedProjectAccess {
	var out []seedProjectAccess
	grants := map[string]string{}
	o.list("project_access", func(path string, v any) {
		ao := p.object(path, v, "access", "id", "project", "project_access", "team", "workspace_access")
		if ao == nil {
			return
		}
		g := seedProjectAccess{path: path}
		g.Team = ao.str("team", true, nil)
		g.TeamID = p.named(join(path, "team"), g.Team, teams, "a team name of this organization's teams[] (or owners)")
		g.Project = ao.str("project", true, nil)
		g.ProjectID = p.named(join(path, "project"), g.Project, projects, "a project name of this organization's projects[] (or "+defaultProjectName+")")
		if g.TeamID != "" && g.ProjectID != "" {
			if other, ok := grants[g.TeamID+"/"+g.ProjectID]; ok {
				p.fail(path, "team %q already has access to project %q in %s: a team holds one access per project", g.Team, g.Project, other)
			}
			grants[g.TeamID+"/"+g.ProjectID] = path
		}
		g.Access = ao.str("access", true, func(s string) string {
			if !slices.Contains(teamProjectAccessValues, s) {
				return "is not an access level: " + strings.Join(teamProjectAccessValues, ", ")
			}
			return ""
		})
		g.ProjectPerms, g.WorkspacePerms = customProjectDefaults, customWorkspaceDefaults
		if lvl, ok := teamProjectAccessLevels[g.Access]; ok {
			g.ProjectPerms, g.WorkspacePerms = lvl.project, lvl.workspace
		}
		for _, key := range []string{"project_access", "workspace_access"} {
			if _, ok := ao.m[key]; ok && g.Access != "" && g.Access != projectAccessCustom {
				p.fail(join(path, key), "applies only to access custom: access %s implies its permissions", g.Access)
			}
		}
		if pv, ok := ao.m["project_access"]; ok {
			seedPermissionObject(p, join(path, "project_access"), pv, projectPermissionAttrs, &g.ProjectPerms)
		}
		if pv, ok := ao.m["workspace_access"]; ok {
			seedPermissionObject(p, join(path, "workspace_access"), pv, projectWorkspacePermissionAttrs, &g.WorkspacePerms)
		}
		g.ID = ao.id("tprj-", "a team project access", orgName, g.Team, g.Project)
		out = append(out, g)
	})
	return out
}

// seedPermissionObject reads a custom project grant's project_access or
// workspace_access (the API's attributes, with underscores) into perms,
// over the service's defaults.
func seedPermissionObject[P any](p *seedParser, path string, v any, attrs []permissionAttr[P], perms *P) {
	allowed := make([]string, 0, len(attrs))
	for _, pa := range attrs {
		allowed = append(allowed, strings.ReplaceAll(pa.attr, "-", "_"))
	}
	slices.Sort(allowed)
	po := p.object(path, v, allowed...)
	if po == nil {
		return
	}
	for _, pa := range attrs {
		key := strings.ReplaceAll(pa.attr, "-", "_")
		if pa.flag != nil {
			*pa.flag(perms) = po.boolean(key, *pa.flag(perms))
			continue
		}
		if s := po.str(key, false, func(s string) string {
			if !slices.Contains(pa.allowed, s) {
				return "is not allowed: " + strings.Join(pa.allowed, ", ")
			}
			return ""
		}); s != "" {
			*pa.str(perms) = s
		}
	}
}

// seedProjectConflicts lists where the projects and project grants of the
// organization so contradict the state.
func (st *state) seedProjectConflicts(so seedOrg, fail func(path, format string, args ...any)) {
	if o := st.Organizations[so.Name]; o != nil && so.DefaultProjectIDGiven && o.DefaultProjectID != so.DefaultProjectID && st.Projects[o.DefaultProjectID] != nil {
		fail(so.path+".default_project_id", "organization %s already has its default project with ID %s: give that ID", so.Name, o.DefaultProjectID)
	}
	for _, sp := range so.Projects {
		if st.Seeded[sp.ID] {
			continue
		}
		if have := st.Projects[sp.ID]; have != nil && have.Org != so.Name {
			fail(sp.path+".id", "%q is already the ID of project %q of organization %s", sp.ID, have.Name, have.Org)
		}
		if have := st.projectByName(so.Name, sp.Name); have != nil && have.ID != sp.ID {
			fail(sp.path+".name", "project %q already exists in %s with ID %s: give that ID, or another name", sp.Name, so.Name, have.ID)
		}
	}
	for _, sg := range so.ProjectAccess {
		if st.Seeded[sg.ID] {
			continue
		}
		if have := st.TeamProjectAccesses[sg.ID]; have != nil && (have.TeamID != sg.TeamID || have.ProjectID != st.seedProjectID(so, sg.ProjectID)) {
			fail(sg.path+".id", "%q is already the ID of another team project access (team %s, project %s)", sg.ID, have.TeamID, have.ProjectID)
		}
		if have := st.teamProjectAccessOf(sg.TeamID, st.seedProjectID(so, sg.ProjectID)); have != nil && have.ID != sg.ID {
			fail(sg.path+".team", "team %q already has access to project %q with ID %s: give that ID", sg.Team, sg.Project, have.ID)
		}
	}
}

// applyProjects makes the projects of so that the state lacks and no seed
// made before (before its workspaces, which name them).
func (st *state) applyProjects(so seedOrg) {
	o := st.Organizations[so.Name]
	if o != nil && st.projectIn(o.Name, o.DefaultProjectID) == nil {
		st.addDefaultProject(o, so.DefaultProjectID)
	}
	for _, sp := range so.Projects {
		if st.Projects[sp.ID] != nil || st.Seeded[sp.ID] {
			continue
		}
		st.Projects[sp.ID] = &project{record: st.recordWithID(sp.ID), Org: so.Name, Name: sp.Name, Description: sp.Description}
	}
}

// seedProjectID is the ID in the state of the project a seed names by id:
// the organization's default project may have another ID than the file's
// (made by an earlier start without default_project_id).
func (st *state) seedProjectID(so seedOrg, id string) string {
	if o := st.Organizations[so.Name]; o != nil && id == so.DefaultProjectID {
		return o.DefaultProjectID
	}
	return id
}

// applyProjectAccess makes the project grants of so that the state lacks
// and no seed made before, whose team and project exist.
func (st *state) applyProjectAccess(so seedOrg) {
	for _, sg := range so.ProjectAccess {
		prj := st.seedProjectID(so, sg.ProjectID)
		if st.TeamProjectAccesses[sg.ID] != nil || st.Seeded[sg.ID] || st.Teams[sg.TeamID] == nil || st.projectIn(so.Name, prj) == nil {
			continue
		}
		st.TeamProjectAccesses[sg.ID] = &teamProjectAccess{record: st.recordWithID(sg.ID), Org: so.Name, TeamID: sg.TeamID, ProjectID: prj,
			Access: sg.Access, Project: sg.ProjectPerms, Workspace: sg.WorkspacePerms}
	}
}
