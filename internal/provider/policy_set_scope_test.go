package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/jsonapi"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

func TestPolicySetScope_governed(t *testing.T) {
	t.Parallel()
	// a, b in project p1; c in p2; d in p3 (its project tags env=prod). Tags: a {prod, team}, b {env:prod}, c {team}.
	wss := []scopedWorkspace{
		{ID: "w1", Name: "a", ProjectID: "p1", Tags: []string{"prod", "team"}},
		{ID: "w2", Name: "b", ProjectID: "p1", Tags: []string{"env:prod"}},
		{ID: "w3", Name: "c", ProjectID: "p2", Tags: []string{"team"}},
		{ID: "w4", Name: "d", ProjectID: "p3", Bindings: map[string]string{"env": "prod"}},
	}
	tag := func(k string) scopeTag { return scopeTag{Key: k} }
	kv := func(k, v string) scopeTag { return scopeTag{Key: k, Value: v, HasValue: true} }
	for name, c := range map[string]struct {
		scope setScope
		want  []string
	}{
		"nothing":                         {setScope{}, nil},
		"global":                          {setScope{Global: true}, []string{"a", "b", "c", "d"}},
		"global minus a workspace":        {setScope{Global: true, ExcludedWorkspaceIDs: []string{"w2"}}, []string{"a", "c", "d"}},
		"global minus a project":          {setScope{Global: true, ExcludedProjectIDs: []string{"p1"}}, []string{"c", "d"}},
		"explicit workspaces":             {setScope{WorkspaceIDs: []string{"w1", "w4", "w-gone"}}, []string{"a", "d"}},
		"a project":                       {setScope{ProjectIDs: []string{"p1"}}, []string{"a", "b"}},
		"a project minus a workspace":     {setScope{ProjectIDs: []string{"p1"}, ExcludedWorkspaceIDs: []string{"w1"}}, []string{"b"}},
		"exclusion without an inclusion":  {setScope{ExcludedWorkspaceIDs: []string{"w1"}}, nil},
		"flat and bound k:v tags, any":    {setScope{Tags: []scopeTag{tag("prod"), kv("env", "prod")}}, []string{"a", "b", "d"}},
		"tags, all":                       {setScope{Tags: []scopeTag{tag("prod"), tag("team")}, MatchAll: true}, []string{"a"}},
		"key-only matches a bound key":    {setScope{Tags: []scopeTag{tag("env")}}, []string{"d"}},
		"key-only misses a flat k:v tag":  {setScope{Tags: []scopeTag{tag("env")}, ExcludedProjectIDs: []string{"p3"}}, nil},
		"tags plus explicit":              {setScope{WorkspaceIDs: []string{"w4"}, Tags: []scopeTag{tag("team")}}, []string{"a", "c", "d"}},
		"global minus a tag":              {setScope{Global: true, ExcludedTags: []scopeTag{tag("team")}}, []string{"b", "d"}},
		"global minus tags, all":          {setScope{Global: true, MatchAll: true, ExcludedTags: []scopeTag{tag("team"), tag("prod")}}, []string{"b", "c", "d"}},
		"project exclusion beats project": {setScope{ProjectIDs: []string{"p1"}, ExcludedProjectIDs: []string{"p1"}}, nil},
		"exclusion beats explicit":        {setScope{WorkspaceIDs: []string{"w1"}, ExcludedWorkspaceIDs: []string{"w1"}}, nil},
	} {
		got := slices.Sorted(maps.Keys(c.scope.governed(wss)))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: governs %v, want %v", name, got, c.want)
		}
	}
}

func TestPolicySetScope_change(t *testing.T) {
	t.Parallel()
	before := map[string]string{"a": "w1", "b": "w2", "c": "w3"}
	after := map[string]string{"b": "w2", "c": "w9", "d": "w4"} // c was deleted and made again
	starting, stopping := governedChange(before, after)
	if !slices.Equal(starting, []string{"c", "d"}) || !slices.Equal(stopping, []string{"a", "c"}) {
		t.Errorf("starting %v, stopping %v; want [c d] and [a c]", starting, stopping)
	}
}

// TestPolicySetScope_matchesSandbox: on 200 random scopes made through go-tfe, what the
// provider computes from the workspace list equals the sandbox's own scope (Server.GovernedWorkspaces).
func TestPolicySetScope_matchesSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, c := ownSandbox(t, sandbox.Options{}, "scope-org")
	seed := uint64(59)
	rng := rand.New(rand.NewPCG(seed, seed)) //nolint:gosec // a test's reproducible draws
	flat := []string{"a", "b", "env:prod", "team"}
	keys := []string{"env", "tier", "a"}
	values := []string{"prod", "dev"}
	var prjIDs, wsIDs []string
	for i := range 3 {
		opts := tfe.ProjectCreateOptions{Name: fmt.Sprint("prj", i)}
		if i > 0 {
			opts.TagBindings = []*tfe.TagBinding{{Key: keys[i], Value: values[i%2]}}
		}
		prj, err := c.Projects.Create(ctx, "scope-org", opts)
		if err != nil {
			t.Fatal(err)
		}
		prjIDs = append(prjIDs, prj.ID)
	}
	for i := range 12 {
		opts := tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprint("ws", i)), Project: &tfe.Project{ID: prjIDs[i%3]}}
		for _, tg := range flat {
			if rng.IntN(3) == 0 {
				opts.Tags = append(opts.Tags, &tfe.Tag{Name: tg})
			}
		}
		if rng.IntN(3) == 0 {
			opts.TagBindings = []*tfe.TagBinding{{Key: keys[rng.IntN(len(keys))], Value: values[rng.IntN(2)]}}
		}
		ws, err := c.Workspaces.Create(ctx, "scope-org", opts)
		if err != nil {
			t.Fatal(err)
		}
		wsIDs = append(wsIDs, ws.ID)
	}
	l, err := c.Workspaces.List(ctx, "scope-org", &tfe.WorkspaceListOptions{ListOptions: tfe.ListOptions{PageSize: 100}, Include: []tfe.WSIncludeOpt{tfe.WSEffectiveTagBindings}})
	if err != nil {
		t.Fatal(err)
	}
	var listed []scopedWorkspace
	for _, ws := range l.Items {
		listed = append(listed, scopedWorkspaceOf(ws))
	}
	some := func(ids []string) []string {
		var out []string
		for _, id := range ids {
			if rng.IntN(4) == 0 {
				out = append(out, id)
			}
		}
		return out
	}
	someTags := func(exclude bool) ([]scopeTag, []*tfe.PolicySetTagSelector) {
		var sc []scopeTag
		var api []*tfe.PolicySetTagSelector
		for range rng.IntN(3) {
			var sel scopeTag
			if rng.IntN(2) == 0 {
				sel = scopeTag{Key: flat[rng.IntN(len(flat))]}
			} else {
				sel = scopeTag{Key: keys[rng.IntN(len(keys))], Value: values[rng.IntN(2)], HasValue: true}
			}
			if slices.Contains(sc, sel) {
				continue
			}
			sc = append(sc, sel)
			a := &tfe.PolicySetTagSelector{Key: sel.Key, IsExclude: exclude}
			if sel.HasValue {
				a.Value = tfe.String(sel.Value)
			}
			api = append(api, a)
		}
		return sc, api
	}
	refs := func(ids []string) (ws []*tfe.Workspace) {
		for _, id := range ids {
			ws = append(ws, &tfe.Workspace{ID: id})
		}
		return ws
	}
	prjRefs := func(ids []string) (ps []*tfe.Project) {
		for _, id := range ids {
			ps = append(ps, &tfe.Project{ID: id})
		}
		return ps
	}
	for n := range 200 {
		scope := setScope{Global: rng.IntN(3) == 0, ExcludedWorkspaceIDs: some(wsIDs), ExcludedProjectIDs: some(prjIDs), MatchAll: rng.IntN(2) == 0}
		var incl, excl []*tfe.PolicySetTagSelector
		if !scope.Global { // a global set takes no attachment nor inclusion tag (the service's 422)
			scope.WorkspaceIDs, scope.ProjectIDs = some(wsIDs), some(prjIDs)
			scope.Tags, incl = someTags(false)
		}
		scope.ExcludedTags, excl = someTags(true)
		opts := tfe.PolicySetCreateOptions{
			Name: tfe.String(fmt.Sprint("set", n)), Global: tfe.Bool(scope.Global),
			Workspaces: refs(scope.WorkspaceIDs), WorkspaceExclusions: refs(scope.ExcludedWorkspaceIDs),
			Projects: prjRefs(scope.ProjectIDs), ProjectExclusions: prjRefs(scope.ExcludedProjectIDs),
			TagSelectors: append(incl, excl...),
		}
		if len(opts.TagSelectors) > 0 {
			opts.TagSelectorMatchingLogic = jsonapi.NewNullableAttrWithValue(map[bool]string{true: "all", false: "any"}[scope.MatchAll])
		}
		ps, err := c.PolicySets.Create(ctx, "scope-org", opts)
		if err != nil {
			t.Fatalf("set %d (%+v): %v", n, scope, err)
		}
		want, _ := sb.srv.GovernedWorkspaces(ps.ID)
		got := slices.Sorted(maps.Values(scope.governed(listed)))
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d, set %d, scope %+v: the provider computes %v, the sandbox governs %v", seed, n, scope, got, want)
		}
	}
}

// TestPolicySetResource_governedCost: the plan of a global set over 1,000 workspaces computes
// governed_workspaces from 10 list pages and the team list (the token sees every workspace), reads no
// workspace, and its warning names every one.
func TestPolicySetResource_governedCost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, c := ownSandbox(t, sandbox.Options{}, "cost-org")
	for i := range 1000 {
		if _, err := c.Workspaces.Create(ctx, "cost-org", tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("ws-%04d", i))}); err != nil {
			t.Fatal(err)
		}
	}
	owner, err := c.Users.ReadCurrent(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := &policySetResource{resourceBase{typ: policySetType, data: &providerData{client: c, caller: tokenUser{user: owner}}}}
	plan := policySetResourceModel{Name: types.StringValue("global"), Organization: types.StringValue("cost-org"),
		Scope: setScope{Global: true, ExcludedWorkspaceIDs: []string{"ws-none"}}.object()}
	sb.srv.ResetStats()
	var diags diag.Diagnostics
	r.planGoverned(ctx, &plan, nil, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	stats := sb.srv.Stats()
	if got := stats["GET /api/v2/organizations/{org}/workspaces"]; got != 10 || stats["GET /api/v2/organizations/{org}/teams"] != 1 || len(stats) != 2 {
		t.Errorf("requests %v, want the workspace list's 10 pages and the team list's one", stats)
	}
	if n := len(plan.GovernedWorkspaces.Elements()); n != 1000 {
		t.Errorf("governs %d workspaces, want 1000", n)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "Starts governing (1000): ws-0000, ws-0001,") || !strings.Contains(diags[0].Detail(), "ws-0999.") {
		t.Errorf("the warning does not name every workspace: %v", diags)
	}
}

// TestPolicySetResource_seesEveryWorkspace: governed_workspaces is computed only for a token proven to
// see every workspace (an owner, a team with "View all workspaces" or "Manage workspaces"); a member
// without it, or a team token, fails the plan naming the permission, though its list is partial.
func TestPolicySetResource_seesEveryWorkspace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, c := ownSandbox(t, sandbox.Options{}, "sees-org")
	admin, err := tfe.NewClient(&tfe.Config{Address: sb.address, Token: sb.srv.AdminToken()})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"ws-a", "ws-b"} {
		if _, err := c.Workspaces.Create(ctx, "sees-org", tfe.WorkspaceCreateOptions{Name: tfe.String(n)}); err != nil {
			t.Fatal(err)
		}
	}
	owner, err := c.Users.ReadCurrent(ctx)
	if err != nil {
		t.Fatal(err)
	}
	member := func(name string, access *tfe.OrganizationAccessOptions) (*tfe.Client, *tfe.User, *tfe.Team) {
		team, err := c.Teams.Create(ctx, "sees-org", tfe.TeamCreateOptions{Name: tfe.String(name), OrganizationAccess: access})
		if err != nil {
			t.Fatal(err)
		}
		m, err := c.OrganizationMemberships.Create(ctx, "sees-org", tfe.OrganizationMembershipCreateOptions{Email: tfe.String(name + "@example.invalid")})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.TeamMembers.Add(ctx, team.ID, tfe.TeamMemberAddOptions{OrganizationMembershipIDs: []string{m.ID}}); err != nil {
			t.Fatal(err)
		}
		tok, err := admin.UserTokens.Create(ctx, m.User.ID, tfe.UserTokenCreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mc, err := tfe.NewClient(&tfe.Config{Address: sb.address, Token: tok.Token})
		if err != nil {
			t.Fatal(err)
		}
		return mc, m.User, team
	}
	policiesOnly, pu, pteam := member("policies", &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true)})
	viewAll, vu, _ := member("viewall", &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true), ReadWorkspaces: tfe.Bool(true)})
	manage, mu, _ := member("manage", &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true), ManageWorkspaces: tfe.Bool(true)})
	tt, err := c.TeamTokens.Create(ctx, pteam.ID)
	if err != nil {
		t.Fatal(err)
	}
	teamClient, err := tfe.NewClient(&tfe.Config{Address: sb.address, Token: tt.Token})
	if err != nil {
		t.Fatal(err)
	}
	checkFailed := errors.New("429 after the retries")
	for _, tc := range []struct {
		name   string
		client *tfe.Client
		caller *tfe.User
		err    error // the token check's, at configure
		sees   bool
	}{
		{"owner", c, owner, nil, true},
		{"view all workspaces", viewAll, vu, nil, true},
		{"manage workspaces", manage, mu, nil, true},
		{"manage policies only", policiesOnly, pu, nil, false},
		{"team token", teamClient, nil, nil, false},
		// A token check that failed at configure is read again, never taken for "no user".
		{"view all workspaces, its check failed", viewAll, nil, checkFailed, true},
		{"team token, its check failed", teamClient, nil, checkFailed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &policySetResource{resourceBase{typ: policySetType, data: &providerData{client: tc.client, caller: tokenUser{user: tc.caller, err: tc.err}}}}
			plan := policySetResourceModel{Name: types.StringValue("global"), Organization: types.StringValue("sees-org"), Scope: setScope{Global: true}.object()}
			var diags diag.Diagnostics
			r.planGoverned(ctx, &plan, nil, &diags)
			if !tc.sees {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), `"View all workspaces"`) {
					t.Fatalf("want an error naming \"View all workspaces\", got %v (governed %v)", diags, plan.GovernedWorkspaces)
				}
				return
			}
			if diags.HasError() || len(plan.GovernedWorkspaces.Elements()) != 2 {
				t.Fatalf("governed %v, diagnostics %v; want both workspaces", plan.GovernedWorkspaces, diags)
			}
		})
	}
}
