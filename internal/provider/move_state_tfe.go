package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
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
// The shapes below are hashicorp/tfe v0.79.0's (internal/provider/
// resource_tfe_policy.go, resource_tfe_team_access.go and _migrate.go,
// resource_tfe_agent_token.go, resource_tfe_test_variable.go), which every
// release since v0.60 writes the same way but for added attributes:
// SDKv2 resources (policy, team access, agent token) store every
// attribute flat with "id", an unset string as "" or null; the framework's
// tfe_test_variable stores every attribute, null when unset.
//
// tfeMoves is the table: one entry per source type, naming the target and
// the schema versions it maps. A version not listed, or an attribute the
// mapping needs but the state lacks, fails the move with an error naming
// it: nothing is guessed.

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

var (
	tfePolicyMove = tfeMove{
		source: "tfe_policy", target: "tfgov_policy",
		versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: movePolicyV0},
	}
	tfeTeamAccessMove = tfeMove{
		source: "tfe_team_access", target: "tfgov_team_access",
		versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: moveTeamAccessV0, 1: moveTeamAccessV1},
	}
	tfeAgentTokenMove = tfeMove{
		source: "tfe_agent_token", target: "tfgov_agent_token",
		versions: map[int64]func(tfeState, *diag.Diagnostics) any{0: moveAgentTokenV0},
	}
	tfeTestVariableMove = tfeMove{
		source: "tfe_test_variable", target: "tfgov_module_test_variable",
		versions: map[int64]func(tfeState, *diag.Diagnostics) any{1: moveTestVariableV1},
	}
)

// tfeMoves lists every move, for the documentation's table and the tests.
var tfeMoves = []tfeMove{tfePolicyMove, tfeTeamAccessMove, tfeAgentTokenMove, tfeTestVariableMove}

var (
	_ resource.ResourceWithMoveState = (*policyResource)(nil)
	_ resource.ResourceWithMoveState = (*teamAccessResource)(nil)
	_ resource.ResourceWithMoveState = (*agentTokenResource)(nil)
	_ resource.ResourceWithMoveState = (*moduleTestVariableResource)(nil)
)

func (r *policyResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfePolicyMove.stateMover()}
}

func (r *teamAccessResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfeTeamAccessMove.stateMover()}
}

func (r *agentTokenResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfeAgentTokenMove.stateMover()}
}

func (r *moduleTestVariableResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{tfeTestVariableMove.stateMover()}
}

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
		sort.Strings(known)
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

// movePolicyV0: tfe_policy keeps its code in `policy`, which becomes the
// inline `content` (and its SHA-256); `enforce_mode` is
// `enforcement_level`. hashicorp/tfe never reads `query` back from the API
// (it keeps the configuration's); the next refresh reads it, as every
// attribute. The policy sets that include it are read by the refresh too.
func movePolicyV0(s tfeState, _ *diag.Diagnostics) any {
	m := &policyResourceModel{}
	m.ID = s.required("id")
	m.Name = s.required("name")
	m.Kind = s.required("kind")
	m.Organization = s.optionalStr("organization") // null: the refresh reads the policy by ID and fills it
	m.Description = s.optionalStr("description")
	m.Query = s.optionalStr("query")
	m.EnforcementLevel = s.optionalStr("enforce_mode")
	m.PolicySetIDs = types.SetNull(types.StringType)
	m.UpdatedAt = types.StringNull()
	var code string
	if s.value("policy", &code, true) {
		m.Content = types.StringValue(code)
		m.ContentSHA256 = types.StringValue(sha256Hex([]byte(code)))
	}
	m.Source = types.StringNull()
	return m
}

// moveTeamAccessV1: `permissions` is a list of one object in hashicorp/tfe,
// a single object in tfgov. A permission missing from an older state (such
// as policy_overrides, added later) is null until the refresh reads it.
func moveTeamAccessV1(s tfeState, diags *diag.Diagnostics) any {
	m := &teamAccessResourceModel{
		ID:          s.required("id"),
		TeamID:      s.required("team_id"),
		WorkspaceID: s.required("workspace_id"),
		Access:      s.required("access"),
		Permissions: types.ObjectNull(teamAccessPermissionsAttrTypes),
	}
	var perms []map[string]json.RawMessage
	if !s.value("permissions", &perms, false) || len(perms) == 0 {
		return m // computed: the refresh fills it
	}
	if len(perms) > 1 {
		s.fail("permissions", fmt.Sprintf("holds %d blocks; hashicorp/tfe writes one", len(perms)))
		return nil
	}
	p := tfeState{source: s.source, version: s.version, attrs: perms[0], diags: diags}
	vals := make(map[string]attr.Value, len(teamAccessPermissionsAttrTypes))
	for name, typ := range teamAccessPermissionsAttrTypes {
		if typ == types.BoolType {
			vals[name] = p.boolean(name)
		} else {
			vals[name] = p.optionalStr(name)
		}
	}
	obj, d := types.ObjectValue(teamAccessPermissionsAttrTypes, vals)
	diags.Append(d...)
	m.Permissions = obj
	return m
}

// moveTeamAccessV0: hashicorp/tfe's first schema held `workspace_id` as
// "<organization>/<workspace name>" and no permissions (its own upgrader
// looks the workspace up). The move keeps the grant's ID and leaves
// workspace_id null: the refresh then reads the grant by ID, which names
// its workspace (one request more than for a version 1 state).
func moveTeamAccessV0(s tfeState, _ *diag.Diagnostics) any {
	m := &teamAccessResourceModel{
		ID:          s.required("id"),
		TeamID:      s.required("team_id"),
		WorkspaceID: types.StringNull(),
		Access:      s.required("access"),
		Permissions: types.ObjectNull(teamAccessPermissionsAttrTypes),
	}
	if ws := s.required("workspace_id"); !ws.IsNull() && !strings.Contains(ws.ValueString(), "/") {
		s.fail("workspace_id", fmt.Sprintf("is %q, not <organization>/<workspace name> as schema version 0 holds it", ws.ValueString()))
	}
	return m
}

// moveAgentTokenV0 keeps the secret: the API returns it only at creation,
// so a token whose state lacks it cannot be moved (an import would give a
// token without secret; say so rather than drop it).
func moveAgentTokenV0(s tfeState, _ *diag.Diagnostics) any {
	m := &agentTokenResourceModel{
		ID:               s.required("id"),
		AgentPoolID:      s.required("agent_pool_id"),
		Description:      s.required("description"),
		Token:            s.required("token"),
		RotationTriggers: types.MapNull(types.StringType),
	}
	return m
}

// moveTestVariableV1: a plain variable keeps its value; a sensitive one
// keeps the last value hashicorp/tfe set (the API never returns it); a
// write-only one (value_wo_version set) keeps its version, and `value`
// becomes null, as tfgov stores a write-only variable (hashicorp/tfe
// stores ""). value_wo is never in state. readable_value is what tfgov's
// refresh makes it: the value of a plain variable, null otherwise.
func moveTestVariableV1(s tfeState, _ *diag.Diagnostics) any {
	m := &moduleTestVariableResourceModel{
		ID:             s.required("id"),
		Organization:   s.required("organization"),
		ModuleName:     s.required("module_name"),
		ModuleProvider: s.required("module_provider"),
		Key:            s.required("key"),
		Category:       s.required("category"),
		Description:    s.str("description"),
		HCL:            s.boolean("hcl"),
		Sensitive:      s.boolean("sensitive"),
		ValueWO:        types.StringNull(),
		ValueWOVersion: s.int64("value_wo_version"),
		Value:          s.str("value"),
	}
	if !m.ValueWOVersion.IsNull() {
		m.Value = types.StringNull()
	}
	if m.Description.IsNull() {
		m.Description = types.StringValue("") // tfgov's default
	}
	if m.HCL.IsNull() {
		m.HCL = types.BoolValue(false)
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
