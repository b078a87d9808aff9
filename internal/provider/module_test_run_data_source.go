package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var _ datasource.DataSourceWithConfigure = (*moduleTestRunDataSource)(nil)

// NewModuleTestRunDataSource is the tfgov_module_test_run data source.
func NewModuleTestRunDataSource() datasource.DataSource {
	return &moduleTestRunDataSource{dataSourceBase{typ: moduleTestRunDataSourceType}}
}

type moduleTestRunDataSource struct{ dataSourceBase }

// ---- shared by tfgov_module_test_run and tfgov_module_test_runs

// moduleDataSourceModel is the module a data source reads.
type moduleDataSourceModel struct {
	Organization   types.String `tfsdk:"organization"`
	ModuleName     types.String `tfsdk:"module_name"`
	ModuleProvider types.String `tfsdk:"module_provider"`
}

// module resolves the organization (the provider's when unset) and stores
// it back in the model.
func (m *moduleDataSourceModel) module(d *providerData, diags *diag.Diagnostics) moduleRef {
	org := d.organizationOr(m.Organization, diags)
	m.Organization = types.StringValue(org)
	return moduleRef{Organization: org, Name: m.ModuleName.ValueString(), Provider: m.ModuleProvider.ValueString()}
}

// testRunModel is one test run as the data sources show it.
type testRunModel struct {
	ID                     types.String `tfsdk:"id"`
	Status                 types.String `tfsdk:"status"`
	TestStatus             types.String `tfsdk:"test_status"`
	TestsPassed            types.Int64  `tfsdk:"tests_passed"`
	TestsFailed            types.Int64  `tfsdk:"tests_failed"`
	TestsErrored           types.Int64  `tfsdk:"tests_errored"`
	TestsSkipped           types.Int64  `tfsdk:"tests_skipped"`
	Source                 types.String `tfsdk:"source"`
	Message                types.String `tfsdk:"message"`
	TestDirectory          types.String `tfsdk:"test_directory"`
	Filters                types.List   `tfsdk:"filters"`
	Verbose                types.Bool   `tfsdk:"verbose"`
	Variables              types.Map    `tfsdk:"variables"`
	ConfigurationVersionID types.String `tfsdk:"configuration_version_id"`
	CreatedAt              types.String `tfsdk:"created_at"`
	QueuedAt               types.String `tfsdk:"queued_at"`
	StartedAt              types.String `tfsdk:"started_at"`
	FinishedAt             types.String `tfsdk:"finished_at"`
}

// testRunSources are the values of a run's `source` and of the API's
// filter[source].
var testRunSources = []string{"engine", "svc-api", "svc-configuration-version"}

// testRunAttributes are the computed attributes of one run, including
// `id`.
func testRunAttributes() map[string]schema.Attribute {
	str := func(desc string) schema.Attribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	count := func(outcome string) schema.Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of tests that " + outcome + "; null until the run has completed."}
	}
	stage := func(stage string) schema.Attribute {
		return str("When the run " + stage + " (RFC 3339); null until it reaches that stage.")
	}
	return map[string]schema.Attribute{
		"id": str("ID of the test run (`trun-<id>`)."),
		"status": str("Status of the run: `pending`, `queued`, `running`, or one of the final `errored`, `canceled` and `finished`. " +
			"A run whose tests fail is still `finished`; see `test_status`."),
		"test_status":   str("Outcome of a finished run: `pass` or `fail`; null until the run has completed."),
		"tests_passed":  count("passed"),
		"tests_failed":  count("failed"),
		"tests_errored": count("errored"),
		"tests_skipped": count("were skipped"),
		"source": str("How the run was queued: `engine` (the Terraform CLI), `svc-api` (the API, as `tfgov_module_test_run` does) or " +
			"`svc-configuration-version` (a configuration version from version control)."),
		"message":        str("Free text describing how the run was queued."),
		"test_directory": str("Directory of the configuration in which the tests ran, such as `tests`."),
		"filters": schema.ListAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: "Test files the run was limited to; empty when it ran them all.",
		},
		"verbose": schema.BoolAttribute{
			Computed:            true,
			MarkdownDescription: "Whether the run printed the plan or state of each `run` block in its log.",
		},
		"variables": schema.MapAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: "Variables given to this run, by key: each value is the literal in the configuration language as supplied, so a string keeps its quotes (`\"\\\"tester\\\"\"`).",
		},
		"configuration_version_id": str("ID of the configuration version the run tested (`cv-<id>`)."),
		"created_at":               str("When the run was created (RFC 3339)."),
		"queued_at":                stage("was queued"),
		"started_at":               stage("started"),
		"finished_at":              stage("finished"),
	}
}

// newTestRunModel shows rec.
func newTestRunModel(rec *testRunRecord, diags *diag.Diagnostics) testRunModel {
	filters, d := types.ListValueFrom(context.Background(), types.StringType, emptyIfNil(rec.Filters))
	diags.Append(d...)
	vars := make(map[string]attr.Value, len(rec.Variables))
	for _, v := range rec.Variables {
		if v != nil {
			vars[v.Key] = types.StringValue(v.Value)
		}
	}
	variables, d := types.MapValue(types.StringType, vars)
	diags.Append(d...)
	ts := rec.StatusTimestamps
	return testRunModel{
		ID:                     types.StringValue(rec.ID),
		Status:                 types.StringValue(rec.Status),
		TestStatus:             types.StringPointerValue(rec.TestStatus),
		TestsPassed:            int64Ptr(rec.TestsPassed),
		TestsFailed:            int64Ptr(rec.TestsFailed),
		TestsErrored:           int64Ptr(rec.TestsErrored),
		TestsSkipped:           int64Ptr(rec.TestsSkipped),
		Source:                 types.StringValue(rec.Source),
		Message:                types.StringValue(rec.Message),
		TestDirectory:          types.StringValue(rec.TestDirectory),
		Filters:                filters,
		Verbose:                types.BoolValue(rec.Verbose),
		Variables:              variables,
		ConfigurationVersionID: stringOrNull(rec.configurationVersionID()),
		CreatedAt:              timeOrNull(rec.CreatedAt),
		QueuedAt:               timeOrNull(ts.QueuedAt),
		StartedAt:              timeOrNull(ts.StartedAt),
		FinishedAt:             timeOrNull(ts.FinishedAt),
	}
}

func emptyIfNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// timeOrNull is t in RFC 3339 (UTC), or null for the zero time.
func timeOrNull(t time.Time) types.String {
	if t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339))
}

// ---- tfgov_module_test_run

type moduleTestRunDataSourceModel struct {
	moduleDataSourceModel
	testRunModel
}

func (d *moduleTestRunDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestRunDataSourceType.permissions())
	attrs := moduleDataSourceAttributes(testRunAttributes())
	attrs["id"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "ID of the test run (`trun-<id>`).",
		Validators:          []validator.String{idValidator("trun-")},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "One test run of a private registry module, by ID: its status, outcome and counts, how it was queued and with what inputs, " +
			"and when it was queued, started and finished. Each plan reads it afresh, so a run still going shows its current status.",
		Attributes: attrs,
	}
}

// Read is one request.
func (d *moduleTestRunDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg moduleTestRunDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mod := cfg.module(d.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id := cfg.ID.ValueString()
	rec, err := testRunClient{d.data.client}.read(ctx, mod, id)
	if err != nil {
		msg := moduleTestsError(mod, err)
		if isNotFound(err) {
			msg = d.data.testRunNotFound(ctx, mod, id)
		}
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Error reading module test run", msg)
		return
	}
	tflog.Debug(ctx, "Read module test run", map[string]any{"module": mod.String(), "id": id, "status": rec.Status})
	cfg.testRunModel = newTestRunModel(rec, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
