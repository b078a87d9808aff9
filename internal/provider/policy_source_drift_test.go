package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccPolicySourceDrift: code uploaded from a file and then changed on
// the service (through go-tfe) is found by its SHA-256: the next plan shows
// an update although the configuration did not change, and the apply
// uploads the file again. For tfgov_policy_upload's and tfgov_policy's
// `source` (the plan shows content_sha256) and tfgov_policy's
// `content = file(...)` (the plan shows the code).
func TestAccPolicySourceDrift(t *testing.T) {
	for _, tc := range []struct {
		name, addr string
		config     func(name, file string) string
		// attr shows the code: planned back to want.
		attr string
		want knownvalue.Check
	}{
		{"tfgov_policy_upload", "tfgov_policy_upload.test", func(name, file string) string {
			return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  source    = %q
}
`, name, file)
		}, "content_sha256", knownvalue.StringExact(sha256Hex([]byte(regoCode)))},
		{"tfgov_policy", policyAddr, func(name, file string) string {
			return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name    = %q
  kind    = "opa"
  query   = "data.terraform.policies.tags.deny"
  content = file(%q)
}
`, name, file)
		}, "content", knownvalue.StringExact(regoCode)},
		{"tfgov_policy source", policyAddr, testAccPolicySourceFile, "content_sha256", knownvalue.StringExact(sha256Hex([]byte(regoCode)))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "tags.rego")
			if err := os.WriteFile(file, []byte(regoCode), 0o600); err != nil {
				t.Fatal(err)
			}
			config := tc.config(testAccName("srcdrift"), file)
			var policyID string
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{
					{
						Config: config,
						ConfigStateChecks: []statecheck.StateCheck{
							testAccCheckCode(t, tc.addr, regoCode),
							stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
								var err error
								policyID, err = stateID(s, policyAddr)
								return err
							}),
						},
					},
					{
						PreConfig: func() {
							if err := testAccClient(t).Policies.Upload(context.Background(), policyID, []byte(regoV0Code)); err != nil {
								t.Fatalf("changing the code outside Terraform: %v", err)
							}
						},
						Config: config,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionUpdate),
							plancheck.ExpectKnownValue(tc.addr, tfjsonpath.New(tc.attr), tc.want),
						}},
						ConfigStateChecks: []statecheck.StateCheck{
							testAccCheckCode(t, tc.addr, regoCode),
							statecheck.ExpectKnownValue(tc.addr, tfjsonpath.New(tc.attr), tc.want),
						},
					},
				},
			})
		})
	}
}
