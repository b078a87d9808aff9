package provider

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Names in, IDs out, for the data sources that find objects by name: a name that matches nothing
// is an error listing the closest names that exist, so a typo is fixed from the message.

const closestCount = 3 // names a not-found error suggests

// closestNames: up to n of have nearest to want (case-insensitive), ties by name, duplicates once.
func closestNames(want string, have []string, n int) []string {
	return closestBy(want, have, n, wholeDistance)
}

func closestBy(want string, have []string, n int, dist func(w, h string) int) []string {
	type scored struct {
		name string
		d    int
	}
	w := strings.ToLower(want)
	seen := map[string]bool{}
	all := make([]scored, 0, len(have))
	for _, h := range have {
		if seen[h] {
			continue
		}
		seen[h] = true
		all = append(all, scored{h, dist(w, strings.ToLower(h))})
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(a.d, b.d), strings.Compare(a.name, b.name)) })
	out := make([]string, 0, min(n, len(all)))
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.name)
	}
	return out
}

// notFoundByName is the detail for names of a kind that match nothing in org, each with the
// closest of have (what the token can see there).
func notFoundByName(kind, org string, names, have []string) string {
	var b strings.Builder
	for i, name := range names {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "No %s named %q in organization %s", kind, name, org)
		if near := closestNames(name, have, closestCount); len(near) > 0 {
			fmt.Fprintf(&b, "; the closest names: %s.", quoted(near))
		} else {
			fmt.Fprintf(&b, ": the API token sees no %s there.", kind)
		}
	}
	// A secret team is the hidden object a reader meets most; the example fits teams only.
	example := ""
	if kind == "team" {
		example = " (a secret team, for one)"
	}
	fmt.Fprintf(&b, "\n\nNames are exact and case-sensitive. %s %s that exists but is hidden from the API token%s is not found either.", article(kind), kind, example)
	return b.String()
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "An"
	}
	return "A"
}

func listPage(page int) tfe.ListOptions {
	return tfe.ListOptions{PageNumber: page, PageSize: bulkPageSize}
}

func workspaceNames(ctx context.Context, c *tfe.Client, org string) ([]string, error) {
	all, err := listWorkspaces(ctx, c, org)
	return namesOf(all, func(ws *tfe.Workspace) string { return ws.Name }), err
}

func listWorkspaces(ctx context.Context, c *tfe.Client, org string) ([]*tfe.Workspace, error) {
	return tfeclient.ListAll(ctx, func(ctx context.Context, page int) ([]*tfe.Workspace, *tfe.Pagination, error) {
		l, err := c.Workspaces.List(ctx, org, &tfe.WorkspaceListOptions{ListOptions: listPage(page)})
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	})
}

func teamNames(ctx context.Context, c *tfe.Client, org string) ([]string, error) {
	all, err := listTeams(ctx, c, org, nil)
	return namesOf(all, func(t *tfe.Team) string { return t.Name }), err
}

// listTeams lists org's teams, all or (names not nil) those named, 100 names a request
// (filter[names]), checking the names again in case a server ignores the filter.
func listTeams(ctx context.Context, c *tfe.Client, org string, names []string) ([]*tfe.Team, error) {
	chunks := [][]string{nil}
	if names != nil {
		chunks = slices.Collect(slices.Chunk(names, bulkPageSize))
	}
	var out []*tfe.Team
	for _, chunk := range chunks {
		teams, err := tfeclient.ListAll(ctx, func(ctx context.Context, page int) ([]*tfe.Team, *tfe.Pagination, error) {
			l, err := c.Teams.List(ctx, org, &tfe.TeamListOptions{ListOptions: listPage(page), Names: chunk})
			if err != nil {
				return nil, nil, err
			}
			return l.Items, l.Pagination, nil
		})
		if err != nil {
			return nil, err
		}
		for _, t := range teams {
			if chunk == nil || slices.Contains(chunk, t.Name) {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// listAgentPools lists org's agent pools whose name contains query (the API's q; "": all).
func listAgentPools(ctx context.Context, c *tfe.Client, org, query string) ([]*tfe.AgentPool, error) {
	return tfeclient.ListAll(ctx, func(ctx context.Context, page int) ([]*tfe.AgentPool, *tfe.Pagination, error) {
		l, err := c.AgentPools.List(ctx, org, &tfe.AgentPoolListOptions{ListOptions: listPage(page), Query: query})
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	})
}

func moduleNames(ctx context.Context, c *tfe.Client, org string) ([]string, error) {
	all, err := tfeclient.ListAll(ctx, func(ctx context.Context, page int) ([]*tfe.RegistryModule, *tfe.Pagination, error) {
		l, err := c.RegistryModules.List(ctx, org, &tfe.RegistryModuleListOptions{ListOptions: listPage(page), RegistryName: tfe.PrivateRegistry})
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	})
	return namesOf(all, func(m *tfe.RegistryModule) string { return m.Name + "/" + m.Provider }), err
}

func namesOf[T any](items []T, name func(T) string) []string {
	out := make([]string, len(items))
	for i, v := range items {
		out[i] = name(v)
	}
	return out
}

// byNameError explains a failed lookup by name; a 404 is the organization's (missing or hidden).
func byNameError(what, org string, err error) string {
	if isNotFound(err) {
		return fmt.Sprintf("Organization %s was not found, or the API token may not read its %s.", org, what)
	}
	return fmt.Sprintf("Could not read the %s of organization %s: %s", what, org, err)
}

// stringSet, stringList and stringMap are Terraform values of strings, never null.
func stringSet(vals []string) types.Set {
	return types.SetValueMust(types.StringType, stringValues(vals))
}

func stringList(vals []string) types.List {
	return types.ListValueMust(types.StringType, stringValues(vals))
}

func stringMap(vals map[string]string) types.Map {
	m := make(map[string]attr.Value, len(vals))
	for k, v := range vals {
		m[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, m)
}

func stringValues(vals []string) []attr.Value {
	out := make([]attr.Value, len(vals))
	for i, v := range vals {
		out[i] = types.StringValue(v)
	}
	return out
}
