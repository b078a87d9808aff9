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

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var _ datasource.DataSourceWithConfigure = (*projectDataSource)(nil)

// NewProjectDataSource is the tfgov_project data source.
func NewProjectDataSource() datasource.DataSource {
	return &projectDataSource{dataSourceBase{typ: projectDataSourceType}}
}

type projectDataSource struct{ dataSourceBase }

// projectEntry is a project as both project data sources give it.
type projectEntry struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
}

type projectDataSourceModel struct {
	projectEntry
	Organization types.String `tfsdk:"organization"`
}

// projectEntryAttributes are a project's computed attributes; name is the caller's to add.
func projectEntryAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":          schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the project (`prj-<id>`)."},
		"description": schema.StringAttribute{Computed: true, MarkdownDescription: "Description of the project; empty if none."},
	}
}

func newProjectEntry(p *tfe.Project) projectEntry {
	return projectEntry{ID: types.StringValue(p.ID), Name: types.StringValue(p.Name), Description: types.StringValue(p.Description)}
}

func (d *projectDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, projectDataSourceType.permissions())
	attrs := projectEntryAttributes()
	attrs["name"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Name of the project (exact, case-sensitive), such as `Default Project`. A name that matches nothing is an error listing the closest names in the organization.",
		Validators:          []validator.String{nameValidator()},
	}
	attrs["organization"] = organizationScope.dataSource()
	resp.Schema = schema.Schema{
		MarkdownDescription: "One project, by name: its ID for `tfgov_project_team_access_exclusive` and the resources that take a `project_id`. " +
			"One request (the project list filtered by name); a name that matches nothing costs one more request per 100 projects, to list the closest names. " +
			"Creating and configuring projects stays with hashicorp/tfe's `tfe_project`.",
		Attributes: attrs,
	}
}

func (d *projectDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg projectDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	name := cfg.Name.ValueString()
	found, missing, err := projectsNamed(ctx, d.data.client, org, []string{name})
	if err == nil && len(missing) > 0 {
		var have []string
		if have, err = projectNames(ctx, d.data.client, org); err == nil {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Project not found", notFoundByName("project", org, missing, have))
			return
		}
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error reading project", byNameError("projects", org, err))
		return
	}
	cfg.projectEntry = newProjectEntry(found[0])
	cfg.Organization = types.StringValue(org)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// listProjects lists org's projects, 100 a page, with the API's filters (filter[names], q).
func listProjects(ctx context.Context, c *tfe.Client, org string, opts tfe.ProjectListOptions) ([]*tfe.Project, error) {
	return tfeclient.ListAll(ctx, func(ctx context.Context, page int) ([]*tfe.Project, *tfe.Pagination, error) {
		o := opts
		o.ListOptions = listPage(page)
		l, err := c.Projects.List(ctx, org, &o)
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	})
}

// projectsNamed finds org's projects of these exact names, 100 names a request (filter[names],
// which matches in any case: the names are checked again here), and the names missing, sorted.
func projectsNamed(ctx context.Context, c *tfe.Client, org string, names []string) (found []*tfe.Project, missing []string, err error) {
	want := map[string]bool{}
	for _, chunk := range slices.Collect(slices.Chunk(names, bulkPageSize)) {
		var b []byte
		for i, n := range chunk {
			want[n] = true
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, n...)
		}
		l, err := listProjects(ctx, c, org, tfe.ProjectListOptions{Name: string(b)})
		if err != nil {
			return nil, nil, err
		}
		for _, p := range l {
			if want[p.Name] {
				found = append(found, p)
				delete(want, p.Name)
			}
		}
	}
	for n := range want {
		missing = append(missing, n)
	}
	slices.Sort(missing)
	return found, missing, nil
}

func projectNames(ctx context.Context, c *tfe.Client, org string) ([]string, error) {
	all, err := listProjects(ctx, c, org, tfe.ProjectListOptions{})
	return namesOf(all, func(p *tfe.Project) string { return p.Name }), err
}
