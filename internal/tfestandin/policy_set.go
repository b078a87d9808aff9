package tfestandin

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

// tfe_policy_set: v0.79.0's attributes for a set of individual policies attached to workspaces
// (schema version 0, SDKv2); no vcs_repo and no slug (the tests that use it need neither).
func resourcePolicySet() *schema.Resource {
	return &schema.Resource{
		CreateContext: policySetCreate,
		ReadContext:   policySetRead,
		UpdateContext: policySetUpdate,
		DeleteContext: policySetDelete,
		Schema: map[string]*schema.Schema{
			"name":                {Type: schema.TypeString, Required: true},
			"description":         {Type: schema.TypeString, Optional: true},
			"organization":        {Type: schema.TypeString, Optional: true, Computed: true, ForceNew: true},
			"kind":                {Type: schema.TypeString, Optional: true, ForceNew: true, Default: string(tfe.Sentinel)},
			"global":              {Type: schema.TypeBool, Optional: true, Default: false},
			"agent_enabled":       {Type: schema.TypeBool, Optional: true, Computed: true},
			"overridable":         {Type: schema.TypeBool, Optional: true, Computed: true},
			"policy_tool_version": {Type: schema.TypeString, Optional: true, Computed: true},
			"policies_path":       {Type: schema.TypeString, Optional: true},
			"policy_ids":          {Type: schema.TypeSet, Optional: true, Elem: &schema.Schema{Type: schema.TypeString}},
			"workspace_ids":       {Type: schema.TypeSet, Optional: true, Computed: true, Elem: &schema.Schema{Type: schema.TypeString}},
		},
	}
}

func setIDs(d *schema.ResourceData, name string) []string {
	var out []string
	for _, v := range d.Get(name).(*schema.Set).List() {
		out = append(out, v.(string))
	}
	return out
}

func policySetCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	org := d.Get("organization").(string)
	if org == "" {
		org = c.organization
	}
	opts := tfe.PolicySetCreateOptions{Name: tfe.String(d.Get("name").(string)), Kind: tfe.PolicyKind(d.Get("kind").(string)), Global: tfe.Bool(d.Get("global").(bool))}
	if v, ok := d.GetOk("description"); ok {
		opts.Description = tfe.String(v.(string))
	}
	for _, id := range setIDs(d, "policy_ids") {
		opts.Policies = append(opts.Policies, &tfe.Policy{ID: id})
	}
	for _, id := range setIDs(d, "workspace_ids") {
		opts.Workspaces = append(opts.Workspaces, &tfe.Workspace{ID: id})
	}
	ps, err := c.PolicySets.Create(ctx, org, opts)
	if err != nil {
		return errorf("creating policy set: %w", err)
	}
	d.SetId(ps.ID)
	_ = d.Set("organization", org)
	return policySetRead(ctx, d, meta)
}

func policySetRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	ps, err := c.PolicySets.Read(ctx, d.Id())
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading policy set %s: %w", d.Id(), err)
	}
	_ = d.Set("name", ps.Name)
	_ = d.Set("description", ps.Description)
	_ = d.Set("kind", string(ps.Kind))
	_ = d.Set("global", ps.Global)
	_ = d.Set("agent_enabled", ps.AgentEnabled)
	_ = d.Set("overridable", ps.Overridable != nil && *ps.Overridable)
	_ = d.Set("policy_tool_version", ps.PolicyToolVersion)
	var pols, wss []any
	for _, p := range ps.Policies {
		pols = append(pols, p.ID)
	}
	for _, ws := range ps.Workspaces {
		wss = append(wss, ws.ID)
	}
	_ = d.Set("policy_ids", pols)
	_ = d.Set("workspace_ids", wss)
	return nil
}

func policySetUpdate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	c := meta.(*client)
	if _, err := c.PolicySets.Update(ctx, d.Id(), tfe.PolicySetUpdateOptions{Name: tfe.String(d.Get("name").(string)), Description: tfe.String(d.Get("description").(string))}); err != nil {
		return errorf("updating policy set %s: %w", d.Id(), err)
	}
	return policySetRead(ctx, d, meta)
}

func policySetDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if err := meta.(*client).PolicySets.Delete(ctx, d.Id()); err != nil && !notFound(err) {
		return errorf("deleting policy set %s: %w", d.Id(), err)
	}
	return nil
}

// tfe_workspace_policy_set: v0.79.0's attachment of one workspace to a policy set, id
// "<policy set>_<workspace>"; gone from state when the set no longer lists the workspace.
func resourceWorkspacePolicySet() *schema.Resource {
	return &schema.Resource{
		CreateContext: workspacePolicySetCreate,
		ReadContext:   workspacePolicySetRead,
		DeleteContext: workspacePolicySetDelete,
		Schema: map[string]*schema.Schema{
			"policy_set_id": {Type: schema.TypeString, Required: true, ForceNew: true},
			"workspace_id":  {Type: schema.TypeString, Required: true, ForceNew: true},
		},
	}
}

func workspacePolicySetCreate(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	ps, ws := d.Get("policy_set_id").(string), d.Get("workspace_id").(string)
	if err := meta.(*client).PolicySets.AddWorkspaces(ctx, ps, tfe.PolicySetAddWorkspacesOptions{Workspaces: []*tfe.Workspace{{ID: ws}}}); err != nil {
		return errorf("attaching policy set %s to workspace %s: %w", ps, ws, err)
	}
	d.SetId(ps + "_" + ws)
	return workspacePolicySetRead(ctx, d, meta)
}

func workspacePolicySetRead(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	ps, ws := d.Get("policy_set_id").(string), d.Get("workspace_id").(string)
	set, err := meta.(*client).PolicySets.ReadWithOptions(ctx, ps, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetWorkspaces}})
	if notFound(err) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return errorf("reading policy set %s: %w", ps, err)
	}
	for _, w := range set.Workspaces {
		if w.ID == ws {
			return nil
		}
	}
	d.SetId("") // the set no longer lists the workspace
	return nil
}

func workspacePolicySetDelete(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	ps, ws := d.Get("policy_set_id").(string), d.Get("workspace_id").(string)
	if err := meta.(*client).PolicySets.RemoveWorkspaces(ctx, ps, tfe.PolicySetRemoveWorkspacesOptions{Workspaces: []*tfe.Workspace{{ID: ws}}}); err != nil && !notFound(err) {
		return errorf("detaching policy set %s from workspace %s: %w", ps, ws, err)
	}
	return nil
}
