package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestValidators(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		v       validator.String
		value   types.String
		wantErr bool
	}{
		"id ok":              {idValidator("apool-"), types.StringValue("apool-AbC123"), false},
		"id wrong prefix":    {idValidator("apool-"), types.StringValue("ws-AbC123"), true},
		"id bare prefix":     {idValidator("apool-"), types.StringValue("apool-"), true},
		"id with slash":      {idValidator("apool-"), types.StringValue("apool-a/b"), true},
		"id unknown skipped": {idValidator("apool-"), types.StringUnknown(), false},
		"blank":              {notBlank(), types.StringValue("  \t"), true},
		"not blank":          {notBlank(), types.StringValue(" x "), false},
		"url https":          {urlValidator{}, types.StringValue("https://example.com/why"), false},
		"url http":           {urlValidator{}, types.StringValue("http://127.0.0.1:8787"), false},
		"url no scheme":      {urlValidator{}, types.StringValue("example.com"), true},
		"url ftp":            {urlValidator{}, types.StringValue("ftp://example.com"), true},
		"url null skipped":   {urlValidator{}, types.StringNull(), false},
		"duration positive":  {positiveDuration{}, types.StringValue("1h30m"), false},
		"duration negative":  {positiveDuration{}, types.StringValue("-5m"), true},
		"duration zero":      {positiveDuration{}, types.StringValue("0s"), true},
		"duration bare zero": {positiveDuration{}, types.StringValue("0"), true},
		"duration unknown":   {positiveDuration{}, types.StringUnknown(), false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resp := &validator.StringResponse{}
			tc.v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: tc.value}, resp)
			if got := resp.Diagnostics.HasError(); got != tc.wantErr {
				t.Errorf("error = %v, want %v (%v)", got, tc.wantErr, resp.Diagnostics)
			}
		})
	}
}
