package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestListResource_policy(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-pol", nil)
	for i := range listSize {
		opts := tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("pol-%03d", i)), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}
		if i%3 == 0 {
			opts.Kind, opts.Query = tfe.OPA, tfe.String("data.terraform.deny")
		}
		if _, err := c.Policies.Create(ctx, "list-pol", opts); err != nil {
			t.Fatal(err)
		}
	}
	const listPath = "/api/v2/organizations/list-pol/policies"
	before := sb.RequestsTo("GET", listPath)
	res := p.list("tfgov_policy", nil, true, 1000)
	if got := sb.RequestsTo("GET", listPath) - before; got != listPages {
		t.Errorf("listing %d policies took %d requests, want %d", listSize, got, listPages)
	}
	checkResults(t, "policy", res, listSize, true)
	for _, r := range res {
		name := str(t, r.resource["name"])
		if !strings.HasPrefix(r.display, name+" (") || str(t, r.resource["organization"]) != "list-pol" || str(t, r.resource["enforcement_level"]) != "advisory" {
			t.Errorf("result %q: resource %v", r.display, r.resource)
		}
	}
	// Filters: kind, name search, both; the limit.
	checkResults(t, "policy", p.list("tfgov_policy", map[string]string{"kind": "opa"}, false, 1000), (listSize+2)/3, false)
	checkResults(t, "policy", p.list("tfgov_policy", map[string]string{"search": "pol-01"}, false, 1000), 10, false)
	checkResults(t, "policy", p.list("tfgov_policy", map[string]string{"search": "pol-01", "kind": "opa", "organization": "list-pol"}, false, 1000), 3, false)
	checkResults(t, "policy", p.list("tfgov_policy", nil, false, 7), 7, false)
}

func TestAccPolicyList_query(t *testing.T) {
	name := testAccName("list")
	testAccQuery(t, queryCase{
		typ: "policy", config: testAccPolicyConfig(name, "opa", "mandatory", "Listed", `data.terraform.deny`),
		filter:   fmt.Sprintf("search = %q\n    kind = \"opa\"", name),
		identity: map[string]knownvalue.Check{"id": idLike("pol")},
		display:  knownvalue.StringExact(name + " (opa)"),
		values: map[string]knownvalue.Check{
			"name": knownvalue.StringExact(name), "organization": orgCheck(), "kind": knownvalue.StringExact("opa"),
			"enforcement_level": knownvalue.StringExact("mandatory"), "description": knownvalue.StringExact("Listed"),
			"query": knownvalue.StringExact("data.terraform.deny"), "content": knownvalue.Null(),
		},
	})
}
