package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// Workspace tags (`tag-names`), as go-tfe and the real service handle them: README.md
// "Workspace tags".

func (s *Server) registerWorkspaceTags() {
	s.route("GET /api/v2/workspaces/{id}/relationships/tags", s.listWorkspaceTags)
	s.route("POST /api/v2/workspaces/{id}/relationships/tags", s.addWorkspaceTags)
	s.route("DELETE /api/v2/workspaces/{id}/relationships/tags", s.removeWorkspaceTags)
}

var tagNameRE = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9_:-]*[a-z0-9])?$`)

// checkTagName is the service's rule for a tag name, after lower-casing.
func checkTagName(name string) string {
	if len(name) > 255 || !tagNameRE.MatchString(name) {
		return fmt.Sprintf("%q is not a tag name: letters, digits, _, : and -, starting and ending with a letter or digit, at most 255 characters", name)
	}
	return ""
}

// tagID is the ID of the tag called name in org.
func tagID(org, name string) string { return stableID("tag-", org, name) }

func tagResource(org, name string) resource {
	return resource{Type: "tags", ID: tagID(org, name), Attributes: map[string]any{"name": name}}
}

// tagNamed finds the name of the tag of org with ID id among its
// workspaces' tags; "" when no workspace carries it.
func (st *state) tagNamed(org, id string) string {
	for _, ws := range st.Workspaces {
		if ws.Org != org {
			continue
		}
		for _, n := range ws.TagNames {
			if tagID(org, n) == id {
				return n
			}
		}
	}
	return ""
}

// tagsIn reads the tag names of a `tags` linkage (raw: its `data` array):
// each entry of type `tags` with `attributes.name` or the `id` of an
// existing tag of org. pointer locates the array for errors.
func (st *state) tagsIn(org string, raw json.RawMessage, pointer string) ([]string, *apiError) {
	var ds []struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		Attributes struct {
			Name string `json:"name"`
		} `json:"attributes"`
	}
	if err := json.Unmarshal(raw, &ds); err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "tags must be an array of tags", Pointer: pointer}
	}
	names := make([]string, 0, len(ds))
	for i, d := range ds {
		at := fmt.Sprintf("%s/%d", pointer, i)
		name := strings.ToLower(d.Attributes.Name)
		switch {
		case d.Type != "tags":
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("tags items must have type \"tags\", got %q", d.Type), Pointer: at}
		case name == "" && d.ID == "":
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "a tag needs a name or the id of an existing tag", Pointer: at}
		case name == "":
			if name = st.tagNamed(org, d.ID); name == "" {
				return nil, &apiError{Status: http.StatusNotFound, Title: "not found", Detail: fmt.Sprintf("tag %s not found in organization %s", d.ID, org), Pointer: at}
			}
		}
		if msg := checkTagName(name); msg != "" {
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid attribute", Detail: msg, Pointer: at + "/attributes/name"}
		}
		names = append(names, name)
	}
	return names, nil
}

// withTags is names added to (or, with add false, removed from) have,
// sorted and without duplicates.
func withTags(have, names []string, add bool) []string {
	out := slices.Clone(have)
	if add {
		out = append(out, names...)
	} else {
		out = slices.DeleteFunc(out, func(n string) bool { return slices.Contains(names, n) })
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// listWorkspaceTags is go-tfe's ListTags: the workspace's tags, by name,
// paginated. Whoever may read the workspace may.
func (s *Server) listWorkspaceTags(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.workspaceFor(p, s.st.Workspaces[r.PathValue("id")], false)
	if ws == nil {
		return errNotFound()
	}
	return writeList(w, r, ws.TagNames, func(n string) resource { return tagResource(ws.Org, n) })
}

func (s *Server) addWorkspaceTags(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.changeWorkspaceTags(w, r, p, true)
}

func (s *Server) removeWorkspaceTags(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return s.changeWorkspaceTags(w, r, p, false)
}

// changeWorkspaceTags adds or removes the tags of a `{"data": [...]}` body;
// those who may manage workspaces may (others get 404). A body naming no
// tag is a 422, as go-tfe refuses one before sending it.
func (s *Server) changeWorkspaceTags(w http.ResponseWriter, r *http.Request, p principal, add bool) *apiError {
	ws := s.st.workspaceFor(p, s.st.Workspaces[r.PathValue("id")], true)
	if ws == nil {
		return errNotFound()
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody))
	var doc struct {
		Data json.RawMessage `json:"data"`
	}
	if err != nil || json.Unmarshal(raw, &doc) != nil || len(doc.Data) == 0 || doc.Data[0] != '[' {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must be an array of tags", Pointer: "/data"}
	}
	names, e := s.st.tagsIn(ws.Org, doc.Data, "/data")
	if e != nil {
		return e
	}
	if len(names) == 0 {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must name at least one tag", Pointer: "/data"}
	}
	if next := withTags(ws.TagNames, names, add); !slices.Equal(next, ws.TagNames) {
		ws.TagNames = next
		ws.UpdatedAt = s.st.now()
	}
	writeNoContent(w)
	return nil
}

// hasAllTags reports whether ws carries every tag of want.
func (ws *workspace) hasAllTags(want []string) bool {
	for _, t := range want {
		if !slices.Contains(ws.TagNames, t) {
			return false
		}
	}
	return true
}

// hasAnyTag reports whether ws carries a tag of these.
func (ws *workspace) hasAnyTag(these []string) bool {
	return slices.ContainsFunc(these, func(t string) bool { return slices.Contains(ws.TagNames, t) })
}

// tagList splits a comma-separated `search[tags]`/`search[exclude-tags]`
// value into lower-case names, dropping empty ones.
func tagList(v string) []string {
	var out []string
	for _, t := range strings.Split(v, ",") {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// wildcardMatch is `search[wildcard-name]`: `*` at the start, the end or
// both matches any text there (a suffix, a prefix, a substring); without
// one the name must be equal. Case-insensitive, as the name search.
func wildcardMatch(pattern, name string) bool {
	pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	core := strings.TrimSuffix(strings.TrimPrefix(pattern, "*"), "*")
	lead, trail := strings.HasPrefix(pattern, "*"), len(pattern) > 1 && strings.HasSuffix(pattern, "*")
	switch {
	case lead && trail:
		return strings.Contains(name, core)
	case lead:
		return strings.HasSuffix(name, core)
	case trail:
		return strings.HasPrefix(name, core)
	}
	return name == core
}
