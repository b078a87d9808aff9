package provider

import (
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestAccPolicyResource_inlineCodeAndUpload: a tfgov_policy_upload of a
// policy whose tfgov_policy has inline code is refused: before its upload
// when the policy is new (its ID is unknown at plan), at plan after.
func TestAccPolicyResource_inlineCodeAndUpload(t *testing.T) {
	name := testAccName("twice")
	both := testAccPolicyInline(name, regoCode) + `
resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  content   = "package other\n"
}
`
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{Config: both, ExpectError: wrappedRE(`Policy code managed twice`)},
			{Config: both, PlanOnly: true, ExpectError: wrappedRE(`Policy code managed twice`)},
			{Config: testAccPolicyInline(name, regoCode), ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, policyAddr, regoCode)}},
		},
	})
}

// TestAccPolicyUploadResource_twoForOnePolicy: two tfgov_policy_upload of
// different code for one policy are refused, naming both (else both
// plan clean forever, each taking the other's upload for its own).
// With the policy's ID known at plan, the plan fails; with a policy
// created in the same apply, the apply's plan of the second upload fails,
// and so does every plan after it.
func TestAccPolicyUploadResource_twoForOnePolicy(t *testing.T) {
	want := strings.ReplaceAll(`Two tfgov_policy_upload resources upload code to policy pol-\S+: this one \(content with SHA-256 [0-9a-f]{64}\) and another one of this configuration \(content with SHA-256 [0-9a-f]{64}\)`, " ", `\s+`)
	uploads := `resource "tfgov_policy_upload" "two" {
  count     = 2
  policy_id = %s
  content   = ["main = rule { true }\n", "main = rule { false }\n"][count.index]
}
`
	t.Run("policy known at plan", func(t *testing.T) {
		pol := testAccPolicy(t, tfe.Sentinel)
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{
				{Config: fmt.Sprintf(uploads, fmt.Sprintf("%q", pol.ID)), PlanOnly: true, ExpectError: wrappedRE(want)},
			},
		})
	})
	t.Run("policy created in the apply", func(t *testing.T) {
		config := fmt.Sprintf(`resource "tfgov_policy" "test" {
  name = %q
}
`, testAccName("two-uploads")) + fmt.Sprintf(uploads, "tfgov_policy.test.id")
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{
				{Config: config, ExpectError: wrappedRE(want)},
				{Config: config, PlanOnly: true, ExpectError: wrappedRE(want)},
			},
		})
	})
}
