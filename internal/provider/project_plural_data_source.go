package provider

import (
	"context"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSourceWithConfigure        = (*projectsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*projectsDataSource)(nil)
)

// NewProjectsDataSource is the tfgov_projects data source.
func NewProjectsDataSource() datasource.DataSource {
	return &projectsDataSource{dataSourceBase{typ: projectsDataSourceType}}
}

type projectsDataSource struct{ dataSourceBase }

type projectsDataSourceModel struct {
	Organization types.String   `tfsdk:"organization"`
	Names        []types.String `tfsdk:"names"`
	Search       types.String   `tfsdk:"search"`
	AllowEmpty   types.Bool     `tfsdk:"allow_empty"`
	IDs          types.List     `tfsdk:"ids"`
	IDsByName    types.Map      `tfsdk:"ids_by_name"`
	Projects     []projectEntry `tfsdk:"projects"`
}

func (d *projectsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, projectsDataSourceType.permissions())
	entry := projectEntryAttributes()
	entry["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the project."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Projects of an organization, by exact names or by a name search, with a name-to-ID map for `for_each`. " +
			"Without `names` or `search`, every project. By name order. One request per 100 projects listed (the list filtered by the names or the search). " +
			"A name of `names` that matches nothing is an error listing the closest names, and so is a `search` that matches no project " +
			"(an empty result fed to `for_each` plans the destroy of everything it drove), unless `allow_empty = true`; " +
			"the closest names cost one more listing of the organization's projects, on that path only. " +
			"Without `names` or `search`, an organization with no project the token can see gives an empty result.",
		Attributes: map[string]schema.Attribute{
			"organization": organizationScope.dataSource(),
			"names": schema.SetAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Exact names of the projects to find (case-sensitive); each must exist. Not with `search`.",
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(nameValidator())},
			},
			"search": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Keep only projects whose name contains this text, in any case (the API's `q`).",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"allow_empty": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether a `search` that matches no project gives an empty result. " +
					"Defaults to `false`: a search that matches nothing is an error naming the closest names. Not with `names`.",
			},
			"ids": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "IDs of the projects found, in the order of `projects` (by name).",
			},
			"ids_by_name": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The projects' IDs by name: `for_each = data.tfgov_projects.x.ids_by_name` gives `each.key` the name and `each.value` the ID.",
			},
			"projects": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The projects found, by name.",
				NestedObject:        schema.NestedAttributeObject{Attributes: entry},
			},
		},
	}
}

func (d *projectsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.Conflicting(path.MatchRoot("names"), path.MatchRoot("search")),
		datasourcevalidator.Conflicting(path.MatchRoot("names"), path.MatchRoot("allow_empty")),
	}
}

func (d *projectsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg projectsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	c := d.data.client
	var found []*tfe.Project
	var err error
	switch search := cfg.Search.ValueString(); {
	case cfg.Names != nil:
		names := make([]string, 0, len(cfg.Names))
		for _, n := range cfg.Names {
			names = append(names, n.ValueString())
		}
		slices.Sort(names)
		var missing, have []string
		found, missing, err = projectsNamed(ctx, c, org, names)
		if err == nil && len(missing) > 0 {
			if have, err = projectNames(ctx, c, org); err == nil {
				resp.Diagnostics.AddAttributeError(path.Root("names"), "Project not found", notFoundByName("project", org, missing, have))
				return
			}
		}
	default:
		// The search is applied again here, in case a server ignores q.
		found, err = listProjects(ctx, c, org, tfe.ProjectListOptions{Query: search})
		found = slices.DeleteFunc(found, func(p *tfe.Project) bool {
			return !strings.Contains(strings.ToLower(p.Name), strings.ToLower(search))
		})
		if err == nil && len(found) == 0 && search != "" && !cfg.AllowEmpty.ValueBool() {
			var have []string
			if have, err = projectNames(ctx, c, org); err == nil {
				resp.Diagnostics.AddAttributeError(path.Root("search"), "No project matches the search", emptyProjectsDetail(org, search, have))
				return
			}
		}
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing projects", byNameError("projects", org, err))
		return
	}
	slices.SortFunc(found, func(a, b *tfe.Project) int { return strings.Compare(a.Name, b.Name) })
	ids := make([]string, 0, len(found))
	byName := make(map[string]string, len(found))
	cfg.Projects = make([]projectEntry, 0, len(found))
	for _, p := range found {
		ids = append(ids, p.ID)
		byName[p.Name] = p.ID
		cfg.Projects = append(cfg.Projects, newProjectEntry(p))
	}
	cfg.Organization = types.StringValue(org)
	cfg.IDs, cfg.IDsByName = stringList(ids), stringMap(byName)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
