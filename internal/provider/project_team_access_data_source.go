package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*projectTeamAccessDataSource)(nil)

// NewProjectTeamAccessDataSource is the tfgov_project_team_access data source.
func NewProjectTeamAccessDataSource() datasource.DataSource {
	return &projectTeamAccessDataSource{dataSourceBase{typ: projectTeamAccessDataSourceType}}
}

type projectTeamAccessDataSource struct{ dataSourceBase }

type projectTeamAccessDataSourceModel struct {
	ID              types.String `tfsdk:"id"`
	TeamID          types.String `tfsdk:"team_id"`
	TeamName        types.String `tfsdk:"team_name"`
	ProjectID       types.String `tfsdk:"project_id"`
	Access          types.String `tfsdk:"access"`
	ProjectAccess   types.Object `tfsdk:"project_access"`
	WorkspaceAccess types.Object `tfsdk:"workspace_access"`
}

// dataSourceAttribute is a permission group's computed object.
func (g projectPermissionGroup) dataSourceAttribute(desc string) schema.SingleNestedAttribute {
	attrs := map[string]schema.Attribute{}
	for name, allowed := range g.allowed {
		if allowed == nil {
			attrs[name] = schema.BoolAttribute{Computed: true, MarkdownDescription: g.describe[name]}
		} else {
			attrs[name] = schema.StringAttribute{Computed: true, MarkdownDescription: g.describe[name]}
		}
	}
	return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: desc, Attributes: attrs}
}

func (d *projectTeamAccessDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, projectTeamAccessDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "A team's access to a project: its level and permissions, on the project and on every workspace in it. It is an error if the team has no access to the project.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the team project access (`tprj-<id>`).",
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
			"project_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the project (`prj-<id>`).",
				Validators:          []validator.String{idValidator("prj-")},
			},
			"access": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Access level: `read`, `write`, `maintain`, `admin` or `custom`.",
			},
			"project_access":   projectAccessGroup.dataSourceAttribute("The team's permissions on the project: chosen ones for `custom`, those the level implies otherwise."),
			"workspace_access": workspaceAccessGroup.dataSourceAttribute("The team's permissions on every workspace of the project: chosen ones for `custom`, those the level implies otherwise."),
		},
	}
}

// Read picks the team's grant from the project's list with teams included: one request, as the API
// has no look-up by team and project.
func (d *projectTeamAccessDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg projectTeamAccessDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	teamID, prjID := cfg.TeamID.ValueString(), cfg.ProjectID.ValueString()
	grants, err := listTeamProjectAccess(ctx, d.data.client, prjID)
	if err != nil {
		detail := fmt.Sprintf("Listing the team access of project %s: %s", prjID, err)
		if isNotFound(err) {
			detail = projectNotFound(prjID)
		}
		resp.Diagnostics.AddAttributeError(path.Root("project_id"), "Error reading team project access", detail)
		return
	}
	for _, g := range grants {
		if g.Team != nil && g.Team.ID == teamID {
			cfg.ID = types.StringValue(g.ID)
			cfg.Access = types.StringValue(string(g.Access))
			cfg.ProjectAccess, cfg.WorkspaceAccess = projectAccessObjects(g)
			cfg.TeamName = types.StringNull()
			if n := d.data.grantTeamNames(ctx, projectGrants, prjID, projectGrantTeams(g))[teamID]; n != "" {
				cfg.TeamName = types.StringValue(n)
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
			return
		}
	}
	resp.Diagnostics.AddAttributeError(path.Root("team_id"), "Team project access not found", d.data.noProjectGrantDetail(ctx, teamID, prjID))
}
