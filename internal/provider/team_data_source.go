package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*teamDataSource)(nil)

// NewTeamDataSource is the tfgov_team data source.
func NewTeamDataSource() datasource.DataSource {
	return &teamDataSource{dataSourceBase{typ: teamDataSourceType}}
}

type teamDataSource struct{ dataSourceBase }

// teamEntry is a team as both team data sources give it.
type teamEntry struct {
	ID         types.String `tfsdk:"id"`
	Name       types.String `tfsdk:"name"`
	Visibility types.String `tfsdk:"visibility"`
	UsersCount types.Int64  `tfsdk:"users_count"`
}

type teamDataSourceModel struct {
	teamEntry
	Organization types.String `tfsdk:"organization"`
}

func teamEntryAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":          schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the team (`team-<id>`)."},
		"visibility":  schema.StringAttribute{Computed: true, MarkdownDescription: "`secret` (seen by its members and owners) or `organization` (seen by every member)."},
		"users_count": schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of members."},
	}
}

func newTeamEntry(t *tfe.Team) teamEntry {
	return teamEntry{
		ID: types.StringValue(t.ID), Name: types.StringValue(t.Name),
		Visibility: types.StringValue(t.Visibility), UsersCount: types.Int64Value(int64(t.UserCount)),
	}
}

func (d *teamDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, teamDataSourceType.permissions())
	attrs := teamEntryAttributes()
	attrs["name"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Name of the team (exact), such as `owners`. A name that matches nothing is an error listing the closest names in the organization.",
		Validators:          []validator.String{nameValidator()},
	}
	attrs["organization"] = organizationScope.dataSource()
	resp.Schema = schema.Schema{
		MarkdownDescription: "One team, by name: its ID for `tfgov_team_access` and `tfgov_workspace_team_access_exclusive`. " +
			"One request (the team list filtered by name); a name that matches nothing costs one more request per 100 teams, to list the closest names. " +
			"Secret teams are found only by a token that can see them (an owner's, or a member's). " +
			"Creating teams and managing their members stays with hashicorp/tfe's `tfe_team`.",
		Attributes: attrs,
	}
}

func (d *teamDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg teamDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	name := cfg.Name.ValueString()
	teams, err := listTeams(ctx, d.data.client, org, []string{name})
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error reading team", byNameError("teams", org, err))
		return
	}
	if len(teams) == 0 {
		have, err := teamNames(ctx, d.data.client, org)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error reading team", byNameError("teams", org, err))
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Team not found", notFoundByName("team", org, []string{name}, have))
		return
	}
	cfg.teamEntry = newTeamEntry(teams[0])
	cfg.Organization = types.StringValue(org)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
