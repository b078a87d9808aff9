package provider

import (
	"context"
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
			"id": str("at-1"), "agent_pool_id": str("apool-1"), "description": str("d"), "token": str("secret"), "created_at": str("2026-01-01T00:00:00Z"),
			"rotation_triggers": tftypes.NewValue(triggers, map[string]tftypes.Value{"k": str("v")}),
		}),
		"null and unknown": tftypes.NewValue(typ, map[string]tftypes.Value{
			"id": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "agent_pool_id": str("apool-1"), "description": str("d"),
			"token": tftypes.NewValue(tftypes.String, nil), "created_at": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
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
				!fast.Token.Equal(slow.Token) || !fast.CreatedAt.Equal(slow.CreatedAt) || !fast.RotationTriggers.Equal(slow.RotationTriggers) {
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
