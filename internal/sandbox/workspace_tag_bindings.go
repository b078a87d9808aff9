package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// A workspace's key/value tags (tag bindings), as go-tfe's
// Workspaces.AddTagBindings and ListTagBindings send and read them; policy
// set tag selectors match them (policy_set_scope.go). README.md
// "Workspace tags".

func (s *Server) registerWorkspaceTagBindings() {
	s.route("GET /api/v2/workspaces/{id}/tag-bindings", s.listWorkspaceTagBindings)
	s.route("PATCH /api/v2/workspaces/{id}/tag-bindings", s.addWorkspaceTagBindings)
	s.route("GET /api/v2/workspaces/{id}/effective-tag-bindings", s.listEffectiveTagBindings)
}

// effectiveTagBindings are a workspace's key/value tags with its project's:
// the project's first, a key the workspace has itself taking its value.
func (st *state) effectiveTagBindings(ws *workspace) []tagBinding {
	var out []tagBinding
	if prj := st.projectOf(ws); prj != nil {
		for _, tb := range prj.TagBindings {
			if !slices.ContainsFunc(ws.TagBindings, func(own tagBinding) bool { return own.Key == tb.Key }) {
				out = append(out, tb)
			}
		}
	}
	return append(out, ws.TagBindings...)
}

func effectiveBindingIDs(wsID string, tbs []tagBinding) []string {
	ids := make([]string, 0, len(tbs))
	for _, tb := range tbs {
		ids = append(ids, stableID("etb-", wsID, tb.Key))
	}
	return ids
}

func effectiveBindingResources(wsID string, tbs []tagBinding) []resource {
	out := make([]resource, 0, len(tbs))
	for _, tb := range tbs {
		out = append(out, resource{Type: "effective-tag-bindings", ID: stableID("etb-", wsID, tb.Key), Attributes: map[string]any{"key": tb.Key, "value": tb.Value}})
	}
	return out
}

func (s *Server) listEffectiveTagBindings(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.workspaceFor(p, s.st.Workspaces[r.PathValue("id")], false)
	if ws == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: effectiveBindingResources(ws.ID, s.st.effectiveTagBindings(ws))})
	return nil
}

func workspaceTagBindingsDoc(ws *workspace) document {
	data := make([]resource, 0, len(ws.TagBindings))
	for _, tb := range ws.TagBindings {
		data = append(data, resource{Type: "tag-bindings", ID: stableID("tb-", ws.ID, tb.Key), Attributes: map[string]any{"key": tb.Key, "value": tb.Value}})
	}
	return document{Data: data}
}

func (s *Server) listWorkspaceTagBindings(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.workspaceFor(p, s.st.Workspaces[r.PathValue("id")], false)
	if ws == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, workspaceTagBindingsDoc(ws))
	return nil
}

// addWorkspaceTagBindings adds the bindings sent, replacing the value of a
// key the workspace has, and answers 200 with all of its bindings. Keys are
// required; a key or value follows the flat tags' characters.
func (s *Server) addWorkspaceTagBindings(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.workspaceToManage(r, p)
	if ws == nil {
		return errNotFound()
	}
	var doc struct {
		Data []struct {
			Type       string `json:"type"`
			Attributes struct {
				Key   *string `json:"key"`
				Value string  `json:"value"`
			} `json:"attributes"`
		} `json:"data"`
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody))
	if err != nil || json.Unmarshal(raw, &doc) != nil || len(doc.Data) == 0 {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must be a non-empty array of tag-bindings", Pointer: "/data"}
	}
	next := append([]tagBinding(nil), ws.TagBindings...)
	for i, d := range doc.Data {
		if d.Type != "tag-bindings" || d.Attributes.Key == nil || strings.TrimSpace(*d.Attributes.Key) == "" {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: fmt.Sprintf("data[%d] must be a tag-bindings resource with a key", i), Pointer: fmt.Sprintf("/data/%d", i)}
		}
		tb := tagBinding{Key: *d.Attributes.Key, Value: d.Attributes.Value}
		replaced := false
		for j := range next {
			if next[j].Key == tb.Key {
				next[j], replaced = tb, true
			}
		}
		if !replaced {
			next = append(next, tb)
		}
	}
	ws.TagBindings = next
	ws.UpdatedAt = s.st.now()
	writeDoc(w, http.StatusOK, workspaceTagBindingsDoc(ws))
	return nil
}
