package tfestandin

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

// tfe_team_project_access: schema version 1 (v0.79.0 has no upgrader from 0); `project_access` and
// `workspace_access` lists of one block, optional and computed, sent only with `custom`, as
// v0.79.0's resource_tfe_team_project_access.go does.
func resourceTeamProjectAccess() *schema.Resource {
	block := func(names []string, flags []string) *schema.Schema {
		s := map[string]*schema.Schema{}
		for _, n := range names {
			s[n] = &schema.Schema{Type: schema.TypeString, Optional: true, Computed: true}
		}
		for _, n := range flags {
			s[n] = &schema.Schema{Type: schema.TypeBool, Optional: true, Computed: true}
		}
		return &schema.Schema{Type: schema.TypeList, Optional: true, Computed: true, Elem: &schema.Resource{Schema: s}}
	}
	return &schema.Resource{
		CreateContext: teamProjectAccessCreate,
		ReadContext:   teamProjectAccessRead,
		UpdateContext: teamProjectAccessUpdate,
		DeleteContext: teamProjectAccessDelete,
		SchemaVersion: 1,
		Schema: map[string]*schema.Schema{
			"access":           {Type: schema.TypeString, Required: true},
			"team_id":          {Type: schema.TypeString, Required: true, ForceNew: true},
			"project_id":       {Type: schema.TypeString, Required: true, ForceNew: true},
			"project_access":   block([]string{"settings", "teams", "variable_sets"}, nil),
			"workspace_access": block([]string{"runs", "sentinel_mocks", "state_versions", "variables"}, []string{"create", "locking", "move", "delete", "run_tasks", "policy_overrides"}),
		},
	}
}

// projectGrantOptions are the custom permissions of the configuration.
func projectGrantOptions(d *schema.ResourceData) (*tfe.TeamProjectAccessProjectPermissionsOptions, *tfe.TeamProjectAccessWorkspacePermissionsOptions) {
	if d.Get("access").(string) != string(tfe.TeamProjectAccessCustom) {
		return nil, nil
	}
	str := func(k string) *string {
		if v, ok := d.GetOk(k); ok {
			s := v.(string)
			return &s
		}
		return nil
	}
	flag := func(k string) *bool {
		if v, ok := d.GetOkExists(k); ok { //nolint:staticcheck // as v0.79.0 reads it
			return tfe.Bool(v.(bool))
		}
		return nil
	}
	p, w := "project_access.0.", "workspace_access.0."
	return &tfe.TeamProjectAccessProjectPermissionsOptions{
			Settings: (*tfe.ProjectSettingsPermissionType)(str(p + "settings")), Teams: (*tfe.ProjectTeamsPermissionType)(str(p + "teams")),
			VariableSets: (*tfe.ProjectVariableSetsPermissionType)(str(p + "variable_sets")),
		}, &tfe.TeamProjectAccessWorkspacePermissionsOptions{
			Runs: (*tfe.WorkspaceRunsPermissionType)(str(w + "runs")), SentinelMocks: (*tfe.WorkspaceSentinelMocksPermissionType)(str(w + "sentinel_mocks")),
			StateVersions: (*tfe.WorkspaceStateVersionsPermissionType)(str(w + "state_versions")), Variables: (*tfe.WorkspaceVariablesPermissionType)(str(w + "variables")),
			Create: flag(w + "create"), Locking: flag(w + "locking"), Move: flag(w + "move"), Delete: flag(w + "delete"),
			RunTasks: flag(w + "run_tasks"), PolicyOverrides: flag(w + "policy_overrides"),
		}
}

func teamProjectAccessCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	po, wo := projectGrantOptions(d)
	g, err := c.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{
		Access: tfe.TeamProjectAccessType(d.Get("access").(string)), Team: &tfe.Team{ID: d.Get("team_id").(string)},
		Project: &tfe.Project{ID: d.Get("project_id").(string)}, ProjectAccess: po, WorkspaceAccess: wo,
	})
	if err != nil {
		return errorf("adding team project access: %w", err)
	}
	d.SetId(g.ID)
	return teamProjectAccessRead(ctx, d, meta)
}

func teamProjectAccessRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	g, err := meta.(*client).TeamProjectAccess.Read(ctx, d.Id())
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading team project access %s: %w", d.Id(), err)
	}
	_ = d.Set("access", string(g.Access))
	if g.Team != nil {
		_ = d.Set("team_id", g.Team.ID)
	}
	if g.Project != nil {
		_ = d.Set("project_id", g.Project.ID)
	}
	if p := g.ProjectAccess; p != nil {
		_ = d.Set("project_access", []map[string]any{{"settings": string(p.ProjectSettingsPermission), "teams": string(p.ProjectTeamsPermission), "variable_sets": string(p.ProjectVariableSetsPermission)}})
	}
	if w := g.WorkspaceAccess; w != nil {
		_ = d.Set("workspace_access", []map[string]any{{
			"runs": string(w.WorkspaceRunsPermission), "sentinel_mocks": string(w.WorkspaceSentinelMocksPermission), "state_versions": string(w.WorkspaceStateVersionsPermission),
			"variables": string(w.WorkspaceVariablesPermission), "create": w.WorkspaceCreatePermission, "locking": w.WorkspaceLockingPermission, "move": w.WorkspaceMovePermission,
			"delete": w.WorkspaceDeletePermission, "run_tasks": w.WorkspaceRunTasksPermission, "policy_overrides": w.WorkspacePolicyOverridesPermission,
		}})
	}
	return nil
}

func teamProjectAccessUpdate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	access := tfe.TeamProjectAccessType(d.Get("access").(string))
	po, wo := projectGrantOptions(d)
	if _, err := meta.(*client).TeamProjectAccess.Update(ctx, d.Id(), tfe.TeamProjectAccessUpdateOptions{Access: &access, ProjectAccess: po, WorkspaceAccess: wo}); err != nil {
		return errorf("updating team project access %s: %w", d.Id(), err)
	}
	return teamProjectAccessRead(ctx, d, meta)
}

func teamProjectAccessDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if err := meta.(*client).TeamProjectAccess.Remove(ctx, d.Id()); err != nil && !notFound(err) {
		return errorf("removing team project access %s: %w", d.Id(), err)
	}
	return nil
}
