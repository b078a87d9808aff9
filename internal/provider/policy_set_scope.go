package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	tfe "github.com/hashicorp/go-tfe"
)

// Which workspaces a policy set governs, computed at plan from the proposed
// scope and the organization's workspace list: DESIGN.md "Governed workspaces".

// setScope is what of a policy set decides which workspaces it governs.
type setScope struct {
	Global               bool
	WorkspaceIDs         []string
	ExcludedWorkspaceIDs []string
	ProjectIDs           []string
	ExcludedProjectIDs   []string
	Tags                 []scopeTag // inclusion tag selectors
	ExcludedTags         []scopeTag // exclusion tag selectors
	// MatchAll is the "all" tag matching logic (every selector of a kind must match); otherwise "any".
	MatchAll bool
}

// scopeTag is a tag selector: a key, and a value or none (Value "" with HasValue false).
type scopeTag struct {
	Key      string
	Value    string
	HasValue bool
}

// scopedWorkspace is what of a workspace a scope reads: its flat tags and its
// effective key/value tags (its own and its project's).
type scopedWorkspace struct {
	ID, Name, ProjectID string
	Tags                []string
	Bindings            map[string]string
}

// matches: a workspace's tags are its flat tags plus, for each key/value tag, its key and "key:value";
// a key-only selector matches the tag named by its key, one with a value the tag "key:value".
func (sel scopeTag) matches(ws scopedWorkspace) bool {
	want := sel.Key
	if sel.HasValue {
		want += ":" + sel.Value
	}
	if slices.Contains(ws.Tags, want) {
		return true
	}
	for k, v := range ws.Bindings {
		if k == want || k+":"+v == want {
			return true
		}
	}
	return false
}

// tagsMatch combines selectors of one kind: any of them, or all of them; none matches nothing.
func tagsMatch(sels []scopeTag, ws scopedWorkspace, all bool) bool {
	if len(sels) == 0 {
		return false
	}
	for _, sel := range sels {
		if sel.matches(ws) != all {
			return !all
		}
	}
	return all
}

// governed returns the workspaces scope governs, name → ID. A workspace is in
// when the set is global, attached, in an attached project or matched by the
// inclusion tags; exclusions (workspace, project, tags) always win.
func (scope setScope) governed(workspaces []scopedWorkspace) map[string]string {
	out := map[string]string{}
	for _, ws := range workspaces {
		inProject := func(ids []string) bool { return ws.ProjectID != "" && slices.Contains(ids, ws.ProjectID) }
		in := scope.Global || slices.Contains(scope.WorkspaceIDs, ws.ID) || inProject(scope.ProjectIDs) ||
			tagsMatch(scope.Tags, ws, scope.MatchAll)
		excluded := slices.Contains(scope.ExcludedWorkspaceIDs, ws.ID) || inProject(scope.ExcludedProjectIDs) ||
			tagsMatch(scope.ExcludedTags, ws, scope.MatchAll)
		if in && !excluded {
			out[ws.Name] = ws.ID
		}
	}
	return out
}

// governedChange names, sorted, the workspaces that start and stop being governed from before to after.
func governedChange(before, after map[string]string) (starting, stopping []string) {
	for name, id := range after {
		if before[name] != id {
			starting = append(starting, name)
		}
	}
	for name, id := range before {
		if after[name] != id {
			stopping = append(stopping, name)
		}
	}
	sort.Strings(starting)
	sort.Strings(stopping)
	return starting, stopping
}

// scopedWorkspaceOf is a listed workspace as the scope reads it.
func scopedWorkspaceOf(ws *tfe.Workspace) scopedWorkspace {
	out := scopedWorkspace{ID: ws.ID, Name: ws.Name, Tags: ws.TagNames, Bindings: map[string]string{}}
	if ws.Project != nil {
		out.ProjectID = ws.Project.ID
	}
	for _, tb := range ws.EffectiveTagBindings {
		if tb != nil {
			out.Bindings[tb.Key] = tb.Value
		}
	}
	return out
}

// errNotEveryWorkspace: the token is not proven to see every workspace, so a list would be partial.
var errNotEveryWorkspace = errors.New(`the API token is not proven to see every workspace of the organization: a member lists only the workspaces its teams may read. ` +
	`Computing governed_workspaces needs "View all workspaces" (or "Manage workspaces"): apply with a user token of an owner or of a member of a team with that permission; ` +
	`a team or organization token names no user whose teams would prove it`)

// everyWorkspace is scopedWorkspaces for a token proven to see them all (seesEveryParent: the
// shared team list, once per organization and operation). DESIGN.md "Governed workspaces".
func (d *providerData) everyWorkspace(ctx context.Context, org string) ([]scopedWorkspace, error) {
	sees, err := d.seesEveryParent(ctx, workspaceGrants, org)
	switch {
	case err != nil:
		return nil, fmt.Errorf("listing the teams of organization %s to tell whether the API token sees every workspace: %w", org, err)
	case !sees:
		return nil, errNotEveryWorkspace
	}
	return d.scopedWorkspaces(ctx, org)
}

// scopedWorkspaces lists the organization's workspaces for a scope: the shared list
// (a request per 100 workspaces per operation), sorted by name.
func (d *providerData) scopedWorkspaces(ctx context.Context, org string) ([]scopedWorkspace, error) {
	l, err := d.organizationWorkspaces(ctx, org)
	if err != nil {
		return nil, err
	}
	out := make([]scopedWorkspace, 0, len(l.byID))
	for _, id := range slices.Sorted(maps.Keys(l.byID)) {
		out = append(out, scopedWorkspaceOf(l.byID[id]))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
