package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSourceWithConfigure        = (*policyDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*policyDataSource)(nil)
)

// NewPolicyDataSource is the tfgov_policy data source.
func NewPolicyDataSource() datasource.DataSource {
	return &policyDataSource{dataSourceBase{typ: policyDataSourceType}}
}

type policyDataSource struct{ dataSourceBase }

// policyModel is a policy's attributes as both data sources give them.
type policyModel struct {
	policyCore
	PolicySetIDs types.Set    `tfsdk:"policy_set_ids"`
	UpdatedAt    types.String `tfsdk:"updated_at"`
}

func (m *policyModel) set(v policyValues) {
	m.policyCore.set(v)
	m.PolicySetIDs, m.UpdatedAt = v.PolicySetIDs, v.UpdatedAt
}

// policyDataSourceModel adds policy_set_count (the length of
// policy_set_ids).
type policyDataSourceModel struct {
	policyModel
	PolicySetCount types.Int64 `tfsdk:"policy_set_count"`
}

// policyDataAttributes are the computed attributes of a policy, for both
// data sources.
func policyDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"description":       schema.StringAttribute{Computed: true, MarkdownDescription: "Description of the policy; null if none."},
		"kind":              schema.StringAttribute{Computed: true, MarkdownDescription: "Policy-as-code framework: `sentinel` or `opa`."},
		"query":             schema.StringAttribute{Computed: true, MarkdownDescription: "The OPA query of an `opa` policy; null for `sentinel`."},
		"enforcement_level": schema.StringAttribute{Computed: true, MarkdownDescription: "Enforcement level: `hard-mandatory`, `soft-mandatory` or `advisory` for Sentinel; `mandatory` or `advisory` for OPA."},
		"policy_set_ids": schema.SetAttribute{
			ElementType: types.StringType, Computed: true,
			MarkdownDescription: "IDs of the policy sets that include the policy.",
		},
		"policy_set_count": schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of policy sets that include the policy."},
		"updated_at":       schema.StringAttribute{Computed: true, MarkdownDescription: "When the policy or its code last changed (RFC 3339); null if never since creation."},
	}
}

func (d *policyDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policyDataSourceType.permissions())
	attrs := policyDataAttributes()
	attrs["id"] = schema.StringAttribute{
		Optional: true, Computed: true,
		MarkdownDescription: "ID of the policy (`pol-<id>`). Set either `id` or `name`.",
		Validators:          []validator.String{idValidator("pol-")},
	}
	attrs["name"] = schema.StringAttribute{
		Optional: true, Computed: true,
		MarkdownDescription: "Name of the policy, looked up in `organization`. Set either `id` or `name`.",
		Validators:          []validator.String{nameValidator()},
	}
	attrs["organization"] = organizationScope.dataSource("Organization to look `name` up in. Defaults to the provider's `organization`; not allowed with `id` (the policy names its own).")
	resp.Schema = schema.Schema{
		MarkdownDescription: "One policy, by ID or by organization and name. Reading by ID is one request; by name, one request per 100 policies whose name contains it.",
		Attributes:          attrs,
	}
}

func (d *policyDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
		datasourcevalidator.Conflicting(path.MatchRoot("id"), path.MatchRoot("organization")),
	}
}

func (d *policyDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg policyDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	api := policyClient{d.data.client}
	var pol *policyAPI
	var err error
	if !cfg.ID.IsNull() {
		id := cfg.ID.ValueString()
		if pol, err = api.read(ctx, id); err != nil {
			org := cfg.Organization.ValueString()
			if org == "" {
				org = d.data.organization
			}
			resp.Diagnostics.AddAttributeError(path.Root("id"), "Error reading policy", d.data.policyByIDError(ctx, org, id, err))
			return
		}
	} else {
		org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		name := cfg.Name.ValueString()
		if pol, err = api.findByName(ctx, org, name); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Error reading policy", d.data.policyByNameError(ctx, org, name, err))
			return
		}
	}
	v := pol.values()
	cfg.set(v)
	cfg.PolicySetCount = v.PolicySetCount
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
