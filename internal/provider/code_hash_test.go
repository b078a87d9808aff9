package provider

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestLocalHashPlan(t *testing.T) {
	a, b, c := strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)
	known := func(s string) types.String { return types.StringValue(s) }
	for _, tc := range []struct {
		name    string
		h       localHash
		want    types.String
		changed bool
	}{
		{"create: unknown, whatever the file", localHash{Path: "p", Now: a, Creating: true}, types.StringUnknown(), false},
		{"create ignores a stray record", localHash{Path: "p", Now: a, Creating: true, Recorded: &localHashRecord{"p", b}}, types.StringUnknown(), false},
		{"refreshed, unchanged", localHash{Path: "p", Now: a, State: known(a), Recorded: &localHashRecord{"p", a}}, known(a), false},
		{"refreshed, a record of the first digits", localHash{Path: "p", Now: a, State: known(a), Recorded: &localHashRecord{"p", a[:localHashDigits]}}, known(a), false},
		{"a record of the first digits, file changed since", localHash{Path: "p", Now: c, State: known(a), Recorded: &localHashRecord{"p", b[:localHashDigits]}}, types.StringUnknown(), true},
		{"refreshed, file changed since state: the new hash", localHash{Path: "p", Now: b, State: known(a), Recorded: &localHashRecord{"p", b}}, known(b), false},
		{"file changed since the refresh (saved plan)", localHash{Path: "p", Now: c, State: known(a), Recorded: &localHashRecord{"p", b}}, types.StringUnknown(), true},
		{"changed back since the refresh is still a change", localHash{Path: "p", Now: a, State: known(a), Recorded: &localHashRecord{"p", b}}, types.StringUnknown(), true},
		{"no record, same as state", localHash{Path: "p", Now: a, State: known(a)}, known(a), false},
		{"no record, differs from state", localHash{Path: "p", Now: b, State: known(a)}, types.StringUnknown(), false},
		{"no record, null state (imported)", localHash{Path: "p", Now: a, State: types.StringNull()}, types.StringUnknown(), false},
		{"record of another path, same as state", localHash{Path: "q", Now: a, State: known(a), Recorded: &localHashRecord{"p", b}}, known(a), false},
		{"record of another path, differs", localHash{Path: "q", Now: c, State: known(a), Recorded: &localHashRecord{"p", a}}, types.StringUnknown(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.h.plan()
			var changed *errChangedSincePlan
			if errors.As(err, &changed) != tc.changed || (err != nil && !tc.changed) {
				t.Fatalf("error %v, want changed-since-plan %v", err, tc.changed)
			}
			if !tc.changed && !got.Equal(tc.want) {
				t.Errorf("planned %s, want %s", got, tc.want)
			}
		})
	}
}

// fakePrivate is private state in a map.
type fakePrivate map[string][]byte

func (p fakePrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func (p fakePrivate) SetKey(_ context.Context, key string, v []byte) diag.Diagnostics {
	if len(v) == 0 {
		delete(p, key)
	} else {
		p[key] = v
	}
	return nil
}

func TestPlanPolicyCode(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "p.rego")
	if err := os.WriteFile(file, []byte("package p\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileSum := sha256Hex([]byte("package p\n"))
	inlineSum := sha256Hex([]byte("x"))
	null, unknown := types.StringNull(), types.StringUnknown()
	str := types.StringValue
	// refreshed is the private state of a refresh that found the file at
	// the path in state with digest sum (recordSource).
	refreshed := func(_, sum string) fakePrivate {
		priv := fakePrivate{}
		recordLocalHash(ctx, priv, sum)
		return priv
	}
	for _, tc := range []struct {
		name                               string
		content, source, configured, state types.String
		creating                           bool
		priv                               fakePrivate
		want                               types.String
		wantErr                            string
	}{
		{"no code", null, null, null, null, false, nil, null, ""},
		{"inline", str("x"), null, null, null, true, nil, str(inlineSum), ""},
		{"inline, configured matches", str("x"), null, str(inlineSum), null, true, nil, str(inlineSum), ""},
		{"inline, configured differs", str("x"), null, str(fileSum), null, true, nil, null, "content_sha256 does not match content"},
		{"inline unknown", unknown, null, null, null, true, nil, unknown, ""},
		{"source, create", null, str(file), null, null, true, nil, unknown, ""},
		{"source, update after refresh", null, str(file), null, str(inlineSum), false, refreshed(file, fileSum), str(fileSum), ""},
		{"source, unchanged, no refresh", null, str(file), null, str(fileSum), false, fakePrivate{}, str(fileSum), ""},
		{"source, edited after the plan", null, str(file), null, str(fileSum), false, refreshed(file, inlineSum), unknown, "Policy file changed since the plan"},
		{"source, configured matches", null, str(file), str(fileSum), null, true, nil, str(fileSum), ""},
		{"source, configured differs", null, str(file), str(inlineSum), null, true, nil, null, "content_sha256 does not match the source file"},
		{"source missing, configured: written during the apply", null, str(filepath.Join(dir, "later.rego")), str(fileSum), null, true, nil, str(fileSum), ""},
		{"source missing, not configured", null, str(filepath.Join(dir, "none.rego")), null, null, true, nil, null, "Cannot read the policy code"},
		{"source unknown", null, unknown, null, null, true, nil, unknown, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			var priv privateGetter
			if tc.priv != nil {
				priv = tc.priv
			}
			got := planPolicyCode(ctx, tc.content, tc.source, tc.configured, tc.state, tc.source, tc.creating, priv, &diags)
			if tc.wantErr != "" {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Summary(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasError() {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			if !got.SHA256.Equal(tc.want) {
				t.Errorf("content_sha256 planned %s, want %s", got.SHA256, tc.want)
			}
		})
	}
}
