package sandbox

import "net/http"

// The projects a policy set's scope names. The sandbox has no projects
// yet: a project relationship is refused with a 422 saying so, and no
// workspace is in a project (README.md "Policy sets").

// checkProject refuses every project ID.
func (st *state) checkProject(_, relName, id string) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: relName + ": project " + id + " not found: the sandbox has no projects", Pointer: "/data/relationships/" + relName}
}

// projectResourceFor renders a project for `included`; there is none.
func (st *state) projectResourceFor(string) (resource, bool) { return resource{}, false }

// workspaceProject is the project a workspace is in: none.
func workspaceProject(*workspace) string { return "" }
