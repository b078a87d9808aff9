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

// Moving state from hashicorp/tfe: `moved { from = tfe_policy.x  to =
// tfgov_policy.x }` (Terraform 1.8 or later). Terraform hands the target
// resource the source's raw state as hashicorp/tfe wrote it, with its
// schema version, and never asks hashicorp/tfe to upgrade it first; the
// target resource returns its own state, which the next refresh reads as
// usual. No request is made here: the framework does not configure a
// resource for MoveResourceState, and nothing needs the service, since
// every value comes from the source state (the refresh that follows fills
// the attributes hashicorp/tfe has no counterpart for).
//
// Each type's mapping is in <type>_move.go. The shapes there are
// hashicorp/tfe v0.79.0's (internal/provider/
// resource_tfe_policy.go, resource_tfe_team_access.go and _migrate.go,
// resource_tfe_agent_token.go, resource_tfe_test_variable.go), which every
// release since v0.60 writes the same way but for added attributes:
// SDKv2 resources (policy, team access, agent token) store every
// attribute flat with "id", an unset string as "" or null; the framework's
// tfe_test_variable stores every attribute, null when unset.
//
// tfeMoves is the table: one entry per source type (each defined in its
// <type>_move.go), naming the target and the schema versions it maps. A
// version not listed, or an attribute the mapping needs but the state
// lacks, fails the move with an error naming it: nothing is guessed.

// tfeProviderAddressSuffix ends the address of hashicorp/tfe, on any host
// (registry.terraform.io, or a private registry that mirrors it).
const tfeProviderAddressSuffix = "/hashicorp/tfe"

// tfeMove maps one hashicorp/tfe resource type to a tfgov one.
type tfeMove struct {
	source, target string
	// versions maps each supported source schema version to a mapping
	// that returns the target model (a pointer to the resource's model).
	versions map[int64]func(tfeState, *diag.Diagnostics) any
}

// tfeMoves lists every move, for the documentation's table and the tests
// (from the registry, registry.go).
var tfeMoves = registeredMoves()

// stateMover handles a request from m.source of hashicorp/tfe and leaves
// any other request alone (the framework then reports that no mover
// matched).
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

// fillIdentity fills the target's resource identity, when the target
// resource has one (the framework then hands an empty one), from the moved
// state's attributes of the same names, such as id and organization. When
// one is missing or null the identity stays null, and the refresh that
// follows the move sets it, as after an upgrade from a state without one.
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

// convert maps the source state's JSON at schema version v to the target
// model, or adds an error saying what it cannot map.
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

// tfeState reads attributes of a hashicorp/tfe state, adding an error
// naming the attribute when one is missing or of another type.
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

// value decodes attribute name into dst and reports whether it is set. An
// attribute of another type is an error; an absent or null one is not set
// (an error too when required: then the mapping needs it).
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

// str is a string attribute, null when absent from the state (an
// attribute added after the release that wrote it) or null.
func (s tfeState) str(name string) types.String {
	var v string
	if s.value(name, &v, false) {
		return types.StringValue(v)
	}
	return types.StringNull()
}

// optionalStr is a string attribute whose "" means unset (how SDKv2 may
// store an unset string): null then.
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
