package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var _ datasource.DataSourceWithConfigure = (*moduleTestRunsDataSource)(nil)

// NewModuleTestRunsDataSource is the tfgov_module_test_runs data source.
func NewModuleTestRunsDataSource() datasource.DataSource {
	return &moduleTestRunsDataSource{dataSourceBase{typ: moduleTestRunsDataSourceType}}
}

type moduleTestRunsDataSource struct{ dataSourceBase }

type moduleTestRunsDataSourceModel struct {
	moduleDataSourceModel
	ID      types.String   `tfsdk:"id"`
	Sources []types.String `tfsdk:"sources"`
	Runs    []testRunModel `tfsdk:"runs"`
}

func (d *moduleTestRunsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestRunsDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every test run of a private registry module, newest first (the order the API lists them in), optionally only those " +
			"queued in some ways (`sources`). All pages are read, 100 runs a request. Each plan reads the runs afresh, so runs still going show their " +
			"current status. " +
			"A module with no run (of those `sources`) is a normal state, not a typo: the module must exist and `sources` takes only known values, so an empty list is no error.",
		Attributes: moduleDataSourceAttributes(map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The module: `<organization>/<module_name>/<module_provider>`.",
			},
			"sources": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Keep only runs queued in one of these ways: " + backticked(testRunSources) + " (see `source` of `runs`). " +
					"All runs when unset.",
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.OneOf(testRunSources...)),
				},
			},
			"runs": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The runs, newest first.",
				NestedObject:        schema.NestedAttributeObject{Attributes: testRunAttributes()},
			},
		}),
	}
}

// Read lists every page: one request per 100 runs.
func (d *moduleTestRunsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg moduleTestRunsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mod := cfg.module(d.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sources := make([]string, 0, len(cfg.Sources))
	for _, s := range cfg.Sources {
		sources = append(sources, s.ValueString())
	}
	slices.Sort(sources)
	recs, err := testRunClient{d.data.client}.list(ctx, mod, sources)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("module_name"), "Error listing module test runs", d.data.testRunsListError(ctx, mod, err))
		return
	}
	tflog.Debug(ctx, "Listed module test runs", map[string]any{"module": mod.String(), "sources": sources, "runs": len(recs)})
	cfg.ID = types.StringValue(mod.String())
	cfg.Runs = make([]testRunModel, 0, len(recs))
	for _, rec := range recs {
		cfg.Runs = append(cfg.Runs, newTestRunModel(rec, &resp.Diagnostics))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
