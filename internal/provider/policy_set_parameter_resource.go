package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ resource.ResourceWithConfigure        = (*policySetParameterResource)(nil)
	_ resource.ResourceWithImportState      = (*policySetParameterResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*policySetParameterResource)(nil)
	_ resource.ResourceWithConfigValidators = (*policySetParameterResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*policySetParameterResource)(nil)
	_ resource.ResourceWithIdentity         = (*policySetParameterResource)(nil)
)

// NewPolicySetParameterResource is the tfgov_policy_set_parameter resource.
func NewPolicySetParameterResource() resource.Resource {
	return &policySetParameterResource{resourceBase{typ: policySetParameterType}}
}

type policySetParameterResource struct{ resourceBase }

// policySetParameterIdentityAttrs is tfgov_policy_set_parameter's identity (identity.go).
var policySetParameterIdentityAttrs = []identityAttr{
	{"policy_set_id", "ID of the policy set (`polset-<id>`)."},
	{"id", "ID of the parameter (`var-<id>`)."},
}

type policySetParameterResourceModel struct {
	ID            types.String `tfsdk:"id"`
	PolicySetID   types.String `tfsdk:"policy_set_id"`
	Organization  types.String `tfsdk:"organization"`
	Key           types.String `tfsdk:"key"`
	variableValue              // value, value_wo and sensitive (variable_value.go)
}

var policySetIDRE = regexp.MustCompile(`^polset-[A-Za-z0-9]+$`)

const policySetParameterImportForms = "<policy_set_id>/<parameter_id>, <parameter_id> (var-<id>, of a set of the provider's organization) or <organization>/<policy set name>/<key>"

func (r *policySetParameterResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policySetParameterType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "A parameter of a Sentinel policy set: every policy of the set reads it as a Sentinel `param` of the same name.\n\n" +
			"HCP Terraform takes parameters only on a **versioned** policy set, whose policies come from uploaded versions or a VCS repository; " +
			"a set of individually attached policies (`policy_ids`) refuses them, answering the create with a bare 404, and OPA policies read no parameters. " +
			"When the set exists at plan, the plan says so and fails; when it is made by the same apply, the create's error names the cause.\n\n" +
			"Set the value with `value`, or with the write-only `value_wo` (Terraform 1.11 or later), which is sent to the API but never stored in the plan or state. " +
			"A `sensitive` parameter's value is never returned by the API, so Terraform keeps the last value it set (in state with `value`, nowhere with `value_wo`) " +
			"and cannot notice a change made outside Terraform; other changes made outside Terraform are put back by the next apply.\n\n" +
			"**Lost answers.** When the create request ends without a definite answer (a 5xx, or a connection lost once the request was sent), " +
			"the provider looks up the set's parameter with that key (keys are unique in a set) before creating it again. No such parameter: the create is sent again. " +
			"A parameter with the key fails the create exactly as a taken key does (\"already exists\", with its ID and an `import` block): " +
			"nothing the API shows proves whether the lost request made it or someone else did, and the provider never takes over a parameter it cannot prove it made.",
		Attributes: variableValueAttributes("parameter", map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the parameter (`var-<id>`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"policy_set_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the policy set (`polset-<id>`): a versioned Sentinel set. Changing it replaces the parameter.",
				Validators:          []validator.String{stringvalidator.RegexMatches(policySetIDRE, "must be a policy set ID (polset-<id>)")},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"organization": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Name of the organization. It is the policy set's, read from the set: a refresh that finds the set's parameters hidden " +
					"reads the organization's policy sets to tell a deleted set from a missing permission.",
				Validators:    []validator.String{organizationScope.validator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"key": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Name of the parameter, as the policies read it: a letter or an underscore, then letters, digits and underscores. " +
					"Unique within the set. Changing it renames the parameter in place, except for a sensitive parameter, which the API cannot rename: that is replaced.",
				Validators: []validator.String{stringvalidator.RegexMatches(testVariableKeyRE, "must begin with a letter or an underscore and contain only letters, numbers and underscores")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(replaceIfSensitive,
					"The API cannot rename a sensitive parameter, so changing its key replaces it.",
					"The API cannot rename a sensitive parameter, so changing its key replaces it.")},
			},
		}),
	}
}

func (r *policySetParameterResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return variableValueValidators()
}

func (r *policySetParameterResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg policySetParameterResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if !resp.Diagnostics.HasError() {
		cfg.warnSecretInState("parameter", &resp.Diagnostics)
	}
}

// ModifyPlan plans the value (variable_value.go) and, for a new parameter of a set that exists,
// reads the set once (shared by its parameters) to fail at plan when it cannot take parameters.
func (r *policySetParameterResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var cfg, plan policySetParameterResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *variableValue
	if !req.State.Raw.IsNull() {
		var st policySetParameterResourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &st)...)
		state = &st.variableValue
	}
	cfg.plan("parameter", state, &plan.variableValue, &resp.Diagnostics)
	if plan.ID.IsUnknown() && !plan.PolicySetID.IsUnknown() && r.data != nil {
		setID := plan.PolicySetID.ValueString()
		read, err := r.data.policySet(ctx, setID)
		switch {
		case err != nil:
			resp.Diagnostics.AddAttributeError(path.Root("policy_set_id"), "Error reading policy set", fmt.Sprintf("Reading policy set %s to check that it takes parameters failed: %s", setID, err))
		case read.missing:
			resp.Diagnostics.AddAttributeError(path.Root("policy_set_id"), "Policy set not found", r.data.parameterSetError(ctx, setID, "plan parameter "+fmt.Sprintf("%q", plan.Key.ValueString()), tfe.ErrResourceNotFound))
		default:
			if why := parametersRefused(read.set); why != "" {
				resp.Diagnostics.AddAttributeError(path.Root("policy_set_id"), "Policy set takes no parameters", why)
			}
			plan.Organization = types.StringValue(read.set.Organization.Name)
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *policySetParameterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, config policySetParameterResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	setID, key := plan.PolicySetID.ValueString(), plan.Key.ValueString()
	if plan.Organization.IsUnknown() {
		// The set was made by this apply: checked now, before the service's bare 404.
		read, err := r.data.policySet(ctx, setID)
		switch {
		case err != nil:
			resp.Diagnostics.AddError("Error creating policy set parameter", fmt.Sprintf("Reading policy set %s to check that it takes parameters failed: %s", setID, err))
			return
		case read.missing:
			resp.Diagnostics.AddAttributeError(path.Root("policy_set_id"), "Policy set not found", r.data.parameterSetError(ctx, setID, "create parameter "+fmt.Sprintf("%q", key), tfe.ErrResourceNotFound))
			return
		}
		if why := parametersRefused(read.set); why != "" {
			resp.Diagnostics.AddAttributeError(path.Root("policy_set_id"), "Policy set takes no parameters", why)
			return
		}
		plan.Organization = types.StringValue(read.set.Organization.Name)
	}
	fields := map[string]any{"policy_set_id": setID, "key": key, "sensitive": plan.Sensitive.ValueBool(), "write_only": !config.ValueWO.IsNull()}
	tflog.Debug(ctx, "Creating policy set parameter", fields)
	defer r.data.policySetParametersChanged(setID)
	opts := tfe.PolicySetParameterCreateOptions{
		Key:       tfe.String(key),
		Value:     config.createValue(plan.variableValue),
		Category:  tfe.Category(tfe.CategoryPolicySet),
		Sensitive: plan.Sensitive.ValueBoolPointer(),
	}
	v, err := reconcileCreate(ctx, "tfgov_policy_set_parameter",
		func() (*tfe.PolicySetParameter, error) {
			ctx, notes := tfeclient.WithResponseNotes(ctx)
			v, err := r.data.client.PolicySetParameters.Create(ctx, setID, opts)
			if err == nil {
				r.data.owned.receive(v.ID)
			}
			return v, notes.Wrap(err)
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*tfe.PolicySetParameter, bool, error) {
			return lostPolicySetParameter(ctx, r.data.client, setID, opts, amb)
		})
	var existed *identityTakenError
	if errors.As(err, &existed) {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Policy set parameter already exists", existed.Error())
		return
	}
	if err != nil {
		if _, ok := err.(*conflictError); ok { //nolint:errorlint // reconcileCreate returns it unwrapped
			resp.Diagnostics.AddError("Error creating policy set parameter", err.Error())
			return
		}
		if taken := r.existingParameter(ctx, setID, key, err); taken != "" {
			resp.Diagnostics.AddAttributeError(path.Root("key"), "Policy set parameter already exists", taken)
			return
		}
		resp.Diagnostics.AddError("Error creating policy set parameter", r.data.parameterSetError(ctx, setID, "create parameter "+fmt.Sprintf("%q", key), err))
		return
	}
	fields["id"] = v.ID
	tflog.Info(ctx, "Created policy set parameter", fields)
	resp.Diagnostics.Append(recordWrittenValue(ctx, resp.Private, v.Sensitive, config.ValueWO.ValueStringPointer())...)
	resp.Diagnostics.Append(resp.State.Set(ctx, policySetParameterModel(v, plan))...)
}

// Read refreshes the parameter from its set's list, shared by every parameter of the set. Missing
// from the list (which shows every parameter to whoever may read it): gone. A 404 on the list:
// parameterGone says whether the set is gone (DESIGN.md "Gone or cannot see").
func (r *policySetParameterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state policySetParameterResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	setID, id, org := state.PolicySetID.ValueString(), state.ID.ValueString(), state.Organization.ValueString()
	params, err := r.data.policySetParameters(ctx, setID)
	if err != nil {
		resp.Diagnostics.AddError("Error reading policy set parameter", r.data.parameterSetError(ctx, setID, "read parameter "+id, err))
		return
	}
	if params.parentMissing && importing {
		importedMissing(&resp.Diagnostics, "policy set parameter", r.data.parameterSetError(ctx, setID, "import parameter "+id, tfe.ErrResourceNotFound))
		return
	}
	if params.parentMissing {
		gone, why := r.data.parameterGone(ctx, refreshCheck, org, setID, id)
		if !gone {
			resp.Diagnostics.AddError("Cannot refresh policy set parameter", why)
			return
		}
		tflog.Info(ctx, "Policy set of the parameter no longer exists; removing the parameter from state", map[string]any{"policy_set_id": setID, "id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	v := params.byID[id]
	if v == nil && params.pages > 1 {
		// Make sure (shared_lists.go): read by ID.
		if v, err = r.data.client.PolicySetParameters.Read(ctx, setID, id); isNotFound(err) {
			v = nil
		} else if err != nil {
			resp.Diagnostics.AddError("Error reading policy set parameter", r.data.parameterSetError(ctx, setID, "read parameter "+id, err))
			return
		}
	}
	if v == nil && importing {
		importedMissing(&resp.Diagnostics, "policy set parameter", fmt.Sprintf("Policy set %s has no parameter %s: its parameters, which the API token can list, do not include it.", setID, id))
		return
	}
	if v == nil {
		tflog.Info(ctx, "Policy set parameter no longer exists; removing it from state", map[string]any{"policy_set_id": setID, "id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	m := policySetParameterModel(v, state)
	m.changedOutside(ctx, req.Private, v.Value, v.Sensitive, &resp.Diagnostics)
	if m.Organization.ValueString() == "" {
		// Moved from hashicorp/tfe or imported by ID: the set's read, once, records it.
		if read, err := r.data.policySet(ctx, setID); err == nil && read.set != nil && read.set.Organization != nil {
			m.Organization = types.StringValue(read.set.Organization.Name)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Update sends only what changed, in one request; the value as variable_value.go's updateValue says.
func (r *policySetParameterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state, config policySetParameterResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := tfe.PolicySetParameterUpdateOptions{Value: config.updateValue(plan.variableValue, state.variableValue)}
	if !plan.Key.Equal(state.Key) {
		opts.Key = plan.Key.ValueStringPointer()
	}
	if !plan.Sensitive.Equal(state.Sensitive) {
		opts.Sensitive = plan.Sensitive.ValueBoolPointer()
	}
	setID, id := state.PolicySetID.ValueString(), state.ID.ValueString()
	fields := map[string]any{"policy_set_id": setID, "id": id, "key": plan.Key.ValueString(), "key_changed": opts.Key != nil, "value_changed": opts.Value != nil, "write_only": !config.ValueWO.IsNull()}
	tflog.Debug(ctx, "Updating policy set parameter", fields)
	defer r.data.policySetParametersChanged(setID)
	v, err := r.data.client.PolicySetParameters.Update(ctx, setID, id, opts)
	if err != nil {
		detail := r.data.parameterSetError(ctx, setID, "update parameter "+id, err)
		if isNotFound(err) {
			detail += " If the parameter was deleted outside Terraform, run terraform apply again to create it."
		}
		resp.Diagnostics.AddError("Error updating policy set parameter", detail)
		return
	}
	tflog.Info(ctx, "Updated policy set parameter", fields)
	resp.Diagnostics.Append(recordUpdatedValue(ctx, resp.Private, v.Sensitive, !config.ValueWO.IsNull(), opts.Value)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, policySetParameterModel(v, plan))...)
}

func (r *policySetParameterResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state policySetParameterResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	setID, id := state.PolicySetID.ValueString(), state.ID.ValueString()
	defer r.data.policySetParametersChanged(setID)
	err := r.data.client.PolicySetParameters.Delete(ctx, setID, id)
	if isNotFound(err) {
		what := "Policy set parameter " + id + " of policy set " + setID
		if why := confirmGone(ctx, writeCheck("Deleting", "deleted"), what, permManagePolicies, r.data.locatePolicySetParameter(state.Organization.ValueString(), setID, id)); why != "" {
			resp.Diagnostics.AddError("Cannot delete policy set parameter", why)
			return
		}
		err = nil
	}
	if err != nil {
		resp.Diagnostics.AddError("Error deleting policy set parameter", r.data.parameterSetError(ctx, setID, "delete parameter "+id, err))
		return
	}
	tflog.Info(ctx, "Deleted policy set parameter", map[string]any{"policy_set_id": setID, "id": id})
}

// ImportState takes `<policy_set_id>/<var-id>` (the identity, and hashicorp/tfe's form), a bare
// `var-<id>` (found among the provider organization's sets) or `<organization>/<set name>/<key>`.
func (r *policySetParameterResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	var setID, id, org string
	parts := strings.Split(req.ID, "/")
	var err error
	switch {
	case len(parts) == 1 && strings.HasPrefix(parts[0], "var-"):
		id = parts[0]
		org, setID, err = r.findParameter(ctx, id)
	case len(parts) == 2 && strings.HasPrefix(parts[0], "polset-") && strings.HasPrefix(parts[1], "var-"):
		setID, id = parts[0], parts[1]
	case len(parts) == 3 && parts[0] != "" && parts[1] != "" && testVariableKeyRE.MatchString(parts[2]):
		org = parts[0]
		setID, id, err = r.parameterByNames(ctx, org, parts[1], parts[2])
	default:
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("invalid import ID %q: want %s", req.ID, policySetParameterImportForms))
		return
	}
	if err != nil {
		importedMissing(&resp.Diagnostics, "policy set parameter", upperFirst(err.Error())+".")
		return
	}
	for attr, v := range map[string]string{"policy_set_id": setID, "id": id} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), v)...)
	}
	if org != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("organization"), org)...)
	}
	markImporting(ctx, resp)
}

// policySetParameterModel is the state for v, the value as fromService says (variable_value.go).
func policySetParameterModel(v *tfe.PolicySetParameter, prior policySetParameterResourceModel) *policySetParameterResourceModel {
	m := prior
	m.ID = types.StringValue(v.ID)
	m.Key = types.StringValue(v.Key)
	m.fromService(v.Value, v.Sensitive)
	return &m
}

// existingParameter explains a create refused because the set has a parameter with the key (a
// 422 on key), naming it and its import ID; "" when the create failed for another reason.
func (r *policySetParameterResource) existingParameter(ctx context.Context, setID, key string, err error) string {
	if !tfeclient.RejectedAttribute(err, "key") {
		return ""
	}
	l, lerr := listPolicySetParameters(ctx, r.data.client, setID)
	if lerr != nil || l.byKey[key] == nil {
		return ""
	}
	id := l.byKey[key].ID
	return fmt.Sprintf("Policy set %s already has a parameter with key %q (%s): %s.\n\n%s", setID, key, id, err,
		importAdvice("tfgov_policy_set_parameter", id, setID+"/"+id))
}

// findParameter finds the set of parameter id among the provider organization's sets, listing
// each set's parameters until found: an import's cost only.
func (r *policySetParameterResource) findParameter(ctx context.Context, id string) (org, setID string, err error) {
	org = r.data.organization
	if org == "" {
		return "", "", fmt.Errorf("importing %s by its ID alone looks for it among the policy sets of the provider's organization, and the provider has none: "+
			"import it as <policy_set_id>/%s or <organization>/<policy set name>/<key>", id, id)
	}
	sets, err := r.data.organizationPolicySets(ctx, org)
	if err != nil || sets.parentMissing {
		if err == nil {
			err = tfe.ErrResourceNotFound
		}
		return "", "", errors.New(r.data.organizationPoliciesError(ctx, org, err))
	}
	for _, ps := range sortedByKey(sets.byID) {
		params, err := r.data.policySetParameters(ctx, ps.ID)
		if err != nil {
			return "", "", fmt.Errorf("listing the parameters of policy set %q (%s): %w", ps.Name, ps.ID, err)
		}
		if params.byID[id] != nil {
			return org, ps.ID, nil
		}
	}
	return "", "", fmt.Errorf("no policy set of organization %s, whose policy sets the API token may manage, has a parameter %s", org, id)
}

// parameterByNames resolves `<organization>/<set name>/<key>`.
func (r *policySetParameterResource) parameterByNames(ctx context.Context, org, name, key string) (setID, id string, err error) {
	sets, err := r.data.organizationPolicySets(ctx, org)
	if err != nil || sets.parentMissing {
		if err == nil {
			err = tfe.ErrResourceNotFound
		}
		return "", "", errors.New(r.data.organizationPoliciesError(ctx, org, err))
	}
	var names []string
	for _, ps := range sets.byID {
		if ps.Name != name {
			names = append(names, ps.Name)
			continue
		}
		params, err := r.data.policySetParameters(ctx, ps.ID)
		if err != nil {
			return "", "", fmt.Errorf("listing the parameters of policy set %q (%s): %w", name, ps.ID, err)
		}
		if v := params.byKey[key]; v != nil {
			return ps.ID, v.ID, nil
		}
		return "", "", fmt.Errorf("policy set %q (%s) of organization %s has no parameter with key %q", name, ps.ID, org, key)
	}
	return "", "", fmt.Errorf("organization %s has no policy set named %q%s", org, name, suggest("policy set names", name, names, wholeDistance, "it has no other policy set"))
}
