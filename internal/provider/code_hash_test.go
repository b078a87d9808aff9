package provider

import (
	"errors"
	"strings"
	"testing"

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
