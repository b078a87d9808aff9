package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
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
	Organization types.String     `tfsdk:"organization"`
	Names        []types.String   `tfsdk:"names"`
	Search       types.String     `tfsdk:"search"`
	AllowEmpty   types.Bool       `tfsdk:"allow_empty"`
	IDs          types.List       `tfsdk:"ids"`
	IDsByName    types.Map        `tfsdk:"ids_by_name"`
	Pools        []agentPoolEntry `tfsdk:"agent_pools"`
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
	resp.Schema = schema.Schema{
		MarkdownDescription: "Agent pools of an organization, by exact names or by a name search, with a name-to-ID map for `for_each` " +
			"(a token per pool with `tfgov_agent_token`). Without `names` or `search`, every pool. By name order. " +
			"One request per 100 pools listed (with `search`, the pools whose name contains it: the API's pool search). " +
			"A name of `names` that matches nothing is an error listing the closest names, and so is a `search` that matches no pool " +
			"(an empty result fed to `for_each` plans the destroy of everything it drove), unless `allow_empty = true`; " +
			"a search's closest names cost one more listing of the organization's pools, on that path only. " +
			"Without `names` or `search`, an organization with no pool gives an empty result. " +
			"Creating agent pools stays with hashicorp/tfe's `tfe_agent_pool`.",
		Attributes: map[string]schema.Attribute{
			"organization": organizationScope.dataSource(),
			"names": schema.SetAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Exact names of the pools to find (case-sensitive); each must exist. Not with `search`.",
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(nameValidator())},
			},
			"search": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Keep only pools whose name contains this text, in any case (the API's `q`).",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"allow_empty": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether a `search` that matches no pool gives an empty result. " +
					"Defaults to `false`: a search that matches nothing is an error naming the closest names. Not with `names`.",
			},
			"ids": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "IDs of the pools found, in the order of `agent_pools` (by name).",
			},
			"ids_by_name": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The pools' IDs by name: `for_each = data.tfgov_agent_pools.x.ids_by_name` gives `each.key` the name and `each.value` the ID.",
			},
			"agent_pools": schema.ListNestedAttribute{
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
			},
		},
	}
}

func (d *agentPoolsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.Conflicting(path.MatchRoot("names"), path.MatchRoot("search")),
		datasourcevalidator.Conflicting(path.MatchRoot("names"), path.MatchRoot("allow_empty")),
	}
}

func (d *agentPoolsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg agentPoolsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	c := d.data.client
	search := cfg.Search.ValueString()
	// The API has no filter by names: names read the whole list, which also
	// gives a missing name's closest ones.
	found, err := listAgentPools(ctx, c, org, search)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing agent pools", byNameError("agent pools", org, err))
		return
	}
	poolName := func(p *tfe.AgentPool) string { return p.Name }
	switch {
	case cfg.Names != nil:
		names := make([]string, 0, len(cfg.Names))
		for _, n := range cfg.Names {
			names = append(names, n.ValueString())
		}
		slices.Sort(names)
		have := namesOf(found, poolName)
		missing := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(have, n) })
		if len(missing) > 0 {
			resp.Diagnostics.AddAttributeError(path.Root("names"), "Agent pool not found", notFoundByName("agent pool", org, missing, have))
			return
		}
		found = slices.DeleteFunc(found, func(p *tfe.AgentPool) bool { return !slices.Contains(names, p.Name) })
	case search != "":
		// The search is applied again here, in case a server ignores q.
		found = slices.DeleteFunc(found, func(p *tfe.AgentPool) bool {
			return !strings.Contains(strings.ToLower(p.Name), strings.ToLower(search))
		})
		if len(found) == 0 && !cfg.AllowEmpty.ValueBool() {
			all, err := listAgentPools(ctx, c, org, "")
			if err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing agent pools", byNameError("agent pools", org, err))
				return
			}
			resp.Diagnostics.AddAttributeError(path.Root("search"), "No agent pool matches the search", emptyAgentPoolsDetail(org, search, namesOf(all, poolName)))
			return
		}
	}
	slices.SortFunc(found, func(a, b *tfe.AgentPool) int { return strings.Compare(a.Name, b.Name) })
	ids := make([]string, 0, len(found))
	byName := make(map[string]string, len(found))
	cfg.Pools = make([]agentPoolEntry, 0, len(found))
	for _, p := range found {
		ids = append(ids, p.ID)
		byName[p.Name] = p.ID
		allowed := make([]attr.Value, 0, len(p.AllowedWorkspaces))
		for _, ws := range p.AllowedWorkspaces {
			allowed = append(allowed, types.StringValue(ws.ID))
		}
		cfg.Pools = append(cfg.Pools, agentPoolEntry{
			ID: types.StringValue(p.ID), Name: types.StringValue(p.Name), OrganizationScoped: types.BoolValue(p.OrganizationScoped),
			AllowedWorkspaceIDs: types.SetValueMust(types.StringType, allowed),
		})
	}
	cfg.Organization = types.StringValue(org)
	cfg.IDs, cfg.IDsByName = stringList(ids), stringMap(byName)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// emptyAgentPoolsDetail explains a search of org's agent pools that matches none of names.
func emptyAgentPoolsDetail(org, search string, names []string) string {
	return fmt.Sprintf("No agent pool of organization %s has a name containing %q%s", org, search,
		suggest("names", search, names, substringDistance, "the API token sees no agent pool there")) + allowEmptyHint
}
