package provider

import (
	"context"
	"slices"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*workspaceDataSource)(nil)

// NewWorkspaceDataSource is the tfgov_workspace data source.
func NewWorkspaceDataSource() datasource.DataSource {
	return &workspaceDataSource{dataSourceBase{typ: workspaceDataSourceType}}
}

type workspaceDataSource struct{ dataSourceBase }

// workspaceEntry is a workspace as both workspace data sources give it.
type workspaceEntry struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	Description      types.String `tfsdk:"description"`
	TagNames         types.Set    `tfsdk:"tag_names"`
	ExecutionMode    types.String `tfsdk:"execution_mode"`
	TerraformVersion types.String `tfsdk:"terraform_version"`
	AgentPoolID      types.String `tfsdk:"agent_pool_id"`
}

type workspaceDataSourceModel struct {
	workspaceEntry
	Organization types.String `tfsdk:"organization"`
}

// workspaceEntryAttributes are a workspace's computed attributes; name is
// the caller's to add.
func workspaceEntryAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":                schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the workspace (`ws-<id>`)."},
		"description":       schema.StringAttribute{Computed: true, MarkdownDescription: "Description of the workspace; empty if none."},
		"tag_names":         schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The workspace's tags (lower case)."},
		"execution_mode":    schema.StringAttribute{Computed: true, MarkdownDescription: "Where its runs execute: `remote`, `local` or `agent`."},
		"terraform_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Terraform version of its runs, such as `1.11.4` or `latest`."},
		"agent_pool_id":     schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the agent pool its runs use (`apool-<id>`); null unless `execution_mode` is `agent`."},
	}
}

func newWorkspaceEntry(ws *tfe.Workspace) workspaceEntry {
	tags := make([]string, len(ws.TagNames))
	copy(tags, ws.TagNames)
	slices.Sort(tags)
	e := workspaceEntry{
		ID:               types.StringValue(ws.ID),
		Name:             types.StringValue(ws.Name),
		Description:      types.StringValue(ws.Description),
		TagNames:         stringSet(tags),
		ExecutionMode:    types.StringValue(ws.ExecutionMode),
		TerraformVersion: types.StringValue(ws.TerraformVersion),
		AgentPoolID:      types.StringNull(),
	}
	if ws.AgentPool != nil && ws.AgentPool.ID != "" {
		e.AgentPoolID = types.StringValue(ws.AgentPool.ID)
	}
	return e
}

func (d *workspaceDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, workspaceDataSourceType.permissions())
	attrs := workspaceEntryAttributes()
	attrs["name"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Name of the workspace (exact). A name that matches nothing is an error listing the closest names in the organization.",
		Validators:          []validator.String{nameValidator()},
	}
	attrs["organization"] = organizationScope.dataSource()
	resp.Schema = schema.Schema{
		MarkdownDescription: "One workspace, by name: its ID for the resources that take a `workspace_id`, and its tags and settings. " +
			"One request; a name that matches nothing costs one more request per 100 workspaces, to list the closest names. " +
			"Creating and configuring workspaces stays with hashicorp/tfe's `tfe_workspace`.",
		Attributes: attrs,
	}
}

func (d *workspaceDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg workspaceDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	name := cfg.Name.ValueString()
	c := d.data.client
	ws, err := c.Workspaces.Read(ctx, org, name)
	if err != nil {
		if !isNotFound(err) {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Error reading workspace", byNameError("workspaces", org, err))
			return
		}
		have, lerr := workspaceNames(ctx, c, org)
		if lerr != nil {
			resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error reading workspace", byNameError("workspaces", org, lerr))
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Workspace not found", notFoundByName("workspace", org, []string{name}, have))
		return
	}
	cfg.workspaceEntry = newWorkspaceEntry(ws)
	cfg.Organization = types.StringValue(org)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
