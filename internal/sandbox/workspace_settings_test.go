package sandbox_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestWorkspaceSettings: the settings go-tfe sends are kept as sent on
// create and update (queue-all-runs among them, which hashicorp/tfe's
// tfe_workspace never saw converge while the sandbox answered false), by ID
// and by name; the rest keep a new workspace's values.
func TestWorkspaceSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{
		Name:                tfe.String("app"),
		QueueAllRuns:        tfe.Bool(true),
		AutoApply:           tfe.Bool(true),
		AllowDestroyPlan:    tfe.Bool(false),
		WorkingDirectory:    tfe.String("envs/prod"),
		TriggerPrefixes:     []string{"modules/"},
		TerraformVersion:    tfe.String("1.11.4"),
		SpeculativeEnabled:  tfe.Bool(false),
		AutoApplyRunTrigger: tfe.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	read, err := w.owner.Workspaces.ReadByID(ctx, ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*tfe.Workspace{ws, read} {
		if !got.QueueAllRuns || !got.AutoApply || got.AllowDestroyPlan || got.WorkingDirectory != "envs/prod" ||
			len(got.TriggerPrefixes) != 1 || got.TerraformVersion != "1.11.4" || got.SpeculativeEnabled || !got.AutoApplyRunTrigger ||
			!got.FileTriggersEnabled || !got.StructuredRunOutputEnabled || got.ExecutionMode != "remote" || !got.Operations {
			t.Errorf("created: %+v", got)
		}
	}
	if want := "/app/acme/workspaces/app"; read.Links["self-html"] != want {
		t.Errorf("self-html %v, want %s", read.Links["self-html"], want)
	}

	upd, err := w.owner.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{
		Name:                tfe.String("app-2"),
		Description:         tfe.String("renamed"),
		QueueAllRuns:        tfe.Bool(false),
		FileTriggersEnabled: tfe.Bool(false),
		TriggerPrefixes:     []string{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if upd.Name != "app-2" || upd.Description != "renamed" || upd.QueueAllRuns || upd.FileTriggersEnabled || len(upd.TriggerPrefixes) != 0 ||
		!upd.AutoApply || upd.WorkingDirectory != "envs/prod" || upd.UpdatedAt.Before(ws.UpdatedAt) {
		t.Errorf("updated: %+v", upd)
	}
	byName, err := w.owner.Workspaces.Update(ctx, w.org, "app-2", tfe.WorkspaceUpdateOptions{AutoApply: tfe.Bool(false)})
	if err != nil || byName.ID != ws.ID || byName.AutoApply {
		t.Errorf("update by name: %+v, %v", byName, err)
	}

	other, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("other")})
	if err != nil {
		t.Fatal(err)
	}
	if other.QueueAllRuns || !other.AllowDestroyPlan || other.TerraformVersion != "latest" || other.AutoApply {
		t.Errorf("a new workspace's defaults: %+v", other)
	}
	for name, tc := range map[string]struct {
		opts tfe.WorkspaceUpdateOptions
		want string
	}{
		"name taken":     {tfe.WorkspaceUpdateOptions{Name: tfe.String("app-2")}, "already been taken"},
		"bad name":       {tfe.WorkspaceUpdateOptions{Name: tfe.String("a b")}, "name may contain only"},
		"execution mode": {tfe.WorkspaceUpdateOptions{ExecutionMode: tfe.String("cloud")}, "execution-mode must be one of remote, local, agent"},
		"agent no pool":  {tfe.WorkspaceUpdateOptions{ExecutionMode: tfe.String("agent")}, "needs an agent-pool"},
		"project":        {tfe.WorkspaceUpdateOptions{Project: &tfe.Project{ID: "prj-x"}}, "project prj-x not found in organization"},
		"vcs":            {tfe.WorkspaceUpdateOptions{VCSRepo: &tfe.VCSRepoOptions{Identifier: tfe.String("a/b"), OAuthTokenID: tfe.String("ot-x")}}, "VCS"},
	} {
		if _, err := w.owner.Workspaces.UpdateByID(ctx, other.ID, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
	// go-tfe sends the inactivity period as a nullable attribute; sent
	// raw here, as a client with a typo would.
	req, err := w.owner.NewRequest("PATCH", "workspaces/"+other.ID, &struct {
		Type     string `jsonapi:"primary,workspaces"`
		Duration string `jsonapi:"attr,auto-destroy-activity-duration"`
	}{Duration: "two weeks"})
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Do(ctx, nil); err == nil || !strings.Contains(err.Error(), "auto-destroy-activity-duration must be a number of days or hours") {
		t.Errorf("inactivity period: %v", err)
	}
	if o, _ := w.owner.Workspaces.ReadByID(ctx, other.ID); o.Name != "other" || o.ExecutionMode != "remote" || o.AutoDestroyActivityDuration.IsSpecified() {
		t.Errorf("a refused update changed something: %+v", o)
	}
	set, err := w.owner.Workspaces.UpdateByID(ctx, other.ID, tfe.WorkspaceUpdateOptions{AutoDestroyActivityDuration: tfe.NullableString("14d")})
	if v, _ := set.AutoDestroyActivityDuration.Get(); err != nil || v != "14d" {
		t.Errorf("inactivity period 14d: %+v, %v", set, err)
	}
}

// TestWorkspaceExecutionMode: a workspace inherits its organization's
// default until it sets its own; agent mode carries its pool.
func TestWorkspaceExecutionMode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	inherits, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("inherits"),
		SettingOverwrites: &tfe.WorkspaceSettingOverwritesOptions{ExecutionMode: tfe.Bool(false), AgentPool: tfe.Bool(false)}})
	if err != nil {
		t.Fatal(err)
	}
	local, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("local"), Operations: tfe.Bool(false)})
	if err != nil || local.ExecutionMode != "local" || local.Operations || !*local.SettingOverwrites.ExecutionMode {
		t.Fatalf("operations false: %+v, %v", local, err)
	}
	if _, err := w.owner.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{DefaultExecutionMode: tfe.String("agent"), DefaultAgentPool: pool}); err != nil {
		t.Fatal(err)
	}
	got, _ := w.owner.Workspaces.ReadByID(ctx, inherits.ID)
	if got.ExecutionMode != "agent" || got.AgentPool == nil || got.AgentPool.ID != pool.ID || *got.SettingOverwrites.ExecutionMode {
		t.Errorf("inheriting workspace: %+v", got)
	}
	if got, _ := w.owner.Workspaces.ReadByID(ctx, local.ID); got.ExecutionMode != "local" || got.AgentPool != nil {
		t.Errorf("own mode changed with the organization's: %+v", got)
	}
	agent, err := w.owner.Workspaces.UpdateByID(ctx, local.ID, tfe.WorkspaceUpdateOptions{ExecutionMode: tfe.String("agent"), AgentPoolID: tfe.String(pool.ID)})
	if err != nil || agent.ExecutionMode != "agent" || agent.AgentPool == nil || agent.AgentPool.ID != pool.ID {
		t.Errorf("own agent mode: %+v, %v", agent, err)
	}
	back, err := w.owner.Workspaces.UpdateByID(ctx, local.ID, tfe.WorkspaceUpdateOptions{ExecutionMode: tfe.String("remote")})
	if err != nil || back.ExecutionMode != "remote" || back.AgentPool != nil || !back.Operations {
		t.Errorf("back to remote: %+v, %v", back, err)
	}
}

// TestWorkspacePermissions: `permissions` are the caller's, and
// can-force-delete (whose presence tells hashicorp/tfe the service has safe
// delete) follows the organization's allow-force-delete-workspaces for
// admins who are not owners.
func TestWorkspacePermissions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := taWorkspace(t, w, "app")
	readers, admins := w.team(t, "readers", nil), w.team(t, "admins", nil)
	taGrant(t, w, readers, ws, tfe.AccessRead)
	taGrant(t, w, admins, ws, tfe.AccessAdmin)
	reader, admin := w.member(t, "reader@acme.test", readers), w.member(t, "admin@acme.test", admins)

	perms := func(c *tfe.Client) *tfe.WorkspacePermissions {
		t.Helper()
		got, err := c.Workspaces.ReadByID(ctx, ws.ID)
		if err != nil || got.Permissions == nil || got.Permissions.CanForceDelete == nil {
			t.Fatalf("read: %+v, %v", got, err)
		}
		return got.Permissions
	}
	if p := perms(w.owner); !p.CanUpdate || !p.CanDestroy || !p.CanQueueApply || !*p.CanForceDelete {
		t.Errorf("owner: %+v", p)
	}
	if p := perms(reader); p.CanUpdate || p.CanDestroy || p.CanQueueRun || p.CanUpdateVariable || !p.CanReadVariable || !p.CanReadStateVersions || *p.CanForceDelete {
		t.Errorf("reader: %+v", p)
	}
	if p := perms(admin); !p.CanUpdate || !p.CanDestroy || !p.CanManageRunTasks || *p.CanForceDelete {
		t.Errorf("admin before allow-force-delete-workspaces: %+v", p)
	}
	if _, err := w.owner.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{AllowForceDeleteWorkspaces: tfe.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if p := perms(admin); !*p.CanForceDelete {
		t.Errorf("admin after allow-force-delete-workspaces: %+v", p)
	}
	// Only those who may manage the workspace update it.
	if _, err := reader.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{AutoApply: tfe.Bool(true)}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("reader updated: %v", err)
	}
	if _, err := admin.Workspaces.UpdateByID(ctx, ws.ID, tfe.WorkspaceUpdateOptions{AutoApply: tfe.Bool(true)}); err != nil {
		t.Errorf("workspace admin update: %v", err)
	}
}

// TestWorkspaceSafeDelete: safe delete by ID and by name deletes a
// workspace (a sandbox workspace manages no resources), as DELETE does, for
// those who may manage it.
func TestWorkspaceSafeDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	a, b := taWorkspace(t, w, "a"), taWorkspace(t, w, "b")
	readers := w.team(t, "readers", nil)
	taGrant(t, w, readers, a, tfe.AccessRead)
	reader := w.member(t, "reader@acme.test", readers)
	if err := reader.Workspaces.SafeDeleteByID(ctx, a.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("reader safe-deleted: %v", err)
	}
	if err := w.owner.Workspaces.SafeDeleteByID(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.owner.Workspaces.SafeDelete(ctx, w.org, b.Name); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{a.ID, b.ID} {
		if _, err := w.owner.Workspaces.ReadByID(ctx, id); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s after safe delete: %v", id, err)
		}
	}
	if err := w.owner.Workspaces.SafeDeleteByID(ctx, a.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second safe delete: %v", err)
	}
}

// TestSettingsPersist: organization and workspace settings survive a
// restart on the same --data file, numbers and lists included (they are
// kept by attribute name and come back from JSON as such).
func TestSettingsPersist(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "state.json")
	start := func() *tfe.Client {
		inst := sandbox.StartWithOptions(t, sandbox.Options{Token: "admin-token", DataFile: data})
		return client(t, inst, "admin-token")
	}
	admin := start()
	if _, err := admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("kept"), Email: tfe.String("o@kept.test")}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Organizations.Update(ctx, "kept", tfe.OrganizationUpdateOptions{SessionTimeout: tfe.Int(90), AllowForceDeleteWorkspaces: tfe.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	ws, err := admin.Workspaces.Create(ctx, "kept", tfe.WorkspaceCreateOptions{Name: tfe.String("app"), QueueAllRuns: tfe.Bool(true),
		TriggerPatterns: []string{"/modules/**/*"}, Operations: tfe.Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	admin = start()
	org, err := admin.Organizations.Read(ctx, "kept")
	if err != nil || org.SessionTimeout != 90 || org.SessionRemember != 0 || !org.AllowForceDeleteWorkspaces {
		t.Errorf("organization after a restart: %+v, %v", org, err)
	}
	got, err := admin.Workspaces.ReadByID(ctx, ws.ID)
	if err != nil || !got.QueueAllRuns || len(got.TriggerPatterns) != 1 || got.TriggerPatterns[0] != "/modules/**/*" || got.ExecutionMode != "local" {
		t.Errorf("workspace after a restart: %+v, %v", got, err)
	}
}
