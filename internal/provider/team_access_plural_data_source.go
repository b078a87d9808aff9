package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*workspaceTeamAccessDataSource)(nil)

// NewWorkspaceTeamAccessDataSource is the tfgov_workspace_team_access data source.
func NewWorkspaceTeamAccessDataSource() datasource.DataSource {
	return &workspaceTeamAccessDataSource{dataSourceBase{typ: workspaceTeamAccessDataSourceType}}
}

type workspaceTeamAccessDataSource struct{ dataSourceBase }

type workspaceTeamAccessDataSourceModel struct {
	ID          types.String                  `tfsdk:"id"`
	WorkspaceID types.String                  `tfsdk:"workspace_id"`
	TeamAccess  []workspaceTeamAccessListItem `tfsdk:"team_access"`
}

type workspaceTeamAccessListItem struct {
	ID          types.String `tfsdk:"id"`
	TeamID      types.String `tfsdk:"team_id"`
	TeamName    types.String `tfsdk:"team_name"`
	Access      types.String `tfsdk:"access"`
	Permissions types.Object `tfsdk:"permissions"`
}

func (d *workspaceTeamAccessDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, workspaceTeamAccessDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every team's access to a workspace, oldest first, with the teams' names. " +
			"An organization owner or workspace admin sees every team's access, secret teams included; other members see only the access of their own teams.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The workspace's ID.",
			},
			"workspace_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the workspace (`ws-<id>`).",
				Validators:          []validator.String{idValidator("ws-")},
			},
			"team_access": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The workspace's team access.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id":          schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the team access (`tws-<id>`)."},
						"team_id":     schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the team (`team-<id>`)."},
						"team_name":   schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the team; null if the API token may not see the team."},
						"access":      schema.StringAttribute{Computed: true, MarkdownDescription: "Access level: `read`, `plan`, `write`, `admin` or `custom`."},
						"permissions": teamAccessPermissionsDataSourceAttribute(),
					},
				},
			},
		},
	}
}

// Read lists the grants with their teams included: one request (teamNames when a server ignores
// `include`: one more, never one per team).
func (d *workspaceTeamAccessDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg workspaceTeamAccessDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	wsID := cfg.WorkspaceID.ValueString()
	grants, err := listTeamAccessWithTeams(ctx, d.data.client, wsID)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("workspace_id"), "Error listing team access", workspaceAccessError(wsID, err))
		return
	}

	names := d.data.teamNames(ctx, wsID, grants)
	cfg.TeamAccess = make([]workspaceTeamAccessListItem, 0, len(grants))
	for _, g := range grants {
		item := workspaceTeamAccessListItem{
			ID:          types.StringValue(g.ID),
			TeamID:      types.StringNull(),
			TeamName:    types.StringNull(),
			Access:      types.StringValue(string(g.Access)),
			Permissions: teamAccessPermissionsObject(g),
		}
		if g.Team != nil {
			item.TeamID = types.StringValue(g.Team.ID)
			if n := names[g.Team.ID]; n != "" {
				item.TeamName = types.StringValue(n)
			}
		}
		cfg.TeamAccess = append(cfg.TeamAccess, item)
	}
	cfg.ID = cfg.WorkspaceID
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
