package provider

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestAgentTokenModelConversion: the model's own conversion (model_convert.go)
// gives what the framework's reflection gives, both ways, for known, null
// and unknown values.
func TestAgentTokenModelConversion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var sr resource.SchemaResponse
	(&agentTokenResource{}).Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	triggers := tftypes.Map{ElementType: tftypes.String}
	tests := map[string]tftypes.Value{
		"known": tftypes.NewValue(typ, map[string]tftypes.Value{
			"id": str("at-1"), "agent_pool_id": str("apool-1"), "description": str("d"), "token": str("secret"),
			"rotation_triggers": tftypes.NewValue(triggers, map[string]tftypes.Value{"k": str("v")}),
		}),
		"null and unknown": tftypes.NewValue(typ, map[string]tftypes.Value{
			"id": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "agent_pool_id": str("apool-1"), "description": str("d"),
			"token":             tftypes.NewValue(tftypes.String, nil),
			"rotation_triggers": tftypes.NewValue(triggers, nil),
		}),
	}
	for name, raw := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			state := tfsdk.State{Schema: sr.Schema, Raw: raw}
			fast, diags := getModel[agentTokenResourceModel](ctx, state)
			if diags.HasError() {
				t.Fatal(diags)
			}
			var slow agentTokenResourceModel
			if diags := state.Get(ctx, &slow); diags.HasError() {
				t.Fatal(diags)
			}
			if !fast.ID.Equal(slow.ID) || !fast.AgentPoolID.Equal(slow.AgentPoolID) || !fast.Description.Equal(slow.Description) ||
				!fast.Token.Equal(slow.Token) || !fast.RotationTriggers.Equal(slow.RotationTriggers) {
				t.Errorf("getModel = %+v, reflection = %+v", *fast, slow)
			}
			out := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
			if diags := out.Set(ctx, fast); diags.HasError() {
				t.Fatal(diags)
			}
			if !out.Raw.Equal(raw) {
				t.Errorf("Set wrote %v, want %v", out.Raw, raw)
			}
		})
	}
	// A zero model writes nulls of each attribute's type.
	out := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
	if diags := out.Set(ctx, &agentTokenResourceModel{ID: types.StringValue("at-1")}); diags.HasError() {
		t.Fatal(diags)
	}
}

// TestPolicyModelConversion: the policy and policy upload models list every
// attribute of their schemas, and read and write each as the framework's
// reflection would, whether known, null or unknown.
func TestPolicyModelConversion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, tc := range map[string]struct {
		res   resource.Resource
		check func(raw tftypes.Value, state tfsdk.State) error
	}{
		"tfgov_policy":        {res: &policyResource{}, check: roundTrip[policyResourceModel]},
		"tfgov_policy_upload": {res: &policyUploadResource{}, check: roundTrip[policyUploadResourceModel]},
	} {
		var sr resource.SchemaResponse
		tc.res.Schema(ctx, resource.SchemaRequest{}, &sr)
		typ := sr.Schema.Type().TerraformType(ctx)
		obj, ok := typ.(tftypes.Object)
		if !ok {
			t.Fatalf("%s: schema type %T", name, typ)
		}
		for i, variant := range []string{"known", "null", "unknown"} {
			vals := map[string]tftypes.Value{}
			for attr, at := range obj.AttributeTypes {
				switch {
				case i == 1:
					vals[attr] = tftypes.NewValue(at, nil)
				case i == 2:
					vals[attr] = tftypes.NewValue(at, tftypes.UnknownValue)
				case at.Is(tftypes.String):
					vals[attr] = tftypes.NewValue(at, attr+"-value")
				case at.Is(tftypes.Number):
					vals[attr] = tftypes.NewValue(at, 3)
				case at.Is(tftypes.Set{}):
					vals[attr] = tftypes.NewValue(at, []tftypes.Value{tftypes.NewValue(tftypes.String, "polset-1")})
				case at.Is(tftypes.Object{}):
					// tests_wo: write-only, so null in state (its parts are
					// read from the configuration, policy_tests.go).
					vals[attr] = tftypes.NewValue(at, nil)
				default:
					t.Fatalf("%s: attribute %s of type %s: extend the test", name, attr, at)
				}
			}
			raw := tftypes.NewValue(typ, vals)
			if err := tc.check(raw, tfsdk.State{Schema: sr.Schema, Raw: raw}); err != nil {
				t.Errorf("%s, %s: %v", name, variant, err)
			}
		}
	}
}

// roundTrip reads state into T through getModel and through reflection,
// compares them, and writes the model back.
func roundTrip[T any](raw tftypes.Value, state tfsdk.State) error {
	ctx := context.Background()
	fast, diags := getModel[T](ctx, state)
	if diags.HasError() {
		return fmt.Errorf("getModel: %v", diags)
	}
	var slow T
	if diags := state.Get(ctx, &slow); diags.HasError() {
		return fmt.Errorf("reflection: %v", diags)
	}
	if !reflect.DeepEqual(*fast, slow) {
		return fmt.Errorf("getModel = %+v, reflection = %+v", *fast, slow)
	}
	out := tfsdk.State{Schema: state.Schema, Raw: tftypes.NewValue(raw.Type(), nil)}
	if diags := out.Set(ctx, fast); diags.HasError() {
		return fmt.Errorf("Set: %v", diags)
	}
	if !out.Raw.Equal(raw) {
		return fmt.Errorf("Set wrote %v, want %v", out.Raw, raw)
	}
	return nil
}
