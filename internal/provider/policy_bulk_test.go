package provider

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestRefreshPolicy_missingFromPagesReadByID (issue 53, survivor a): over
// one page of 100, a policy missing from the organization's list is read by
// ID before it counts as gone. A page-1 policy deleted between the page
// reads moves the first policy of page 2 onto page 1, read already: the list
// misses it though it exists. A policy truly deleted is gone (its read by ID
// a 404).
func TestRefreshPolicy_missingFromPagesReadByID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const org = "bulk-policies"
	var c *tfe.Client
	var victim atomic.Pointer[string] // a page-1 policy, deleted when page 2 is asked
	_, c, _ = protoSandbox(t, org, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/api/v2/organizations/"+org+"/policies" && r.URL.Query().Get("page[number]") == "2" {
				if id := victim.Swap(nil); id != nil {
					if err := c.Policies.Delete(r.Context(), *id); err != nil {
						t.Errorf("deleting a page-1 policy: %v", err)
					}
				}
			}
			next.ServeHTTP(w, r)
		})
	})
	var ids []string
	for i := range bulkPageSize + 1 {
		pol, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("p-%03d", i)), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, pol.ID)
	}
	moved := ids[bulkPageSize] // the first of page 2

	d := &providerData{client: c}
	victim.Store(&ids[0])
	pol, err := d.refreshPolicy(ctx, org, moved)
	if l, ok := d.lists.policies.held(org); !ok || l.pages != 2 {
		t.Fatalf("the list was not read in two pages: %+v", l)
	} else if _, listed := l.lookup(moved); listed {
		t.Fatal("the list holds the moved policy: the test did not move it")
	}
	if err != nil || pol == nil || pol.ID != moved {
		t.Errorf("a policy missing from a list of two pages, on the service: refreshed as %+v, %v; want it read by ID", pol, err)
	}

	for _, name := range []string{"q-1", "q-2"} { // two pages again, without ids[1]
		if _, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String(name), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Policies.Delete(ctx, ids[1]); err != nil {
		t.Fatal(err)
	}
	d = &providerData{client: c}
	if pol, err := d.refreshPolicy(ctx, org, ids[1]); err != nil || pol != nil {
		t.Errorf("a deleted policy: refreshed as %+v, %v; want gone", pol, err)
	}
}

// TestRememberPolicyIdentity: a partial identity (a plan's, no name yet) never replaces a complete
// one; a complete one replaces either; one without a kind or ID is not kept.
func TestRememberPolicyIdentity(t *testing.T) {
	t.Parallel()
	full := policyIdentity{kind: tfe.OPA, name: "p", organization: "o", query: "data.p.deny"}
	partial := policyIdentity{kind: tfe.Sentinel, organization: "o"}
	renamed := policyIdentity{kind: tfe.OPA, name: "q", organization: "o"}
	for _, tc := range []struct {
		name      string
		remember  []policyIdentity
		want      policyIdentity
		wantKnown bool
	}{
		{"complete", []policyIdentity{full}, full, true},
		{"partial", []policyIdentity{partial}, partial, false},
		{"partial after complete", []policyIdentity{full, partial}, full, true},
		{"complete after partial", []policyIdentity{partial, full}, full, true},
		{"complete after complete", []policyIdentity{full, renamed}, renamed, true},
		{"no kind", []policyIdentity{{name: "p", organization: "o"}}, policyIdentity{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := &providerData{}
			for _, pi := range tc.remember {
				d.rememberPolicyIdentity("pol-1", pi)
			}
			d.rememberPolicyIdentity("", full)
			if got, _ := d.policyIdentity("pol-1"); got != tc.want {
				t.Errorf("policyIdentity = %+v, want %+v", got, tc.want)
			}
			if _, known := d.knownPolicy("pol-1"); known != tc.wantKnown {
				t.Errorf("knownPolicy = %t, want %t", known, tc.wantKnown)
			}
			if _, ok := d.policyIdentity(""); ok {
				t.Error("an empty ID was kept")
			}
		})
	}
}
