package provider

import (
	"context"
	"fmt"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// testAccPolicyInline is an OPA policy with its code inline.
func testAccPolicyInline(name, code string) string {
	return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name    = %q
  kind    = "opa"
  query   = "data.terraform.policies.tags.deny"
  content = %q
}
`, name, code)
}

// TestAccPolicyResource_inlineCode: tfgov_policy with `content` uploads
// the code at create, uploads new code in place, plans an upload for code
// changed outside Terraform, refuses Rego that does not parse at plan
// time, and imports by ID.
func TestAccPolicyResource_inlineCode(t *testing.T) {
	name := testAccName("inline")
	var policyID string
	const regoV2 = "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains \"v2\" if { false }\n"
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			// Refused at plan: nothing is made.
			{
				Config:      testAccPolicyInline(name, badRego),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Invalid Rego.*rego_parse_error`),
			},
			{
				Config: testAccPolicyInline(name, regoCode),
				ConfigStateChecks: []statecheck.StateCheck{
					testAccCheckCode(t, policyAddr, regoCode),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						var err error
						policyID, err = stateID(s, policyAddr)
						return err
					}),
				},
			},
			// Import by ID: the code is not tracked until the next apply.
			{ResourceName: policyAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"content"}},
			{
				Config:           testAccPolicyInline(name, regoV2),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content"), knownvalue.StringExact(regoV2)),
					testAccCheckCode(t, policyAddr, regoV2),
				},
			},
			// Drift: code changed outside Terraform; the plan uploads it again.
			{
				PreConfig: func() {
					if err := testAccClient(t).Policies.Upload(context.Background(), policyID, []byte(regoCode)); err != nil {
						t.Fatalf("uploading outside Terraform: %v", err)
					}
				},
				Config:            testAccPolicyInline(name, regoV2),
				ConfigPlanChecks:  expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, policyAddr, regoV2)},
			},
		},
	})
}

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

const orgPolicies = "GET /api/v2/organizations/{org}/policies"

// testAccPolicyListPages is the number of pages (100 a page) of the test
// organization's policies: a refresh's list requests.
func testAccPolicyListPages(t *testing.T) int {
	pols, err := policyClient{testAccClient(t)}.list(context.Background(), testAccOrganization(), "", "")
	if err != nil {
		t.Fatalf("listing policies: %v", err)
	}
	return max(1, (len(pols)+bulkPageSize-1)/bulkPageSize)
}

// TestAccPolicyResource_inlineCodeRequests: a policy with inline code costs
// four requests to create (POST, PUT, and the proof: the policy and its
// code read once; nothing is listed before a create), three to change its
// code (PUT and the proof) and a
// refresh of the organization's list to plan. Not parallel: the counter sees
// no other test's requests.
func TestAccPolicyResource_inlineCodeRequests(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	name := testAccName("inline-count")
	const regoV2 = "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains \"v2\" if { false }\n"
	var before map[string]int
	var start time.Time
	check := func(phase string, want map[string]int) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			got, _ := statsSince(sb.Stats(), before)
			delete(got, "GET /api/v2/ping")
			delete(got, "GET /api/v2/account/details") // the token check at configure
			if _, ok := want[orgPolicies]; ok {
				want[orgPolicies] = testAccPolicyListPages(t) // other tests' policies too
				if recheckedIn(s.RootModule().Resources[policyAddr].Primary.ID, start, time.Now()) {
					want["GET /api/v2/policies/{id}/download"]++ // the rotating recheck's hour (code_proof.go)
				}
			}
			t.Logf("%s: %v", phase, got)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				return fmt.Errorf("%s made %v, want %v", phase, got, want)
			}
			return nil
		}
	}
	snapshot := func() { before, start = sb.Stats(), time.Now() }
	accTest(t, resource.TestCase{
		PreCheck:     func() { testAccPreCheck(t); snapshot() },
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				Config: testAccPolicyInline(name, regoCode),
				Check: check("create", map[string]int{
					"POST /api/v2/organizations/{org}/policies": 1, // nothing is listed before a create
					"PUT /api/v2/policies/{id}/upload":          1,
					// The proof (code_proof.go): did the upload move updated-at, and
					// which code is at the new updated-at.
					"GET /api/v2/policies/{id}":          1,
					"GET /api/v2/policies/{id}/download": 1,
				}),
			},
			{
				PreConfig:    snapshot,
				RefreshState: true,
				Check: check("first refresh after the upload (ours: no download)", map[string]int{
					orgPolicies: 1,
				}),
			},
			{
				PreConfig:    snapshot,
				RefreshState: true,
				Check: check("refresh of unchanged code", map[string]int{
					orgPolicies: 1,
				}),
			},
			{
				PreConfig: snapshot,
				Config:    testAccPolicyInline(name, regoV2),
				Check: check("code change (refresh, then upload)", map[string]int{
					orgPolicies:                          1,
					"PUT /api/v2/policies/{id}/upload":   1,
					"GET /api/v2/policies/{id}":          1,
					"GET /api/v2/policies/{id}/download": 1,
				}),
			},
		},
	})
}
