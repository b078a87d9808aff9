package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*policySetsDataSource)(nil)

// NewPolicySetsDataSource is the tfgov_policy_sets data source.
func NewPolicySetsDataSource() datasource.DataSource {
	return &policySetsDataSource{dataSourceBase{typ: policySetsDataSourceType}}
}

type policySetsDataSource struct{ dataSourceBase }

type policySetsDataSourceModel struct {
	ID           types.String     `tfsdk:"id"`
	Organization types.String     `tfsdk:"organization"`
	Search       types.String     `tfsdk:"search"`
	Kind         types.String     `tfsdk:"kind"`
	AllowEmpty   types.Bool       `tfsdk:"allow_empty"`
	IDs          []types.String   `tfsdk:"ids"`
	PolicySets   []policySetEntry `tfsdk:"policy_sets"`
}

func (d *policySetsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policySetsDataSourceType.permissions())
	entry := policySetDataAttributes()
	entry["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the policy set."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The policy sets of an organization, by name, optionally narrowed by name and kind, each with its whole scope. " +
			"All pages are read, 100 sets a request, and the same listing serves every policy set data source and `tfgov_policy_set` of the organization in one operation. " +
			"A `search` that matches no set is an error naming the closest set names, since it may hold a typo and an empty result fed to `for_each` " +
			"plans the destroy of everything it drove; set `allow_empty = true` when an empty result is expected. " +
			"Without `search`, no set (of the `kind`) is a normal state and gives an empty result.",
		Attributes: map[string]schema.Attribute{
			"id":           schema.StringAttribute{Computed: true, MarkdownDescription: "The organization's name."},
			"organization": organizationScope.dataSource(),
			"search": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Keep only sets whose name contains this text, in any case.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"kind": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Keep only sets of this kind: " + backticked(policyKindNames) + ".",
				Validators: []validator.String{stringvalidator.OneOf(policyKindNames...)},
			},
			"allow_empty": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether a `search` that matches no set gives an empty result. " +
					"Defaults to `false`: a `search` that matches nothing is an error naming the closest set names.",
			},
			"ids": schema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "IDs of the sets, in the order of `policy_sets`."},
			"policy_sets": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "The policy sets, by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: entry},
			},
		},
	}
}

func (d *policySetsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg policySetsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	all := d.data.policySetsOf(ctx, org, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	search, kind := cfg.Search.ValueString(), cfg.Kind.ValueString()
	var sets, ofKind []*tfe.PolicySet
	for _, ps := range all {
		if kind != "" && string(ps.Kind) != kind {
			continue
		}
		ofKind = append(ofKind, ps)
		if strings.Contains(strings.ToLower(ps.Name), strings.ToLower(search)) {
			sets = append(sets, ps)
		}
	}
	if len(sets) == 0 && search != "" && !cfg.AllowEmpty.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("search"), "No policy set matches the search",
			emptyPolicySetsDetail(org, search, kind, namesOf(ofKind, func(ps *tfe.PolicySet) string { return ps.Name })))
		return
	}
	cfg.ID, cfg.Organization = types.StringValue(org), types.StringValue(org)
	cfg.IDs = make([]types.String, 0, len(sets))
	cfg.PolicySets = make([]policySetEntry, 0, len(sets))
	for _, ps := range sets {
		cfg.IDs = append(cfg.IDs, types.StringValue(ps.ID))
		cfg.PolicySets = append(cfg.PolicySets, policySetEntryOf(ps))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// emptyPolicySetsDetail explains a search of org's policy sets of kind ("": any) among names.
func emptyPolicySetsDetail(org, search, kind string, names []string) string {
	what := "policy set"
	if kind != "" {
		what = kind + " policy set"
	}
	return fmt.Sprintf("No %s of organization %s has a name containing %q%s", what, org, search,
		suggest("names", search, names, substringDistance, "the API token sees no "+what+" there")) + allowEmptyHint
}
