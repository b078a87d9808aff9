package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// TestAccPolicySetResource_sourceToPolicyIDs: a set that has taken a version (source) cannot take
// individual policies, as the service refuses them on a versioned set: the plan that moves it to
// policy_ids fails naming policy_ids, and nothing is written.
func TestAccPolicySetResource_sourceToPolicyIDs(t *testing.T) {
	dir := sentinelSetSource(t)
	name := testAccName("route-set")
	pol := fmt.Sprintf("resource \"tfgov_policy\" \"p\" {\n  name = %q\n  enforcement_level = \"advisory\"\n  content = \"main = rule { true }\\n\"\n}\n", name+"-p")
	set := func(content string) string {
		return pol + fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name = %q\n  description = \"d\"\n  %s\n}\n", name, content)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: set(fmt.Sprintf("source = %q", dir))},
			{Config: set("policy_ids = [tfgov_policy.p.id]"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)policy_ids.*versioned`)},
			{Config: set("policy_ids = []"), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionUpdate)}}},
		},
	})
}

// TestAccPolicySetResource_outsideVersionToPolicyIDs: a set with no content of the configuration's
// that took a version outside Terraform is versioned all the same: the plan reads the set and
// refuses policy_ids.
func TestAccPolicySetResource_outsideVersionToPolicyIDs(t *testing.T) {
	dir := sentinelSetSource(t)
	name := testAccName("route-set")
	pol := fmt.Sprintf("resource \"tfgov_policy\" \"p\" {\n  name = %q\n  enforcement_level = \"advisory\"\n  content = \"main = rule { true }\\n\"\n}\n", name+"-p")
	set := func(content string) string {
		return pol + fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name = %q\n  %s\n}\n", name, content)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: set("")},
			{
				PreConfig: func() {
					ctx, c := context.Background(), testAccClient(t)
					ps, err := c.PolicySets.List(ctx, testAccOrganization(), &tfe.PolicySetListOptions{Search: name})
					if err != nil || len(ps.Items) != 1 {
						t.Fatalf("listing set %s: %v", name, err)
					}
					v, err := c.PolicySetVersions.Create(ctx, ps.Items[0].ID)
					if err != nil {
						t.Fatal(err)
					}
					if err := c.PolicySetVersions.Upload(ctx, *v, dir); err != nil {
						t.Fatal(err)
					}
				},
				Config: set("policy_ids = [tfgov_policy.p.id]"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)policy_ids.*versioned`),
			},
		},
	})
}

// sentinelSetSource is a directory of a Sentinel set's source: sentinel.hcl and one policy.
func sentinelSetSource(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	hcl := "policy \"a\" {\n  source = \"./a.sentinel\"\n  enforcement_level = \"advisory\"\n}\n"
	for name, body := range map[string]string{"sentinel.hcl": hcl, "a.sentinel": "main = rule { true }\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
