package sandbox_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

func TestPolicySetScope(t *testing.T) {
	t.Parallel()
	prod := "prod"
	// w1, w2 in project p1; w3 in p2; w4 in p3. Tags: w1 {prod, team}, w2 {env:prod}, w3 {team}.
	workspaces := []sandbox.ScopeWorkspace{
		{ID: "w1", ProjectID: "p1", Tags: []string{"prod", "team"}},
		{ID: "w2", ProjectID: "p1", Tags: []string{"env:prod"}},
		{ID: "w3", ProjectID: "p2", Tags: []string{"team"}},
		{ID: "w4", ProjectID: "p3"},
	}
	for name, c := range map[string]struct {
		set  sandbox.ScopeSet
		want []string
	}{
		"nothing":                         {sandbox.ScopeSet{}, []string{}},
		"global":                          {sandbox.ScopeSet{Global: true}, []string{"w1", "w2", "w3", "w4"}},
		"global minus a workspace":        {sandbox.ScopeSet{Global: true, WorkspaceExclusions: []string{"w2"}}, []string{"w1", "w3", "w4"}},
		"global minus a project":          {sandbox.ScopeSet{Global: true, ProjectExclusions: []string{"p1"}}, []string{"w3", "w4"}},
		"global minus both":               {sandbox.ScopeSet{Global: true, ProjectExclusions: []string{"p1"}, WorkspaceExclusions: []string{"w4"}}, []string{"w3"}},
		"explicit workspaces":             {sandbox.ScopeSet{Workspaces: []string{"w1", "w4", "w-gone"}}, []string{"w1", "w4"}},
		"a project":                       {sandbox.ScopeSet{Projects: []string{"p1"}}, []string{"w1", "w2"}},
		"a project minus a workspace":     {sandbox.ScopeSet{Projects: []string{"p1"}, WorkspaceExclusions: []string{"w1"}}, []string{"w2"}},
		"a workspace in an excluded prj":  {sandbox.ScopeSet{Workspaces: []string{"w1", "w3"}, ProjectExclusions: []string{"p1"}}, []string{"w3"}},
		"exclusion without an inclusion":  {sandbox.ScopeSet{WorkspaceExclusions: []string{"w1"}}, []string{}},
		"tag, any":                        {sandbox.ScopeSet{TagSelectors: []sandbox.TagSelector{{Key: "prod"}, {Key: "env", Value: &prod}}}, []string{"w1", "w2"}},
		"tags, all":                       {sandbox.ScopeSet{TagSelectors: []sandbox.TagSelector{{Key: "prod"}, {Key: "team"}}, MatchAll: true}, []string{"w1"}},
		"tags, all, none matches":         {sandbox.ScopeSet{TagSelectors: []sandbox.TagSelector{{Key: "prod"}, {Key: "env", Value: &prod}}, MatchAll: true}, []string{}},
		"key-only does not match k:v":     {sandbox.ScopeSet{TagSelectors: []sandbox.TagSelector{{Key: "env"}}}, []string{}},
		"tags plus explicit":              {sandbox.ScopeSet{Workspaces: []string{"w4"}, TagSelectors: []sandbox.TagSelector{{Key: "team"}}}, []string{"w1", "w3", "w4"}},
		"global minus a tag":              {sandbox.ScopeSet{Global: true, TagSelectors: []sandbox.TagSelector{{Key: "team", IsExclude: true}}}, []string{"w2", "w4"}},
		"global minus tags, all":          {sandbox.ScopeSet{Global: true, MatchAll: true, TagSelectors: []sandbox.TagSelector{{Key: "team", IsExclude: true}, {Key: "prod", IsExclude: true}}}, []string{"w2", "w3", "w4"}},
		"project plus tag minus tag":      {sandbox.ScopeSet{Projects: []string{"p2"}, TagSelectors: []sandbox.TagSelector{{Key: "prod"}, {Key: "team", IsExclude: true}}}, []string{}},
		"exclusion beats explicit":        {sandbox.ScopeSet{Workspaces: []string{"w1"}, WorkspaceExclusions: []string{"w1"}}, []string{}},
		"project exclusion beats project": {sandbox.ScopeSet{Projects: []string{"p1"}, ProjectExclusions: []string{"p1"}}, []string{}},
	} {
		if got := sandbox.GovernedWorkspacesOf(c.set, workspaces); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}

// scopeInput draws a scope and workspaces over small pools of IDs and tags.
func scopeInput(t *rapid.T) (sandbox.ScopeSet, []sandbox.ScopeWorkspace) {
	wsIDs := []string{"w0", "w1", "w2", "w3", "w4", "w5"}
	prjIDs := []string{"p0", "p1", "p2"}
	tags := []string{"a", "b", "c", "k:v"}
	sub := func(label string, pool []string) []string {
		return rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, len(pool), rapid.ID[string]).Draw(t, label)
	}
	var workspaces []sandbox.ScopeWorkspace
	for _, id := range sub("workspaces", wsIDs) {
		workspaces = append(workspaces, sandbox.ScopeWorkspace{ID: id, ProjectID: rapid.SampledFrom(append(prjIDs, "")).Draw(t, id+".project"), Tags: sub(id+".tags", tags)})
	}
	var sels []sandbox.TagSelector
	for i := range rapid.IntRange(0, 3).Draw(t, "selectors") {
		sel := sandbox.TagSelector{Key: rapid.SampledFrom([]string{"a", "b", "k"}).Draw(t, fmt.Sprint("key", i)), IsExclude: rapid.Bool().Draw(t, fmt.Sprint("exclude", i))}
		if sel.Key == "k" && rapid.Bool().Draw(t, fmt.Sprint("valued", i)) {
			v := "v"
			sel.Value = &v
		}
		sels = append(sels, sel)
	}
	return sandbox.ScopeSet{
		Global: rapid.Bool().Draw(t, "global"), Workspaces: sub("attached", wsIDs), WorkspaceExclusions: sub("excluded", wsIDs),
		Projects: sub("projects", prjIDs), ProjectExclusions: sub("excludedProjects", prjIDs), TagSelectors: sels, MatchAll: rapid.Bool().Draw(t, "all"),
	}, workspaces
}

// TestPolicySetScope_properties: the scope is (what the set includes)
// minus (what it excludes), restated over sets; an exclusion added never
// adds a workspace, and an attachment added never removes one.
func TestPolicySetScope_properties(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		set, workspaces := scopeInput(t)
		got := sandbox.GovernedWorkspacesOf(set, workspaces)
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("not sorted and unique: %v", got)
		}
		matches := func(ws sandbox.ScopeWorkspace, exclude bool) bool {
			var hits, n int
			for _, sel := range set.TagSelectors {
				if sel.IsExclude != exclude {
					continue
				}
				n++
				want := sel.Key
				if sel.Value != nil {
					want += ":" + *sel.Value
				}
				if slices.Contains(ws.Tags, want) {
					hits++
				}
			}
			if set.MatchAll {
				return n > 0 && hits == n
			}
			return hits > 0
		}
		want := []string{}
		for _, ws := range workspaces {
			included := set.Global || slices.Contains(set.Workspaces, ws.ID) || (ws.ProjectID != "" && slices.Contains(set.Projects, ws.ProjectID)) || matches(ws, false)
			excluded := slices.Contains(set.WorkspaceExclusions, ws.ID) || (ws.ProjectID != "" && slices.Contains(set.ProjectExclusions, ws.ProjectID)) || matches(ws, true)
			if included && !excluded {
				want = append(want, ws.ID)
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("governs %v, want %v", got, want)
		}
		if len(workspaces) == 0 {
			return
		}
		ws := rapid.SampledFrom(workspaces).Draw(t, "changed")
		more := set
		more.WorkspaceExclusions = append(slices.Clone(set.WorkspaceExclusions), ws.ID)
		if after := sandbox.GovernedWorkspacesOf(more, workspaces); slices.Contains(after, ws.ID) || len(after) > len(got) {
			t.Fatalf("excluding %s: %v from %v", ws.ID, after, got)
		}
		attached := set
		attached.Workspaces = append(slices.Clone(set.Workspaces), ws.ID)
		for _, id := range got {
			if !slices.Contains(sandbox.GovernedWorkspacesOf(attached, workspaces), id) {
				t.Fatalf("attaching %s dropped %s", ws.ID, id)
			}
		}
	})
}

// TestPolicySetScope_api: after random writes through go-tfe, the sandbox's
// scope of a set (Server.GovernedWorkspaces) is the scope function of what
// go-tfe reads back of the set and the workspaces.
func TestPolicySetScope_api(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	var wss []*tfe.Workspace
	for i := range 4 {
		opts := tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprint("ws", i))}
		if i%2 == 0 {
			opts.Tags = []*tfe.Tag{{Name: "a"}}
		}
		ws, err := w.owner.Workspaces.Create(ctx, w.org, opts)
		if err != nil {
			t.Fatal(err)
		}
		wss = append(wss, ws)
	}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		ps, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String(fmt.Sprint("set", n)), Global: tfe.Bool(rapid.Bool().Draw(rt, "global"))})
		if err != nil {
			rt.Fatal(err)
		}
		for i := range rapid.IntRange(1, 5).Draw(rt, "ops") {
			ws := []*tfe.Workspace{rapid.SampledFrom(wss).Draw(rt, fmt.Sprint("ws", i))}
			// A refused write (a global set's attachment) changes nothing; the comparison below holds either way.
			switch rapid.IntRange(0, 4).Draw(rt, fmt.Sprint("op", i)) {
			case 0:
				_ = w.owner.PolicySets.AddWorkspaces(ctx, ps.ID, tfe.PolicySetAddWorkspacesOptions{Workspaces: ws})
			case 1:
				_ = w.owner.PolicySets.RemoveWorkspaces(ctx, ps.ID, tfe.PolicySetRemoveWorkspacesOptions{Workspaces: ws})
			case 2:
				_ = w.owner.PolicySets.AddWorkspaceExclusions(ctx, ps.ID, tfe.PolicySetAddWorkspaceExclusionsOptions{WorkspaceExclusions: ws})
			case 3:
				_ = w.owner.PolicySets.RemoveWorkspaceExclusions(ctx, ps.ID, tfe.PolicySetRemoveWorkspaceExclusionsOptions{WorkspaceExclusions: ws})
			case 4:
				_ = w.owner.PolicySets.AddTagSelectors(ctx, ps.ID, tfe.PolicySetAddTagSelectorsOptions{TagSelectors: []*tfe.PolicySetTagSelector{{Key: "a", IsExclude: rapid.Bool().Draw(rt, fmt.Sprint("exclude", i))}}})
			}
		}
		read, err := w.owner.PolicySets.Read(ctx, ps.ID)
		if err != nil {
			rt.Fatal(err)
		}
		set := sandbox.ScopeSet{Global: read.Global, MatchAll: read.TagSelectorMatchingLogic != nil && *read.TagSelectorMatchingLogic == "all"}
		for _, x := range read.Workspaces {
			set.Workspaces = append(set.Workspaces, x.ID)
		}
		for _, x := range read.WorkspaceExclusions {
			set.WorkspaceExclusions = append(set.WorkspaceExclusions, x.ID)
		}
		for _, sel := range read.TagSelectors {
			set.TagSelectors = append(set.TagSelectors, sandbox.TagSelector{Key: sel.Key, Value: sel.Value, IsExclude: sel.IsExclude})
		}
		var scope []sandbox.ScopeWorkspace
		for _, ws := range wss {
			scope = append(scope, sandbox.ScopeWorkspace{ID: ws.ID, Tags: ws.TagNames})
		}
		got, _ := w.inst.Server.GovernedWorkspaces(ps.ID)
		if want := sandbox.GovernedWorkspacesOf(set, scope); !slices.Equal(got, want) {
			rt.Fatalf("sandbox governs %v; what go-tfe reads back gives %v", got, want)
		}
	})
}
