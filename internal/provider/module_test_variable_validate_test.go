package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestModuleTestVariableValidateConfig_sensitiveValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := NewModuleTestVariableResource()
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	objType := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)

	tests := map[string]struct {
		value, valueWO any
		sensitive      any
		wantWarning    bool
	}{
		"sensitive with value":      {value: "s3cr3t", sensitive: true, wantWarning: true},
		"sensitive with unknown":    {value: tftypes.UnknownValue, sensitive: true, wantWarning: true},
		"sensitive with value_wo":   {valueWO: "s3cr3t", sensitive: true},
		"plain with value":          {value: "eu-west-1", sensitive: false},
		"sensitive unknown":         {value: "x", sensitive: tftypes.UnknownValue},
		"imported sensitive, empty": {sensitive: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vals := map[string]tftypes.Value{}
			for attr, typ := range objType.AttributeTypes {
				vals[attr] = tftypes.NewValue(typ, nil)
			}
			set := func(attr string, v any) {
				if v != nil {
					vals[attr] = tftypes.NewValue(objType.AttributeTypes[attr], v)
				}
			}
			set("value", tc.value)
			set("value_wo", tc.valueWO)
			set("sensitive", tc.sensitive)
			req := resource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(objType, vals)}}
			var resp resource.ValidateConfigResponse
			r.(resource.ResourceWithValidateConfig).ValidateConfig(ctx, req, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("unexpected error: %v", resp.Diagnostics)
			}
			if got := resp.Diagnostics.WarningsCount() > 0; got != tc.wantWarning {
				t.Fatalf("warning = %v, want %v (%v)", got, tc.wantWarning, resp.Diagnostics)
			}
		})
	}
}
