package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A variable's value, shared by the resources of the API's `vars` (module test variables, policy
// set parameters): `value` or the write-only `value_wo` with `value_wo_version`, `readable_value`
// and `sensitive`, with one meaning in both.

// variableValue is embedded in the model of each such resource.
type variableValue struct {
	Value          types.String `tfsdk:"value"`
	ReadableValue  types.String `tfsdk:"readable_value"`
	ValueWO        types.String `tfsdk:"value_wo"`
	ValueWOVersion types.Int64  `tfsdk:"value_wo_version"`
	Sensitive      types.Bool   `tfsdk:"sensitive"`
}

// variableValueAttributes adds the five attributes to attrs, their texts naming the object noun
// ("variable", "parameter").
func variableValueAttributes(noun string, attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs["value"] = schema.StringAttribute{
		Optional:  true,
		Computed:  true,
		Sensitive: true,
		MarkdownDescription: "Value of the " + noun + " (may be empty). Marked sensitive, so plans and the CLI never show it, whatever `sensitive` says; " +
			"`readable_value` shows a plain " + noun + "'s value. It is stored in state: to keep a secret out of state too, use `value_wo` (with `sensitive = true`). " +
			"At most one of `value` and `value_wo` may be set, and a new " + noun + " needs one of them. " +
			"Left out on an existing " + noun + ", the value it has on the service is kept (the plan shows no change for it): " +
			"that is how `terraform plan -generate-config-out` writes it (`value = null # sensitive`), so a generated configuration plans clean.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs["readable_value"] = schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "The value of a " + noun + " that is not sensitive, shown in plans and usable in expressions without being redacted; " +
			"null for a sensitive " + noun + ", and for a value set with `value_wo`.",
	}
	attrs["value_wo"] = schema.StringAttribute{
		Optional:  true,
		Sensitive: true,
		WriteOnly: true,
		MarkdownDescription: "Write-only value of the " + noun + " (Terraform 1.11 or later): sent to the API, never stored in the plan or state. " +
			"Set `value_wo_version` with it, and change `value_wo_version` to send a new value: a change of `value_wo` alone is not seen. " +
			"At most one of `value` and `value_wo` may be set. " +
			"On a " + noun + " that is not sensitive, whose value the API returns, a change made outside Terraform shows in the next plan " +
			"as `value_wo_version` set again, and the apply sends `value_wo` (the provider keeps a digest of the value it sent in private state); " +
			"a sensitive one's cannot be noticed. " +
			"Leaving out `value_wo` and `value_wo_version` later keeps the service's value, still out of the plan and state " +
			"(`readable_value` stays null), so Terraform cannot notice a change made to it outside Terraform; setting `value` writes a new one.",
	}
	attrs["value_wo_version"] = schema.Int64Attribute{
		Optional:            true,
		MarkdownDescription: "Version of `value_wo`, required with it: any change sends `value_wo` to the API again.",
	}
	attrs["sensitive"] = schema.BoolAttribute{
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(false),
		MarkdownDescription: "Whether the value is sensitive: the API never returns a sensitive value. Defaults to `false`. " +
			"A " + noun + " can be made sensitive in place, but not made non-sensitive again: setting `false` on a sensitive " + noun + " replaces it. " +
			"A " + noun + " that already exists (such as one just imported; a sensitive one's value cannot be read back) may leave out both `value` and `value_wo`: " +
			"Terraform then leaves its value as it is on the service. That is how `terraform plan -generate-config-out` writes an imported " + noun + ".",
		PlanModifiers: []planmodifier.Bool{boolplanmodifier.RequiresReplaceIf(
			func(_ context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
				resp.RequiresReplace = req.StateValue.ValueBool() && !req.PlanValue.IsUnknown() && !req.PlanValue.ValueBool()
			},
			"The API cannot make a sensitive "+noun+" non-sensitive, so setting sensitive to false replaces it.",
			"The API cannot make a sensitive "+noun+" non-sensitive, so setting `sensitive` to `false` replaces it.")},
	}
	return attrs
}

// variableValueValidators: at most one of value and value_wo, and value_wo with its version.
func variableValueValidators() []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.Conflicting(path.MatchRoot("value"), path.MatchRoot("value_wo")),
		resourcevalidator.RequiredTogether(path.MatchRoot("value_wo"), path.MatchRoot("value_wo_version")),
	}
}

// warnSecretInState warns when a sensitive value comes from `value`: plans never show it (value is
// Sensitive), but Terraform keeps it in state, whereas `value_wo` keeps it out of state too.
func (cfg variableValue) warnSecretInState(noun string, diags *diag.Diagnostics) {
	if !cfg.Sensitive.ValueBool() || cfg.Value.IsNull() {
		return
	}
	// On sensitive, not value: Terraform prints the line the warning names.
	diags.AddAttributeWarning(path.Root("sensitive"), "Secret kept in state",
		"This "+noun+" is sensitive and its value is set with value, which plans never show but Terraform stores in state. "+
			"To keep the secret out of state too, set value_wo and value_wo_version instead (Terraform 1.11 or later).")
}

// plan sets plan's value and readable_value from the configuration (cfg) and state (nil for a
// create), and requires a value of a new object: an imported sensitive one's value cannot be read
// back, so its configuration may leave the value to the service.
func (cfg variableValue) plan(noun string, state, plan *variableValue, diags *diag.Diagnostics) {
	if cfg.Value.IsNull() && cfg.ValueWO.IsNull() && state == nil {
		diags.AddAttributeError(path.Root("value"), "Missing value",
			"A new "+noun+" needs a value: set value, or value_wo and value_wo_version (a secret kept out of state, with sensitive = true). "+
				"Leaving both out keeps the value of an existing "+noun+", such as an imported one; this one does not exist yet.")
	}
	switch {
	case !cfg.ValueWO.IsNull() || !cfg.ValueWOVersion.IsNull():
		plan.Value = types.StringNull() // write-only: nothing in state
	case cfg.Value.IsNull() && state != nil:
		// The service's value is kept, as state has it: null when it was
		// write-only (never in state or plan) or sensitive and imported.
		plan.Value = state.Value
		if state.writeOnlyValue() {
			plan.Value = types.StringNull()
		}
	}
	switch {
	case plan.Sensitive.IsUnknown() || (!plan.Sensitive.ValueBool() && plan.Value.IsUnknown()):
		plan.ReadableValue = types.StringUnknown()
	case plan.Sensitive.ValueBool():
		plan.ReadableValue = types.StringNull()
	default:
		plan.ReadableValue = plan.Value
	}
}

// createValue is the value a create sends: value_wo when configured, else the planned value.
func (cfg variableValue) createValue(plan variableValue) *string {
	if !cfg.ValueWO.IsNull() {
		return cfg.ValueWO.ValueStringPointer()
	}
	return plan.Value.ValueStringPointer()
}

// updateValue is the value an update sends, nil for none: a write-only value when
// value_wo_version changes or the object switches from value to value_wo; a value, when it
// differs from state (or the object switches from value_wo to value).
func (cfg variableValue) updateValue(plan, state variableValue) *string {
	writeOnly := !cfg.ValueWO.IsNull()
	switch {
	case writeOnly && (state.ValueWOVersion.IsNull() || !plan.ValueWOVersion.Equal(state.ValueWOVersion)):
		return cfg.ValueWO.ValueStringPointer()
	case !writeOnly && (!state.ValueWOVersion.IsNull() || !plan.Value.Equal(state.Value)):
		return plan.Value.ValueStringPointer()
	}
	return nil
}

// fromService sets m (a copy of prior: the plan, or the state being refreshed) from the service's
// value and sensitive flag. The value comes from prior when the API hides it (sensitive) or when
// it is write-only (never in state); otherwise it is the API's, so a change made outside
// Terraform shows in the plan.
func (m *variableValue) fromService(value string, sensitive bool) {
	writeOnly := m.writeOnlyValue()
	m.Sensitive = types.BoolValue(sensitive)
	m.ValueWO = types.StringNull()
	switch {
	case writeOnly:
		m.Value = types.StringNull()
	case !sensitive:
		m.Value = types.StringValue(value)
	}
	m.ReadableValue = types.StringNull()
	if !sensitive {
		m.ReadableValue = m.Value
	}
}

// writeOnlyValue reports whether the value, in m (a state or a plan), was set with value_wo:
// value_wo_version is set, or, once the configuration has left out value_wo and value_wo_version
// to keep the service's value, a value that is not sensitive is null (a plain value is otherwise
// always in state; an import's first read knows neither, so it reads the value).
func (m *variableValue) writeOnlyValue() bool {
	return !m.ValueWOVersion.IsNull() || (m.Value.IsNull() && !m.Sensitive.IsNull() && !m.Sensitive.ValueBool())
}

// recordWrittenValue keeps a digest of the value value_wo sent (sent; nil for none) to an object
// that is not sensitive, whose value the service returns: the refresh compares them
// (changedOutside), so that a change made outside Terraform shows in the plan.
func recordWrittenValue(ctx context.Context, priv privateSetter, sensitive bool, sent *string) diag.Diagnostics {
	if sent == nil || sensitive {
		return priv.SetKey(ctx, writtenValueKey, nil)
	}
	return priv.SetKey(ctx, writtenValueKey, privateValue(valueDigest(*sent)))
}

// recordUpdatedValue records what an update sent (sent; nil for no value), with value_wo when
// writeOnly: a new digest, or none once a value or a sensitive flag replaced it.
func recordUpdatedValue(ctx context.Context, priv privateSetter, sensitive, writeOnly bool, sent *string) diag.Diagnostics {
	switch {
	case sent != nil && writeOnly:
		return recordWrittenValue(ctx, priv, sensitive, sent)
	case sent != nil || sensitive:
		return recordWrittenValue(ctx, priv, sensitive, nil)
	}
	return nil
}

// changedOutside, in a refresh of m (state set from the service's value and sensitive flag),
// clears value_wo_version when the service's value of a write-only object that is not sensitive
// differs from the one value_wo sent: the plan shows it set again, and the update sends value_wo.
func (m *variableValue) changedOutside(ctx context.Context, priv privateGetter, value string, sensitive bool, diags *diag.Diagnostics) {
	if sum, ok := privateJSON[string](ctx, priv, writtenValueKey, diags); ok && !m.ValueWOVersion.IsNull() && !sensitive && sum != valueDigest(value) {
		m.ValueWOVersion = types.Int64Null()
	}
}

// valueDigest is the first 8 bytes of the value's SHA-256, in hex.
func valueDigest(value string) string {
	sum := sha256.Sum256([]byte(value))
	return hex.EncodeToString(sum[:8])
}

// movedValue is the value a tfe_*_variable's state moves to: a sensitive one keeps the last
// value hashicorp/tfe set; a write-only one keeps value_wo_version with value null, as tfgov
// stores it (hashicorp/tfe stores ""). readable_value is what a refresh makes it.
func movedValue(s tfeState) variableValue {
	m := variableValue{Sensitive: s.boolean("sensitive"), ValueWO: types.StringNull(), ValueWOVersion: s.int64("value_wo_version"), Value: s.str("value")}
	if !m.ValueWOVersion.IsNull() {
		m.Value = types.StringNull()
	}
	if m.Sensitive.IsNull() {
		m.Sensitive = types.BoolValue(false)
	}
	m.ReadableValue = types.StringNull()
	if !m.Sensitive.ValueBool() {
		m.ReadableValue = m.Value
	}
	return m
}

// stateSensitive reports whether the object in state is sensitive.
func stateSensitive(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) bool {
	var sensitive types.Bool
	diags.Append(state.GetAttribute(ctx, path.Root("sensitive"), &sensitive)...)
	return sensitive.ValueBool()
}

// replaceIfSensitive replaces a sensitive object on a change the API cannot make to one (a key).
func replaceIfSensitive(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = stateSensitive(ctx, req.State, &resp.Diagnostics)
}
