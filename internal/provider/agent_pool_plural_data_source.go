package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSourceWithConfigure        = (*agentPoolsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*agentPoolsDataSource)(nil)
)

// NewAgentPoolsDataSource is the tfgov_agent_pools data source.
func NewAgentPoolsDataSource() datasource.DataSource {
	return &agentPoolsDataSource{dataSourceBase{typ: agentPoolsDataSourceType}}
}

type agentPoolsDataSource struct{ dataSourceBase }

type agentPoolsDataSourceModel struct {
	byNameQuery
	Pools []agentPoolEntry `tfsdk:"agent_pools"`
}

// agentPoolEntry is one pool of the result.
type agentPoolEntry struct {
	ID                  types.String `tfsdk:"id"`
	Name                types.String `tfsdk:"name"`
	OrganizationScoped  types.Bool   `tfsdk:"organization_scoped"`
	AllowedWorkspaceIDs types.Set    `tfsdk:"allowed_workspace_ids"`
}

func (d *agentPoolsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, agentPoolsDataSourceType.permissions())
	attrs := byNameAttributes("pool", "pools", "tfgov_agent_pools", "agent_pools")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Agent pools of an organization, by exact names or by a name search, with a name-to-ID map for `for_each` " +
			"(a token per pool with `tfgov_agent_token`). Without `names` or `search`, every pool. By name order. " +
			"One request per 100 pools listed (with `search`, the pools whose name contains it: the API's pool search). " +
			"A name of `names` that matches nothing is an error listing the closest names, and so is a `search` that matches no pool " +
			"(an empty result fed to `for_each` plans the destroy of everything it drove), unless `allow_empty = true`; " +
			"a search's closest names cost one more listing of the organization's pools, on that path only. " +
			"Without `names` or `search`, an organization with no pool gives an empty result. " +
			"Creating agent pools stays with hashicorp/tfe's `tfe_agent_pool`.",
		Attributes: attrs,
	}
	attrs["agent_pools"] = schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: "The pools found, by name.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"id":                  schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the agent pool (`apool-<id>`)."},
			"name":                schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the agent pool."},
			"organization_scoped": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether every workspace of the organization may use the pool; when `false`, only `allowed_workspace_ids`."},
			"allowed_workspace_ids": schema.SetAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "IDs of the workspaces allowed to use a pool that is not organization-scoped.",
			},
		}},
	}
}

func (d *agentPoolsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return byNameValidators()
}

func (d *agentPoolsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg agentPoolsDataSourceModel
	c := d.data.client
	// The API has no filter by names: names read the whole list, which also
	// gives a missing name's closest ones.
	byNameLookup[*tfe.AgentPool]{
		one: "agent pool", many: "agent pools",
		name: func(p *tfe.AgentPool) string { return p.Name }, id: func(p *tfe.AgentPool) string { return p.ID },
		list: func(ctx context.Context, org, search string) ([]*tfe.AgentPool, error) {
			return listAgentPools(ctx, c, org, search)
		},
		emptyDetail: emptyAgentPoolsDetail,
	}.serve(ctx, d.data, req, resp, &cfg, &cfg.byNameQuery, func(found []*tfe.AgentPool) {
		cfg.Pools = make([]agentPoolEntry, 0, len(found))
		for _, p := range found {
			allowed := make([]attr.Value, 0, len(p.AllowedWorkspaces))
			for _, ws := range p.AllowedWorkspaces {
				allowed = append(allowed, types.StringValue(ws.ID))
			}
			cfg.Pools = append(cfg.Pools, agentPoolEntry{
				ID: types.StringValue(p.ID), Name: types.StringValue(p.Name), OrganizationScoped: types.BoolValue(p.OrganizationScoped),
				AllowedWorkspaceIDs: types.SetValueMust(types.StringType, allowed),
			})
		}
	})
}

// emptyAgentPoolsDetail explains a search of org's agent pools that matches none of names.
func emptyAgentPoolsDetail(org, search string, names []string) string {
	return fmt.Sprintf("No agent pool of organization %s has a name containing %q%s", org, search,
		suggest("names", search, names, substringDistance, "the API token sees no agent pool there")) + allowEmptyHint
}
