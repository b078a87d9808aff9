package provider

import (
	"context"
	"slices"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*agentPoolDataSource)(nil)

// NewAgentPoolDataSource is the tfgov_agent_pool data source.
func NewAgentPoolDataSource() datasource.DataSource {
	return &agentPoolDataSource{dataSourceBase{typ: agentPoolDataSourceType}}
}

type agentPoolDataSource struct{ dataSourceBase }

type agentPoolDataSourceModel struct {
	ID                  types.String `tfsdk:"id"`
	Name                types.String `tfsdk:"name"`
	Organization        types.String `tfsdk:"organization"`
	OrganizationScoped  types.Bool   `tfsdk:"organization_scoped"`
	AllowedWorkspaceIDs types.Set    `tfsdk:"allowed_workspace_ids"`
}

func (d *agentPoolDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, agentPoolDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "One agent pool, by name: its ID for `tfgov_agent_token` and the agent token data source and actions. " +
			"One request per 100 pools whose name contains it (the API's pool search); a name that matches nothing costs one more request per 100 pools, to list the closest names. " +
			"Creating agent pools stays with hashicorp/tfe's `tfe_agent_pool`.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the agent pool (exact). A name that matches nothing is an error listing the closest names in the organization.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"organization": organizationScope.dataSource(),
			"id":           schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the agent pool (`apool-<id>`)."},
			"organization_scoped": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether every workspace of the organization may use the pool; when `false`, only `allowed_workspace_ids`.",
			},
			"allowed_workspace_ids": schema.SetAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "IDs of the workspaces allowed to use a pool that is not organization-scoped.",
			},
		},
	}
}

func (d *agentPoolDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg agentPoolDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	name := cfg.Name.ValueString()
	pools, err := listAgentPools(ctx, d.data.client, org, name)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error reading agent pool", byNameError("agent pools", org, err))
		return
	}
	// The search matches parts of names; the pool is the one named exactly.
	i := slices.IndexFunc(pools, func(p *tfe.AgentPool) bool { return p.Name == name })
	if i < 0 {
		all, err := listAgentPools(ctx, d.data.client, org, "")
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error reading agent pool", byNameError("agent pools", org, err))
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Agent pool not found",
			notFoundByName("agent pool", org, []string{name}, namesOf(all, func(p *tfe.AgentPool) string { return p.Name })))
		return
	}
	pool := pools[i]
	allowed := make([]string, 0, len(pool.AllowedWorkspaces))
	for _, ws := range pool.AllowedWorkspaces {
		allowed = append(allowed, ws.ID)
	}
	slices.Sort(allowed)
	cfg.ID = types.StringValue(pool.ID)
	cfg.Organization = types.StringValue(org)
	cfg.OrganizationScoped = types.BoolValue(pool.OrganizationScoped)
	cfg.AllowedWorkspaceIDs = stringSet(allowed)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
