package tfestandin

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

// tfe_policy: schema version 0; `policy` holds the code.
func resourcePolicy() *schema.Resource {
	return &schema.Resource{
		CreateContext: policyCreate,
		ReadContext:   policyRead,
		UpdateContext: policyUpdate,
		DeleteContext: policyDelete,
		Identity: &schema.ResourceIdentity{SchemaFunc: func() map[string]*schema.Schema {
			return map[string]*schema.Schema{
				"id":           {Type: schema.TypeString, RequiredForImport: true},
				"hostname":     {Type: schema.TypeString, OptionalForImport: true},
				"organization": {Type: schema.TypeString, RequiredForImport: true},
			}
		}},
		Schema: map[string]*schema.Schema{
			"name":         {Type: schema.TypeString, Required: true, ForceNew: true},
			"description":  {Type: schema.TypeString, Optional: true},
			"organization": {Type: schema.TypeString, Optional: true, Computed: true, ForceNew: true},
			"kind":         {Type: schema.TypeString, Optional: true, ForceNew: true, Default: string(tfe.Sentinel)},
			"query":        {Type: schema.TypeString, Optional: true},
			"policy":       {Type: schema.TypeString, Required: true},
			"enforce_mode": {Type: schema.TypeString, Optional: true, Computed: true},
		},
	}
}

func policyCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	org := d.Get("organization").(string)
	if org == "" {
		org = c.organization
	}
	kind := tfe.PolicyKind(d.Get("kind").(string))
	opts := tfe.PolicyCreateOptions{Name: tfe.String(d.Get("name").(string)), Kind: kind}
	if v, ok := d.GetOk("description"); ok {
		opts.Description = tfe.String(v.(string))
	}
	if v, ok := d.GetOk("query"); ok {
		opts.Query = tfe.String(v.(string))
	}
	level := tfe.EnforcementSoft // v0.79.0's defaults
	if kind == tfe.OPA {
		level = tfe.EnforcementAdvisory
	}
	if v, ok := d.GetOk("enforce_mode"); ok {
		level = tfe.EnforcementLevel(v.(string))
	}
	opts.EnforcementLevel = tfe.EnforcementMode(level)
	p, err := c.Policies.Create(ctx, org, opts)
	if err != nil {
		return errorf("creating policy: %w", err)
	}
	d.SetId(p.ID)
	_ = d.Set("organization", org)
	if err := c.Policies.Upload(ctx, p.ID, []byte(d.Get("policy").(string))); err != nil {
		return errorf("uploading policy %s: %w", p.ID, err)
	}
	return policyRead(ctx, d, meta)
}

func policyRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	p, err := c.Policies.Read(ctx, d.Id())
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading policy %s: %w", d.Id(), err)
	}
	_ = d.Set("name", p.Name)
	_ = d.Set("description", p.Description)
	_ = d.Set("kind", string(p.Kind))
	_ = d.Set("enforce_mode", string(p.EnforcementLevel))
	code, err := c.Policies.Download(ctx, p.ID)
	if err != nil {
		return errorf("downloading policy %s: %w", p.ID, err)
	}
	_ = d.Set("policy", string(code))
	org := d.Get("organization").(string)
	if org == "" {
		org = c.organization
	}
	id, err := d.Identity()
	if err != nil {
		return diag.FromErr(err)
	}
	_ = id.Set("id", p.ID)
	_ = id.Set("organization", org)
	_ = id.Set("hostname", c.hostname)
	return nil
}

func policyUpdate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	if d.HasChanges("description", "enforce_mode", "query") {
		opts := tfe.PolicyUpdateOptions{Description: tfe.String(d.Get("description").(string))}
		if d.HasChange("enforce_mode") {
			opts.EnforcementLevel = tfe.EnforcementMode(tfe.EnforcementLevel(d.Get("enforce_mode").(string)))
		}
		if v, ok := d.GetOk("query"); ok {
			opts.Query = tfe.String(v.(string))
		}
		if _, err := c.Policies.Update(ctx, d.Id(), opts); err != nil {
			return errorf("updating policy %s: %w", d.Id(), err)
		}
	}
	if d.HasChange("policy") {
		if err := c.Policies.Upload(ctx, d.Id(), []byte(d.Get("policy").(string))); err != nil {
			return errorf("uploading policy %s: %w", d.Id(), err)
		}
	}
	return policyRead(ctx, d, meta)
}

func policyDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if err := meta.(*client).Policies.Delete(ctx, d.Id()); err != nil && !notFound(err) {
		return errorf("deleting policy %s: %w", d.Id(), err)
	}
	return nil
}

// tfe_team_access: schema version 1; `permissions` a list of one block,
// optional and computed. A configuration with `permissions` and no
// `access` is a custom grant.
func resourceTeamAccess() *schema.Resource {
	str := func() *schema.Schema { return &schema.Schema{Type: schema.TypeString, Required: true} }
	boolean := func() *schema.Schema { return &schema.Schema{Type: schema.TypeBool, Required: true} }
	return &schema.Resource{
		CreateContext: teamAccessCreate,
		ReadContext:   teamAccessRead,
		UpdateContext: teamAccessUpdate,
		DeleteContext: teamAccessDelete,
		SchemaVersion: 1,
		Schema: map[string]*schema.Schema{
			"access": {Type: schema.TypeString, Optional: true, Computed: true},
			"permissions": {
				Type: schema.TypeList, Optional: true, Computed: true,
				Elem: &schema.Resource{Schema: map[string]*schema.Schema{
					"runs": str(), "variables": str(), "state_versions": str(), "sentinel_mocks": str(),
					"workspace_locking": boolean(), "run_tasks": boolean(),
					"policy_overrides": {Type: schema.TypeBool, Optional: true, Computed: true},
				}},
			},
			"team_id":      {Type: schema.TypeString, Required: true, ForceNew: true},
			"workspace_id": {Type: schema.TypeString, Required: true, ForceNew: true},
		},
	}
}

// teamAccessPermissions fills the custom permissions of the configuration.
func teamAccessPermissions(d *schema.ResourceData) (access tfe.AccessType, runs *tfe.RunsPermissionType, vars *tfe.VariablesPermissionType,
	states *tfe.StateVersionsPermissionType, mocks *tfe.SentinelMocksPermissionType, locking, runTasks, overrides *bool,
) {
	access = tfe.AccessType(d.Get("access").(string))
	cfg := d.GetRawConfig()
	if perms := cfg.GetAttr("permissions"); !cfg.GetAttr("access").IsNull() || perms.IsNull() || !perms.IsKnown() || perms.LengthInt() == 0 {
		return access, nil, nil, nil, nil, nil, nil, nil
	}
	access = tfe.AccessCustom
	p := "permissions.0."
	runs = tfe.RunsPermission(tfe.RunsPermissionType(d.Get(p + "runs").(string)))
	vars = tfe.VariablesPermission(tfe.VariablesPermissionType(d.Get(p + "variables").(string)))
	states = tfe.StateVersionsPermission(tfe.StateVersionsPermissionType(d.Get(p + "state_versions").(string)))
	mocks = tfe.SentinelMocksPermission(tfe.SentinelMocksPermissionType(d.Get(p + "sentinel_mocks").(string)))
	locking = tfe.Bool(d.Get(p + "workspace_locking").(bool))
	runTasks = tfe.Bool(d.Get(p + "run_tasks").(bool))
	if v, ok := d.GetOkExists(p + "policy_overrides"); ok { //nolint:staticcheck // as v0.79.0 reads it
		overrides = tfe.Bool(v.(bool))
	}
	return access, runs, vars, states, mocks, locking, runTasks, overrides
}

func teamAccessCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	ws, err := c.Workspaces.ReadByID(ctx, d.Get("workspace_id").(string))
	if err != nil {
		return errorf("reading workspace: %w", err)
	}
	tm, err := c.Teams.Read(ctx, d.Get("team_id").(string))
	if err != nil {
		return errorf("reading team: %w", err)
	}
	access, runs, vars, states, mocks, locking, runTasks, overrides := teamAccessPermissions(d)
	ta, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{
		Access: tfe.Access(access), Team: tm, Workspace: ws, Runs: runs, Variables: vars, StateVersions: states,
		SentinelMocks: mocks, WorkspaceLocking: locking, RunTasks: runTasks, PolicyOverrides: overrides,
	})
	if err != nil {
		return errorf("adding team access: %w", err)
	}
	d.SetId(ta.ID)
	return teamAccessRead(ctx, d, meta)
}

func teamAccessRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	ta, err := meta.(*client).TeamAccess.Read(ctx, d.Id())
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading team access %s: %w", d.Id(), err)
	}
	setTeamAccess(d, ta)
	if ta.Team != nil {
		_ = d.Set("team_id", ta.Team.ID)
	}
	return nil
}

func setTeamAccess(d *schema.ResourceData, ta *tfe.TeamAccess) {
	_ = d.Set("access", string(ta.Access))
	_ = d.Set("permissions", []map[string]any{{
		"runs": string(ta.Runs), "variables": string(ta.Variables), "state_versions": string(ta.StateVersions),
		"sentinel_mocks": string(ta.SentinelMocks), "workspace_locking": ta.WorkspaceLocking, "run_tasks": ta.RunTasks,
		"policy_overrides": ta.PolicyOverrides,
	}})
}

func teamAccessUpdate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	access, runs, vars, states, mocks, locking, runTasks, overrides := teamAccessPermissions(d)
	ta, err := meta.(*client).TeamAccess.Update(ctx, d.Id(), tfe.TeamAccessUpdateOptions{
		Access: tfe.Access(access), Runs: runs, Variables: vars, StateVersions: states,
		SentinelMocks: mocks, WorkspaceLocking: locking, RunTasks: runTasks, PolicyOverrides: overrides,
	})
	if err != nil {
		return errorf("updating team access %s: %w", d.Id(), err)
	}
	setTeamAccess(d, ta)
	return nil
}

func teamAccessDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if err := meta.(*client).TeamAccess.Remove(ctx, d.Id()); err != nil && !notFound(err) {
		return errorf("removing team access %s: %w", d.Id(), err)
	}
	return nil
}

// tfe_agent_token: schema version 0; the secret `token` comes from the
// create answer only.
func resourceAgentToken() *schema.Resource {
	return &schema.Resource{
		CreateContext: agentTokenCreate,
		ReadContext:   agentTokenRead,
		DeleteContext: agentTokenDelete,
		Schema: map[string]*schema.Schema{
			"agent_pool_id": {Type: schema.TypeString, Required: true, ForceNew: true},
			"description":   {Type: schema.TypeString, Required: true, ForceNew: true},
			"token":         {Type: schema.TypeString, Computed: true, Sensitive: true},
		},
	}
}

func agentTokenCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	tok, err := meta.(*client).AgentTokens.Create(ctx, d.Get("agent_pool_id").(string), tfe.AgentTokenCreateOptions{Description: tfe.String(d.Get("description").(string))})
	if err != nil {
		return errorf("creating agent token: %w", err)
	}
	d.SetId(tok.ID)
	_ = d.Set("token", tok.Token)
	return agentTokenRead(ctx, d, meta)
}

func agentTokenRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	tok, err := meta.(*client).AgentTokens.Read(ctx, d.Id())
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading agent token %s: %w", d.Id(), err)
	}
	_ = d.Set("description", tok.Description)
	return nil
}

func agentTokenDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if err := meta.(*client).AgentTokens.Delete(ctx, d.Id()); err != nil && !notFound(err) {
		return errorf("deleting agent token %s: %w", d.Id(), err)
	}
	return nil
}
