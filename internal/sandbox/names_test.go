package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// The list and read endpoints that find objects by name (workspaces by
// name, search, wildcard and tags; teams by names and query; agent pools by
// query; registry modules), through go-tfe.

func workspaceNames(l *tfe.WorkspaceList) []string {
	var out []string
	for _, ws := range l.Items {
		out = append(out, ws.Name)
	}
	return out
}

// TestWorkspaceTags: tags set on create (the `tags` relationship), added
// and removed through relationships/tags by name or by ID, stored
// lower-case and sorted, read back as `tag-names` and by ListTags; a bad
// name is a 422 and changes nothing; a member who may not manage
// workspaces gets 404.
func TestWorkspaceTags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{
		Name: tfe.String("payments-prod"), Tags: []*tfe.Tag{{Name: "Prod"}, {Name: "team:payments"}, {Name: "prod"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"prod", "team:payments"}; !slices.Equal(ws.TagNames, want) {
		t.Fatalf("created with tag-names %v, want %v", ws.TagNames, want)
	}
	tags, err := w.owner.Workspaces.ListTags(ctx, ws.ID, nil)
	if err != nil || len(tags.Items) != 2 || tags.Items[0].Name != "prod" || !strings.HasPrefix(tags.Items[0].ID, "tag-") {
		t.Fatalf("ListTags: %+v, %v", tags, err)
	}
	other, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("other")})
	if err != nil {
		t.Fatal(err)
	}
	// By ID: the organization's tag "prod", which payments-prod carries.
	if err := w.owner.Workspaces.AddTags(ctx, other.ID, tfe.WorkspaceAddTagsOptions{Tags: []*tfe.Tag{{ID: tags.Items[0].ID}, {Name: "eu"}}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.owner.Workspaces.ReadByID(ctx, other.ID); !slices.Equal(got.TagNames, []string{"eu", "prod"}) {
		t.Errorf("after AddTags: %v, want [eu prod]", got.TagNames)
	}
	if err := w.owner.Workspaces.RemoveTags(ctx, other.ID, tfe.WorkspaceRemoveTagsOptions{Tags: []*tfe.Tag{{Name: "prod"}, {Name: "absent"}}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.owner.Workspaces.Read(ctx, w.org, "other"); !slices.Equal(got.TagNames, []string{"eu"}) {
		t.Errorf("after RemoveTags: %v, want [eu]", got.TagNames)
	}
	for _, bad := range []string{"-prod", "a b", "prod-"} {
		err := w.owner.Workspaces.AddTags(ctx, other.ID, tfe.WorkspaceAddTagsOptions{Tags: []*tfe.Tag{{Name: "ok"}, {Name: bad}}})
		if err == nil || !strings.Contains(err.Error(), "is not a tag name") {
			t.Errorf("tag %q: %v, want a 422 naming the rule", bad, err)
		}
	}
	if err := w.owner.Workspaces.AddTags(ctx, other.ID, tfe.WorkspaceAddTagsOptions{Tags: []*tfe.Tag{{ID: "tag-nosuchtag00000001"}}}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("an unknown tag ID: %v, want 404", err)
	}
	if got, _ := w.owner.Workspaces.ReadByID(ctx, other.ID); !slices.Equal(got.TagNames, []string{"eu"}) {
		t.Errorf("a refused change changed the tags: %v", got.TagNames)
	}
	reader := w.member(t, "reader@acme.test")
	if err := reader.Workspaces.AddTags(ctx, other.ID, tfe.WorkspaceAddTagsOptions{Tags: []*tfe.Tag{{Name: "mine"}}}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a member without manage-workspaces tagged a workspace: %v", err)
	}
	if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("bad"), Tags: []*tfe.Tag{{Name: "x y"}}}); err == nil {
		t.Error("a workspace was created with an invalid tag")
	}
}

// TestWorkspaceListFilters: the list is by name; search[name] is a
// case-insensitive substring, search[wildcard-name] a prefix, suffix or
// substring; search[tags] needs every tag, search[exclude-tags] drops any;
// they combine, and page through meta.pagination.
func TestWorkspaceListFilters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	for _, ws := range []struct {
		name string
		tags []string
	}{
		{"web-prod", []string{"prod", "web"}},
		{"api-prod", []string{"prod", "api"}},
		{"api-staging", []string{"staging", "api"}},
		{"Legacy-Prod", []string{"prod", "legacy"}},
		{"batch", nil},
	} {
		var tags []*tfe.Tag
		for _, n := range ws.tags {
			tags = append(tags, &tfe.Tag{Name: n})
		}
		if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String(ws.name), Tags: tags}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		opts tfe.WorkspaceListOptions
		want []string
	}{
		{"all, by name", tfe.WorkspaceListOptions{}, []string{"Legacy-Prod", "api-prod", "api-staging", "batch", "web-prod"}},
		{"reversed", tfe.WorkspaceListOptions{Sort: "-name"}, []string{"web-prod", "batch", "api-staging", "api-prod", "Legacy-Prod"}},
		{"search, any case", tfe.WorkspaceListOptions{Search: "PROD"}, []string{"Legacy-Prod", "api-prod", "web-prod"}},
		{"wildcard prefix", tfe.WorkspaceListOptions{WildcardName: "api-*"}, []string{"api-prod", "api-staging"}},
		{"wildcard suffix", tfe.WorkspaceListOptions{WildcardName: "*-prod"}, []string{"Legacy-Prod", "api-prod", "web-prod"}},
		{"wildcard substring", tfe.WorkspaceListOptions{WildcardName: "*i-s*"}, []string{"api-staging"}},
		{"every tag", tfe.WorkspaceListOptions{Tags: "prod,api"}, []string{"api-prod"}},
		{"tags in any case", tfe.WorkspaceListOptions{Tags: "PROD"}, []string{"Legacy-Prod", "api-prod", "web-prod"}},
		{"exclude tags", tfe.WorkspaceListOptions{ExcludeTags: "legacy,staging"}, []string{"api-prod", "batch", "web-prod"}},
		{"tags and exclude", tfe.WorkspaceListOptions{Tags: "prod", ExcludeTags: "legacy"}, []string{"api-prod", "web-prod"}},
		{"search and tags", tfe.WorkspaceListOptions{Search: "api", Tags: "staging"}, []string{"api-staging"}},
		{"nothing", tfe.WorkspaceListOptions{Tags: "absent"}, nil},
	} {
		l, err := w.owner.Workspaces.List(ctx, w.org, &tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := workspaceNames(l); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if l.TotalCount != len(tc.want) {
			t.Errorf("%s: total-count %d, want %d", tc.name, l.TotalCount, len(tc.want))
		}
	}
	// Paging: 2 a page over the 3 prod workspaces.
	var got []string
	for page := 1; ; page++ {
		l, err := w.owner.Workspaces.List(ctx, w.org, &tfe.WorkspaceListOptions{Tags: "prod", ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if l.CurrentPage != page || l.TotalPages != 2 || l.TotalCount != 3 {
			t.Errorf("page %d: %+v", page, l.Pagination)
		}
		got = append(got, workspaceNames(l)...)
		if l.NextPage == 0 {
			break
		}
	}
	if want := []string{"Legacy-Prod", "api-prod", "web-prod"}; !slices.Equal(got, want) {
		t.Errorf("paged: %v, want %v", got, want)
	}
}

// TestTeamListNamesAndQuery: filter[names] keeps exact names (several,
// comma-separated), q a case-insensitive substring; secret teams stay
// hidden from members who cannot see them.
func TestTeamListNamesAndQuery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	for _, n := range []string{"platform", "platform-ops", "developers"} {
		w.team(t, n, nil)
	}
	names := func(l *tfe.TeamList) []string {
		var out []string
		for _, tm := range l.Items {
			out = append(out, tm.Name)
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		name string
		opts tfe.TeamListOptions
		want []string
	}{
		{"names", tfe.TeamListOptions{Names: []string{"platform", "developers", "absent"}}, []string{"developers", "platform"}},
		{"one name", tfe.TeamListOptions{Names: []string{"owners"}}, []string{"owners"}},
		{"query", tfe.TeamListOptions{Query: "PLAT"}, []string{"platform", "platform-ops"}},
		{"names and query", tfe.TeamListOptions{Names: []string{"platform", "developers"}, Query: "dev"}, []string{"developers"}},
	} {
		l, err := w.owner.Teams.List(ctx, w.org, &tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := names(l); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	l, err := w.owner.Teams.List(ctx, w.org, &tfe.TeamListOptions{ListOptions: tfe.ListOptions{PageSize: 2}})
	if err != nil || len(l.Items) != 2 || l.TotalCount != 4 || l.NextPage != 2 {
		t.Errorf("paged: %d items, %+v, %v", len(l.Items), l.Pagination, err)
	}
}

// TestAgentPoolListQuery: q keeps names containing the text in any case,
// filter[allowed_workspaces][name] the pools a workspace may use, and the
// list pages.
func TestAgentPoolListQuery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"ci-linux", "ci-windows", "build", "narrow"} {
		opts := tfe.AgentPoolCreateOptions{Name: tfe.String(n)}
		if i == 3 {
			opts.OrganizationScoped = tfe.Bool(false)
			opts.AllowedWorkspaces = []*tfe.Workspace{ws}
		}
		if _, err := w.owner.AgentPools.Create(ctx, w.org, opts); err != nil {
			t.Fatal(err)
		}
	}
	// A pool of another organization is never listed.
	if _, err := w.organization(t, "other").AgentPools.Create(ctx, "other", tfe.AgentPoolCreateOptions{Name: tfe.String("ci-other")}); err != nil {
		t.Fatal(err)
	}
	names := func(opts *tfe.AgentPoolListOptions) []string {
		t.Helper()
		l, err := w.owner.AgentPools.List(ctx, w.org, opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, ap := range l.Items {
			out = append(out, ap.Name)
		}
		return out
	}
	if got := names(&tfe.AgentPoolListOptions{Query: "CI"}); !slices.Equal(got, []string{"ci-linux", "ci-windows"}) {
		t.Errorf("q=CI: %v", got)
	}
	if got := names(&tfe.AgentPoolListOptions{Sort: "name"}); !slices.Equal(got, []string{"build", "ci-linux", "ci-windows", "narrow"}) {
		t.Errorf("sort=name: %v", got)
	}
	if got := names(&tfe.AgentPoolListOptions{AllowedWorkspacesName: "app", Query: "narrow"}); !slices.Equal(got, []string{"narrow"}) {
		t.Errorf("allowed for app: %v", got)
	}
	if got := names(&tfe.AgentPoolListOptions{AllowedWorkspacesName: "absent"}); len(got) != 0 {
		t.Errorf("allowed for a missing workspace: %v", got)
	}
	l, err := w.owner.AgentPools.List(ctx, w.org, &tfe.AgentPoolListOptions{ListOptions: tfe.ListOptions{PageNumber: 2, PageSize: 3}})
	if err != nil || len(l.Items) != 1 || l.TotalCount != 4 || l.CurrentPage != 2 || l.NextPage != 0 {
		t.Errorf("page 2 of 3 a page: %d items, %+v, %v", len(l.Items), l.Pagination, err)
	}
}

// TestRegistryModuleList: the organization's modules by name and provider,
// narrowed by q and filter[provider]; Read gives each version's status.
func TestRegistryModuleList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	for _, m := range [][2]string{{"network", "aws"}, {"network", "azurerm"}, {"dns", "aws"}} {
		if _, err := w.owner.RegistryModules.Create(ctx, w.org, tfe.RegistryModuleCreateOptions{Name: tfe.String(m[0]), Provider: tfe.String(m[1]), RegistryName: tfe.PrivateRegistry}); err != nil {
			t.Fatal(err)
		}
	}
	id := tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: "network", Provider: "aws", RegistryName: tfe.PrivateRegistry}
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if _, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(v)}); err != nil {
			t.Fatal(err)
		}
	}
	list := func(opts *tfe.RegistryModuleListOptions) []string {
		t.Helper()
		l, err := w.owner.RegistryModules.List(ctx, w.org, opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range l.Items {
			out = append(out, m.Name+"/"+m.Provider)
		}
		return out
	}
	if got := list(nil); !slices.Equal(got, []string{"dns/aws", "network/aws", "network/azurerm"}) {
		t.Errorf("all: %v", got)
	}
	if got := list(&tfe.RegistryModuleListOptions{Search: "NET", Provider: "azurerm"}); !slices.Equal(got, []string{"network/azurerm"}) {
		t.Errorf("q=NET, provider azurerm: %v", got)
	}
	if got := list(&tfe.RegistryModuleListOptions{RegistryName: tfe.PublicRegistry}); len(got) != 0 {
		t.Errorf("public registry: %v", got)
	}
	m, err := w.owner.RegistryModules.Read(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var vs []string
	for _, v := range m.VersionStatuses {
		vs = append(vs, fmt.Sprintf("%s:%s", v.Version, v.Status))
	}
	if want := []string{"1.1.0:pending", "1.0.0:pending"}; !slices.Equal(vs, want) {
		t.Errorf("version statuses %v, want %v (newest first)", vs, want)
	}
	if _, err := w.member(t, "dev@acme.test").RegistryModules.List(ctx, w.org, nil); err != nil {
		t.Errorf("a member lists the private registry: %v", err)
	}
	if _, err := w.organization(t, "other").RegistryModules.List(ctx, w.org, nil); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("another organization's owner lists acme's modules: %v", err)
	}
}

// TestSeedFile_workspaceTags: a seed workspace's tag_names are made (sorted)
// and searchable; upper case and duplicates are refused, naming the field.
func TestSeedFile_workspaceTags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst := sandbox.Start(t)
	if _, err := inst.Server.SeedFile("org.json", withChange(t, "organizations.0.workspaces.1.tag_names", []any{"web", "prod"})); err != nil {
		t.Fatal(err)
	}
	c := client(t, inst, "alice-test-token-0001")
	l, err := c.Workspaces.List(ctx, "acme", &tfe.WorkspaceListOptions{Tags: "prod,web"})
	if err != nil || len(l.Items) != 1 || l.Items[0].Name != "web" || !slices.Equal(l.Items[0].TagNames, []string{"prod", "web"}) {
		t.Fatalf("seeded tags: %+v, %v", l, err)
	}
	for v, want := range map[string]string{
		"Prod": `organizations[0].workspaces[1].tag_names[0]: "Prod" is not a tag name`,
		"web":  `organizations[0].workspaces[1].tag_names[1]: tag "web" is also organizations[0].workspaces[1].tag_names[0]`,
	} {
		_, err := sandbox.Start(t).Server.SeedFile("org.json", withChange(t, "organizations.0.workspaces.1.tag_names", []any{v, "web"}))
		if v == "web" {
			_, err = sandbox.Start(t).Server.SeedFile("org.json", withChange(t, "organizations.0.workspaces.1.tag_names", []any{"web", "web"}))
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("tag_names %q: %v, want %q", v, err, want)
		}
	}
}
