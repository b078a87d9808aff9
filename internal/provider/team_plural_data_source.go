package provider

import (
	"context"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*teamsDataSource)(nil)

// NewTeamsDataSource is the tfgov_teams data source.
func NewTeamsDataSource() datasource.DataSource {
	return &teamsDataSource{dataSourceBase{typ: teamsDataSourceType}}
}

type teamsDataSource struct{ dataSourceBase }

type teamsDataSourceModel struct {
	Organization types.String   `tfsdk:"organization"`
	Names        []types.String `tfsdk:"names"`
	IDs          types.List     `tfsdk:"ids"`
	IDsByName    types.Map      `tfsdk:"ids_by_name"`
	Teams        []teamEntry    `tfsdk:"teams"`
}

func (d *teamsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, teamsDataSourceType.permissions())
	entry := teamEntryAttributes()
	entry["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the team."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Teams of an organization, all of them or by exact names, with a name-to-ID map for `for_each`. " +
			"By name order. One request per 100 teams (the list filtered by the names given); " +
			"a name that matches nothing is an error listing the closest names (one more request per 100 teams). " +
			"Secret teams are listed only for a token that can see them. " +
			"Without `names`, there is no filter to mistype: every team the token can see, possibly none.",
		Attributes: map[string]schema.Attribute{
			"organization": organizationScope.dataSource(),
			"names": schema.SetAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Exact names of the teams to find; each must exist. Every team when unset.",
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(nameValidator())},
			},
			"ids": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "IDs of the teams found, in the order of `teams` (by name).",
			},
			"ids_by_name": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The teams' IDs by name, for `for_each`.",
			},
			"teams": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The teams found, by name.",
				NestedObject:        schema.NestedAttributeObject{Attributes: entry},
			},
		},
	}
}

func (d *teamsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg teamsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var names []string
	if cfg.Names != nil {
		names = make([]string, 0, len(cfg.Names))
		for _, n := range cfg.Names {
			names = append(names, n.ValueString())
		}
		slices.Sort(names)
	}
	teams, err := listTeams(ctx, d.data.client, org, names)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing teams", byNameError("teams", org, err))
		return
	}
	byName := make(map[string]string, len(teams))
	for _, t := range teams {
		byName[t.Name] = t.ID
	}
	if names != nil {
		missing := slices.DeleteFunc(slices.Clone(names), func(n string) bool { _, ok := byName[n]; return ok })
		if len(missing) > 0 {
			have, err := teamNames(ctx, d.data.client, org)
			if err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing teams", byNameError("teams", org, err))
				return
			}
			resp.Diagnostics.AddAttributeError(path.Root("names"), "Team not found", notFoundByName("team", org, missing, have))
			return
		}
	}
	slices.SortFunc(teams, func(a, b *tfe.Team) int { return strings.Compare(a.Name, b.Name) })
	ids := make([]string, 0, len(teams))
	cfg.Teams = make([]teamEntry, 0, len(teams))
	for _, t := range teams {
		ids = append(ids, t.ID)
		cfg.Teams = append(cfg.Teams, newTeamEntry(t))
	}
	cfg.Organization = types.StringValue(org)
	cfg.IDs, cfg.IDsByName = stringList(ids), stringMap(byName)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
