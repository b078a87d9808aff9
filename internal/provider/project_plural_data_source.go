package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
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
	byNameQuery
	Projects []projectEntry `tfsdk:"projects"`
}

func (d *projectsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, projectsDataSourceType.permissions())
	entry := projectEntryAttributes()
	entry["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the project."}
	attrs := byNameAttributes("project", "projects", "tfgov_projects", "projects")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Projects of an organization, by exact names or by a name search, with a name-to-ID map for `for_each`. " +
			"Without `names` or `search`, every project. By name order. One request per 100 projects listed (the list filtered by the names or the search). " +
			"A name of `names` that matches nothing is an error listing the closest names, and so is a `search` that matches no project " +
			"(an empty result fed to `for_each` plans the destroy of everything it drove), unless `allow_empty = true`; " +
			"the closest names cost one more listing of the organization's projects, on that path only. " +
			"Without `names` or `search`, an organization with no project the token can see gives an empty result.",
		Attributes: attrs,
	}
	attrs["projects"] = schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: "The projects found, by name.",
		NestedObject:        schema.NestedAttributeObject{Attributes: entry},
	}
}

func (d *projectsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return byNameValidators()
}

func (d *projectsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg projectsDataSourceModel
	c := d.data.client
	byNameLookup[*tfe.Project]{
		one: "project", many: "projects",
		name: func(p *tfe.Project) string { return p.Name }, id: func(p *tfe.Project) string { return p.ID },
		list: func(ctx context.Context, org, search string) ([]*tfe.Project, error) {
			return listProjects(ctx, c, org, tfe.ProjectListOptions{Query: search})
		},
		named: func(ctx context.Context, org string, names []string) ([]*tfe.Project, []string, error) {
			return projectsNamed(ctx, c, org, names)
		},
		emptyDetail: emptyProjectsDetail,
	}.serve(ctx, d.data, req, resp, &cfg, &cfg.byNameQuery, func(found []*tfe.Project) {
		cfg.Projects = make([]projectEntry, 0, len(found))
		for _, p := range found {
			cfg.Projects = append(cfg.Projects, newProjectEntry(p))
		}
	})
}
