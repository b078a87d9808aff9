package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*policiesDataSource)(nil)

// NewPoliciesDataSource is the tfgov_policies data source.
func NewPoliciesDataSource() datasource.DataSource {
	return &policiesDataSource{dataSourceBase{typ: policiesDataSourceType}}
}

type policiesDataSource struct{ dataSourceBase }

type policiesDataSourceModel struct {
	ID           types.String      `tfsdk:"id"`
	Organization types.String      `tfsdk:"organization"`
	Search       types.String      `tfsdk:"search"`
	Kind         types.String      `tfsdk:"kind"`
	AllowEmpty   types.Bool        `tfsdk:"allow_empty"`
	IDs          []types.String    `tfsdk:"ids"`
	Policies     []policyListEntry `tfsdk:"policies"`
}

type policyListEntry struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	Description      types.String `tfsdk:"description"`
	Kind             types.String `tfsdk:"kind"`
	Query            types.String `tfsdk:"query"`
	EnforcementLevel types.String `tfsdk:"enforcement_level"`
	PolicySetIDs     types.Set    `tfsdk:"policy_set_ids"`
	PolicySetCount   types.Int64  `tfsdk:"policy_set_count"`
	UpdatedAt        types.String `tfsdk:"updated_at"`
}

func (d *policiesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policiesDataSourceType.permissions())
	entry := policyDataAttributes()
	entry["id"] = schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the policy (`pol-<id>`)."}
	entry["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the policy."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every policy of an organization, oldest first, optionally narrowed by name and kind. All pages are read, 100 policies a request. " +
			"A `search` that matches no policy is an error naming the closest policy names (one more listing, on that path only), since it may hold a typo " +
			"and an empty result fed to `for_each` plans the destroy of everything it drove; set `allow_empty = true` when an empty result is expected. " +
			"Without `search`, no policy (of the `kind`) is a normal state, such as a new organization's, and gives an empty result.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The organization's name.",
			},
			"organization": organizationScope.dataSource(),
			"search": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Keep only policies whose name contains this text (the API's partial, case-insensitive name search).",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"kind": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Keep only policies of this kind: " + backticked(policyKindNames) + ".",
				Validators:          []validator.String{stringvalidator.OneOf(policyKindNames...)},
			},
			"allow_empty": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether a `search` that matches no policy gives an empty result. " +
					"Defaults to `false`: a `search` that matches nothing is an error naming the closest policy names.",
			},
			"ids": schema.ListAttribute{
				ElementType:         types.StringType,
				Computed:            true,
				MarkdownDescription: "IDs of the policies, in the order of `policies`.",
			},
			"policies": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The policies.",
				NestedObject:        schema.NestedAttributeObject{Attributes: entry},
			},
		},
	}
}

func (d *policiesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg policiesDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	pols, err := policyClient{d.data.client}.list(ctx, org, cfg.Search.ValueString(), cfg.Kind.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing policies", d.data.organizationPoliciesError(ctx, org, err))
		return
	}
	if search := cfg.Search.ValueString(); len(pols) == 0 && search != "" && !cfg.AllowEmpty.ValueBool() {
		kind := cfg.Kind.ValueString()
		all, err := policyClient{d.data.client}.list(ctx, org, "", kind)
		if err == nil {
			resp.Diagnostics.AddAttributeError(path.Root("search"), "No policy matches the search",
				emptyPoliciesDetail(org, search, kind, namesOf(all, func(p *policyAPI) string { return p.Name })))
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing policies", d.data.organizationPoliciesError(ctx, org, err))
		return
	}
	cfg.ID = types.StringValue(org)
	cfg.Organization = types.StringValue(org)
	cfg.IDs = make([]types.String, 0, len(pols))
	cfg.Policies = make([]policyListEntry, 0, len(pols))
	for _, pol := range pols {
		v := pol.values()
		cfg.IDs = append(cfg.IDs, v.ID)
		cfg.Policies = append(cfg.Policies, policyListEntry{
			ID: v.ID, Name: v.Name, Description: v.Description, Kind: v.Kind, Query: v.Query,
			EnforcementLevel: v.EnforcementLevel, PolicySetIDs: v.PolicySetIDs, PolicySetCount: v.PolicySetCount, UpdatedAt: v.UpdatedAt,
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
