package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*policySetDataSource)(nil)

// NewPolicySetDataSource is the tfgov_policy_set data source.
func NewPolicySetDataSource() datasource.DataSource {
	return &policySetDataSource{dataSourceBase{typ: policySetDataSourceType}}
}

type policySetDataSource struct{ dataSourceBase }

// policySetEntry is a policy set as the three policy set data sources give it.
type policySetEntry struct {
	ID                types.String `tfsdk:"id"`
	Name              types.String `tfsdk:"name"`
	Description       types.String `tfsdk:"description"`
	Kind              types.String `tfsdk:"kind"`
	Overridable       types.Bool   `tfsdk:"overridable"`
	AgentEnabled      types.Bool   `tfsdk:"agent_enabled"`
	PolicyToolVersion types.String `tfsdk:"policy_tool_version"`
	Versioned         types.Bool   `tfsdk:"versioned"`
	PolicyIDs         types.Set    `tfsdk:"policy_ids"`
	Scope             types.Object `tfsdk:"scope"`
}

func policySetEntryOf(ps *tfe.PolicySet) policySetEntry {
	e := policySetEntry{
		ID: types.StringValue(ps.ID), Name: types.StringValue(ps.Name), Kind: types.StringValue(string(ps.Kind)),
		Description: types.StringNull(), PolicyToolVersion: types.StringNull(),
		Overridable: types.BoolValue(ps.Overridable != nil && *ps.Overridable), AgentEnabled: types.BoolValue(ps.AgentEnabled),
		Versioned: types.BoolValue(setVersioned(ps)), Scope: scopeOfSet(ps).object(),
	}
	if ps.Description != "" {
		e.Description = types.StringValue(ps.Description)
	}
	if ps.PolicyToolVersion != "" {
		e.PolicyToolVersion = types.StringValue(ps.PolicyToolVersion)
	}
	pols := make([]string, 0, len(ps.Policies))
	for _, p := range ps.Policies {
		pols = append(pols, p.ID)
	}
	e.PolicyIDs = stringSet(pols)
	return e
}

// policySetDataAttributes are a policy set's computed attributes (all but name), for the three data sources.
func policySetDataAttributes() map[string]schema.Attribute {
	tags := func(what string) schema.SetNestedAttribute {
		return schema.SetNestedAttribute{Computed: true, MarkdownDescription: what, NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"key":   schema.StringAttribute{Computed: true, MarkdownDescription: "The tag's key, or a flat tag's name."},
			"value": schema.StringAttribute{Computed: true, MarkdownDescription: "The value; null for a selector matching any workspace carrying the key."},
		}}}
	}
	ids := func(what string) schema.SetAttribute {
		return schema.SetAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: what}
	}
	return map[string]schema.Attribute{
		"id":                  schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the policy set (`polset-<id>`)."},
		"description":         schema.StringAttribute{Computed: true, MarkdownDescription: "Description of the set; null if none."},
		"kind":                schema.StringAttribute{Computed: true, MarkdownDescription: "Policy framework: `sentinel` or `opa`."},
		"overridable":         schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether users may override the set's failed mandatory policies (a set that runs in an agent)."},
		"agent_enabled":       schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the set's policies run in an agent."},
		"policy_tool_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Sentinel or OPA version the agent runs; null for a set that runs none."},
		"versioned": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the set's policies come from versions (uploaded, or a VCS repository) " +
			"rather than `policy_ids`: only a versioned Sentinel set takes parameters (`tfgov_policy_set_parameter`)."},
		"policy_ids": ids("IDs of the set's individually attached policies (`pol-<id>`); empty for a versioned set."),
		"scope": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "Where the set applies, as `tfgov_policy_set`'s `scope` has it: a workspace is governed when the set is `global`, or it is in `workspace_ids`, " +
				"in a project of `project_ids`, or matched by `tags`; and it is not excluded by `excluded_workspace_ids`, `excluded_project_ids` or `excluded_tags`.",
			Attributes: map[string]schema.Attribute{
				"global":                 schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the set applies to every workspace of the organization."},
				"workspace_ids":          ids("IDs of the workspaces attached (`ws-<id>`)."),
				"excluded_workspace_ids": ids("IDs of the workspaces excluded."),
				"project_ids":            ids("IDs of the projects attached (`prj-<id>`)."),
				"excluded_project_ids":   ids("IDs of the projects excluded."),
				"tags":                   tags("Tag selectors of the workspaces the set governs."),
				"excluded_tags":          tags("Tag selectors of the workspaces the set never governs."),
				"tag_match":              schema.StringAttribute{Computed: true, MarkdownDescription: "How selectors of one kind combine: `any` or `all`."},
			},
		},
	}
}

type policySetDataSourceModel struct {
	Organization types.String `tfsdk:"organization"`
	policySetEntry
}

func (d *policySetDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policySetDataSourceType.permissions())
	attrs := policySetDataAttributes()
	attrs["organization"] = organizationScope.dataSource()
	attrs["name"] = schema.StringAttribute{Required: true, MarkdownDescription: "Name of the policy set.", Validators: []validator.String{nameValidator()}}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A policy set of an organization, by name: its kind, whether it is versioned, its policies and its whole scope. " +
			"A name that names no set is an error naming the closest names. It reads the organization's policy sets, 100 a request.",
		Attributes: attrs,
	}
}

func (d *policySetDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg policySetDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sets := d.data.policySetsOf(ctx, org, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	name := cfg.Name.ValueString()
	i := slices.IndexFunc(sets, func(ps *tfe.PolicySet) bool { return ps.Name == name })
	if i < 0 {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Policy set not found",
			fmt.Sprintf("Organization %s has no policy set named %q%s", org, name,
				suggest("names", name, namesOf(sets, func(ps *tfe.PolicySet) string { return ps.Name }), wholeDistance, "the API token sees no policy set there")))
		return
	}
	cfg.Organization = types.StringValue(org)
	cfg.policySetEntry = policySetEntryOf(sets[i])
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// policySetsOf is org's policy sets sorted by name, from the shared list; an error (a 404 said as
// which: no organization, or no "Manage policies") goes to diags on organization.
func (d *providerData) policySetsOf(ctx context.Context, org string, diags *diag.Diagnostics) []*tfe.PolicySet {
	l, err := d.organizationPolicySets(ctx, org)
	if err == nil && l.parentMissing {
		err = tfe.ErrResourceNotFound
	}
	if err != nil {
		diags.AddAttributeError(path.Root("organization"), "Error listing policy sets", d.organizationPoliciesError(ctx, org, err))
		return nil
	}
	sets := make([]*tfe.PolicySet, 0, len(l.byID))
	for _, ps := range l.byID {
		sets = append(sets, ps)
	}
	slices.SortFunc(sets, func(a, b *tfe.PolicySet) int { return strings.Compare(a.Name, b.Name) })
	return sets
}
