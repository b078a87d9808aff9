package sandbox

import (
	"slices"
	"sort"
)

// Which workspaces a policy set governs: one pure function, the ground truth
// the sandbox's tests and tfgov's scenario machine compare plans with
// (README.md "Policy sets").

// tagSelector is one of a set's tag selectors: a key, an optional value, and
// whether it includes or excludes the workspaces it matches.
type tagSelector struct {
	Key       string  `json:"key"`
	Value     *string `json:"value,omitempty"`
	IsExclude bool    `json:"is_exclude"`
}

// scopeSet is what of a set decides its scope.
type scopeSet struct {
	Global              bool
	Workspaces          []string
	WorkspaceExclusions []string
	Projects            []string
	ProjectExclusions   []string
	TagSelectors        []tagSelector
	// MatchAll is the "all" matching logic; otherwise "any".
	MatchAll bool
}

// scopeWorkspace is what of a workspace a scope reads.
type scopeWorkspace struct {
	ID        string
	ProjectID string
	Tags      []string
}

// matches reports whether a workspace carrying tags matches sel. The
// sandbox's workspaces carry flat tags only: a key-only selector matches the
// tag named by its key, a key and value selector the tag "key:value".
func (sel tagSelector) matches(tags []string) bool {
	want := sel.Key
	if sel.Value != nil {
		want += ":" + *sel.Value
	}
	return slices.Contains(tags, want)
}

// selectorsMatch combines the selectors of one kind by the set's logic:
// any of them (OR) or all of them (AND). No selector matches nothing.
func selectorsMatch(sels []tagSelector, tags []string, all bool) bool {
	if len(sels) == 0 {
		return false
	}
	for _, sel := range sels {
		if sel.matches(tags) != all {
			return !all
		}
	}
	return all
}

// governedWorkspaces returns, sorted, the IDs of the workspaces (all of
// one organization) that set governs. A workspace is in scope when the set
// is global, or it is attached directly, or it is in an attached project,
// or it matches the inclusion tag selectors; it is then out of scope when
// it is excluded directly, or its project is excluded, or it matches the
// exclusion tag selectors. Exclusions always win.
func governedWorkspaces(set scopeSet, workspaces []scopeWorkspace) []string {
	var include, exclude []tagSelector
	for _, sel := range set.TagSelectors {
		if sel.IsExclude {
			exclude = append(exclude, sel)
		} else {
			include = append(include, sel)
		}
	}
	out := []string{}
	for _, ws := range workspaces {
		in := set.Global || slices.Contains(set.Workspaces, ws.ID) ||
			(ws.ProjectID != "" && slices.Contains(set.Projects, ws.ProjectID)) ||
			selectorsMatch(include, ws.Tags, set.MatchAll)
		excluded := slices.Contains(set.WorkspaceExclusions, ws.ID) ||
			(ws.ProjectID != "" && slices.Contains(set.ProjectExclusions, ws.ProjectID)) ||
			selectorsMatch(exclude, ws.Tags, set.MatchAll)
		if in && !excluded {
			out = append(out, ws.ID)
		}
	}
	sort.Strings(out)
	return out
}
