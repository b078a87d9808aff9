package tfestandin

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

// tfe_workspace and tfe_team, for the testing guide's example that makes a
// workspace and a team with hashicorp/tfe and governs them with tfgov. A
// subset of v0.79.0's attributes, with its defaults (queue_all_runs and
// allow_destroy_plan true, auto_apply and description read back); its
// requests as v0.79.0 sends them: every create names the settings
// overwrites, and a delete is a safe delete unless force_delete.

func resourceWorkspace() *schema.Resource {
	return &schema.Resource{
		CreateContext: workspaceCreate,
		ReadContext:   workspaceRead,
		UpdateContext: workspaceUpdate,
		DeleteContext: workspaceDelete,
		Schema: map[string]*schema.Schema{
			"name":               {Type: schema.TypeString, Required: true},
			"organization":       {Type: schema.TypeString, Optional: true, Computed: true, ForceNew: true},
			"description":        {Type: schema.TypeString, Optional: true, Computed: true},
			"auto_apply":         {Type: schema.TypeBool, Optional: true, Computed: true},
			"allow_destroy_plan": {Type: schema.TypeBool, Optional: true, Default: true},
			"queue_all_runs":     {Type: schema.TypeBool, Optional: true, Default: true},
			"working_directory":  {Type: schema.TypeString, Optional: true, Default: ""},
			"terraform_version":  {Type: schema.TypeString, Optional: true, Computed: true},
			"force_delete":       {Type: schema.TypeBool, Optional: true, Default: false},
		},
	}
}

// wsSettings are the settings a create and an update send.
type wsSettings struct {
	allowDestroy, queueAll, autoApply *bool
	workdir, description, version     *string
}

func workspaceSettings(d *schema.ResourceData) wsSettings {
	s := wsSettings{
		allowDestroy: tfe.Bool(d.Get("allow_destroy_plan").(bool)),
		queueAll:     tfe.Bool(d.Get("queue_all_runs").(bool)),
		workdir:      tfe.String(d.Get("working_directory").(string)),
	}
	if v, ok := d.GetOk("description"); ok {
		s.description = tfe.String(v.(string))
	}
	if v, ok := d.GetOk("terraform_version"); ok {
		s.version = tfe.String(v.(string))
	}
	// auto_apply is sent when configured, false included.
	if v := d.GetRawConfig().GetAttr("auto_apply"); v.IsKnown() && !v.IsNull() {
		s.autoApply = tfe.Bool(v.True())
	}
	return s
}

func workspaceCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	org := d.Get("organization").(string)
	if org == "" {
		org = c.organization
	}
	opts := tfe.WorkspaceCreateOptions{
		Name: tfe.String(d.Get("name").(string)),
		// No execution mode of its own: it inherits the organization's.
		SettingOverwrites: &tfe.WorkspaceSettingOverwritesOptions{ExecutionMode: tfe.Bool(false), AgentPool: tfe.Bool(false)},
	}
	st := workspaceSettings(d)
	opts.AllowDestroyPlan, opts.QueueAllRuns, opts.AutoApply = st.allowDestroy, st.queueAll, st.autoApply
	opts.WorkingDirectory, opts.Description, opts.TerraformVersion = st.workdir, st.description, st.version
	ws, err := c.Workspaces.Create(ctx, org, opts)
	if err != nil {
		return errorf("creating workspace: %w", err)
	}
	d.SetId(ws.ID)
	return workspaceRead(ctx, d, meta)
}

func workspaceRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	ws, err := c.Workspaces.ReadByID(ctx, d.Id())
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading workspace %s: %w", d.Id(), err)
	}
	_ = d.Set("name", ws.Name)
	_ = d.Set("organization", ws.Organization.Name)
	_ = d.Set("description", ws.Description)
	_ = d.Set("auto_apply", ws.AutoApply)
	_ = d.Set("allow_destroy_plan", ws.AllowDestroyPlan)
	_ = d.Set("queue_all_runs", ws.QueueAllRuns)
	_ = d.Set("working_directory", ws.WorkingDirectory)
	_ = d.Set("terraform_version", ws.TerraformVersion)
	return nil
}

func workspaceUpdate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	opts := tfe.WorkspaceUpdateOptions{Name: tfe.String(d.Get("name").(string))}
	st := workspaceSettings(d)
	opts.AllowDestroyPlan, opts.QueueAllRuns, opts.AutoApply = st.allowDestroy, st.queueAll, st.autoApply
	opts.WorkingDirectory, opts.Description, opts.TerraformVersion = st.workdir, st.description, st.version
	if _, err := c.Workspaces.UpdateByID(ctx, d.Id(), opts); err != nil {
		return errorf("updating workspace %s: %w", d.Id(), err)
	}
	return workspaceRead(ctx, d, meta)
}

// workspaceDelete deletes as v0.79.0 does: it reads the workspace, and a
// service whose answer has permissions.can-force-delete gets a safe delete
// (force_delete false) or a delete; one without it, only a force delete.
func workspaceDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	ws, err := c.Workspaces.ReadByID(ctx, d.Id())
	if notFound(err) {
		return nil
	}
	if err != nil {
		return errorf("reading workspace %s: %w", d.Id(), err)
	}
	force := d.Get("force_delete").(bool)
	switch {
	case ws.Permissions == nil || ws.Permissions.CanForceDelete == nil:
		if !force {
			return errorf("deleting workspace %s: the service has no safe delete; set force_delete", d.Id())
		}
		err = c.Workspaces.DeleteByID(ctx, d.Id())
	case force:
		err = c.Workspaces.DeleteByID(ctx, d.Id())
	default:
		err = c.Workspaces.SafeDeleteByID(ctx, d.Id())
	}
	if err != nil && !notFound(err) {
		return errorf("deleting workspace %s: %w", d.Id(), err)
	}
	return nil
}

func resourceTeam() *schema.Resource {
	return &schema.Resource{
		CreateContext: teamCreate,
		ReadContext:   teamRead,
		UpdateContext: teamUpdate,
		DeleteContext: teamDelete,
		Schema: map[string]*schema.Schema{
			"name":                          {Type: schema.TypeString, Required: true},
			"organization":                  {Type: schema.TypeString, Optional: true, Computed: true, ForceNew: true},
			"visibility":                    {Type: schema.TypeString, Optional: true, Computed: true},
			"allow_member_token_management": {Type: schema.TypeBool, Optional: true, Default: true},
		},
	}
}

func teamCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	org := d.Get("organization").(string)
	if org == "" {
		org = c.organization
	}
	opts := tfe.TeamCreateOptions{
		Name:                       tfe.String(d.Get("name").(string)),
		AllowMemberTokenManagement: tfe.Bool(d.Get("allow_member_token_management").(bool)),
	}
	if v, ok := d.GetOk("visibility"); ok {
		opts.Visibility = tfe.String(v.(string))
	}
	tm, err := c.Teams.Create(ctx, org, opts)
	if err != nil {
		return errorf("creating team: %w", err)
	}
	d.SetId(tm.ID)
	_ = d.Set("organization", org)
	return teamRead(ctx, d, meta)
}

func teamRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	tm, err := c.Teams.Read(ctx, d.Id())
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading team %s: %w", d.Id(), err)
	}
	_ = d.Set("name", tm.Name)
	_ = d.Set("visibility", tm.Visibility)
	_ = d.Set("allow_member_token_management", tm.AllowMemberTokenManagement)
	return nil
}

func teamUpdate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	opts := tfe.TeamUpdateOptions{
		Name:                       tfe.String(d.Get("name").(string)),
		AllowMemberTokenManagement: tfe.Bool(d.Get("allow_member_token_management").(bool)),
	}
	if v, ok := d.GetOk("visibility"); ok {
		opts.Visibility = tfe.String(v.(string))
	}
	if _, err := c.Teams.Update(ctx, d.Id(), opts); err != nil {
		return errorf("updating team %s: %w", d.Id(), err)
	}
	return teamRead(ctx, d, meta)
}

func teamDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	if err := c.Teams.Delete(ctx, d.Id()); err != nil && !notFound(err) {
		return errorf("deleting team %s: %w", d.Id(), err)
	}
	return nil
}
