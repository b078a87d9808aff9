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

var _ datasource.DataSourceWithConfigure = (*teamAccessDataSource)(nil)

// NewTeamAccessDataSource is the tfgov_team_access data source.
func NewTeamAccessDataSource() datasource.DataSource {
	return &teamAccessDataSource{dataSourceBase{typ: teamAccessDataSourceType}}
}

type teamAccessDataSource struct{ dataSourceBase }

type teamAccessDataSourceModel struct {
	ID          types.String `tfsdk:"id"`
	TeamID      types.String `tfsdk:"team_id"`
	TeamName    types.String `tfsdk:"team_name"`
	WorkspaceID types.String `tfsdk:"workspace_id"`
	Access      types.String `tfsdk:"access"`
	Permissions types.Object `tfsdk:"permissions"`
}

func teamAccessPermissionsDataSourceAttribute() schema.SingleNestedAttribute {
	attrs := map[string]schema.Attribute{}
	for name := range teamAccessPermissionsAttrTypes {
		if name == "workspace_locking" || name == "run_tasks" || name == "policy_overrides" {
			attrs[name] = schema.BoolAttribute{Computed: true, MarkdownDescription: teamAccessPermissionsDescriptions[name]}
		} else {
			attrs[name] = schema.StringAttribute{Computed: true, MarkdownDescription: teamAccessPermissionsDescriptions[name]}
		}
	}
	return schema.SingleNestedAttribute{
		Computed:            true,
		MarkdownDescription: "The team's permissions on the workspace: chosen ones for `custom`, those the level implies otherwise.",
		Attributes:          attrs,
	}
}

func (d *teamAccessDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, teamAccessDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "A team's access to a workspace: its level and permissions. It is an error if the team has no access to the workspace.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the team access (`tws-<id>`).",
			},
			"team_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the team (`team-<id>`).",
				Validators:          []validator.String{idValidator("team-")},
			},
			"team_name": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Name of the team; null if the API token may not see the team.",
			},
			"workspace_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the workspace (`ws-<id>`).",
				Validators:          []validator.String{idValidator("ws-")},
			},
			"access": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Access level: `read`, `plan`, `write`, `admin` or `custom`.",
			},
			"permissions": teamAccessPermissionsDataSourceAttribute(),
		},
	}
}

// Read picks the team's grant from the workspace's list with teams included: one request, as the
// API has no look-up by team and workspace.
func (d *teamAccessDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg teamAccessDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	teamID, wsID := cfg.TeamID.ValueString(), cfg.WorkspaceID.ValueString()
	grants, err := listTeamAccessWithTeams(ctx, d.data.client, wsID)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("workspace_id"), "Error reading team access", workspaceAccessError(wsID, err))
		return
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == teamID {
			cfg.ID = types.StringValue(g.ID)
			cfg.Access = types.StringValue(string(g.Access))
			cfg.Permissions = teamAccessPermissionsObject(g)
			cfg.TeamName = types.StringNull()
			if n := d.data.teamNames(ctx, wsID, []*tfe.TeamAccess{g})[teamID]; n != "" {
				cfg.TeamName = types.StringValue(n)
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
			return
		}
	}
	resp.Diagnostics.AddAttributeError(path.Root("team_id"), "Team access not found", d.data.noTeamAccessDetail(ctx, teamID, wsID))
}
