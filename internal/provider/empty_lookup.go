package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agext/levenshtein"
	tfe "github.com/hashicorp/go-tfe"
)

// A plural lookup whose typed filter matches nothing fails unless allow_empty: an empty result
// would plan the destroy of all it drove (DESIGN.md "Empty look-ups").

const allowEmptyHint = "\n\nIf an empty result is expected here, set allow_empty = true."

func wholeDistance(w, h string) int { return levenshtein.Distance(w, h, nil) }

// prefixDistance: the smallest edit distance of w to a beginning of h.
func prefixDistance(w, h string) int { return partDistance(w, h, false) }

// substringDistance: the smallest edit distance of w to a part of h.
func substringDistance(w, h string) int { return partDistance(w, h, true) }

// partDistance: the edit-distance table with a free end, and a free start anywhere in h when
// anywhere (else at its beginning).
func partDistance(w, h string, anywhere bool) int {
	wr, hr := []rune(w), []rune(h)
	prev, cur := make([]int, len(hr)+1), make([]int, len(hr)+1)
	for j := range prev {
		if !anywhere {
			prev[j] = j
		}
	}
	for i := 1; i <= len(wr); i++ {
		cur[0] = i
		for j := 1; j <= len(hr); j++ {
			sub := prev[j-1]
			if wr[i-1] != hr[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return slices.Min(prev)
}

// suggest is "; the closest <what>: a, b, c." or, with none near, ": " + none + ".".
func suggest(what, want string, have []string, dist func(w, h string) int, none string) string {
	if near := closestBy(want, have, closestCount, dist); len(near) > 0 {
		return fmt.Sprintf("; the closest %s: %s.", what, quoted(near))
	}
	return ": " + none + "."
}

// emptyWorkspacesDetail names each filter that alone matches none of all (org's visible workspaces)
// with the closest names or tags, or says the filters match only apart.
func emptyWorkspacesDetail(org string, f workspaceFilter, all []*tfe.Workspace) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No workspace of organization %s that the API token can see matches the filter.", org)
	if len(all) == 0 {
		b.WriteString(" The API token sees no workspace there.")
		return b.String() + allowEmptyHint
	}
	names := namesOf(all, func(ws *tfe.Workspace) string { return ws.Name })
	var tags []string
	for _, ws := range all {
		tags = append(tags, ws.TagNames...)
	}
	slices.Sort(tags)
	tags = slices.Compact(tags)
	alone := false // some filter matches nothing on its own
	if f.prefix != "" && !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, f.prefix) }) {
		alone = true
		fmt.Fprintf(&b, "\nNo workspace name starts with %q (case-sensitive)%s", f.prefix, suggest("names", f.prefix, names, prefixDistance, "no workspace"))
	}
	if f.search != "" && !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(strings.ToLower(n), strings.ToLower(f.search)) }) {
		alone = true
		fmt.Fprintf(&b, "\nNo workspace name contains %q%s", f.search, suggest("names", f.search, names, substringDistance, "no workspace"))
	}
	for _, t := range f.tags {
		if !slices.Contains(tags, t) {
			alone = true
			fmt.Fprintf(&b, "\nNo workspace carries the tag %q%s", t, suggest("tags", t, tags, wholeDistance, "no workspace carries a tag"))
		}
	}
	if !alone {
		others := f
		others.exclude = nil
		if n := len(slices.DeleteFunc(slices.Clone(all), func(ws *tfe.Workspace) bool { return !others.keep(ws) })); n > 0 && len(f.exclude) > 0 {
			fmt.Fprintf(&b, "\n%d workspace(s) match the other filters, and each carries one of the excluded tags %s.", n, quoted(f.exclude))
		} else {
			b.WriteString("\nEach filter matches some workspaces, but no workspace matches them all.")
		}
	}
	return b.String() + allowEmptyHint
}

// emptyPoliciesDetail explains a search of org's policies of kind ("": any) among names.
func emptyPoliciesDetail(org, search, kind string, names []string) string {
	what := "policy"
	if kind != "" {
		what = kind + " policy"
	}
	return fmt.Sprintf("No %s of organization %s has a name containing %q%s", what, org, search,
		suggest("names", search, names, substringDistance, "the API token sees no "+what+" there")) + allowEmptyHint
}

// absentExclusionsDetail names each excluded tag that no workspace of org carries, with the
// closest tags workspaces carry: an exclusion with a typo would exclude nothing, silently.
func absentExclusionsDetail(org string, absent, carried []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "exclude_tag_names excludes nothing: no workspace of organization %s that the API token can see carries", org)
	for _, t := range absent {
		fmt.Fprintf(&b, "\n- the tag %q%s", t, suggest("tags", t, carried, wholeDistance, "no workspace carries a tag"))
	}
	return b.String() + "\n\nIf no workspace carries it yet, set allow_absent_exclude_tags = true."
}

// emptyProjectsDetail explains a search of org's projects that matches none of names.
func emptyProjectsDetail(org, search string, names []string) string {
	return fmt.Sprintf("No project of organization %s that the API token can see has a name containing %q%s", org, search,
		suggest("names", search, names, substringDistance, "the API token sees no project there")) + allowEmptyHint
}
