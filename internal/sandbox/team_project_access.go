package sandbox

// Team project access: team-projects, a team's permissions on one project and, through it, on
// every workspace of the project. Levels, defaults and who may: README.md "Team project access".

type teamProjectAccess struct {
	record
	Org       string `json:"org"`
	TeamID    string `json:"team_id"`
	ProjectID string `json:"project_id"`
	Access    string `json:"access"`
	// Project and Workspace are always the effective permissions: the
	// implied set for a fixed level, the chosen set for custom.
	Project   projectPermissions          `json:"project_access"`
	Workspace projectWorkspacePermissions `json:"workspace_access"`
}

// projectPermissions are a grant's permissions on the project itself.
type projectPermissions struct {
	Settings     string `json:"settings"`
	Teams        string `json:"teams"`
	VariableSets string `json:"variable-sets"`
}

// projectWorkspacePermissions are a grant's permissions on every workspace
// of the project.
type projectWorkspacePermissions struct {
	Runs            string `json:"runs"`
	SentinelMocks   string `json:"sentinel-mocks"`
	StateVersions   string `json:"state-versions"`
	Variables       string `json:"variables"`
	Create          bool   `json:"create"`
	Locking         bool   `json:"locking"`
	Move            bool   `json:"move"`
	Delete          bool   `json:"delete"`
	RunTasks        bool   `json:"run-tasks"`
	PolicyOverrides bool   `json:"policy-overrides"`
}

// teamProjectAccessOf returns the grant of team on project, if any.
func (st *state) teamProjectAccessOf(teamID, projectID string) *teamProjectAccess {
	return find(st.TeamProjectAccesses, func(tp *teamProjectAccess) bool { return tp.TeamID == teamID && tp.ProjectID == projectID })
}
