package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

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
	// The closing sentence fits each kind: its article, and the secret
	// team only for teams.
	for _, tc := range []struct{ kind, want string }{
		{"team", "A team that exists but is hidden from the API token (a secret team, for one) is not found either."},
		{"agent pool", "An agent pool that exists but is hidden from the API token is not found either."},
		{"workspace", "A workspace that exists but is hidden from the API token is not found either."},
		{"private registry module", "A private registry module that exists but is hidden from the API token is not found either."},
	} {
		if got := notFoundByName(tc.kind, "acme", []string{"x"}, nil); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%s: ends %q, want %q", tc.kind, got[strings.LastIndex(got, "\n")+1:], tc.want)
		}
	}
}

// TestWorkspacesNamed: names are found in the fewest requests: the first
// page of the list, then whichever is fewer, the other pages or a read per
// name still missing; a name that matches nothing costs the whole list (for
// the closest names) unless the pages already gave it.
func TestWorkspacesNamed(t *testing.T) {
	ctx := context.Background()
	sb, c, _ := protoSandbox(t, "named", nil)
	for i := range 250 {
		if _, err := c.Workspaces.Create(ctx, "named", tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("ws-%03d", i))}); err != nil {
			t.Fatal(err)
		}
	}
	for name, tc := range map[string]struct {
		names        []string
		lists, reads int
		missing      []string
		foundCount   int
	}{
		"first page and a read":         {[]string{"ws-000", "ws-249"}, 1, 1, nil, 2},
		"pages, fewer than the names":   {[]string{"ws-150", "ws-160", "ws-249"}, 3, 0, nil, 3},
		"a typo: a read, then the list": {[]string{"ws-000", "ws-2490"}, 1 + 3, 1, []string{"ws-2490"}, 1},
		"one page holds them":           {[]string{"ws-001", "ws-002"}, 1, 0, nil, 2},
	} {
		t.Run(name, func(t *testing.T) {
			lists := sb.RequestsTo("GET", "/api/v2/organizations/named/workspaces")
			reads := 0
			for _, n := range tc.names {
				reads -= sb.RequestsTo("GET", "/api/v2/organizations/named/workspaces/"+n)
			}
			found, missing, have, err := workspacesNamed(ctx, c, "named", tc.names)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tc.names {
				reads += sb.RequestsTo("GET", "/api/v2/organizations/named/workspaces/"+n)
			}
			if got := sb.RequestsTo("GET", "/api/v2/organizations/named/workspaces") - lists; got != tc.lists || reads != tc.reads {
				t.Errorf("%d list pages and %d reads, want %d and %d", got, reads, tc.lists, tc.reads)
			}
			if len(found) != tc.foundCount || !slices.Equal(missing, tc.missing) {
				t.Errorf("found %d, missing %v; want %d, %v", len(found), missing, tc.foundCount, tc.missing)
			}
			if tc.missing != nil && len(have) != 250 {
				t.Errorf("the closest names come from %d names, want all 250", len(have))
			}
		})
	}
}
