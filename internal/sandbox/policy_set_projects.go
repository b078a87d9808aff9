package sandbox

import "net/http"

// The projects a policy set's scope names (projects.go): a project
// relationship names projects of the set's organization, and a workspace
// is in its project for the scope (README.md "Policy sets").

// checkProject refuses an ID that is no project of org.
func (st *state) checkProject(org, relName, id string) *apiError {
	if st.projectIn(org, id) == nil {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: relName + ": project " + id + " not found in organization " + org, Pointer: "/data/relationships/" + relName}
	}
	return nil
}

// scopeWorkspaceOf is the scope function's view of a workspace: its
// project, and its tags: the flat tags, and for each key/value tag it or
// its project carries, the key and "key:value" (policy_set_scope.go).
func (st *state) scopeWorkspaceOf(ws *workspace) scopeWorkspace {
	out := scopeWorkspace{ID: ws.ID, Tags: append([]string(nil), ws.TagNames...)}
	for _, tb := range st.effectiveTagBindings(ws) {
		out.Tags = append(out.Tags, tb.Key, tb.Key+":"+tb.Value)
	}
	if prj := st.projectOf(ws); prj != nil {
		out.ProjectID = prj.ID
	}
	return out
}
