package provider

import (
	"context"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestSubstringAndPrefixDistance(t *testing.T) {
	tests := []struct {
		w, h        string
		sub, prefix int
	}{
		{"paymnt", "acme-payments-prod", 1, 4},
		{"paymnt", "payments-prod", 1, 1},
		{"payments", "payments-prod", 0, 0},
		{"acme-", "acme-web", 0, 0},
		{"acme-web-prod", "web", 10, 10},
		{"", "web", 0, 0},
	}
	for _, tc := range tests {
		if got := substringDistance(tc.w, tc.h); got != tc.sub {
			t.Errorf("substringDistance(%q, %q) = %d, want %d", tc.w, tc.h, got, tc.sub)
		}
		if got := prefixDistance(tc.w, tc.h); got != tc.prefix {
			t.Errorf("prefixDistance(%q, %q) = %d, want %d", tc.w, tc.h, got, tc.prefix)
		}
	}
}

func TestEmptyWorkspacesDetail(t *testing.T) {
	ws := func(name string, tags ...string) *tfe.Workspace { return &tfe.Workspace{Name: name, TagNames: tags} }
	all := []*tfe.Workspace{
		ws("payments-prod", "team:payments", "prod"),
		ws("payments-dev", "team:payments", "dev"),
		ws("web-prod", "team:web", "prod", "legacy"),
	}
	tests := map[string]struct {
		f       workspaceFilter
		all     []*tfe.Workspace
		want    []string
		wantNot []string
	}{
		"tag typo": {
			f: workspaceFilter{tags: []string{"prod", "team:payment"}}, all: all,
			want:    []string{`No workspace carries the tag "team:payment"; the closest tags: "team:payments", "team:web", "legacy".`},
			wantNot: []string{`tag "prod"`, "match them all"},
		},
		"prefix in the wrong case": {
			f: workspaceFilter{prefix: "Payments-"}, all: all,
			want: []string{`No workspace name starts with "Payments-" (case-sensitive); the closest names: "payments-dev", "payments-prod", "web-prod".`},
		},
		"search typo": {
			f: workspaceFilter{search: "paymnts"}, all: all,
			want: []string{`No workspace name contains "paymnts"; the closest names: "payments-dev", "payments-prod"`},
		},
		"tags that exist but not together": {
			f: workspaceFilter{tags: []string{"dev", "team:web"}}, all: all,
			want: []string{"Each filter matches some workspaces, but no workspace matches them all."},
		},
		"every match excluded": {
			f: workspaceFilter{tags: []string{"team:web"}, exclude: []string{"legacy"}}, all: all,
			want: []string{`1 workspace(s) match the other filters, and each carries one of the excluded tags "legacy".`},
		},
		"no workspace visible": {
			f:    workspaceFilter{tags: []string{"prod"}},
			want: []string{"The API token sees no workspace there."},
		},
		"no tag at all": {
			f: workspaceFilter{tags: []string{"prod"}}, all: []*tfe.Workspace{ws("a")},
			want: []string{`No workspace carries the tag "prod": no workspace carries a tag.`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := emptyWorkspacesDetail("acme", tc.f, tc.all)
			for _, w := range append(tc.want, "No workspace of organization acme that the API token can see matches the filter.", "set allow_empty = true") {
				if !strings.Contains(got, w) {
					t.Errorf("detail lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("detail has %q:\n%s", w, got)
				}
			}
		})
	}
}

func TestEmptyPoliciesDetail(t *testing.T) {
	tests := map[string]struct {
		search, kind string
		names        []string
		want         string
	}{
		"typo":         {"requre-tags", "", []string{"require-tags", "deny-public", "require-owner"}, `No policy of organization acme has a name containing "requre-tags"; the closest names: "require-tags", "require-owner", "deny-public".`},
		"none of kind": {"x", "opa", nil, `No opa policy of organization acme has a name containing "x": the API token sees no opa policy there.`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := emptyPoliciesDetail("acme", tc.search, tc.kind, tc.names)
			if !strings.HasPrefix(got, tc.want) || !strings.HasSuffix(got, allowEmptyHint) {
				t.Errorf("got %q, want %q then the hint", got, tc.want)
			}
		})
	}
}

// TestEmptyLookup_protocol (issue 53, survivors d and e): a plural look-up
// that matches nothing fails when allow_empty is false, written out or left
// out, and passes empty with allow_empty = true; the check runs on what the
// local filters keep, not on the service's answer (its name search finds
// "acme-web" for name_prefix "web", which the prefix then drops).
func TestEmptyLookup_protocol(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const org = "empty-lookups"
	_, c, p := protoSandbox(t, org, nil)
	if _, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("acme-web")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("acme-tags"), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}); err != nil {
		t.Fatal(err)
	}
	s := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	b := func(v bool) tftypes.Value { return tftypes.NewValue(tftypes.Bool, v) }
	tests := []struct {
		name, typ string
		cfg       map[string]tftypes.Value
		wantErr   string // "": an empty result
	}{
		{"workspaces, allow_empty left out", "tfgov_workspaces", map[string]tftypes.Value{"name_prefix": s("nothing")}, "No workspace matches the filter"},
		{"workspaces, allow_empty = false", "tfgov_workspaces", map[string]tftypes.Value{"name_prefix": s("nothing"), "allow_empty": b(false)}, "No workspace matches the filter"},
		{"workspaces, allow_empty = true", "tfgov_workspaces", map[string]tftypes.Value{"name_prefix": s("nothing"), "allow_empty": b(true)}, ""},
		{"a prefix the service finds mid-name", "tfgov_workspaces", map[string]tftypes.Value{"name_prefix": s("web")}, `No workspace name starts with "web"`},
		{"a prefix the service finds mid-name, allow_empty = false", "tfgov_workspaces", map[string]tftypes.Value{"name_prefix": s("web"), "allow_empty": b(false)}, `No workspace name starts with "web"`},
		{"policies, allow_empty left out", "tfgov_policies", map[string]tftypes.Value{"search": s("nothing")}, "No policy matches the search"},
		{"policies, allow_empty = false", "tfgov_policies", map[string]tftypes.Value{"search": s("nothing"), "allow_empty": b(false)}, "No policy matches the search"},
		{"policies, allow_empty = true", "tfgov_policies", map[string]tftypes.Value{"search": s("nothing"), "allow_empty": b(true)}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := p.fresh().readData(tc.typ, tc.cfg)
			got := diagText(resp.Diagnostics)
			switch {
			case tc.wantErr == "" && hasErrors(resp.Diagnostics):
				t.Errorf("want an empty result, got %s", got)
			case tc.wantErr != "" && (!hasErrors(resp.Diagnostics) || !strings.Contains(got, tc.wantErr)):
				t.Errorf("want the error %q, got %q", tc.wantErr, got)
			}
		})
	}
}
