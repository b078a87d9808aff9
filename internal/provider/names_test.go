package provider

import (
	"slices"
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		a, b string
		want int
	}{
		"equal":        {"payments", "payments", 0},
		"empty":        {"", "abc", 3},
		"substitution": {"payments-prd", "payments-pro", 1},
		"insertion":    {"payments-prd", "payments-prod", 1},
		"deletion":     {"platformm", "platform", 1},
		"transposed":   {"teams", "taems", 2},
		"unicode":      {"équipe", "equipe", 1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := editDistance(tc.a, tc.b); got != tc.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestClosestNames(t *testing.T) {
	t.Parallel()
	have := []string{"payments-prod", "payments-dev", "web-prod", "Payments-Stage", "batch", "payments-prod"}
	for name, tc := range map[string]struct {
		want string
		n    int
		out  []string
	}{
		"typo first":      {"payments-prd", 3, []string{"payments-prod", "payments-dev", "Payments-Stage"}},
		"case ignored":    {"PAYMENTS-DEV", 1, []string{"payments-dev"}},
		"ties by name":    {"xxxxx", 2, []string{"batch", "web-prod"}},
		"fewer than n":    {"batch", 10, []string{"batch", "web-prod", "payments-dev", "payments-prod", "Payments-Stage"}},
		"none to suggest": {"a", 0, []string{}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := closestNames(tc.want, have, tc.n); !slices.Equal(got, tc.out) {
				t.Errorf("closestNames(%q, %d) = %q, want %q", tc.want, tc.n, got, tc.out)
			}
		})
	}
	// The same input gives the same answer whatever the order of have.
	rev := slices.Clone(have)
	slices.Reverse(rev)
	if a, b := closestNames("payments", have, 3), closestNames("payments", rev, 3); !slices.Equal(a, b) {
		t.Errorf("order-dependent: %q vs %q", a, b)
	}
}

func TestNotFoundByName(t *testing.T) {
	t.Parallel()
	got := notFoundByName("workspace", "acme", []string{"payments-prd", "zz"}, []string{"payments-prod", "web"})
	for _, want := range []string{
		`No workspace named "payments-prd" in organization acme; the closest names: "payments-prod", "web".`,
		`No workspace named "zz" in organization acme; the closest names: "web", "payments-prod".`,
		"Names are exact and case-sensitive.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if got := notFoundByName("team", "acme", []string{"x"}, nil); !strings.Contains(got, `No team named "x" in organization acme: the API token sees no team there.`) {
		t.Errorf("with nothing to suggest:\n%s", got)
	}
}
