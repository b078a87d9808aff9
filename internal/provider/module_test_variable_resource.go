package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ resource.ResourceWithConfigure        = (*moduleTestVariableResource)(nil)
	_ resource.ResourceWithImportState      = (*moduleTestVariableResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*moduleTestVariableResource)(nil)
	_ resource.ResourceWithConfigValidators = (*moduleTestVariableResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*moduleTestVariableResource)(nil)
	_ resource.ResourceWithIdentity         = (*moduleTestVariableResource)(nil)
)

// NewModuleTestVariableResource is the tfgov_module_test_variable resource.
func NewModuleTestVariableResource() resource.Resource {
	return &moduleTestVariableResource{resourceBase{typ: moduleTestVariableType}}
}

type moduleTestVariableResource struct{ resourceBase }

// moduleTestVariableIdentityAttrs is tfgov_module_test_variable's identity
// (identity.go): the module and the variable's ID.
var moduleTestVariableIdentityAttrs = append(moduleIdentity(), identityAttr{"id", "ID of the test variable (`var-<id>`)."})

type moduleTestVariableResourceModel struct {
	ID             types.String `tfsdk:"id"`
	Organization   types.String `tfsdk:"organization"`
	ModuleName     types.String `tfsdk:"module_name"`
	ModuleProvider types.String `tfsdk:"module_provider"`
	Key            types.String `tfsdk:"key"`
	Description    types.String `tfsdk:"description"`
	Category       types.String `tfsdk:"category"`
	HCL            types.Bool   `tfsdk:"hcl"`
	variableValue               // value, value_wo and sensitive (variable_value.go)
}

func (m *moduleTestVariableResourceModel) module() moduleRef {
	return moduleRef{Organization: m.Organization.ValueString(), Name: m.ModuleName.ValueString(), Provider: m.ModuleProvider.ValueString()}
}

// testVariableKeyRE is the service's rule for keys.
var testVariableKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

const (
	testVariableCategory       = string(tfe.CategoryEnv)
	testVariableDescriptionMax = 512
	testVariableImportForms    = "<organization>/<module_name>/<module_provider>/<variable_id> or <organization>/<module_name>/<module_provider>/<key>"
)

func (r *moduleTestVariableResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestVariableType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "An environment variable of a private registry module's tests: HCP Terraform sets it for every test run of the module " +
			"(a run's own `variables` override a variable of the same name).\n\n" +
			"Set the value with `value`, or with the write-only `value_wo` (Terraform 1.11 or later), which is sent to the API but never stored in the plan or state. " +
			"A `sensitive` variable's value is never returned by the API, so Terraform keeps the last value it set (in state with `value`, nowhere with `value_wo`) " +
			"and cannot notice a change made outside Terraform; other changes made outside Terraform are put back by the next apply.\n\n" +
			"Module tests need an API token of the organization's owners team or of one of its members.\n\n" +
			"**Lost answers.** When the create request ends without a definite answer (a 5xx, or a connection lost once the request was sent), " +
			"the provider looks up the module's variable with that key (keys are unique in a module) before creating it again. No such variable: the create is sent again. " +
			"A variable with the key fails the create exactly as a taken key does with no fault (\"already exists\", with its ID and an `import` block): " +
			"its creation time and attributes are the same whether the lost request made it or someone else did before it or while it was in flight, " +
			"and the provider never takes over a variable it cannot prove it made. Import the variable if it is the one you want managed " +
			"(a sensitive one's value cannot be read, so the next apply sets it again). A key taken by a variable Terraform does not manage also fails with the variable's ID and an `import` block.",
		Attributes: variableValueAttributes("variable", map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the variable (`var-<id>`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"organization":    organizationAttribute(),
			"module_name":     moduleNameAttribute(),
			"module_provider": moduleProviderAttribute(),
			"key": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Name of the environment variable, such as `AWS_REGION`: a letter or an underscore, then letters, digits and underscores. " +
					"Unique within the module. Changing it renames the variable in place, except for a sensitive variable, which the API cannot rename: that is replaced.",
				Validators: []validator.String{stringvalidator.RegexMatches(testVariableKeyRE, "must begin with a letter or an underscore and contain only letters, numbers and underscores")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(replaceIfSensitive,
					"The API cannot rename a sensitive variable, so changing its key replaces it.",
					"The API cannot rename a sensitive variable, so changing its key replaces it.")},
			},
			"description": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(""),
				MarkdownDescription: fmt.Sprintf("Description of the variable, at most %d characters. Defaults to `\"\"`.", testVariableDescriptionMax),
				Validators:          []validator.String{stringvalidator.UTF8LengthAtMost(testVariableDescriptionMax)},
			},
			"category": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(testVariableCategory),
				MarkdownDescription: "Category of the variable: module test variables are environment variables, so the only value is `env`, the default.",
				Validators:          []validator.String{stringvalidator.OneOf(testVariableCategory)},
			},
			"hcl": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "Whether the value is HCL rather than a string. The API stores the flag; test variables are environment variables, " +
					"for which HCP Terraform ignores it. Defaults to `false`. The API cannot change it on a sensitive variable: that is replaced.",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.RequiresReplaceIf(
					func(ctx context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
						resp.RequiresReplace = stateSensitive(ctx, req.State, &resp.Diagnostics)
					},
					"The API cannot change hcl on a sensitive variable, so changing it replaces the variable.",
					"The API cannot change `hcl` on a sensitive variable, so changing it replaces the variable.")},
			},
		}),
	}
}

func (r *moduleTestVariableResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return variableValueValidators()
}

func (r *moduleTestVariableResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg moduleTestVariableResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if !resp.Diagnostics.HasError() {
		cfg.warnSecretInState("variable", &resp.Diagnostics)
	}
}

// ModifyPlan plans the organization, and requires a value (`value` or
// `value_wo`) unless the variable is sensitive and already exists: an
// imported sensitive variable's value cannot be read back, so its
// configuration may leave the value to the service.
func (r *moduleTestVariableResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var cfg moduleTestVariableResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.data.planOrganization(ctx, req, resp)
	var plan moduleTestVariableResourceModel
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *variableValue
	if !req.State.Raw.IsNull() {
		var st moduleTestVariableResourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &st)...)
		state = &st.variableValue
	}
	cfg.plan("variable", state, &plan.variableValue, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *moduleTestVariableResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, config moduleTestVariableResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mod := plan.module()
	value := config.createValue(plan.variableValue)
	key := plan.Key.ValueString()
	fields := map[string]any{"module": mod.String(), "key": key, "sensitive": plan.Sensitive.ValueBool(), "write_only": !config.ValueWO.IsNull()}
	tflog.Debug(ctx, "Creating module test variable", fields)
	defer r.data.testVariablesChanged(mod)
	opts := tfe.VariableCreateOptions{
		Key:         tfe.String(key),
		Value:       value,
		Description: plan.Description.ValueStringPointer(),
		Category:    tfe.Category(tfe.CategoryType(plan.Category.ValueString())),
		HCL:         plan.HCL.ValueBoolPointer(),
		Sensitive:   plan.Sensitive.ValueBoolPointer(),
	}
	v, err := reconcileCreate(ctx, "tfgov_module_test_variable",
		func() (*tfe.Variable, error) {
			ctx, notes := tfeclient.WithResponseNotes(ctx)
			v, err := r.data.client.TestVariables.Create(ctx, mod.id(), opts)
			if err == nil {
				r.data.owned.receive(v.ID)
			}
			return v, notes.Wrap(err)
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*tfe.Variable, bool, error) {
			return lostTestVariable(ctx, r.data.client, mod, opts, amb)
		})
	var existed *identityTakenError
	if errors.As(err, &existed) {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Module test variable already exists", existed.Error())
		return
	}
	if err != nil {
		if _, ok := err.(*conflictError); ok { //nolint:errorlint // reconcileCreate returns it unwrapped
			resp.Diagnostics.AddError("Error creating module test variable", err.Error())
			return
		}
		if taken := r.existingTestVariable(ctx, mod, key, err); taken != "" {
			resp.Diagnostics.AddAttributeError(path.Root("key"), "Module test variable already exists", taken)
			return
		}
		resp.Diagnostics.AddError("Error creating module test variable", r.data.testVariableError(ctx, mod, "create test variable "+key+" of", err))
		return
	}
	fields["id"] = v.ID
	tflog.Info(ctx, "Created module test variable", fields)
	resp.Diagnostics.Append(recordWrittenValue(ctx, resp.Private, v.Sensitive, config.ValueWO.ValueStringPointer())...)
	resp.Diagnostics.Append(resp.State.Set(ctx, testVariableModel(v, plan))...)
}

// Read refreshes the variable from its module's list, which the provider
// shares among every variable of the module it refreshes. A variable
// missing from the list (which needs the owners team, who see every
// variable) is gone and leaves state; a 404 on the list fails.
func (r *moduleTestVariableResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state moduleTestVariableResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	mod := state.module()
	id := state.ID.ValueString()
	fields := map[string]any{"module": mod.String(), "id": id}
	vars, err := r.data.moduleTestVariables(ctx, mod)
	if err != nil {
		resp.Diagnostics.AddError("Error reading module test variable", r.data.testVariableError(ctx, mod, "read test variable "+id+" of", err))
		return
	}
	if vars.parentMissing && importing {
		importedMissing(&resp.Diagnostics, "module test variable", r.data.moduleTestImportDenied(ctx, mod, "test variable "+id))
		return
	}
	if vars.parentMissing {
		// DESIGN.md, "Gone or cannot see": the module's read says which.
		resp.Diagnostics.AddError("Cannot refresh module test variable", r.data.moduleTestCannotSee(ctx, refreshCheck, mod, "Test variable "+id+" of module "+mod.String(), "test variables"))
		return
	}
	v := vars.byID[id]
	if v == nil && vars.pages > 1 {
		// Make sure (shared_lists.go): read by ID.
		if v, err = r.data.client.TestVariables.Read(ctx, mod.id(), id); isNotFound(err) {
			v = nil
		} else if err != nil {
			resp.Diagnostics.AddError("Error reading module test variable", r.data.testVariableError(ctx, mod, "read test variable "+id+" of", err))
			return
		}
	}
	if v == nil && importing {
		importedMissing(&resp.Diagnostics, "module test variable", fmt.Sprintf("Module %s has no test variable %s: its test variables, which the API token can list, do not include it.", mod, id))
		return
	}
	if v == nil {
		tflog.Info(ctx, "Module test variable no longer exists; removing it from state", fields)
		resp.State.RemoveResource(ctx)
		return
	}
	m := testVariableModel(v, state)
	m.changedOutside(ctx, req.Private, v.Value, v.Sensitive, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Update sends only what changed: one request. A write-only value is sent
// when value_wo_version changes or when the variable switches from value to
// value_wo; a value, when it differs from state (or the variable switches
// from value_wo to value).
func (r *moduleTestVariableResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state, config moduleTestVariableResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := tfe.VariableUpdateOptions{}
	if !plan.Key.Equal(state.Key) {
		opts.Key = plan.Key.ValueStringPointer()
	}
	if !plan.Description.Equal(state.Description) {
		opts.Description = plan.Description.ValueStringPointer()
	}
	if !plan.HCL.Equal(state.HCL) {
		opts.HCL = plan.HCL.ValueBoolPointer()
	}
	if !plan.Sensitive.Equal(state.Sensitive) {
		opts.Sensitive = plan.Sensitive.ValueBoolPointer()
	}
	writeOnly := !config.ValueWO.IsNull()
	opts.Value = config.updateValue(plan.variableValue, state.variableValue)
	mod, id := plan.module(), state.ID.ValueString()
	fields := map[string]any{
		"module": mod.String(), "id": id, "key": plan.Key.ValueString(),
		"key_changed": opts.Key != nil, "value_changed": opts.Value != nil, "write_only": writeOnly,
	}
	tflog.Debug(ctx, "Updating module test variable", fields)
	defer r.data.testVariablesChanged(mod)
	v, err := r.data.client.TestVariables.Update(ctx, mod.id(), id, opts)
	if err != nil {
		detail := r.data.testVariableError(ctx, mod, "update test variable "+id+" of", err)
		if isNotFound(err) {
			detail += " If the variable was deleted outside Terraform, run terraform apply again to create it."
		}
		resp.Diagnostics.AddError("Error updating module test variable", detail)
		return
	}
	tflog.Info(ctx, "Updated module test variable", fields)
	resp.Diagnostics.Append(recordUpdatedValue(ctx, resp.Private, v.Sensitive, writeOnly, opts.Value)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, testVariableModel(v, plan))...)
}

func (r *moduleTestVariableResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state moduleTestVariableResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mod, id := state.module(), state.ID.ValueString()
	defer r.data.testVariablesChanged(mod)
	err := r.data.client.TestVariables.Delete(ctx, mod.id(), id)
	if isNotFound(err) {
		if why := confirmGone(ctx, writeCheck("Deleting", "deleted"), "Test variable "+id+" of module "+mod.String(), strings.TrimSuffix(permTextTests, "."), r.data.locateTestVariable(mod, id)); why != "" {
			resp.Diagnostics.AddError("Cannot delete module test variable", why)
			return
		}
		err = nil
	}
	if err != nil {
		resp.Diagnostics.AddError("Error deleting module test variable", r.data.testVariableError(ctx, mod, "delete test variable "+id+" of", err))
		return
	}
	tflog.Info(ctx, "Deleted module test variable", map[string]any{"module": mod.String(), "id": id})
}

// ImportState takes `<organization>/<module_name>/<module_provider>/<var-id>`
// or `.../<key>`; a key is resolved to the ID through the module's list
// (which the Read that follows the import then reuses).
func (r *moduleTestVariableResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	parts, err := splitImportID(req.ID, 4, testVariableImportForms)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error())
		return
	}
	mod := moduleRef{Organization: parts[0], Name: parts[1], Provider: parts[2]}
	id := parts[3]
	if !strings.HasPrefix(id, "var-") {
		if !testVariableKeyRE.MatchString(id) {
			resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("invalid import ID %q: the last part is neither a variable ID (var-<id>) nor a key "+
				"(a letter or an underscore, then letters, digits and underscores); want %s", req.ID, testVariableImportForms))
			return
		}
		vars, err := r.data.moduleTestVariables(ctx, mod)
		if err != nil {
			resp.Diagnostics.AddError("Error importing module test variable", r.data.testVariableError(ctx, mod, "list the test variables of", err))
			return
		}
		v := vars.byKey[id]
		if vars.parentMissing || v == nil {
			resp.Diagnostics.AddError("Error importing module test variable", fmt.Sprintf("Module %s has no test variable with key %q "+
				"(or the module was not found, or the API token may not manage its tests).", mod, id))
			return
		}
		tflog.Debug(ctx, "Resolved module test variable import ID", map[string]any{"import_id": req.ID, "id": v.ID})
		id = v.ID
	}
	for attr, v := range map[string]string{"organization": mod.Organization, "module_name": mod.Name, "module_provider": mod.Provider, "id": id} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), v)...)
	}
	markImporting(ctx, resp)
}

// varsPath is the list path, as the sandbox's request counter sees it.
func (m moduleRef) varsPath() string {
	return "/api/v2/organizations/" + url.PathEscape(m.Organization) + "/tests/registry-modules/private/" +
		url.PathEscape(m.Organization) + "/" + url.PathEscape(m.Name) + "/" + url.PathEscape(m.Provider) + "/vars"
}

// testVariableModel is the state for v. The value comes from prior (the
// plan, or the state being refreshed) when the API hides it (a sensitive
// variable) or when the value is write-only (never in state); otherwise it
// is the API's, so that a change made outside Terraform shows in the plan.
func testVariableModel(v *tfe.Variable, prior moduleTestVariableResourceModel) *moduleTestVariableResourceModel {
	m := prior
	m.ID = types.StringValue(v.ID)
	m.Key = types.StringValue(v.Key)
	m.Description = types.StringValue(v.Description)
	m.Category = types.StringValue(string(v.Category))
	m.HCL = types.BoolValue(v.HCL)
	m.fromService(v.Value, v.Sensitive)
	return &m
}

// existingTestVariable explains a create refused because the module has a
// variable with the key already (a 422 on key), naming that variable and
// its import ID; "" when the create failed for another reason.
func (r *moduleTestVariableResource) existingTestVariable(ctx context.Context, mod moduleRef, key string, err error) string {
	if !tfeclient.RejectedAttribute(err, "key") {
		return ""
	}
	l, lerr := listTestVariables(ctx, r.data.client, mod)
	if lerr != nil || l.byKey[key] == nil {
		return ""
	}
	id := l.byKey[key].ID
	return fmt.Sprintf("Module %s already has a test variable with key %q (%s): %s.\n\n%s", mod, key, id, err,
		importAdvice("tfgov_module_test_variable", id, mod.String()+"/"+id))
}

// testVariableError explains a failed call on a module's test variables,
// naming the module. The API's 404 means a missing module or variable and
// a token without permission alike: moduleTestsDenied reads the module
// once to say which (an action on one variable names its var- ID).
func (d *providerData) testVariableError(ctx context.Context, mod moduleRef, action string, err error) string {
	if isNotFound(err) {
		return fmt.Sprintf("Could not %s module %s: %s", action, mod, d.moduleTestsDenied(ctx, mod, strings.Contains(action, "var-")))
	}
	msg := fmt.Sprintf("Could not %s module %s: %s", action, mod, err)
	if strings.Contains(err.Error(), "already been taken") {
		msg += fmt.Sprintf("\n\nTo manage the existing variable with this resource, import it with the ID %s/<key>.", mod)
	}
	return msg
}
