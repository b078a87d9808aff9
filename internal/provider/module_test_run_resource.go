package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var (
	_ resource.ResourceWithConfigure        = (*moduleTestRunResource)(nil)
	_ resource.ResourceWithConfigValidators = (*moduleTestRunResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*moduleTestRunResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*moduleTestRunResource)(nil)
	_ resource.ResourceWithImportState      = (*moduleTestRunResource)(nil)
	_ resource.ResourceWithIdentity         = (*moduleTestRunResource)(nil)
)

// NewModuleTestRunResource is the tfgov_module_test_run resource.
func NewModuleTestRunResource() resource.Resource {
	return &moduleTestRunResource{resourceBase{typ: moduleTestRunType}}
}

type moduleTestRunResource struct{ resourceBase }

// moduleTestRunIdentityAttrs is tfgov_module_test_run's identity
// (identity.go): the module and the run's ID.
var moduleTestRunIdentityAttrs = append(moduleIdentity(), identityAttr{"id", "ID of the test run (`trun-<id>`)."})

type moduleTestRunResourceModel struct {
	ID                     types.String   `tfsdk:"id"`
	Organization           types.String   `tfsdk:"organization"`
	ModuleName             types.String   `tfsdk:"module_name"`
	ModuleProvider         types.String   `tfsdk:"module_provider"`
	Source                 types.String   `tfsdk:"source"`
	SourceHash             types.String   `tfsdk:"source_hash"`
	ConfigurationVersionID types.String   `tfsdk:"configuration_version_id"`
	TestDirectory          types.String   `tfsdk:"test_directory"`
	Filters                types.List     `tfsdk:"filters"`
	Verbose                types.Bool     `tfsdk:"verbose"`
	Variables              types.Map      `tfsdk:"variables"`
	Triggers               types.Map      `tfsdk:"triggers"`
	WaitForCompletion      types.Bool     `tfsdk:"wait_for_completion"`
	FailOnTestFailure      types.Bool     `tfsdk:"fail_on_test_failure"`
	Timeouts               timeouts.Value `tfsdk:"timeouts"`
	Status                 types.String   `tfsdk:"status"`
	TestStatus             types.String   `tfsdk:"test_status"`
	TestsPassed            types.Int64    `tfsdk:"tests_passed"`
	TestsFailed            types.Int64    `tfsdk:"tests_failed"`
	TestsErrored           types.Int64    `tfsdk:"tests_errored"`
	TestsSkipped           types.Int64    `tfsdk:"tests_skipped"`
	RunSource              types.String   `tfsdk:"run_source"`
}

func (m *moduleTestRunResourceModel) module() moduleRef {
	return moduleRef{Organization: m.Organization.ValueString(), Name: m.ModuleName.ValueString(), Provider: m.ModuleProvider.ValueString()}
}

const (
	defaultTestRunCreateTimeout = 30 * time.Minute
	defaultTestRunDeleteTimeout = 5 * time.Minute
	// maxCancelGrace is the longest Delete waits after a cancel before it
	// force-cancels; it waits half the delete timeout when that is less.
	maxCancelGrace = 30 * time.Second
	// privateImported marks a run imported by ID, whose source directory
	// (and triggers) the next plan adopts instead of replacing the run.
	privateImported = "imported"
)

// Rules shared with the API: run variable keys, and paths inside the
// configuration.
var runVariableKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

func (r *moduleTestRunResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestRunType.permissions())
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	count := func(outcome string) schema.Int64Attribute {
		return schema.Int64Attribute{
			Computed:            true,
			MarkdownDescription: "Number of tests that " + outcome + "; null until the run has finished.",
			PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs the tests of a private registry module (`terraform test`, executed by HCP Terraform) as part of an apply.\n\n" +
			"The configuration to test is a local directory (`source`), which the provider packs (honoring `.terraformignore`) and uploads as a new " +
			"configuration version, or an existing configuration version (`configuration_version_id`). A run cannot be changed: a change of any input " +
			"that the run uses (the module, the directory's contents, the configuration version, `test_directory`, `filters`, `verbose`, `variables`) " +
			"or of `triggers` starts a new run. The directory's contents are hashed at plan time (`source_hash`), so editing a file plans a new run; " +
			"moving the directory without changing it does not. A new run's `source_hash` is known after apply: `terraform apply PLANFILE` packs the directory " +
			"as it finds it then, and records that hash; when a saved plan updates a run in place (such as a change of `wait_for_completion`), a directory edited " +
			"after the plan fails the apply with an error saying so.\n\n" +
			"With `wait_for_completion` (the default) the apply waits for the run to end. If tests fail, or the run errors or is canceled, the apply fails " +
			"with the counts and the end of the run's log when `fail_on_test_failure` is true (the default), or warns when it is false. A failed apply " +
			"still records the run in state, **tainted**: the next apply starts a new run (fix the module first), and `terraform untaint` accepts the " +
			"failed run instead. A run that is still going when the create timeout passes is recorded (tainted) too; the next apply cancels it and starts again.\n\n" +
			"Destroying the resource cancels a run that is still queued or running (waiting for a queued run to start, since only a running test can be " +
			"canceled), and force-cancels it if it has not stopped after a grace period: 30 seconds, or half the delete timeout if that is less. " +
			"A run that has ended is only removed from state: the API cannot delete runs.\n\n" +
			"**Lost answers.** When the request that queues the run ends without a definite answer (a 5xx, or a connection lost once the request was sent), " +
			"the provider adopts a run only when it provably queued it. With `source`, the configuration version is the provider's own upload, which nothing else knows of: " +
			"a run of the module on it with the inputs sent is adopted (by this resource only); none, and the run is queued again. " +
			"With `configuration_version_id`, `count` and `for_each` siblings and other configurations may queue runs of the same version with identical inputs, " +
			"so no run is adopted: the provider queues the run again and warns, naming the runs of that version with the inputs sent that were queued while the lost request was in flight " +
			"(one of them may be an orphan; the API cannot delete runs, but a run still going can be canceled). " +
			"A configuration version whose create answer was lost is not looked for: only the upload address in that lost answer could use it, " +
			"so it stays empty and runs nothing; the provider makes another. A cancel whose answer was lost is not sent again: the grace period shows whether the run stops.",
		Attributes: map[string]schema.Attribute{
			"id":              computedString("ID of the test run (`trun-<id>`)."),
			"organization":    organizationAttribute(),
			"module_name":     moduleNameAttribute(),
			"module_provider": moduleProviderAttribute(),
			"source": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Path of a local directory holding the module's configuration and tests, such as `\"${path.module}/modules/network\"`. " +
					"It is packed (with `.terraformignore` rules and the default exclusion of `.git` and `.terraform`) into a new configuration version. " +
					"Exactly one of `source` and `configuration_version_id` must be set.",
				Validators: []validator.String{notBlank()},
			},
			"source_hash": computedString("Hex SHA-256 of the packed `source` directory (names, permissions and contents of its files; not their times), computed at plan time " +
				"for an existing run, and by the apply for a new one. A different hash starts a new run. Null with `configuration_version_id`."),
			"configuration_version_id": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "ID of an uploaded configuration version to test (`cv-<id>`), possibly of another module. With `source`, the ID of the " +
					"configuration version the provider uploaded. Exactly one of `source` and `configuration_version_id` must be set.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{idValidator("cv-")},
			},
			"test_directory": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("tests"),
				MarkdownDescription: "Directory of the test files, relative to the configuration. Defaults to `tests`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{relativePathValidator{}},
			},
			"filters": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Only these test files run, given relative to the configuration, such as `[\"tests/greeting.tftest.hcl\"]`. All test files run when omitted.",
				PlanModifiers:       []planmodifier.List{listplanmodifier.RequiresReplace()},
				Validators: []validator.List{
					listvalidator.SizeAtMost(100),
					listvalidator.ValueStringsAre(relativePathValidator{}),
				},
			},
			"verbose": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: "Print the plan or state of each `run` block in the log. Defaults to `false`.",
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.RequiresReplace()},
			},
			"variables": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Values of the module's variables for this run, overriding the module's test variables of the same name. " +
					"Each value is a literal of the configuration language, so a string carries its own quotes: " +
					"`{ name = \"\\\"tester\\\"\", replicas = \"3\", zones = jsonencode([\"a\", \"b\"]) }`. Keys start with a letter or underscore.",
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
				Validators:    []validator.Map{mapvalidator.SizeAtMost(100), runVariablesValidator{}},
			},
			"triggers": schema.MapAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Arbitrary values that, when changed, start a new run, such as the version of a module the tests depend on.",
			},
			"wait_for_completion": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
				MarkdownDescription: "Wait for the run to end (within the create timeout). When false, the apply only queues the run; `status` and the outcome " +
					"are refreshed by later plans, and `fail_on_test_failure` has no effect. Changing it does not start a new run. Defaults to `true`.",
			},
			"fail_on_test_failure": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
				MarkdownDescription: "When waiting, fail the apply if the tests fail or the run errors or is canceled; when false, warn instead and keep the run. " +
					"Changing it does not start a new run. Defaults to `true`.",
			},
			"timeouts":      timeoutsAttribute(ctx),
			"status":        computedString("Status of the run: `pending`, `queued`, `running`, `errored`, `canceled` or `finished`. Refreshed by every plan."),
			"test_status":   computedString("Outcome of a finished run: `pass` or `fail`; null until then, and for a run that errored or was canceled."),
			"tests_passed":  count("passed"),
			"tests_failed":  count("failed"),
			"tests_errored": count("errored"),
			"tests_skipped": count("were skipped"),
			"run_source": computedString("How the run was queued: `svc-api` for runs this resource makes; `engine` (the Terraform CLI) or " +
				"`svc-configuration-version` (version control) for imported ones."),
		},
	}
}

func (r *moduleTestRunResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(path.MatchRoot("source"), path.MatchRoot("configuration_version_id")),
	}
}

// ValidateConfig warns that fail_on_test_failure needs wait_for_completion.
func (r *moduleTestRunResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var wait, fail types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("wait_for_completion"), &wait)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("fail_on_test_failure"), &fail)...)
	if !wait.IsUnknown() && !wait.IsNull() && !wait.ValueBool() && !fail.IsNull() && !fail.IsUnknown() && fail.ValueBool() {
		resp.Diagnostics.AddAttributeWarning(path.Root("fail_on_test_failure"), "fail_on_test_failure has no effect",
			"With wait_for_completion = false the apply does not wait for the tests, so their outcome cannot fail it. Read test_status in a later plan, or wait for completion.")
	}
}

// ModifyPlan fills in the organization, packs the `source` directory to
// compute source_hash, and replaces the run when the hash or the triggers
// changed. After an import (which cannot know the directory or the
// triggers), the first plan adopts them in place instead.
func (r *moduleTestRunResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	r.data.planOrganization(ctx, req, resp)
	var cfg moduleTestRunResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state moduleTestRunResourceModel
	creating := req.State.Raw.IsNull()
	if !creating {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	hash := types.StringNull()
	switch {
	case cfg.Source.IsUnknown():
		hash = types.StringUnknown()
	case !cfg.Source.IsNull():
		packed, err := packConfiguration(cfg.Source.ValueString(), false)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source"), "Cannot pack the module directory", err.Error())
			return
		}
		tflog.Debug(ctx, "Hashed module test configuration", map[string]any{"source": cfg.Source.ValueString(), "source_hash": packed.hash, "files": packed.files})
		// Saved plans: see code_hash.go.
		hash = planLocalHash(ctx, req.Private, path.Root("source"), "Module directory", cfg.Source.ValueString(), packed.hash, creating, state.SourceHash, state.Source, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	resp.Diagnostics.Append(forgetLocalHash(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("source_hash"), hash)...)
	if creating {
		return
	}
	imported, diags := req.Private.GetKey(ctx, privateImported)
	resp.Diagnostics.Append(diags...)
	adopt := len(imported) > 0
	if !hash.Equal(state.SourceHash) && (!adopt || !state.SourceHash.IsNull()) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("source_hash"))
	}
	if !cfg.Triggers.Equal(state.Triggers) && (!adopt || !state.Triggers.IsNull()) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("triggers"))
	}
}

// Create uploads the configuration (three requests) unless a
// configuration version is given, queues the run (one request) and, when
// waiting, reads it with backoff until it ends.
func (r *moduleTestRunResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan moduleTestRunResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultTestRunCreateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	m := plan.module()
	defer r.data.testRunsChanged(m)
	c := testRunClient{r.data.client}

	cvID := plan.ConfigurationVersionID.ValueString()
	if !plan.Source.IsNull() {
		packed, err := packConfiguration(plan.Source.ValueString(), true)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source"), "Cannot pack the module directory", err.Error())
			return
		}
		plan.SourceHash = types.StringValue(packed.hash)
		if cvID, err = c.uploadConfiguration(ctx, m, packed.archive); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source"), "Error uploading the module configuration", err.Error())
			return
		}
	}
	plan.ConfigurationVersionID = types.StringValue(cvID)

	var filters []string
	resp.Diagnostics.Append(plan.Filters.ElementsAs(ctx, &filters, false)...)
	var vars map[string]string
	resp.Diagnostics.Append(plan.Variables.ElementsAs(ctx, &vars, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := testRunCreateOptions(m, cvID, plan.TestDirectory.ValueStringPointer(), plan.Verbose.ValueBoolPointer(), filters, vars)
	// A configuration version this create uploaded is its own: a run on
	// it can be adopted after a lost answer (lostCreate).
	rec, maybeOrphans, err := c.queue(ctx, "tfgov_module_test_run", m, opts, !plan.Source.IsNull(), &r.data.owned)
	if err != nil {
		resp.Diagnostics.AddError("Error creating module test run", fmt.Sprintf("Queuing a test run of configuration version %s: %s", cvID, moduleTestsError(m, err)))
		return
	}
	if w := testRunOrphansWarning(m, cvID, rec.ID, "which is in state", maybeOrphans); w != "" {
		// A summary of its own: Terraform folds warnings that share one.
		resp.Diagnostics.AddWarning(fmt.Sprintf("A test run may have been queued twice: %s (module %s, configuration version %s)",
			strings.Join(candidateLines(maybeOrphans, rec.ID, func(r *testRunRecord) string { return r.ID }, func(r *testRunRecord) string { return r.ID }), ", "), m, cvID), w)
	}
	tflog.Info(ctx, "Queued module test run", map[string]any{"id": rec.ID, "module": m.String(), "configuration_version_id": cvID})
	plan.apply(ctx, rec, &resp.Diagnostics)
	// From here on the run exists: state is saved even when the apply
	// fails, which taints the resource.
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if !plan.WaitForCompletion.ValueBool() || resp.Diagnostics.HasError() {
		return
	}

	start := time.Now()
	done, err := c.waitFor(ctx, m, rec.ID, (*testRunRecord).final)
	if done != nil {
		rec = done
		plan.apply(ctx, rec, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
	if err != nil {
		detail := fmt.Sprintf("Test run %s of %s was %s when waiting for it ended: %s.", rec.ID, m, rec.Status, err)
		if errors.Is(err, context.DeadlineExceeded) {
			detail = fmt.Sprintf("Test run %s of %s was still %s after the create timeout (%s). ", rec.ID, m, rec.Status, timeout) +
				"It is recorded in state as tainted: the next apply cancels it and starts a new run. Raise timeouts.create for long tests."
		}
		resp.Diagnostics.AddError("Error waiting for module test run", detail)
		return
	}
	tflog.Info(ctx, "Module test run ended", map[string]any{
		"id": rec.ID, "status": rec.Status, "test_status": plan.TestStatus.ValueString(), "seconds": time.Since(start).Seconds(),
	})
	if rec.passed() {
		return
	}
	r.reportOutcome(ctx, c, m, rec, plan.FailOnTestFailure.ValueBool(), &resp.Diagnostics)
}

// Read refreshes the run from the shared pages of its module's runs
// (bulkLists): the runs of a configuration among their module's newest 100
// cost one request between them. A run the pages do not hold is read by ID
// to be sure; a run that no longer exists leaves state. A 404 on the list
// fails, naming the permission or the missing module.
func (r *moduleTestRunResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state moduleTestRunResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	m := state.module()
	rec, err := r.data.moduleTestRun(ctx, m, state.ID.ValueString())
	if errors.Is(err, errTestRunsHidden) {
		// DESIGN.md, "Gone or cannot see": the module's read says which.
		if importing { // nothing in state to keep or remove: say which
			importedMissing(&resp.Diagnostics, "module test run", r.data.moduleTestImportDenied(ctx, m, "test run "+state.ID.ValueString()))
			return
		}
		resp.Diagnostics.AddError("Cannot refresh module test run", r.data.moduleTestCannotSee(ctx, refreshCheck, m, "Test run "+state.ID.ValueString()+" of module "+m.String(), "test runs"))
		return
	}
	if err == nil && rec == nil {
		// Not in the module's list: make sure with a read by ID, since a
		// list's pages can shift under a change made while paging.
		rec, err = testRunClient{r.data.client}.read(ctx, m, state.ID.ValueString())
	}
	if isNotFound(err) && importing {
		// The module's list answers 404 and empty alike: one read of the
		// module says which.
		what := fmt.Sprintf("Test run %s of module %s was not found: the module's test runs, which the API token can list, do not include it.", state.ID.ValueString(), m)
		if _, merr := r.data.client.RegistryModules.Read(ctx, m.id()); isNotFound(merr) {
			what = fmt.Sprintf("Module %s was not found, or the API token may not manage its tests (it needs to be an owner, or in the owners team): its test run %s cannot be read.", m, state.ID.ValueString())
		}
		importedMissing(&resp.Diagnostics, "module test run", what)
		return
	}
	if isNotFound(err) {
		tflog.Info(ctx, "Module test run no longer exists; removing it from state", map[string]any{"id": state.ID.ValueString(), "module": m.String()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading module test run", fmt.Sprintf("Reading test run %s of %s: %s", state.ID.ValueString(), m, err))
		return
	}
	state.apply(ctx, rec, &resp.Diagnostics)
	// The directory as this refresh finds it, for the apply of a saved plan
	// (planLocalHash); an unreadable one is the plan's to report.
	sum := ""
	if !state.Source.IsNull() {
		if packed, err := packConfiguration(state.Source.ValueString(), false); err == nil {
			sum = packed.hash
		}
	}
	resp.Diagnostics.Append(recordLocalHash(ctx, resp.Private, sum)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update is reached only for wait_for_completion, fail_on_test_failure,
// timeouts, a moved source directory with the same contents, or the first
// plan after an import: it records them and makes no request.
func (r *moduleTestRunResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan moduleTestRunResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.SourceHash.IsUnknown() {
		// Adopting the directory of an imported run: hashed now (code_hash.go).
		packed, err := packConfiguration(plan.Source.ValueString(), false)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source"), "Cannot pack the module directory", err.Error())
			return
		}
		plan.SourceHash = types.StringValue(packed.hash)
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete cancels a run that has not ended and forgets one that has.
func (r *moduleTestRunResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state moduleTestRunResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, defaultTestRunDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	m, id := state.module(), state.ID.ValueString()
	defer r.data.testRunsChanged(m)
	rec, err := testRunClient{r.data.client}.cancel(ctx, m, id, min(maxCancelGrace, timeout/2))
	if err != nil {
		detail := fmt.Sprintf("Canceling test run %s of %s: %s", id, m, err)
		if errors.Is(err, context.DeadlineExceeded) && rec != nil {
			detail = fmt.Sprintf("Test run %s of %s was still %s when the delete timeout (%s) passed; it stays in state. Destroy again, or raise timeouts.delete.", id, m, rec.Status, timeout)
		}
		resp.Diagnostics.AddError("Error canceling module test run", detail)
		return
	}
	if rec == nil { // the run answered 404
		if why := confirmGone(ctx, writeCheck("Canceling", "canceled"), "Test run "+id+" of module "+m.String(), strings.TrimSuffix(permTextTests, "."), r.data.locateTestRun(m, id)); why != "" {
			resp.Diagnostics.AddError("Cannot cancel module test run", why)
			return
		}
	}
	fields := map[string]any{"id": id, "module": m.String()}
	if rec != nil {
		fields["status"] = rec.Status
	}
	tflog.Info(ctx, "Module test run removed from state", fields)
}

// ImportState takes `<organization>/<module_name>/<module_provider>/<run_id>`,
// or `<module_name>/<module_provider>/<run_id>` in the provider's
// organization: the API reads a run only under its module's path.
func (r *moduleTestRunResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	const forms = "<organization>/<module_name>/<module_provider>/<run_id> or <module_name>/<module_provider>/<run_id> (run_id trun-<id>)"
	parts := strings.Split(req.ID, "/")
	if len(parts) == 3 {
		if r.data == nil || r.data.organization == "" {
			resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("import ID %q names no organization and the provider has none; want %s", req.ID, forms))
			return
		}
		parts = append([]string{r.data.organization}, parts...)
	}
	parts, err := splitImportID(strings.Join(parts, "/"), 4, forms)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("import ID %q: want %s", req.ID, forms))
		return
	}
	if !strings.HasPrefix(parts[3], "trun-") {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("import ID %q: the run ID must start with trun-; want %s", req.ID, forms))
		return
	}
	for attr, v := range map[string]any{
		"organization": parts[0], "module_name": parts[1], "module_provider": parts[2], "id": parts[3],
		"wait_for_completion": true, "fail_on_test_failure": true,
	} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), v)...)
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, []byte("true"))...)
	markImporting(ctx, resp)
}

// testRunOrphansWarning says which runs a create whose answer was lost may
// have queued besides run id, the one in state.
func testRunOrphansWarning(m moduleRef, cvID, id, where string, runs []*testRunRecord) string {
	lines := candidateLines(runs, id, func(r *testRunRecord) string { return r.ID }, func(r *testRunRecord) string {
		return fmt.Sprintf("  - %s (created %s, %s)", r.ID, r.CreatedAt.UTC().Format(time.RFC3339), r.Status)
	})
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("A request that queues a test run of module %s on configuration version %s ended without a definite answer, so the service may have queued a run this apply never heard of. "+
		"Runs of one configuration version with the same inputs cannot be told apart (a `count` or `for_each` sibling, or another configuration, queues identical ones), "+
		"so the provider adopted none and queued %s, %s. These runs match the request and were queued while it was in flight; one of them may be the lost request's run, the others belong to someone else:\n\n%s\n\n"+
		"The API cannot delete a run. A run that is still queued or running can be canceled in the module's Tests page, or with the API: "+
		"POST /api/v2/organizations/<organization>/tests/registry-modules/private/<organization>/<name>/<provider>/test-runs/<id>/cancel. "+
		"Give the resource `source` instead of `configuration_version_id` to have a lost answer's run adopted instead: the provider then uploads a configuration version of its own, whose runs can only be its own.",
		m, cvID, id, where, strings.Join(lines, "\n"))
}

// reportOutcome explains a run that did not pass, with the counts and the
// end of its log: an error, or a warning when failures are accepted.
func (r *moduleTestRunResource) reportOutcome(ctx context.Context, c testRunClient, m moduleRef, rec *testRunRecord, fail bool, diags *diag.Diagnostics) {
	summary, detail := c.describeOutcome(ctx, m, rec)
	if !fail {
		diags.AddWarning(summary, detail+"\n\nfail_on_test_failure is false, so the apply goes on.")
		return
	}
	diags.AddError(summary, detail+"\n\nThe run is recorded in state as tainted: the next apply starts a new run. "+
		"Set fail_on_test_failure = false to record failing runs without failing the apply.")
}

// apply records what the API says of the run.
func (m *moduleTestRunResourceModel) apply(ctx context.Context, rec *testRunRecord, diags *diag.Diagnostics) {
	m.ID = types.StringValue(rec.ID)
	m.Status = types.StringValue(rec.Status)
	m.TestStatus = types.StringPointerValue(rec.TestStatus)
	m.TestsPassed = int64Ptr(rec.TestsPassed)
	m.TestsFailed = int64Ptr(rec.TestsFailed)
	m.TestsErrored = int64Ptr(rec.TestsErrored)
	m.TestsSkipped = int64Ptr(rec.TestsSkipped)
	m.RunSource = types.StringValue(rec.Source)
	if id := rec.configurationVersionID(); id != "" {
		m.ConfigurationVersionID = types.StringValue(id)
	}
	m.TestDirectory = types.StringValue(rec.TestDirectory)
	m.Verbose = types.BoolValue(rec.Verbose)
	// Inputs the configuration left out stay null when the API reports
	// them empty.
	if len(rec.Filters) > 0 || !m.Filters.IsNull() {
		v, d := types.ListValueFrom(ctx, types.StringType, rec.Filters)
		diags.Append(d...)
		m.Filters = v
	}
	if len(rec.Variables) > 0 || !m.Variables.IsNull() {
		vars := make(map[string]attr.Value, len(rec.Variables))
		for _, v := range rec.Variables {
			vars[v.Key] = types.StringValue(v.Value)
		}
		v, d := types.MapValue(types.StringType, vars)
		diags.Append(d...)
		m.Variables = v
	}
}

// timeoutsAttribute is terraform-plugin-framework-timeouts' attribute for
// create and delete, described.
func timeoutsAttribute(ctx context.Context) schema.Attribute {
	a := timeouts.Attributes(ctx, timeouts.Opts{
		Create: true, Delete: true,
		CreateDescription: "How long to wait for the run to end (a duration such as `\"45m\"`). Defaults to `30m`.",
		DeleteDescription: "How long destroy waits for a queued or running run to be canceled (a duration such as `\"2m\"`). Defaults to `5m`.",
	})
	if n, ok := a.(schema.SingleNestedAttribute); ok {
		n.MarkdownDescription = "How long the apply waits for the run (`create`) and destroy for its cancellation (`delete`). Each must be above zero."
		return withPositiveTimeouts(n)
	}
	return a
}

// locateTestRun is the refresh of run id of m after its read answered 404 on the way to its delete
// (Read's reads, made afresh): absent from the module's pages and answering 404 by ID is gone.
func (d *providerData) locateTestRun(m moduleRef, id string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		d.testRunsChanged(m)
		d.lists.parents.invalidate("module:" + m.String())
		rec, err := d.moduleTestRun(ctx, m, id)
		if errors.Is(err, errTestRunsHidden) {
			return false, d.moduleTestCannotSee(ctx, check, m, "Test run "+id+" of module "+m.String(), "test runs")
		}
		if err == nil && rec == nil {
			rec, err = testRunClient{d.client}.read(ctx, m, id)
		}
		switch {
		case isNotFound(err):
			return false, ""
		case err != nil:
			return false, fmt.Sprintf("Test run %s of module %s cannot be %s: reading it to tell whether it is gone failed: %s. State keeps it.", id, m, check.done, err)
		}
		return rec != nil, ""
	}
}
