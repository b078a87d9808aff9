package provider

import (
	"context"
	"fmt"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestListResource_policyUpload(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-up", nil)
	code := map[string]string{}
	var ids []string
	for i := range 4 {
		pol, err := c.Policies.Create(ctx, "list-up", tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("up-%d", i)), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, pol.ID)
	}
	// Two with code, one changed without code, one untouched.
	for _, id := range ids[:2] {
		code[id] = "main = rule { \"" + id + "\" != \"\" }\n"
		if err := c.Policies.Upload(ctx, id, []byte(code[id])); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Policies.Update(ctx, ids[2], tfe.PolicyUpdateOptions{Description: tfe.String("changed")}); err != nil {
		t.Fatal(err)
	}
	downloads := func() int {
		n := 0
		for _, id := range ids {
			n += sb.RequestsTo("GET", "/api/v2/policies/"+id+"/download")
		}
		return n
	}
	res := p.list("tfgov_policy_upload", nil, true, 100)
	checkResults(t, "policy_upload", res, 2, true)
	for _, r := range res {
		id := r.identity["policy_id"]
		if got := str(t, r.resource["content"]); got != code[id] {
			t.Errorf("%s: content %q, want %q", id, got, code[id])
		}
		if got := str(t, r.resource["content_sha256"]); got != sha256String(code[id]) {
			t.Errorf("%s: content_sha256 %q", id, got)
		}
	}
	// The policies changed since their creation are downloaded, once each.
	if got := downloads(); got != 3 {
		t.Errorf("%d downloads, want 3 (the policies with updated-at)", got)
	}
	// With a limit of 1, the download that found the first is the last.
	before := downloads()
	checkResults(t, "policy_upload", p.list("tfgov_policy_upload", nil, false, 1), 1, false)
	if got := downloads() - before; got != 1 {
		t.Errorf("limit 1: %d downloads, want 1", got)
	}
}

func TestAccPolicyUploadList_query(t *testing.T) {
	name := testAccName("list")
	testAccQuery(t, queryCase{
		typ: "policy_upload", config: testAccPolicyWithUpload(name, "sentinel", sentinelCode),
		filter:   fmt.Sprintf("search = %q", name),
		identity: map[string]knownvalue.Check{"policy_id": idLike("pol")},
		display:  knownvalue.StringExact("code of " + name + " (sentinel)"),
		values: map[string]knownvalue.Check{
			"content": knownvalue.StringExact(sentinelCode), "content_sha256": knownvalue.StringExact(sha256String(sentinelCode)), "source": knownvalue.Null(),
		},
	})
}
