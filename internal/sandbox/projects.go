package sandbox

import (
	"slices"
	"strings"
)

// Projects: the containers of workspaces that team project access
// (team_project_access.go) grants on. Every organization has a default
// project, which holds every workspace made without one: README.md
// "Projects".

// defaultProjectName is the name the real service gives every
// organization's default project.
const defaultProjectName = "Default Project"

type project struct {
	record
	Org         string `json:"org"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// ExecutionMode is the project's own default execution mode ("" inherits
	// the organization's) and AgentPoolID the pool of mode agent.
	ExecutionMode string `json:"execution_mode,omitempty"`
	AgentPoolID   string `json:"agent_pool_id,omitempty"`
	// AutoDestroyActivityDuration is inherited by the project's new
	// workspaces ("" for none).
	AutoDestroyActivityDuration string       `json:"auto_destroy_activity_duration,omitempty"`
	TagBindings                 []tagBinding `json:"tag_bindings,omitempty"`
}

// tagBinding is a key/value tag of a project.
type tagBinding struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// projectIn returns the project id of org, or nil: the lookup every route
// and seed check that names a project by ID makes.
func (st *state) projectIn(org, id string) *project {
	if p := st.Projects[id]; p != nil && p.Org == org {
		return p
	}
	return nil
}

// defaultProject is org's default project (nil only for a missing
// organization).
func (st *state) defaultProject(org string) *project {
	if o := st.Organizations[org]; o != nil {
		return st.Projects[o.DefaultProjectID]
	}
	return nil
}

// isDefaultProject reports whether p is its organization's default project.
func (st *state) isDefaultProject(p *project) bool {
	o := st.Organizations[p.Org]
	return o != nil && o.DefaultProjectID == p.ID
}

// projectOf is the project ws belongs to.
func (st *state) projectOf(ws *workspace) *project {
	if p := st.projectIn(ws.Org, ws.ProjectID); p != nil {
		return p
	}
	return st.defaultProject(ws.Org)
}

// workspacesOf lists the workspaces of project id, oldest first.
func (st *state) workspacesOf(id string) []*workspace {
	return sorted(st.Workspaces, func(ws *workspace) bool { return ws.ProjectID == id })
}

// projectByName finds org's project named name; the real service compares
// project names without regard to case.
func (st *state) projectByName(org, name string) *project {
	return find(st.Projects, func(p *project) bool { return p.Org == org && strings.EqualFold(p.Name, name) })
}

// addDefaultProject gives o its default project, under id ("" for a new
// random one).
func (st *state) addDefaultProject(o *organization, id string) *project {
	r := st.newRecord("prj-")
	if id != "" {
		r.ID = id
	}
	p := &project{record: r, Org: o.Name, Name: defaultProjectName}
	st.Projects[p.ID] = p
	o.DefaultProjectID = p.ID
	return p
}

// ensureProjects keeps the projects' invariants over a state from any
// source (an older snapshot, a seed): every organization has a default
// project, and every workspace is in a project of its organization.
func (st *state) ensureProjects() {
	for _, o := range sorted(st.Organizations, nil) {
		if st.projectIn(o.Name, o.DefaultProjectID) == nil {
			st.addDefaultProject(o, stableID("prj-", o.Name, defaultProjectName))
		}
	}
	for _, ws := range st.Workspaces {
		if st.projectIn(ws.Org, ws.ProjectID) == nil {
			if p := st.defaultProject(ws.Org); p != nil {
				ws.ProjectID = p.ID
			}
		}
	}
}

// deleteProject removes a project and what hangs off it: its teams'
// grants. Its workspaces must have gone first (the routes refuse
// otherwise; an organization's delete removes them).
func (st *state) deleteProject(id string) {
	deleteWhere(st.TeamProjectAccesses, func(tp *teamProjectAccess) bool { return tp.ProjectID == id }, func(id string) { delete(st.TeamProjectAccesses, id) })
	for _, ap := range st.AgentPools {
		ap.AllowedProjects = slices.DeleteFunc(ap.AllowedProjects, func(p string) bool { return p == id })
	}
	delete(st.Projects, id)
}
