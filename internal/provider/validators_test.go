package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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

// TestPolicyEnforcementLevel_oneError: a typo in enforcement_level is one
// error, whichever kind, through the protocol as Terraform validates:
// `soft_mandatory` names the hyphenated level; a level of the other kind
// says which the kind allows. No request: validation needs no provider
// configuration.
func TestPolicyEnforcementLevel_oneError(t *testing.T) {
	t.Parallel()
	srv, err := testServer()
	if err != nil {
		t.Fatal(err)
	}
	p := &protoProvider{t: t, srv: srv}
	if p.schema, err = srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct{ kind, level, want string }{
		"underscore":     {"sentinel", "soft_mandatory", `Did you mean "soft-mandatory"?`},
		"underscore opa": {"opa", "MANDATORY", `Did you mean "mandatory"?`},
		"unknown":        {"sentinel", "strict", `must be one of "hard-mandatory", "soft-mandatory", "mandatory", "advisory"`},
		"other kind":     {"sentinel", "mandatory", `use one of "hard-mandatory", "soft-mandatory", "advisory"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			vals := map[string]tftypes.Value{
				"name":              tftypes.NewValue(tftypes.String, "p"),
				"kind":              tftypes.NewValue(tftypes.String, tc.kind),
				"enforcement_level": tftypes.NewValue(tftypes.String, tc.level),
			}
			if tc.kind == "opa" {
				vals["query"] = tftypes.NewValue(tftypes.String, "data.terraform.deny")
			}
			resp, err := srv.ValidateResourceConfig(t.Context(), &tfprotov6.ValidateResourceConfigRequest{
				TypeName: "tfgov_policy", Config: p.value(p.schema.ResourceSchemas["tfgov_policy"], vals)})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Diagnostics) != 1 {
				t.Fatalf("%d diagnostics, want 1:\n%s", len(resp.Diagnostics), diagText(resp.Diagnostics))
			}
			if d := resp.Diagnostics[0]; !strings.Contains(d.Detail, tc.want) {
				t.Errorf("the error %q lacks %q", d.Detail, tc.want)
			}
		})
	}
}

// TestDurationHint: a duration in days or weeks, which Go's durations do
// not have, is given back in hours; anything else gets no hint.
func TestDurationHint(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"30d":    ` A duration's largest unit is h: write "720h" for "30d".`,
		"2w":     ` A duration's largest unit is h: write "336h" for "2w".`,
		"1d12h":  ` A duration's largest unit is h: write "36h" for "1d12h".`,
		"1w1d":   ` A duration's largest unit is h: write "192h" for "1w1d".`,
		"1d30m":  ` A duration's largest unit is h: write "24h30m" for "1d30m".`,
		"1d1s":   ` A duration's largest unit is h: write "24h0m1s" for "1d1s".`,
		"720h":   "",
		"30days": "",
		"d":      "",
		"":       "",
		"-30d":   "",
	} {
		if got := durationHint(in); got != want {
			t.Errorf("durationHint(%q) = %q, want %q", in, got, want)
		}
	}
}
