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

// Team project access.

type teamProjectAccessList struct{ listBase }

type teamProjectAccessListConfig struct {
	ProjectID    types.String `tfsdk:"project_id"`
	ProjectName  types.String `tfsdk:"project_name"`
	Organization types.String `tfsdk:"organization"`
}

func (l *teamProjectAccessList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, teamProjectAccessType.listPermissions())
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the teams' access to a project, named by ID or by name (a query file has no data sources to look a name up with).",
		Attributes: map[string]listschema.Attribute{
			"project_id": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "ID of the project (`prj-<id>`). Set either `project_id` or `project_name`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1),
					stringvalidator.ExactlyOneOf(path.MatchRoot("project_id"), path.MatchRoot("project_name"))},
			},
			"project_name": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Name of the project, looked up in `organization` (one request more; `organization` is ignored with `project_id`). Set either `project_id` or `project_name`.",
				Validators:          []validator.String{nameValidator()},
			},
			// The organization project_name is looked up in.
			"organization": organizationScope.list(),
		},
	}
}

// projectID is project_id, or the project called project_name (one list by name).
func (l *teamProjectAccessList) projectID(ctx context.Context, req list.ListRequest, diags *diag.Diagnostics) string {
	var cfg teamProjectAccessListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() || !l.configured(diags) {
		return ""
	}
	if cfg.ProjectName.IsNull() {
		return cfg.ProjectID.ValueString()
	}
	org := l.data.organizationOr(cfg.Organization, diags)
	if diags.HasError() {
		return ""
	}
	name := cfg.ProjectName.ValueString()
	prjs, err := l.data.client.Projects.List(ctx, org, &tfe.ProjectListOptions{Name: name})
	if err != nil {
		diags.AddAttributeError(path.Root("project_name"), "Error listing team project access", byNameError("projects", org, err))
		return ""
	}
	for _, p := range prjs.Items {
		if p.Name == name {
			return p.ID
		}
	}
	diags.AddAttributeError(path.Root("project_name"), "Project not found", fmt.Sprintf("No project named %q in organization %s that the API token may see.", name, org))
	return ""
}

func (l *teamProjectAccessList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	prj := l.projectID(ctx, req, &diags)
	if diags.HasError() {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	grants, err := l.data.projectTeamAccess(ctx, prj)
	switch {
	case err != nil:
		diags.AddError("Error listing team project access", fmt.Sprintf("Listing the team access of project %s: %s", prj, err))
	case grants.parentMissing:
		diags.AddAttributeError(path.Root("project_id"), "Error listing team project access", projectNotFound(prj))
	}
	var items []listed
	if !diags.HasError() {
		all := sortedByKey(grants.byID)
		names := l.data.grantTeamNames(ctx, projectGrants, prj, projectGrantTeams(all...))
		for _, g := range all {
			team := ""
			if g.Team != nil {
				team = cmp.Or(names[g.Team.ID], g.Team.ID)
			}
			items = append(items, listed{
				identity: []string{g.ID},
				display:  fmt.Sprintf("team %s: %s access", team, g.Access),
				fill: fillModel(func(_ context.Context, m *teamProjectAccessResourceModel, _ *diag.Diagnostics) {
					m.ProjectID = types.StringValue(prj)
					*m = *teamProjectAccessModel(g, *m)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}
