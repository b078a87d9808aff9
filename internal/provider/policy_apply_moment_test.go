package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// beforeApply is the provider server with a hook that runs when Terraform asks it to apply a
// change of a resource type, after every plan of it: the moment between Terraform's last plan and
// the provider's write.
type beforeApply struct {
	tfprotov6.ProviderServer
	hook func(typeName string)
}

func (s beforeApply) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s.hook(req.TypeName)
	return s.ProviderServer.ApplyResourceChange(ctx, req)
}

// accTestBeforeApply is accParallelTest with hook run before each apply of a resource.
func accTestBeforeApply(t *testing.T, c resource.TestCase, hook func(typeName string)) {
	t.Helper()
	c = accCase(t, c)
	c.ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
		"tfgov": func() (tfprotov6.ProviderServer, error) {
			srv, err := providerserver.NewProtocol6WithError(New("test")())()
			return beforeApply{srv, hook}, err
		},
	}
	resource.ParallelTest(t, c)
}

// TestAccPolicySource_editedBeforeWrite: a `source` file edited after Terraform's last plan of the
// resource (the apply's own), right before the provider writes, fails the apply naming the change,
// and the service keeps the code it had; tfgov_policy and tfgov_policy_upload alike.
func TestAccPolicySource_editedBeforeWrite(t *testing.T) {
	for _, tc := range []struct{ typ, addr, config string }{
		{"tfgov_policy", "tfgov_policy.test", `
resource "tfgov_policy" "test" {
  name   = %q
  kind   = "opa"
  query  = "data.terraform.policies.tags.deny"
  source = %q
}
`},
		{"tfgov_policy_upload", "tfgov_policy_upload.test", `
resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  source    = %q
}
`},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			name := testAccName("edited")
			file := filepath.Join(t.TempDir(), "tags.rego")
			write := func(code string) {
				if err := os.WriteFile(file, []byte(code), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			const planned, edited = regoCode + "# planned\n", regoCode + "# edited before the write\n"
			var armed atomic.Bool
			hook := func(typeName string) {
				if typeName == tc.typ && armed.CompareAndSwap(true, false) {
					write(edited)
				}
			}
			config := fmt.Sprintf(tc.config, name, filepath.ToSlash(file))
			accTestBeforeApply(t, resource.TestCase{
				CheckDestroy: testAccCheckPolicyDestroyed(t, name),
				Steps: []resource.TestStep{
					{PreConfig: func() { write(regoCode) }, Config: config},
					{
						PreConfig:   func() { write(planned); armed.Store(true) },
						Config:      config,
						ExpectError: matchWrapped("Policy code changed since the plan", "The plan was made for code with SHA-256 "+sha256Hex([]byte(planned))),
					},
					{
						// Nothing was uploaded; a new apply takes the file as it is.
						PreConfig: func() {
							if armed.Load() {
								t.Error("the file was not edited: no apply reached the provider")
							}
							if got := serviceCode(t, name); got != regoCode {
								t.Errorf("the service holds %q after the refused apply, want the code applied before", got)
							}
						},
						Config:            config,
						ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, tc.addr, edited)},
					},
				},
			}, hook)
		})
	}
}

// serviceCode is the code of the organization's policy named name.
func serviceCode(t *testing.T, name string) string {
	t.Helper()
	ctx := context.Background()
	pol, err := policyClient{testAccClient(t)}.findByName(ctx, testAccOrganization(), name)
	if err != nil {
		t.Fatalf("finding policy %s: %v", name, err)
	}
	b, err := testAccClient(t).Policies.Download(ctx, pol.ID)
	if err != nil {
		t.Fatalf("downloading the code of %s: %v", pol.ID, err)
	}
	return string(b)
}
