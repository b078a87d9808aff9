package provider

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// moveTFE runs r's state movers on a request from hashicorp/tfe's source
// type at version with the raw state JSON, as Terraform sends it.
func moveTFE(t *testing.T, r resource.Resource, address, source string, version int64, raw string) resource.MoveStateResponse {
	t.Helper()
	ctx := context.Background()
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	resp := resource.MoveStateResponse{TargetState: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}}
	req := resource.MoveStateRequest{
		SourceProviderAddress: address,
		SourceTypeName:        source,
		SourceSchemaVersion:   version,
		SourceRawState:        &tfprotov6.RawState{JSON: []byte(raw)},
	}
	for _, m := range r.(resource.ResourceWithMoveState).MoveState(ctx) {
		m.StateMover(ctx, req, &resp)
	}
	return resp
}

// TestMoveStateFromTFE maps each hashicorp/tfe type's state, as v0.79.0
// writes it (and older schema versions), and refuses what it cannot map,
// naming the attribute.
func TestMoveStateFromTFE(t *testing.T) {
	const tfe = "registry.terraform.io/hashicorp/tfe"
	const code = "main = rule { true }\n"
	for _, tc := range []struct {
		name     string
		r        resource.Resource
		address  string
		source   string
		version  int64
		raw      string
		want     map[string]string // attribute path -> its value as tftypes prints it
		wantErr  string            // in the error's detail
		wantPath string            // the error's attribute
		ignored  bool              // not ours: no state, no error
	}{
		{
			name: "policy sentinel", r: NewPolicyResource(), address: tfe, source: "tfe_policy", version: 0,
			raw: `{"id":"pol-1","name":"p","description":"","organization":"org","kind":"sentinel","query":"","policy":` + jsonQuote(code) + `,"enforce_mode":"soft-mandatory"}`,
			want: map[string]string{
				"id": `"pol-1"`, "name": `"p"`, "organization": `"org"`, "kind": `"sentinel"`, "description": "<null>", "query": "<null>",
				"enforcement_level": `"soft-mandatory"`, "content": jsonQuote(code),
			},
		},
		{
			name: "policy opa with description, query null", r: NewPolicyResource(), address: tfe, source: "tfe_policy", version: 0,
			raw:  `{"id":"pol-2","name":"o","description":"d","organization":"org","kind":"opa","query":"data.x.deny","policy":"package x","enforce_mode":"advisory"}`,
			want: map[string]string{"description": `"d"`, "query": `"data.x.deny"`, "kind": `"opa"`, "enforcement_level": `"advisory"`, "content": `"package x"`},
		},
		{
			name: "policy from another host's mirror", r: NewPolicyResource(), address: "tfe.example.com/hashicorp/tfe", source: "tfe_policy", version: 0,
			raw:  `{"id":"pol-3","name":"p","organization":"","kind":"sentinel","policy":"x"}`,
			want: map[string]string{"id": `"pol-3"`, "organization": "<null>", "enforcement_level": "<null>", "description": "<null>"},
		},
		{
			name: "policy without its code", r: NewPolicyResource(), address: tfe, source: "tfe_policy", version: 0,
			raw: `{"id":"pol-1","name":"p","organization":"org","kind":"sentinel"}`, wantPath: "policy", wantErr: `Attribute "policy" of the tfe_policy state (schema version 0) is missing`,
		},
		{
			name: "policy of an unknown schema version", r: NewPolicyResource(), address: tfe, source: "tfe_policy", version: 1,
			raw: `{"id":"pol-1"}`, wantErr: "has schema version 1; tfgov_policy can move versions 0",
		},
		{
			name: "policy with a wrongly typed attribute", r: NewPolicyResource(), address: tfe, source: "tfe_policy", version: 0,
			raw: `{"id":"pol-1","name":7,"organization":"org","kind":"sentinel","policy":"x"}`, wantPath: "name", wantErr: "is not of the expected type (7)",
		},
		{
			name: "policy of another provider", r: NewPolicyResource(), address: "registry.terraform.io/other/tfe2", source: "tfe_policy", version: 0,
			raw: `{}`, ignored: true,
		},
		{
			name: "another type", r: NewPolicyResource(), address: tfe, source: "tfe_policy_set", version: 0,
			raw: `{}`, ignored: true,
		},
		{
			name: "policy set with policies and workspaces", r: NewPolicySetResource(), address: tfe, source: "tfe_policy_set", version: 0,
			raw: `{"id":"polset-1","name":"s","description":"","organization":"org","kind":"sentinel","global":false,"agent_enabled":false,"overridable":false,"policy_tool_version":"","policies_path":"","policy_ids":["pol-1"],"workspace_ids":["ws-1"],"vcs_repo":[],"slug":null}`,
			want: map[string]string{
				"id": `"polset-1"`, "name": `"s"`, "organization": `"org"`, "description": "<null>", "kind": `"sentinel"`, "policy_tool_version": "<null>",
				"scope.global": "false", "scope.tag_match": `"any"`, "source": "<null>", "vcs_repo": "<null>", "policies_path": "<null>",
			},
		},
		{
			name: "global policy set without policies", r: NewPolicySetResource(), address: tfe, source: "tfe_policy_set", version: 0,
			raw:  `{"id":"polset-2","name":"g","organization":"org","kind":"opa","global":true,"policy_ids":[],"workspace_ids":[]}`,
			want: map[string]string{"scope.global": "true", "kind": `"opa"`, "policy_ids": "<null>"},
		},
		{
			name: "policy set from a VCS repository", r: NewPolicySetResource(), address: tfe, source: "tfe_policy_set", version: 0,
			raw: `{"id":"polset-3","name":"v","organization":"org","policies_path":"prod","vcs_repo":[{"identifier":"acme/policies","branch":"main","ingress_submodules":true,"oauth_token_id":"ot-1","github_app_installation_id":""}]}`,
			want: map[string]string{
				"vcs_repo.identifier": `"acme/policies"`, "vcs_repo.branch": `"main"`, "vcs_repo.ingress_submodules": "true", "vcs_repo.oauth_token_id": `"ot-1"`,
				"vcs_repo.github_app_installation_id": "<null>", "policies_path": `"prod"`,
			},
		},
		{
			name: "team access fixed", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 1,
			raw: `{"id":"tws-1","access":"read","team_id":"team-1","workspace_id":"ws-1","permissions":[{"runs":"read","variables":"read","state_versions":"read","sentinel_mocks":"none","workspace_locking":false,"run_tasks":false,"policy_overrides":false}]}`,
			want: map[string]string{
				"id": `"tws-1"`, "access": `"read"`, "team_id": `"team-1"`, "workspace_id": `"ws-1"`,
				`permissions.runs`: `"read"`, `permissions.sentinel_mocks`: `"none"`, `permissions.workspace_locking`: "false", `permissions.policy_overrides`: "false",
			},
		},
		{
			name: "team access custom, before policy_overrides", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 1,
			raw:  `{"id":"tws-2","access":"custom","team_id":"team-1","workspace_id":"ws-1","permissions":[{"runs":"apply","variables":"none","state_versions":"read-outputs","sentinel_mocks":"read","workspace_locking":true,"run_tasks":true}]}`,
			want: map[string]string{"access": `"custom"`, `permissions.runs`: `"apply"`, `permissions.state_versions`: `"read-outputs"`, `permissions.run_tasks`: "true", `permissions.policy_overrides`: "<null>"},
		},
		{
			name: "team access without permissions", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 1,
			raw:  `{"id":"tws-2","access":"write","team_id":"team-1","workspace_id":"ws-1","permissions":[]}`,
			want: map[string]string{"permissions": "<null>"},
		},
		{
			name: "team access schema version 0", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 0,
			raw:  `{"id":"tws-3","access":"admin","team_id":"team-1","workspace_id":"org/ws-name"}`,
			want: map[string]string{"id": `"tws-3"`, "access": `"admin"`, "team_id": `"team-1"`, "workspace_id": "<null>", "permissions": "<null>"},
		},
		{
			name: "team access schema version 0 with a workspace ID", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 0,
			raw: `{"id":"tws-3","access":"admin","team_id":"team-1","workspace_id":"ws-1"}`, wantPath: "workspace_id", wantErr: "not <organization>/<workspace name>",
		},
		{
			name: "team access two permission blocks", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 1,
			raw: `{"id":"tws-2","access":"custom","team_id":"team-1","workspace_id":"ws-1","permissions":[{},{}]}`, wantPath: "permissions", wantErr: "holds 2 blocks",
		},
		{
			name: "team access without team", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 1,
			raw: `{"id":"tws-2","access":"read","team_id":"","workspace_id":"ws-1"}`, wantPath: "team_id", wantErr: `"team_id" of the tfe_team_access state (schema version 1) is empty`,
		},
		{
			name: "team access version 2", r: NewTeamAccessResource(), address: tfe, source: "tfe_team_access", version: 2,
			raw: `{}`, wantErr: "can move versions 0, 1",
		},
		{
			name: "team project access custom", r: NewTeamProjectAccessResource(), address: tfe, source: "tfe_team_project_access", version: 1,
			raw: `{"id":"tprj-1","access":"custom","team_id":"team-1","project_id":"prj-1","project_access":[{"settings":"read","teams":"read","variable_sets":"none"}],` +
				`"workspace_access":[{"runs":"plan","sentinel_mocks":"none","state_versions":"read-outputs","variables":"read","create":true,"locking":false,"move":false,"delete":false,"run_tasks":false,"policy_overrides":false}]}`,
			want: map[string]string{
				"id": `"tprj-1"`, "access": `"custom"`, "team_id": `"team-1"`, "project_id": `"prj-1"`, "team_name": "<null>",
				"project_access.teams": `"read"`, "workspace_access.runs": `"plan"`, "workspace_access.state_versions": `"read-outputs"`, "workspace_access.create": "true",
			},
		},
		{
			name: "team project access schema version 0, no blocks", r: NewTeamProjectAccessResource(), address: tfe, source: "tfe_team_project_access", version: 0,
			raw:  `{"id":"tprj-2","access":"admin","team_id":"team-1","project_id":"prj-1","project_access":[],"workspace_access":[]}`,
			want: map[string]string{"id": `"tprj-2"`, "access": `"admin"`, "project_access": "<null>", "workspace_access": "<null>"},
		},
		{
			name: "team project access two blocks", r: NewTeamProjectAccessResource(), address: tfe, source: "tfe_team_project_access", version: 1,
			raw: `{"id":"tprj-2","access":"custom","team_id":"team-1","project_id":"prj-1","workspace_access":[{},{}]}`, wantPath: "workspace_access", wantErr: "holds 2 blocks",
		},
		{
			name: "team project access version 2", r: NewTeamProjectAccessResource(), address: tfe, source: "tfe_team_project_access", version: 2,
			raw: `{}`, wantErr: "can move versions 0, 1",
		},
		{
			name: "agent token keeps its secret", r: NewAgentTokenResource(), address: tfe, source: "tfe_agent_token", version: 0,
			raw:  `{"id":"at-1","agent_pool_id":"apool-1","description":"agents","token":"s3cret.atlasv1.x"}`,
			want: map[string]string{"id": `"at-1"`, "agent_pool_id": `"apool-1"`, "description": `"agents"`, "token": `"s3cret.atlasv1.x"`, "rotation_triggers": "<null>"},
		},
		{
			name: "agent token without secret", r: NewAgentTokenResource(), address: tfe, source: "tfe_agent_token", version: 0,
			raw: `{"id":"at-1","agent_pool_id":"apool-1","description":"agents","token":null}`, wantPath: "token", wantErr: `"token" of the tfe_agent_token state (schema version 0) is null`,
		},
		{
			name: "plain test variable", r: NewModuleTestVariableResource(), address: tfe, source: "tfe_test_variable", version: 1,
			raw: `{"id":"var-1","key":"K","value":"v","value_wo":null,"value_wo_version":null,"readable_value":"v","category":"env","description":"","hcl":false,"sensitive":false,"organization":"org","module_name":"m","module_provider":"aws"}`,
			want: map[string]string{
				"id": `"var-1"`, "key": `"K"`, "value": `"v"`, "value_wo": "<null>", "value_wo_version": "<null>", "category": `"env"`,
				"description": `""`, "hcl": "false", "sensitive": "false", "organization": `"org"`, "module_name": `"m"`, "module_provider": `"aws"`,
			},
		},
		{
			name: "sensitive test variable keeps the value last set", r: NewModuleTestVariableResource(), address: tfe, source: "tfe_test_variable", version: 1,
			raw:  `{"id":"var-2","key":"K","value":"secret","value_wo":null,"value_wo_version":null,"readable_value":null,"category":"env","description":"d","hcl":true,"sensitive":true,"organization":"org","module_name":"m","module_provider":"aws"}`,
			want: map[string]string{"value": `"secret"`, "sensitive": "true", "hcl": "true", "description": `"d"`},
		},
		{
			name: "write-only test variable", r: NewModuleTestVariableResource(), address: tfe, source: "tfe_test_variable", version: 1,
			raw:  `{"id":"var-3","key":"K","value":"","value_wo":null,"value_wo_version":3,"readable_value":"","category":"env","description":"","hcl":false,"sensitive":true,"organization":"org","module_name":"m","module_provider":"aws"}`,
			want: map[string]string{"value": "<null>", "value_wo_version": "3", "value_wo": "<null>"},
		},
		{
			name: "test variable of a release before value_wo", r: NewModuleTestVariableResource(), address: tfe, source: "tfe_test_variable", version: 1,
			raw:  `{"id":"var-4","key":"K","value":"v","readable_value":"v","category":"env","description":"","hcl":false,"sensitive":false,"organization":"org","module_name":"m","module_provider":"aws"}`,
			want: map[string]string{"value": `"v"`, "value_wo_version": "<null>"},
		},
		{
			name: "test variable without module", r: NewModuleTestVariableResource(), address: tfe, source: "tfe_test_variable", version: 1,
			raw: `{"id":"var-1","key":"K","value":"v","category":"env","organization":"org","module_provider":"aws"}`, wantPath: "module_name", wantErr: `"module_name" of the tfe_test_variable state (schema version 1) is missing`,
		},
		{
			name: "test variable version 0", r: NewModuleTestVariableResource(), address: tfe, source: "tfe_test_variable", version: 0,
			raw: `{}`, wantErr: "has schema version 0; tfgov_module_test_variable can move versions 1",
		},
		{
			name: "test variable state not an object", r: NewModuleTestVariableResource(), address: tfe, source: "tfe_test_variable", version: 1,
			raw: `[1]`, wantErr: "not a JSON object",
		},
		{
			name: "plain policy set parameter", r: NewPolicySetParameterResource(), address: tfe, source: "tfe_policy_set_parameter", version: 0,
			raw: `{"id":"var-1","key":"region","value":"eu","value_wo":null,"sensitive":false,"policy_set_id":"polset-1"}`,
			want: map[string]string{
				"id": `"var-1"`, "key": `"region"`, "value": `"eu"`, "readable_value": `"eu"`, "value_wo": "<null>", "value_wo_version": "<null>",
				"sensitive": "false", "policy_set_id": `"polset-1"`, "organization": "<null>",
			},
		},
		{
			name: "sensitive policy set parameter keeps the value last set", r: NewPolicySetParameterResource(), address: tfe, source: "tfe_policy_set_parameter", version: 0,
			raw:  `{"id":"var-2","key":"token","value":"secret","value_wo":null,"sensitive":true,"policy_set_id":"polset-1"}`,
			want: map[string]string{"value": `"secret"`, "readable_value": "<null>", "sensitive": "true"},
		},
		{
			name: "policy set parameter without set", r: NewPolicySetParameterResource(), address: tfe, source: "tfe_policy_set_parameter", version: 0,
			raw: `{"id":"var-1","key":"region","value":"eu","sensitive":false}`, wantPath: "policy_set_id", wantErr: `"policy_set_id" of the tfe_policy_set_parameter state (schema version 0) is missing`,
		},
		{
			name: "policy set parameter version 1", r: NewPolicySetParameterResource(), address: tfe, source: "tfe_policy_set_parameter", version: 1,
			raw: `{}`, wantErr: "tfgov_policy_set_parameter can move versions 0",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := moveTFE(t, tc.r, tc.address, tc.source, tc.version, tc.raw)
			if tc.wantErr != "" {
				if !resp.Diagnostics.HasError() {
					t.Fatalf("no error; want one with %q", tc.wantErr)
				}
				d := resp.Diagnostics.Errors()[0]
				if !strings.Contains(d.Detail(), tc.wantErr) {
					t.Errorf("error %q: %q; want it to contain %q", d.Summary(), d.Detail(), tc.wantErr)
				}
				if tc.wantPath != "" {
					wp, ok := d.(interface{ Path() path.Path })
					if !ok || !wp.Path().Equal(path.Root(tc.wantPath)) {
						t.Errorf("error not on attribute %s: %v", tc.wantPath, d)
					}
				}
				if !resp.TargetState.Raw.IsNull() {
					t.Errorf("state set despite the error: %v", resp.TargetState.Raw)
				}
				return
			}
			if resp.Diagnostics.HasError() {
				t.Fatalf("unexpected error: %v", resp.Diagnostics)
			}
			if tc.ignored {
				if !resp.TargetState.Raw.IsNull() {
					t.Errorf("a request for another source was handled: %v", resp.TargetState.Raw)
				}
				return
			}
			for p, want := range tc.want {
				steps := strings.Split(p, ".")
				ap := path.Root(steps[0])
				for _, s := range steps[1:] {
					ap = ap.AtName(s)
				}
				var got tftypes.Value
				if err := getRaw(resp.TargetState, ap, &got); err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				if render(got) != want {
					t.Errorf("%s = %s; want %s", p, got, want)
				}
			}
		})
	}
}

// render prints a primitive value as the table writes it: JSON for a
// string, bool or number, <null> for null, and null for a set object or
// collection as "<set>".
func render(v tftypes.Value) string {
	if v.IsNull() {
		return "<null>"
	}
	var out any
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		out = s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		out = b
	case v.Type().Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		return f.Text('f', -1)
	default:
		return "<set>"
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// getRaw reads the tftypes value at p of state.
func getRaw(s tfsdk.State, p path.Path, out *tftypes.Value) error {
	tp := tftypes.NewAttributePath()
	for _, step := range p.Steps() {
		tp = tp.WithAttributeName(strings.Trim(step.String(), `"`))
	}
	v, _, err := tftypes.WalkAttributePath(s.Raw, tp)
	if err != nil {
		return err
	}
	*out = v.(tftypes.Value)
	return nil
}

// TestMoveStateFromTFE_everyVersionHasAMapping keeps the table and the
// resources in step: every move is reachable from its target resource.
func TestMoveStateFromTFE_everyVersionHasAMapping(t *testing.T) {
	targets := map[string]resource.Resource{}
	for _, e := range resourceRegistry {
		if e.tfeMove != nil {
			if e.tfeMove.target != e.typ.typeName("tfgov") {
				t.Errorf("%s: its registry entry's tfeMove moves to %s", e.typ.typeName("tfgov"), e.tfeMove.target)
			}
			targets[e.tfeMove.target] = e.new()
		}
	}
	for _, m := range tfeMoves {
		r, ok := targets[m.target]
		if !ok {
			t.Fatalf("move to unknown target %s", m.target)
		}
		var md resource.MetadataResponse
		r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		if md.TypeName != m.target {
			t.Errorf("%s: resource is %s", m.target, md.TypeName)
		}
		for v := range m.versions {
			resp := moveTFE(t, r, "registry.terraform.io/hashicorp/tfe", m.source, v, `{}`)
			if !resp.Diagnostics.HasError() || strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "unknown schema version") {
				t.Errorf("%s version %d: an empty state should fail on a missing attribute: %v", m.source, v, resp.Diagnostics)
			}
		}
	}
}

// jsonQuote is s as a JSON string (which tftypes prints the same way for
// these values).
func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestMoveStateFromTFE_identity: when the target resource has a resource
// identity, the move fills it from the moved state's attributes of the
// same names, or leaves it null (for the refresh) when one has no value.
func TestMoveStateFromTFE_identity(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		attrs map[string]identityschema.Attribute
		want  string
	}{
		{"id and organization", map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{RequiredForImport: true}, "organization": identityschema.StringAttribute{OptionalForImport: true},
		}, `tftypes.Object["id":tftypes.String, "organization":tftypes.String]<"id":tftypes.String<"pol-1">, "organization":tftypes.String<"org">>`},
		{"an attribute the state does not have", map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{RequiredForImport: true}, "hostname": identityschema.StringAttribute{OptionalForImport: true},
		}, "null"},
		{"an attribute null in the state", map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{RequiredForImport: true}, "query": identityschema.StringAttribute{OptionalForImport: true},
		}, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewPolicyResource()
			var sr resource.SchemaResponse
			r.Schema(ctx, resource.SchemaRequest{}, &sr)
			is := identityschema.Schema{Attributes: tc.attrs}
			resp := resource.MoveStateResponse{
				TargetState:    tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)},
				TargetIdentity: &tfsdk.ResourceIdentity{Schema: is, Raw: tftypes.NewValue(is.Type().TerraformType(ctx), nil)},
			}
			req := resource.MoveStateRequest{
				SourceProviderAddress: "registry.terraform.io/hashicorp/tfe", SourceTypeName: "tfe_policy",
				SourceRawState: &tfprotov6.RawState{JSON: []byte(`{"id":"pol-1","name":"p","organization":"org","kind":"sentinel","query":null,"policy":"x"}`)},
			}
			tfePolicyMove.stateMover().StateMover(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			got := "null"
			if !resp.TargetIdentity.Raw.IsNull() {
				got = resp.TargetIdentity.Raw.String()
			}
			if got != tc.want {
				t.Errorf("identity %s; want %s", got, tc.want)
			}
		})
	}
}
