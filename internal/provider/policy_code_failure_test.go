package provider

import (
	"context"
	"fmt"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// A failed code upload, with retries off (retry_max = 0) so that one 500
// fails it: what the docs of tfgov_policy (inline code) and
// tfgov_policy_upload say happens.

const (
	policyUploadRoute = "PUT /api/v2/policies/{id}/upload"
	policyDeleteRoute = "DELETE /api/v2/policies/{id}"
)

// failingSandbox is a sandbox of the test's own (its faults match every
// policy) and the provider block that reaches it without retries.
func failingSandbox(t *testing.T) (*sandboxOrganization, *tfe.Client, string) {
	t.Helper()
	if testAccSandbox() == nil {
		t.Skip("faults are injected by the sandbox")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-failed-upload")
	return sb, c, fmt.Sprintf(`
provider "tfgov" {
  address      = %q
  token        = %q
  organization = %q
  retry_max    = 0
}
`, sb.address, sb.token, sb.organization)
}

// policiesNamed returns the policies of org named name.
func policiesNamed(t *testing.T, c *tfe.Client, org, name string) []*policyAPI {
	t.Helper()
	pols, err := policyClient{c}.list(context.Background(), org, name, "")
	if err != nil {
		t.Fatal(err)
	}
	var out []*policyAPI
	for _, p := range pols {
		if p.Name == name {
			out = append(out, p)
		}
	}
	return out
}

// codeOnServer checks that the policy at addr has code.
func codeOnServer(c *tfe.Client, addr, code string) statecheck.StateCheck {
	return stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
		id, err := stateID(s, addr)
		if err != nil {
			return err
		}
		got, err := c.Policies.Download(ctx, id)
		if err != nil {
			return fmt.Errorf("downloading the code of %s: %w", id, err)
		}
		if string(got) != code {
			return fmt.Errorf("code of %s: %q, want %q", id, got, code)
		}
		return nil
	})
}

func injectFaults(t *testing.T, sb *sandboxOrganization, faults ...sandbox.Fault) func() {
	return func() {
		for _, f := range faults {
			if err := sb.srv.InjectFault(f); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestAccPolicyResource_inlineCodeUploadFails: when the code upload of a
// new tfgov_policy fails, the policy is deleted again and the apply fails
// saying so; nothing is in state, and the next apply creates the policy
// with its code (a create, not the replacement of a tainted policy).
func TestAccPolicyResource_inlineCodeUploadFails(t *testing.T) {
	sb, c, provider := failingSandbox(t)
	name := testAccName("putfails")
	config := provider + testAccPolicyInline(name, regoCode)
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig:   injectFaults(t, sb, sandbox.Fault{Route: policyUploadRoute, Status: 500, Count: 1}),
				Config:      config,
				ExpectError: wrappedRE(`Error uploading policy code.*uploading\s+its\s+code\s+failed.*deleted\s+again.*nothing\s+is\s+recorded\s+in\s+state`),
			},
			{
				PreConfig: func() {
					if got := policiesNamed(t, c, sb.organization, name); len(got) != 0 {
						t.Errorf("after the failed create: %d policies named %s, want none", len(got), name)
					}
				},
				Config:           config,
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					codeOnServer(c, policyAddr, regoCode),
				},
			},
		},
	})
}

// TestAccPolicyResource_inlineCodeUploadAndDeleteFail: when the delete
// after a failed code upload fails too, the policy is kept in state,
// tainted, as the error says: the next plan replaces it, and the
// replacement has its code.
func TestAccPolicyResource_inlineCodeUploadAndDeleteFail(t *testing.T) {
	sb, c, provider := failingSandbox(t)
	name := testAccName("putdelfail")
	config := provider + testAccPolicyInline(name, regoCode)
	var first string
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig: injectFaults(t, sb,
					sandbox.Fault{Route: policyUploadRoute, Status: 500, Count: 1},
					sandbox.Fault{Route: policyDeleteRoute, Status: 500, Count: 1}),
				Config:      config,
				ExpectError: wrappedRE(`uploading\s+its\s+code\s+failed.*Deleting\s+the\s+policy\s+again\s+failed\s+too.*tainted.*terraform\s+untaint`),
			},
			{
				PreConfig: func() {
					got := policiesNamed(t, c, sb.organization, name)
					if len(got) != 1 {
						t.Fatalf("after the failed create and delete: %d policies named %s, want 1", len(got), name)
					}
					first = got[0].ID
				},
				Config:           config,
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					codeOnServer(c, policyAddr, regoCode),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						if id, _ := stateID(s, policyAddr); id == first {
							return fmt.Errorf("the tainted policy %s was not replaced", first)
						}
						return nil
					}),
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if got := policiesNamed(t, c, sb.organization, name); len(got) != 0 {
				return fmt.Errorf("%d policies named %s after destroy", len(got), name)
			}
			return nil
		},
	})
}

// TestAccPolicyUploadResource_uploadFails: a failed upload of a new
// tfgov_policy_upload records nothing, and the next apply uploads; a failed
// upload of changed code keeps the code last uploaded in state, and the
// next apply uploads again.
func TestAccPolicyUploadResource_uploadFails(t *testing.T) {
	sb, c, provider := failingSandbox(t)
	name := testAccName("uploadfails")
	config := func(code string) string {
		return provider + fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  content   = %q
}
`, name, code)
	}
	const upload = "tfgov_policy_upload.test"
	fault := injectFaults(t, sb, sandbox.Fault{Route: policyUploadRoute, Status: 500, Count: 1})
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{PreConfig: fault, Config: config(regoCode), ExpectError: wrappedRE(`Error uploading policy code`)},
			{
				Config:            config(regoCode),
				ConfigPlanChecks:  expectAction(upload, plancheck.ResourceActionCreate),
				ConfigStateChecks: []statecheck.StateCheck{codeOnServer(c, upload, regoCode)},
			},
			{PreConfig: fault, Config: config(regoV0Code), ExpectError: wrappedRE(`Error uploading policy code`)},
			{
				Config:            config(regoV0Code),
				ConfigPlanChecks:  expectAction(upload, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{codeOnServer(c, upload, regoV0Code)},
			},
		},
	})
}
