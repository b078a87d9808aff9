package provider

import (
	"cmp"
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Team access.

type teamAccessList struct{ listBase }

type teamAccessListConfig struct {
	WorkspaceID   types.String `tfsdk:"workspace_id"`
	WorkspaceName types.String `tfsdk:"workspace_name"`
	Organization  types.String `tfsdk:"organization"`
}

func (l *teamAccessList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, teamAccessType.listPermissions())
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the teams' access to a workspace, named by ID or by name (a query file has no data sources to look a name up with).",
		Attributes: map[string]listschema.Attribute{
			"workspace_id": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "ID of the workspace (`ws-<id>`). Set either `workspace_id` or `workspace_name`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1),
					stringvalidator.ExactlyOneOf(path.MatchRoot("workspace_id"), path.MatchRoot("workspace_name"))},
			},
			"workspace_name": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Name of the workspace, looked up in `organization` (one request more; `organization` is ignored with `workspace_id`). Set either `workspace_id` or `workspace_name`.",
				Validators:          []validator.String{nameValidator()},
			},
			// The organization workspace_name is looked up in.
			"organization": organizationScope.list(),
		},
	}
}

// workspaceID is workspace_id, or the workspace called workspace_name (one read; no match lists
// the closest names).
func (l *teamAccessList) workspaceID(ctx context.Context, req list.ListRequest, diags *diag.Diagnostics) string {
	var cfg teamAccessListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() || !l.configured(diags) {
		return ""
	}
	if cfg.WorkspaceName.IsNull() {
		return cfg.WorkspaceID.ValueString()
	}
	org := l.data.organizationOr(cfg.Organization, diags)
	if diags.HasError() {
		return ""
	}
	name := cfg.WorkspaceName.ValueString()
	ws, err := l.data.client.Workspaces.Read(ctx, org, name)
	switch {
	case err == nil:
		return ws.ID
	case !isNotFound(err):
		diags.AddAttributeError(path.Root("workspace_name"), "Error listing team access", byNameError("workspaces", org, err))
	default:
		have, err := workspaceNames(ctx, l.data.client, org)
		if err != nil {
			diags.AddAttributeError(path.Root("organization"), "Error listing team access", byNameError("workspaces", org, err))
		} else {
			diags.AddAttributeError(path.Root("workspace_name"), "Workspace not found", notFoundByName("workspace", org, []string{name}, have))
		}
	}
	return ""
}

func (l *teamAccessList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	ws := l.workspaceID(ctx, req, &diags)
	if diags.HasError() {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	grants, err := l.data.workspaceTeamAccess(ctx, ws)
	switch {
	case err != nil:
		diags.AddError("Error listing team access", fmt.Sprintf("Listing the team access of workspace %s: %s", ws, err))
	case grants.parentMissing:
		diags.AddAttributeError(path.Root("workspace_id"), "Error listing team access", workspaceAccessError(ws, tfe.ErrResourceNotFound))
	}
	var items []listed
	if !diags.HasError() {
		all := sortedByKey(grants.byID)
		names := l.data.teamNames(ctx, ws, all) // the organization's team list
		for _, ta := range all {
			team := ""
			if ta.Team != nil {
				team = cmp.Or(names[ta.Team.ID], ta.Team.ID)
			}
			items = append(items, listed{
				identity: []string{ta.ID},
				display:  fmt.Sprintf("team %s: %s access", team, ta.Access),
				fill: fillModel(func(_ context.Context, m *teamAccessResourceModel, _ *diag.Diagnostics) {
					m.WorkspaceID = types.StringValue(ws)
					*m = *teamAccessModel(ta, *m)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}
