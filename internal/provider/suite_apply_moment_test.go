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
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
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

// TestAccPolicyTests_knownAtApply: tests_wo runs on what is known only at apply, before anything
// is written. Tests from a resource the apply changes (a terraform_data's output) run in the apply's
// own plan; code the apply reads (a new resource's source file, here edited after that plan, right
// before the write) is tested at the write, on the bytes about to be uploaded: a failing test fails
// the apply naming the resource, and nothing is made or uploaded.
func TestAccPolicyTests_knownAtApply(t *testing.T) {
	pass := testedPolicyTest("aws_s3_bucket.logs has no owner tag")
	const lax = "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains msg if {\n\tfalse\n\tmsg := \"never\"\n}\n"
	for _, tc := range []struct {
		name, typ, addr, config string
		unknownTests            bool // tests from terraform_data, the code as planned
	}{
		{name: "tests from the apply", typ: "tfgov_policy", addr: "tfgov_policy.test", unknownTests: true, config: `
resource "terraform_data" "tests" {
  input = %[3]q
}

resource "tfgov_policy" "test" {
  name     = %[1]q
  kind     = "opa"
  query    = "data.terraform.policies.tags.deny"
  source   = %[2]q
  tests_wo = { code = [terraform_data.tests.output] }
}
`},
		{name: "tfgov_policy code read at apply", typ: "tfgov_policy", addr: "tfgov_policy.test", config: `
resource "tfgov_policy" "test" {
  name     = %[1]q
  kind     = "opa"
  query    = "data.terraform.policies.tags.deny"
  source   = %[2]q
  tests_wo = { code = [%[3]q] }
}
`},
		{name: "tfgov_policy_upload code read at apply", typ: "tfgov_policy_upload", addr: "tfgov_policy_upload.test", config: `
resource "tfgov_policy" "test" {
  name  = %[1]q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  source    = %[2]q
  tests_wo  = { code = [%[3]q] }
}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := testAccName("applytests")
			file := filepath.Join(t.TempDir(), "tags.rego")
			write := func(code string) {
				if err := os.WriteFile(file, []byte(code), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var armed atomic.Bool
			hook := func(typeName string) {
				if typeName == tc.typ && armed.CompareAndSwap(true, false) {
					write(lax)
				}
			}
			config := func(tests string) string { return fmt.Sprintf(tc.config, name, filepath.ToSlash(file), tests) }
			first := resource.TestStep{
				PreConfig:   func() { write(testedPolicy); armed.Store(true) },
				Config:      config(pass),
				ExpectError: matchWrapped("Policy test failed", "with "+tc.addr+",", "nothing was uploaded", "test_untagged_denied"),
			}
			if tc.unknownTests {
				first.PreConfig = func() { write(testedPolicy) }
				first.Config = config(testedPolicyTest("aws_s3_bucket.logs lacks a tag"))
				first.ExpectError = matchWrapped("Policy test failed", "with "+tc.addr+",", "test_untagged_denied", "lacks a tag")
			}
			accTestBeforeApply(t, resource.TestCase{
				CheckDestroy: testAccCheckPolicyDestroyed(t, name),
				Steps: []resource.TestStep{first, {
					PreConfig: func() {
						if armed.Load() {
							t.Error("the file was not edited: no apply reached the provider")
						}
						write(testedPolicy)
					},
					Config: config(pass),
					ConfigStateChecks: []statecheck.StateCheck{
						testAccCheckCode(t, tc.addr, testedPolicy),
						statecheck.ExpectKnownValue(tc.addr, tfjsonpath.New("tests_sha256"), knownvalue.StringRegexp(sha256RE)),
					},
				}},
			}, hook)
		})
	}
}
