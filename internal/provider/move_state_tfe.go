package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Moving state from hashicorp/tfe (`moved`, Terraform 1.8+): Terraform hands the target the
// source's raw state at its schema version, unconfigured, so every value comes from that state
// (the next refresh fills the rest). Each type's mapping is in <type>_move.go, for hashicorp/tfe
// v0.79.0's shapes (SDKv2 types flat with "id", an unset string "" or null; the framework's
// tfe_test_variable null when unset); a version or attribute not mapped fails, naming it.

const tfeProviderAddressSuffix = "/hashicorp/tfe" // on any host, a mirror's too

// tfeMove maps one hashicorp/tfe resource type to a tfgov one.
type tfeMove struct {
	source, target string
	versions       map[int64]func(tfeState, *diag.Diagnostics) any // by source schema version; returns *model
}

// tfeMoves: every move, from the registry (registry.go).
var tfeMoves = registeredMoves()

// stateMover leaves any request but m.source's alone (the framework reports no mover matched).
func (m tfeMove) stateMover() resource.StateMover {
	return resource.StateMover{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		if req.SourceTypeName != m.source || !strings.HasSuffix(req.SourceProviderAddress, tfeProviderAddressSuffix) {
			return
		}
		if req.SourceRawState == nil {
			resp.Diagnostics.AddError("Cannot move "+m.source, "Terraform sent no source state to move.")
			return
		}
		model := m.convert(req.SourceSchemaVersion, req.SourceRawState.JSON, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		resp.Diagnostics.Append(resp.TargetState.Set(ctx, model)...)
		if !resp.Diagnostics.HasError() {
			fillIdentity(ctx, resp.TargetState, resp.TargetIdentity)
		}
	}}
}

// fillIdentity sets the target's identity from the moved state's attributes of the same names;
// if one is null it stays null, and the refresh after the move sets it.
func fillIdentity(ctx context.Context, state tfsdk.State, id *tfsdk.ResourceIdentity) {
	if id == nil || id.Schema == nil {
		return
	}
	typ := id.Schema.Type().TerraformType(ctx)
	vals := map[string]tftypes.Value{}
	for name := range id.Schema.GetAttributes() {
		v, _, err := tftypes.WalkAttributePath(state.Raw, tftypes.NewAttributePath().WithAttributeName(name))
		tv, ok := v.(tftypes.Value)
		if err != nil || !ok || tv.IsNull() {
			return
		}
		vals[name] = tv
	}
	if tftypes.ValidateValue(typ, vals) != nil {
		return
	}
	id.Raw = tftypes.NewValue(typ, vals)
}

// convert maps the source state's JSON at schema version v to the target model.
func (m tfeMove) convert(v int64, raw []byte, diags *diag.Diagnostics) any {
	f, ok := m.versions[v]
	if !ok {
		known := make([]string, 0, len(m.versions))
		for k := range m.versions {
			known = append(known, fmt.Sprint(k))
		}
		slices.Sort(known)
		diags.AddError("Cannot move "+m.source+": unknown schema version",
			fmt.Sprintf("The state of this %s has schema version %d; %s can move versions %s (those of hashicorp/tfe up to v0.79.0). "+
				"Nothing was moved. Remove the moved block, run `terraform apply -refresh-only` with the hashicorp/tfe version that wrote this state "+
				"or a later one it supports, and report the version here.", m.source, v, m.target, strings.Join(known, ", ")))
		return nil
	}
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil || attrs == nil {
		diags.AddError("Cannot move "+m.source, fmt.Sprintf("The source state is not a JSON object (%v).", err))
		return nil
	}
	s := tfeState{source: m.source, version: v, attrs: attrs, diags: diags}
	out := f(s, diags)
	if diags.HasError() {
		return nil
	}
	return out
}

// tfeState reads a hashicorp/tfe state, failing with the attribute's name when one is amiss.
type tfeState struct {
	source  string
	version int64
	attrs   map[string]json.RawMessage
	diags   *diag.Diagnostics
}

func (s tfeState) fail(name, problem string) {
	s.diags.AddAttributeError(path.Root(name), "Cannot move "+s.source,
		fmt.Sprintf("Attribute %q of the %s state (schema version %d) %s. Nothing was moved; the state still holds the %s.", name, s.source, s.version, problem, s.source))
}

// value decodes attribute name into dst and reports whether it is set (absent or null: not set,
// an error when required); another type is an error.
func (s tfeState) value(name string, dst any, required bool) bool {
	raw, ok := s.attrs[name]
	switch {
	case !ok && required:
		s.fail(name, "is missing")
	case !ok:
	case string(raw) == "null" && required:
		s.fail(name, "is null")
	case string(raw) == "null":
	default:
		if err := json.Unmarshal(raw, dst); err != nil {
			s.fail(name, fmt.Sprintf("is not of the expected type (%s)", raw))
			return false
		}
		return true
	}
	return false
}

// required is a string attribute that must be set and not empty.
func (s tfeState) required(name string) types.String {
	var v string
	if !s.value(name, &v, true) {
		return types.StringNull()
	}
	if v == "" {
		s.fail(name, "is empty")
		return types.StringNull()
	}
	return types.StringValue(v)
}

// str is a string attribute, null when absent (added after the writing release) or null.
func (s tfeState) str(name string) types.String {
	var v string
	if s.value(name, &v, false) {
		return types.StringValue(v)
	}
	return types.StringNull()
}

// optionalStr is a string attribute whose "" (SDKv2's unset) means null.
func (s tfeState) optionalStr(name string) types.String {
	if v := s.str(name); v.ValueString() != "" {
		return v
	}
	return types.StringNull()
}

func (s tfeState) boolean(name string) types.Bool {
	var v bool
	if s.value(name, &v, false) {
		return types.BoolValue(v)
	}
	return types.BoolNull()
}

func (s tfeState) int64(name string) types.Int64 {
	var v int64
	if s.value(name, &v, false) {
		return types.Int64Value(v)
	}
	return types.Int64Null()
}
