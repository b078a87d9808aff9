package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/actionvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ action.ActionWithConfigure        = (*moduleTestAction)(nil)
	_ action.ActionWithConfigValidators = (*moduleTestAction)(nil)
	_ action.ActionWithValidateConfig   = (*moduleTestAction)(nil)
)

// NewModuleTestAction is the tfgov_module_test action: it runs a private
// module's tests once, when invoked (Terraform 1.14 and later).
func NewModuleTestAction() action.Action {
	return &moduleTestAction{actionBase{typ: moduleTestActionType}}
}

type moduleTestAction struct{ actionBase }

type moduleTestActionModel struct {
	Organization           types.String `tfsdk:"organization"`
	ModuleName             types.String `tfsdk:"module_name"`
	ModuleProvider         types.String `tfsdk:"module_provider"`
	Source                 types.String `tfsdk:"source"`
	ConfigurationVersionID types.String `tfsdk:"configuration_version_id"`
	TestDirectory          types.String `tfsdk:"test_directory"`
	Filters                types.List   `tfsdk:"filters"`
	Verbose                types.Bool   `tfsdk:"verbose"`
	Variables              types.Map    `tfsdk:"variables"`
	Timeout                types.String `tfsdk:"timeout"`
}

const (
	defaultModuleTestTimeout = defaultTestRunCreateTimeout // with no timeout configured, the resource's default
	// interruptCancelTimeout bounds a run's cancellation after an interrupt or the timeout: the wait
	// for a queued run to start, the cancel, its grace and a force-cancel.
	interruptCancelTimeout = 2 * time.Minute
	// interruptCancelGrace: a canceled run ends its run block in progress and destroys what it made
	// before it is force-canceled.
	interruptCancelGrace = 30 * time.Second
)

func (a *moduleTestAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestActionType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs the tests of a private registry module (`terraform test`, executed by HCP Terraform) when invoked, and fails " +
			"when they fail. Requires Terraform 1.14 or later. Invoke it from the command line with " +
			"`terraform apply -invoke=action.tfgov_module_test.<name>`, or from another resource's lifecycle with an `action_trigger`, " +
			"such as after a module version is published or deprecated.\n\n" +
			"It does what the `tfgov_module_test_run` resource does on create, without keeping anything in state: it packs the local directory " +
			"`source` (honoring `.terraformignore`) and uploads it as a new configuration version, or takes an existing configuration version " +
			"(`configuration_version_id`); queues a run; and waits for it, reporting in Terraform's output each change of the run's status and " +
			"of its test counts. A run that fails, errors or is canceled fails the invocation with the counts and the end of the run's log.\n\n" +
			"When Terraform is interrupted (Ctrl-C) or `timeout` passes, the action cancels the run on the service, waiting for a queued run to " +
			"start since only a running test can be canceled, and force-cancels it if it has not stopped 30 seconds later. (After an interrupt, " +
			"Terraform no longer shows the provider's messages: the cancellation is in the provider's log, and in the run's status on the service.)",
		Attributes: map[string]schema.Attribute{
			"organization":    organizationScope.action(),
			"module_name":     moduleNameScope.action(),
			"module_provider": moduleProviderScope.action(),
			"source": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Path of a local directory holding the module's configuration and tests, such as `\"${path.module}/modules/network\"`. " +
					"It is packed (with `.terraformignore` rules and the default exclusion of `.git` and `.terraform`) into a new configuration version " +
					"at each invocation. Exactly one of `source` and `configuration_version_id` must be set.",
				Validators: []validator.String{notBlank()},
			},
			"configuration_version_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "ID of an uploaded configuration version to test (`cv-<id>`), possibly of another module. " +
					"Exactly one of `source` and `configuration_version_id` must be set.",
				Validators: []validator.String{idValidator("cv-")},
			},
			"test_directory": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Directory of the test files, relative to the configuration. Defaults to `tests`.",
				Validators:          []validator.String{relativePathValidator{}},
			},
			"filters": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Only these test files run, given relative to the configuration, such as `[\"tests/greeting.tftest.hcl\"]`. All test files run when omitted.",
				Validators: []validator.List{
					listvalidator.SizeAtMost(100),
					listvalidator.ValueStringsAre(relativePathValidator{}),
				},
			},
			"verbose": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Print the plan or state of each `run` block in the run's log. Defaults to `false`.",
			},
			"variables": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Values of the module's variables for this run, overriding the module's test variables of the same name. " +
					"Each value is a literal of the configuration language, so a string carries its own quotes: " +
					"`{ name = \"\\\"tester\\\"\", replicas = \"3\", zones = jsonencode([\"a\", \"b\"]) }`. Keys start with a letter or underscore.",
				Validators: []validator.Map{mapvalidator.SizeAtMost(100), runVariablesValidator{}},
			},
			"timeout": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "How long to wait for the run to end (a duration such as `\"45m\"`); when it passes, the run is canceled and the " +
					"invocation fails. Defaults to `30m`.",
				Validators: []validator.String{durationValidator{}, positiveDuration{}},
			},
		},
	}
}

func (a *moduleTestAction) ConfigValidators(context.Context) []action.ConfigValidator {
	return []action.ConfigValidator{
		actionvalidator.ExactlyOneOf(path.MatchRoot("source"), path.MatchRoot("configuration_version_id")),
	}
}

// ValidateConfig checks what is known before anything is sent: `source`
// is a directory that exists.
func (a *moduleTestAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var source types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("source"), &source)...)
	if source.IsNull() || source.IsUnknown() || strings.TrimSpace(source.ValueString()) == "" {
		return
	}
	if err := checkModuleDirectory(source.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("source"), "Invalid module directory", err.Error())
	}
}

// checkModuleDirectory says why dir cannot be packed as a module, if it
// cannot: it does not exist, or is not a directory.
func checkModuleDirectory(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("source: the directory %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("source: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("source: %s is not a directory", dir)
	}
	return nil
}

// Invoke uploads the configuration (three requests) unless a version is given, queues the run and
// polls it, sending progress on each change; when ctx ends (an interrupt) or the timeout passes, it
// cancels the run.
func (a *moduleTestAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg moduleTestActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.data == nil {
		resp.Diagnostics.AddError("Provider not configured", "The tfgov provider was not configured before the action was invoked. This is a bug in the provider; please report it.")
		return
	}
	m := moduleRef{Organization: a.data.organizationOr(cfg.Organization, &resp.Diagnostics), Name: cfg.ModuleName.ValueString(), Provider: cfg.ModuleProvider.ValueString()}
	timeout := defaultModuleTestTimeout
	if !cfg.Timeout.IsNull() {
		d, err := time.ParseDuration(cfg.Timeout.ValueString())
		if err != nil || d <= 0 {
			resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid timeout", fmt.Sprintf("timeout must be a positive duration such as \"30m\", got %q.", cfg.Timeout.ValueString()))
		}
		timeout = d
	}
	var filters []string
	resp.Diagnostics.Append(cfg.Filters.ElementsAs(ctx, &filters, false)...)
	var vars map[string]string
	resp.Diagnostics.Append(cfg.Variables.ElementsAs(ctx, &vars, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	progress := newActionProgress(ctx, resp.SendProgress)
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := testRunClient{a.data.client}

	cvID := cfg.ConfigurationVersionID.ValueString()
	if !cfg.Source.IsNull() {
		dir := cfg.Source.ValueString()
		packed, err := packConfiguration(dir, true)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source"), "Cannot pack the module directory", err.Error())
			return
		}
		progress.send(fmt.Sprintf("Uploading %d files (%d bytes packed) from %s to %s", packed.files, len(packed.archive), dir, m))
		if cvID, err = c.uploadConfiguration(waitCtx, m, packed.archive); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("source"), "Error uploading the module configuration", err.Error())
			return
		}
	}

	defer a.data.testRunsChanged(m)
	opts := testRunCreateOptions(m, cvID, cfg.TestDirectory.ValueStringPointer(), cfg.Verbose.ValueBoolPointer(), filters, vars)
	sent := time.Now()
	rec, maybeOrphans, err := c.queue(waitCtx, "tfgov_module_test", m, opts, !cfg.Source.IsNull(), &a.data.owned)
	if err == nil {
		if w := testRunOrphansWarning(m, cvID, rec.ID, "which this invocation followed", maybeOrphans); w != "" {
			resp.Diagnostics.AddWarning("A test run may have been queued twice", w)
		}
	}
	if err != nil && waitCtx.Err() != nil && !cfg.Source.IsNull() {
		// Interrupted in flight: the run may be queued all the same. Only on a version this invocation
		// made is a run provably its own; on a given one, another's run with the same inputs could be canceled.
		if rec = a.interruptedCreate(ctx, c, m, opts, sent); rec != nil {
			a.cancelRun(ctx, c, m, rec, timeout, err, &resp.Diagnostics)
			return
		}
	}
	if err != nil {
		detail := fmt.Sprintf("Queuing a test run of configuration version %s: %s", cvID, moduleTestsError(m, err))
		if waitCtx.Err() != nil && cfg.Source.IsNull() {
			detail += ". The request was cut short once sent: the service may have queued the run; look for it among the module's test runs."
		}
		resp.Diagnostics.AddError("Error queuing module test run", detail)
		return
	}
	tflog.Info(ctx, "Queued module test run", map[string]any{"id": rec.ID, "module": m.String(), "configuration_version_id": cvID})
	start := time.Now()
	report := &runReporter{m: m, start: start, send: progress.send}
	report.observe(rec)
	done, err := c.waitFor(waitCtx, m, rec.ID, func(r *testRunRecord) bool {
		report.observe(r)
		return r.final()
	})
	if done != nil {
		rec = done
	}
	if err != nil {
		a.cancelRun(ctx, c, m, rec, timeout, err, &resp.Diagnostics)
		return
	}
	tflog.Info(ctx, "Module test run ended", map[string]any{"id": rec.ID, "status": rec.Status, "seconds": time.Since(start).Seconds()})
	if rec.passed() {
		return
	}
	summary, detail := c.describeOutcome(ctx, m, rec)
	resp.Diagnostics.AddError(summary, detail)
}

// interruptedCreate looks, with a fresh context, for the run a create cut short at sent may have
// queued (lostCreate); nil when there is none or the look-up failed.
func (a *moduleTestAction) interruptedCreate(ctx context.Context, c testRunClient, m moduleRef, opts *tfe.TestRunCreateOptions, sent time.Time) *testRunRecord {
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), interruptCancelTimeout)
	defer cancel()
	rec, found, _, err := c.lostCreate(lctx, m, opts, &tfeclient.AmbiguousWriteError{Start: sent, End: time.Now()}, true, &a.data.owned)
	if err != nil {
		tflog.Error(lctx, "Looking for the run of an interrupted create failed", map[string]any{"module": m.String(), "error": err.Error()})
		return nil
	}
	if !found {
		tflog.Info(lctx, "The interrupted create queued no run", map[string]any{"module": m.String()})
		return nil
	}
	tflog.Info(lctx, "The interrupted create queued a run", map[string]any{"module": m.String(), "id": rec.ID})
	return rec
}

// cancelRun cancels a run after an interrupt or the timeout (err), with a fresh context.
func (a *moduleTestAction) cancelRun(ctx context.Context, c testRunClient, m moduleRef, rec *testRunRecord, timeout time.Duration, err error, diags *diag.Diagnostics) {
	why := fmt.Sprintf("waiting for it failed: %s", err)
	switch {
	case ctx.Err() != nil:
		why = "Terraform was interrupted"
	case errors.Is(err, context.DeadlineExceeded):
		why = fmt.Sprintf("it was still %s when the timeout (%s) passed", rec.Status, timeout)
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), interruptCancelTimeout)
	defer cancel()
	tflog.Warn(cctx, "Canceling module test run", map[string]any{"id": rec.ID, "module": m.String(), "why": why})
	after, cerr := c.cancel(cctx, m, rec.ID, interruptCancelGrace)
	status := "gone"
	if after != nil {
		status = after.Status
	} else if cerr == nil {
		// A 404 is gone or hidden: the refresh's question tells which (DESIGN.md "Gone or cannot see").
		check := goneCheck{done: "canceled", doing: "Canceling", again: "cancel it", keeps: "It may still be running"}
		if gone := confirmGone(cctx, check, "Test run "+rec.ID+" of module "+m.String(), strings.TrimSuffix(permTextTests, "."), a.data.locateTestRun(m, rec.ID)); gone != "" {
			diags.AddError("Module test run not canceled", fmt.Sprintf("Test run %s of %s was to be canceled because %s. %s", rec.ID, m, why, gone))
			return
		}
	}
	if cerr != nil {
		tflog.Error(cctx, "Canceling module test run failed", map[string]any{"id": rec.ID, "module": m.String(), "error": cerr.Error()})
		diags.AddError("Module test run not canceled",
			fmt.Sprintf("Test run %s of %s was to be canceled because %s, but canceling it failed (it is %s): %s. Cancel it in HCP Terraform.", rec.ID, m, why, status, cerr))
		return
	}
	tflog.Warn(cctx, "Canceled module test run", map[string]any{"id": rec.ID, "module": m.String(), "status": status})
	diags.AddError("Module test run canceled", fmt.Sprintf("Test run %s of %s was canceled (it is now %s) because %s.", rec.ID, m, status, why))
}

// runReporter sends a progress message for a run read when what the
// message reports (runProgress) has changed since the last one.
type runReporter struct {
	m     moduleRef
	start time.Time
	last  runProgress
	send  func(string)
}

func (r *runReporter) observe(rec *testRunRecord) {
	if now := progressOf(rec); now != r.last {
		r.last = now
		r.send(now.message(rec.ID, r.m, time.Since(r.start)))
	}
}

// runProgress is what a progress message reports of a run: a new message
// is sent only when it changes, not at every read.
type runProgress struct {
	status                           string
	testStatus                       string
	passed, failed, errored, skipped int
	counted                          bool
}

func progressOf(r *testRunRecord) runProgress {
	p := runProgress{status: r.Status}
	if r.TestStatus != nil {
		p.testStatus = *r.TestStatus
	}
	for _, n := range []*int{r.TestsPassed, r.TestsFailed, r.TestsErrored, r.TestsSkipped} {
		if n != nil {
			p.counted = true
		}
	}
	deref := func(n *int) int {
		if n == nil {
			return 0
		}
		return *n
	}
	p.passed, p.failed, p.errored, p.skipped = deref(r.TestsPassed), deref(r.TestsFailed), deref(r.TestsErrored), deref(r.TestsSkipped)
	return p
}

// message: the run's status, its outcome and counts once known, and the time since it was queued.
func (p runProgress) message(id string, m moduleRef, elapsed time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Test run %s of %s: %s", id, m, p.status)
	if p.testStatus != "" {
		fmt.Fprintf(&b, " (%s)", p.testStatus)
	}
	if p.counted {
		fmt.Fprintf(&b, ", %d passed, %d failed, %d errored, %d skipped", p.passed, p.failed, p.errored, p.skipped)
	}
	if elapsed >= time.Second && p.status != string(tfe.TestRunQueued) && p.status != string(tfe.TestRunPending) {
		fmt.Fprintf(&b, " after %s", elapsed.Round(time.Second))
	}
	return b.String()
}

// actionProgress sends an action's progress messages without ever
// blocking the action: the framework's SendProgress waits until Terraform
// takes the message, and once Terraform has interrupted the invocation
// (ctx ended) nothing takes it any more.
type actionProgress struct {
	ctx  context.Context
	push func(action.InvokeProgressEvent)
}

func newActionProgress(ctx context.Context, push func(action.InvokeProgressEvent)) actionProgress {
	return actionProgress{ctx: ctx, push: push}
}

func (p actionProgress) send(msg string) {
	tflog.Info(p.ctx, "Action progress", map[string]any{"message": msg})
	if p.push == nil || p.ctx.Err() != nil {
		return
	}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		p.push(action.InvokeProgressEvent{Message: msg})
	}()
	select {
	case <-sent:
	case <-p.ctx.Done():
	}
}
