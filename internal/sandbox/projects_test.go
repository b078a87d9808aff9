package sandbox_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/jsonapi"
)

// project creates a project through the owner's client.
func (w *world) project(t testing.TB, name string) *tfe.Project {
	t.Helper()
	p, err := w.owner.Projects.Create(context.Background(), w.org, tfe.ProjectCreateOptions{Name: name})
	if err != nil {
		t.Fatalf("create project %s: %v", name, err)
	}
	return p
}

// defaultProject is the organization's default project, found by name.
func (w *world) defaultProject(t testing.TB) *tfe.Project {
	t.Helper()
	l, err := w.owner.Projects.List(context.Background(), w.org, &tfe.ProjectListOptions{Name: "Default Project"})
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("the default project: %v, %v", l, err)
	}
	return l.Items[0]
}

// TestProjects_lifecycle: a new organization has its default project;
// projects are made, found by name, search and page, read, updated and
// deleted through go-tfe, with the real service's rules on names, and an
// organization's default project or one holding workspaces is not deleted.
func TestProjects_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	def := w.defaultProject(t)

	p, err := w.owner.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "Platform team", Description: tfe.String("the platform")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.ID, "prj-") || p.Name != "Platform team" || p.Description != "the platform" || p.Organization == nil ||
		p.Organization.Name != w.org || p.DefaultExecutionMode != "remote" || p.SettingOverwrites == nil || *p.SettingOverwrites.ExecutionMode {
		t.Errorf("created %+v", p)
	}
	read, err := w.owner.Projects.Read(ctx, p.ID)
	if err != nil || read.Name != p.Name || read.Description != p.Description {
		t.Errorf("read %+v, %v", read, err)
	}
	w.project(t, "apps")

	all, err := w.owner.Projects.List(ctx, w.org, nil)
	if err != nil || all.TotalCount != 3 || all.CurrentPage != 1 || len(all.Items) != 3 || all.Items[0].Name != "apps" || all.Items[1].ID != def.ID {
		t.Errorf("list: %+v, %v", all, err)
	}
	for name, tc := range map[string]struct {
		opts *tfe.ProjectListOptions
		want []string
	}{
		"names":  {&tfe.ProjectListOptions{Name: "APPS,Platform team"}, []string{"apps", "Platform team"}},
		"exact":  {&tfe.ProjectListOptions{Name: "app"}, nil},
		"search": {&tfe.ProjectListOptions{Query: "DEFAULT"}, []string{"Default Project"}},
		"page":   {&tfe.ProjectListOptions{ListOptions: tfe.ListOptions{PageNumber: 2, PageSize: 2}}, []string{"Platform team"}},
	} {
		l, err := w.owner.Projects.List(ctx, w.org, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		for _, it := range l.Items {
			got = append(got, it.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}

	for name, tc := range map[string]struct {
		opts tfe.ProjectCreateOptions
		want string
	}{
		"short":        {tfe.ProjectCreateOptions{Name: "ab"}, "Name may only contain"},
		"bad char":     {tfe.ProjectCreateOptions{Name: "a/b/c"}, "Name may only contain"},
		"space at end": {tfe.ProjectCreateOptions{Name: "apps "}, "Name may only contain"},
		"taken":        {tfe.ProjectCreateOptions{Name: "APPS"}, "already been taken"},
		"long desc":    {tfe.ProjectCreateOptions{Name: "docs", Description: tfe.String(strings.Repeat("x", 257))}, "Description is too long"},
		"ttl":          {tfe.ProjectCreateOptions{Name: "docs", AutoDestroyActivityDuration: jsonapi.NewNullableAttrWithValue("20m")}, "Auto destroy activity duration has an incorrect format"},
	} {
		if _, err := w.owner.Projects.Create(ctx, w.org, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}

	upd, err := w.owner.Projects.Update(ctx, p.ID, tfe.ProjectUpdateOptions{Name: tfe.String("Platform"), Description: tfe.String("")})
	if err != nil || upd.ID != p.ID || upd.Name != "Platform" || upd.Description != "" {
		t.Errorf("update %+v, %v", upd, err)
	}

	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app"), Project: p})
	if err != nil || ws.Project == nil || ws.Project.ID != p.ID {
		t.Fatalf("workspace in a project: %+v, %v", ws, err)
	}
	if err := w.owner.Projects.Delete(ctx, p.ID); err == nil || !strings.Contains(err.Error(), "still contains 1 workspace") {
		t.Errorf("deleting a project with a workspace: %v", err)
	}
	if err := w.owner.Projects.Delete(ctx, def.ID); err == nil || !strings.Contains(err.Error(), "default project cannot be deleted") {
		t.Errorf("deleting the default project: %v", err)
	}
	if _, err := w.owner.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{Project: def}); err != nil {
		t.Fatal(err)
	}
	if err := w.owner.Projects.Delete(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Projects.Read(ctx, p.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read after delete: %v", err)
	}
}

// TestProjects_workspaces: a workspace is in its organization's default
// project unless made in or moved to another, which its reads and the
// workspace list's filter[project][id] show; a project of another
// organization is refused.
func TestProjects_workspaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	def := w.defaultProject(t)
	p := w.project(t, "apps")

	a, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("a")})
	if err != nil || a.Project == nil || a.Project.ID != def.ID {
		t.Fatalf("a workspace made without a project: %+v, %v", a.Project, err)
	}
	if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("b"), Project: p}); err != nil {
		t.Fatal(err)
	}
	moved, err := w.owner.Workspaces.Update(ctx, w.org, "a", tfe.WorkspaceUpdateOptions{Project: p})
	if err != nil || moved.Project.ID != p.ID {
		t.Fatalf("move: %+v, %v", moved, err)
	}
	if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("c")}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{p.ID: "a,b", def.ID: "c"} {
		l, err := w.owner.Workspaces.List(ctx, w.org, &tfe.WorkspaceListOptions{ProjectID: id})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ws := range l.Items {
			got = append(got, ws.Name)
		}
		if strings.Join(got, ",") != want {
			t.Errorf("workspaces of %s: %v, want %s", id, got, want)
		}
	}
	read, err := w.owner.Projects.Read(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	raw := policyRaw(t, w, "GET", "/api/v2/projects/"+read.ID, "").one(t)
	if string(raw.Attributes["workspace-count"]) != "2" {
		t.Errorf("workspace-count %s, want 2", raw.Attributes["workspace-count"])
	}

	other := w.organization(t, "other")
	op, err := other.Projects.Create(ctx, "other", tfe.ProjectCreateOptions{Name: "theirs"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("d"), Project: op}); err == nil || !strings.Contains(err.Error(), "not found in organization") {
		t.Errorf("a project of another organization: %v", err)
	}
	if _, err := w.owner.Projects.Read(ctx, op.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("another organization's project: %v", err)
	}
}

// TestProjects_executionMode: a project inherits its organization's default
// execution mode until it sets its own; agent needs a pool of the
// organization and a pool needs agent, in the real service's words; its
// workspaces inherit the project's mode.
func TestProjects_executionMode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	if _, err := w.owner.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{DefaultExecutionMode: tfe.String("local")}); err != nil {
		t.Fatal(err)
	}
	// An organization's settings sent with its create are kept, as by an update.
	made, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("local"), Email: tfe.String("o@local.test"), DefaultExecutionMode: tfe.String("local")})
	if err != nil || made.DefaultExecutionMode != "local" {
		t.Errorf("an organization made local: %+v, %v", made, err)
	}
	p, err := w.owner.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "inherits"})
	if err != nil || p.DefaultExecutionMode != "local" || *p.SettingOverwrites.ExecutionMode {
		t.Fatalf("inherited: %+v, %v", p, err)
	}
	a, err := w.owner.Projects.Update(ctx, p.ID, tfe.ProjectUpdateOptions{DefaultExecutionMode: tfe.String("agent"), DefaultAgentPoolID: tfe.String(pool.ID)})
	if err != nil || a.DefaultExecutionMode != "agent" || a.DefaultAgentPool == nil || a.DefaultAgentPool.ID != pool.ID || !*a.SettingOverwrites.AgentPool {
		t.Fatalf("agent: %+v, %v", a, err)
	}
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("w"), Project: p})
	if err != nil || ws.ExecutionMode != "agent" || ws.AgentPool == nil || ws.AgentPool.ID != pool.ID {
		t.Errorf("a workspace of an agent project: %+v, %v", ws, err)
	}
	r, err := w.owner.Projects.Update(ctx, p.ID, tfe.ProjectUpdateOptions{DefaultExecutionMode: tfe.String("remote")})
	if err != nil || r.DefaultExecutionMode != "remote" || r.DefaultAgentPool != nil {
		t.Errorf("remote: %+v, %v", r, err)
	}
	back, err := w.owner.Projects.Update(ctx, p.ID, tfe.ProjectUpdateOptions{SettingOverwrites: &tfe.ProjectSettingOverwrites{ExecutionMode: tfe.Bool(false), AgentPool: tfe.Bool(false)}})
	if err != nil || back.DefaultExecutionMode != "local" {
		t.Errorf("inherit again: %+v, %v", back, err)
	}
	for name, tc := range map[string]struct {
		opts tfe.ProjectUpdateOptions
		want string
	}{
		"pool without agent": {tfe.ProjectUpdateOptions{DefaultExecutionMode: tfe.String("local"), DefaultAgentPoolID: tfe.String(pool.ID)}, "must not be specified unless using 'agent' execution mode"},
		"agent without pool": {tfe.ProjectUpdateOptions{DefaultExecutionMode: tfe.String("agent")}, "must be specified when using 'agent' execution mode"},
		"overwrites differ": {tfe.ProjectUpdateOptions{SettingOverwrites: &tfe.ProjectSettingOverwrites{ExecutionMode: tfe.Bool(true), AgentPool: tfe.Bool(false)}},
			"their values must be the same"},
	} {
		if _, err := w.owner.Projects.Update(ctx, p.ID, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
}

// TestProjects_tagBindings: bindings sent on create are the project's
// effective bindings, read back with include=effective_tag_bindings, and
// an update that sends them replaces them.
func TestProjects_tagBindings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	p, err := w.owner.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "tagged", TagBindings: []*tfe.TagBinding{{Key: "env", Value: "prod"}}})
	if err != nil {
		t.Fatal(err)
	}
	opts := tfe.ProjectReadOptions{Include: []tfe.ProjectIncludeOpt{tfe.ProjectEffectiveTagBindings}}
	read, err := w.owner.Projects.ReadWithOptions(ctx, p.ID, opts)
	if err != nil || len(read.EffectiveTagBindings) != 1 || read.EffectiveTagBindings[0].Key != "env" || read.EffectiveTagBindings[0].Value != "prod" {
		t.Fatalf("read %+v, %v", read, err)
	}
	if _, err := w.owner.Projects.Update(ctx, p.ID, tfe.ProjectUpdateOptions{TagBindings: []*tfe.TagBinding{{Key: "team", Value: "a"}, {Key: "tier"}}}); err != nil {
		t.Fatal(err)
	}
	l, err := w.owner.Projects.List(ctx, w.org, &tfe.ProjectListOptions{Name: "tagged", Include: []tfe.ProjectIncludeOpt{tfe.ProjectEffectiveTagBindings}})
	if err != nil || len(l.Items) != 1 || len(l.Items[0].EffectiveTagBindings) != 2 || l.Items[0].EffectiveTagBindings[0].Key != "team" {
		t.Errorf("list %+v, %v", l, err)
	}
	w.project(t, "untagged")
	byTag, err := w.owner.Projects.List(ctx, w.org, &tfe.ProjectListOptions{TagBindings: []*tfe.TagBinding{{Key: "team", Value: "a"}, {Key: "tier"}}})
	if err != nil || len(byTag.Items) != 1 || byTag.Items[0].ID != p.ID {
		t.Errorf("by tag: %+v, %v", byTag, err)
	}
	added, err := w.owner.Projects.AddTagBindings(ctx, p.ID, tfe.ProjectAddTagBindingsOptions{TagBindings: []*tfe.TagBinding{{Key: "tier", Value: "gold"}, {Key: "cost", Value: "1"}}})
	if err != nil || len(added) != 3 || added[1].Key != "tier" || added[1].Value != "gold" {
		t.Errorf("add: %+v, %v", added, err)
	}
	own, err := w.owner.Projects.ListTagBindings(ctx, p.ID)
	if err != nil || len(own) != 3 {
		t.Errorf("bindings: %+v, %v", own, err)
	}
	eff, err := w.owner.Projects.ListEffectiveTagBindings(ctx, p.ID)
	if err != nil || len(eff) != 3 || eff[2].Key != "cost" {
		t.Errorf("effective bindings: %+v, %v", eff, err)
	}
	if err := w.owner.Projects.DeleteAllTagBindings(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if own, err := w.owner.Projects.ListTagBindings(ctx, p.ID); err != nil || len(own) != 0 {
		t.Errorf("after delete all: %+v, %v", own, err)
	}
}

// TestProjects_whoMay: owners, the organization token and manage-projects
// make and change projects; read-projects and a team's grant on a project
// show it; other members get 404 for it, as for a missing one.
func TestProjects_whoMay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	p := w.project(t, "apps")
	managers := w.teamClient(t, w.team(t, "managers", &tfe.OrganizationAccessOptions{ManageProjects: tfe.Bool(true)}))
	readers := w.teamClient(t, w.team(t, "readers", &tfe.OrganizationAccessOptions{ReadProjects: tfe.Bool(true)}))
	granted := w.team(t, "granted", nil)
	if _, err := w.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: granted, Project: p}); err != nil {
		t.Fatal(err)
	}
	grantee := w.teamClient(t, granted)
	nobody := w.teamClient(t, w.team(t, "nobody", nil))

	if _, err := managers.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "by managers"}); err != nil {
		t.Errorf("manage-projects creates: %v", err)
	}
	if _, err := w.orgClient(t).Projects.Update(ctx, p.ID, tfe.ProjectUpdateOptions{Description: tfe.String("x")}); err != nil {
		t.Errorf("the organization token updates: %v", err)
	}
	for name, c := range map[string]*tfe.Client{"read-projects": readers, "a read grant": grantee} {
		if _, err := c.Projects.Read(ctx, p.ID); err != nil {
			t.Errorf("%s reads: %v", name, err)
		}
		if _, err := c.Projects.Update(ctx, p.ID, tfe.ProjectUpdateOptions{Description: tfe.String("y")}); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s updates: %v, want 404", name, err)
		}
		if _, err := c.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "not " + name}); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s creates: %v, want 404", name, err)
		}
	}
	if _, err := nobody.Projects.Read(ctx, p.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a member without access reads: %v, want 404", err)
	}
	// A grant on a workspace of the project shows the project.
	wsTeam := w.team(t, "workspace team", nil)
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("in-apps"), Project: p})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: wsTeam, Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	if l, err := w.teamClient(t, wsTeam).Projects.List(ctx, w.org, nil); err != nil || len(l.Items) != 1 || l.Items[0].ID != p.ID {
		t.Errorf("a team with a workspace grant in the project lists %+v, %v", l, err)
	}
	if err := w.owner.Workspaces.DeleteByID(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	l, err := nobody.Projects.List(ctx, w.org, nil)
	if err != nil || len(l.Items) != 0 {
		t.Errorf("a member without access lists %+v, %v", l, err)
	}
	if got := policyRaw(t, w, "DELETE", "/api/v2/projects/"+p.ID, "").Status; got != http.StatusNoContent {
		t.Errorf("the admin token deletes an empty project: %d", got)
	}
}

// TestProjects_references: the organization names its default project; an
// agent pool's allowed projects and an OAuth client's projects are the
// organization's projects, kept and shown, a project of another
// organization refused; a deleted project leaves both lists.
func TestProjects_references(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	def := w.defaultProject(t)
	org, err := w.owner.Organizations.Read(ctx, w.org)
	if err != nil || org.DefaultProject == nil || org.DefaultProject.ID != def.ID {
		t.Errorf("the organization's default project: %+v, %v", org.DefaultProject, err)
	}
	p := w.project(t, "apps")
	pool := w.agentPool(t)
	got, err := w.owner.AgentPools.UpdateAllowedProjects(ctx, pool.ID, tfe.AgentPoolAllowedProjectsUpdateOptions{AllowedProjects: []*tfe.Project{p}})
	if err != nil || len(got.AllowedProjects) != 1 || got.AllowedProjects[0].ID != p.ID {
		t.Errorf("allowed projects: %+v, %v", got, err)
	}
	oc, err := w.owner.OAuthClients.Create(ctx, w.org, tfe.OAuthClientCreateOptions{APIURL: tfe.String("https://api.github.com"), HTTPURL: tfe.String("https://github.com"),
		ServiceProvider: tfe.ServiceProvider(tfe.ServiceProviderGithub), OAuthToken: tfe.String("ghp_x"), Projects: []*tfe.Project{p}})
	if err != nil || len(oc.Projects) != 1 || oc.Projects[0].ID != p.ID {
		t.Errorf("an OAuth client's projects: %+v, %v", oc, err)
	}
	other := w.organization(t, "other")
	theirs, err := other.Projects.Create(ctx, "other", tfe.ProjectCreateOptions{Name: "theirs"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.AgentPools.UpdateAllowedProjects(ctx, pool.ID, tfe.AgentPoolAllowedProjectsUpdateOptions{AllowedProjects: []*tfe.Project{theirs}}); err == nil ||
		!strings.Contains(err.Error(), "not found in organization") {
		t.Errorf("another organization's project: %v", err)
	}
	if err := w.owner.Projects.Delete(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := w.owner.AgentPools.Read(ctx, pool.ID); err != nil || len(got.AllowedProjects) != 0 {
		t.Errorf("after the project's delete: %+v, %v", got, err)
	}
	if got, err := w.owner.OAuthClients.Read(ctx, oc.ID); err != nil || len(got.Projects) != 0 {
		t.Errorf("after the project's delete: %+v, %v", got, err)
	}
}
