package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// proofDir runs the terraform binary in a directory of its own against a
// sandbox of its own (whose switches the test sets), as a user would.
type proofDir struct {
	t      *testing.T
	dir    string
	env    []string
	sb     *sandboxOrganization
	client *tfe.Client
}

func newProofDir(t *testing.T, movedBy sandbox.PolicyUpdatedAt) *proofDir {
	t.Helper()
	return newProofDirOpts(t, sandbox.Options{PolicyUpdatedAt: movedBy})
}

// newProofDirOpts is newProofDir with a sandbox started with opts.
func newProofDirOpts(t *testing.T, opts sandbox.Options) *proofDir {
	t.Helper()
	return newProofDirWrapped(t, opts, nil)
}

// newProofDirWrapped is newProofDirOpts with the sandbox's handler behind
// wrap (nil: none).
func newProofDirWrapped(t *testing.T, opts sandbox.Options, wrap func(http.Handler) http.Handler) *proofDir {
	t.Helper()
	testCLIConfig(t)
	if testAccSandbox() == nil {
		t.Skip("the sandbox's switches need an in-process sandbox")
	}
	sb, err := newWrappedSandboxOrganization(opts, "proof-"+randomSuffix(), wrap)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.stop)
	client, err := tfe.NewClient(&tfe.Config{Address: sb.address, Token: sb.token})
	if err != nil {
		t.Fatal(err)
	}
	return &proofDir{t: t, dir: t.TempDir(), sb: sb, client: client,
		env: []string{"TF_CLI_CONFIG_FILE=" + testCLIConfig(t), "TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization}}
}

// proofConfig is one policy named "proof" with description desc and code
// (an HCL expression): in content ("inline"), in content_wo ("lean"), or
// in a tfgov_policy_upload ("upload"); output "id" is the policy's ID.
func proofConfig(shape, desc, code string) string {
	if attr := map[string]string{"inline": "content", "lean": "content_wo"}[shape]; attr != "" {
		return requiredProvidersShim + fmt.Sprintf(`resource "tfgov_policy" "p" {
  name        = "proof"
  description = %q
  %s = %s
}
output "id" { value = tfgov_policy.p.id }
`, desc, attr, code)
	}
	return requiredProvidersShim + fmt.Sprintf(`resource "tfgov_policy" "p" {
  name        = "proof"
  description = %q
}
resource "tfgov_policy_upload" "p" {
  policy_id = tfgov_policy.p.id
  content   = %s
}
output "id" { value = tfgov_policy.p.id }
`, desc, code)
}

func (d *proofDir) write(name, text string) {
	d.t.Helper()
	if err := os.WriteFile(filepath.Join(d.dir, name), []byte(text), 0o600); err != nil {
		d.t.Fatal(err)
	}
}

// tf runs terraform and fails the test unless it succeeds.
func (d *proofDir) tf(args ...string) string {
	d.t.Helper()
	out, code := runTerraformEnv(d.t, d.dir, d.env, append(args, "-no-color")...)
	if code != 0 {
		d.t.Fatalf("terraform %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	if strings.Contains(out, "bug in the provider") {
		d.t.Fatalf("terraform %s blames the provider:\n%s", strings.Join(args, " "), out)
	}
	return out
}

// planShowsDrift: a plan finds the code changed outside Terraform and plans
// the configured code back.
func (d *proofDir) planShowsDrift(why string) {
	d.t.Helper()
	out, code := runTerraformEnv(d.t, d.dir, d.env, "plan", "-detailed-exitcode", "-no-color")
	if code != 2 || !strings.Contains(out, "~ content") { // content, or a source file's content_sha256
		d.t.Fatalf("%s: the plan does not show the outside upload (exit %d):\n%s", why, code, out)
	}
}

func (d *proofDir) emptyPlan(why string) {
	d.t.Helper()
	if out, code := runTerraformEnv(d.t, d.dir, d.env, "plan", "-detailed-exitcode", "-no-color"); code != 0 {
		d.t.Fatalf("%s: the plan is not empty (exit %d):\n%s", why, code, out)
	}
}

// requests runs f and returns the API requests it made, by route (go-tfe's
// ping and the token check at configure left out).
func (d *proofDir) requests(f func()) map[string]int {
	before := d.sb.srv.Stats()
	f()
	got, _ := statsSince(d.sb.srv.Stats(), before)
	delete(got, "GET /api/v2/ping")
	delete(got, "GET /api/v2/account/details")
	return got
}

func (d *proofDir) upload(id, code string) {
	d.t.Helper()
	if err := d.client.Policies.Upload(context.Background(), id, []byte(code)); err != nil {
		d.t.Fatalf("uploading outside Terraform: %v", err)
	}
}

func (d *proofDir) code(id string) string {
	d.t.Helper()
	b, err := d.client.Policies.Download(context.Background(), id)
	if err != nil {
		d.t.Fatal(err)
	}
	return string(b)
}

// TestAccPolicyCodeProof: under each behaviour of the service's updated-at
// (moved by upload and PATCH, by upload only, by PATCH only, by neither:
// the reference does not say), code uploaded outside Terraform is found by
// the next plan, for tfgov_policy's code in `content` and in `content_wo`
// (whose digest shows the change) and for tfgov_policy_upload (`content`):
//
//   - right after an apply;
//   - after a saved plan of a description change was applied, the outside
//     upload made between the plan and its apply (issue 25 row 1: the
//     PATCH's move of updated-at was taken for the provider's own);
//   - after a description change applied without a saved plan, the outside
//     upload made right after it.
//
// Each plan after an apply is empty, and its requests are logged (the
// table in PERFORMANCE.md).
func TestAccPolicyCodeProof(t *testing.T) {
	const codeA, codeB, codeC = "main = rule { true }\n", "main = rule { false }\n", "main = rule { 1 == 1 }\n"
	for _, movedBy := range sandbox.PolicyUpdatedAtValues {
		for _, shape := range []string{"inline", "lean", "upload"} {
			t.Run(string(movedBy)+"/"+shape, func(t *testing.T) {
				t.Parallel()
				d := newProofDir(t, movedBy)
				d.write("policy.sentinel", codeA)
				code := `file("${path.module}/policy.sentinel")`
				if shape == "upload" {
					code = fmt.Sprintf("%q", codeA)
				}
				config := func(desc string) string { return proofConfig(shape, desc, code) }
				d.write("main.tf", config("v1"))
				create := d.requests(func() { d.tf("apply", "-auto-approve") })
				id := strings.Trim(strings.TrimSpace(d.tf("output", "-raw", "id")), `"`)
				plan := d.requests(func() { d.emptyPlan("right after the create") })

				// Right after an apply.
				d.upload(id, codeB)
				d.planShowsDrift("an outside upload right after the create")
				d.tf("apply", "-auto-approve")
				if got := d.code(id); got != codeA {
					t.Fatalf("code after the repair: %q", got)
				}
				d.emptyPlan("after the repair")

				// Row 1: a saved plan of a description change; someone
				// uploads other code; the plan is applied.
				d.write("main.tf", config("v2"))
				d.tf("plan", "-out=tfplan")
				d.upload(id, codeC)
				update := d.requests(func() { d.tf("apply", "tfplan") })
				d.planShowsDrift("an outside upload between a saved plan and its apply")
				d.tf("apply", "-auto-approve")
				replan := d.requests(func() { d.emptyPlan("after the repair of the saved plan's drift") })

				// A description change, then an outside upload.
				d.write("main.tf", config("v3"))
				d.tf("apply", "-auto-approve")
				d.emptyPlan("after the description change")
				d.upload(id, codeB)
				d.planShowsDrift("an outside upload after a description change")
				d.tf("apply", "-auto-approve")
				if got := d.code(id); got != codeA {
					t.Fatalf("code after the last repair: %q", got)
				}
				t.Logf("updated-at moved by %s, %s: create %v; plan %v; update (saved plan, with the outside upload) %v; plan after an update %v", movedBy, shape, create, plan, update, replan)
			})
		}
	}
}

// TestAccPolicyUploadResource_twoForOnePolicy: two tfgov_policy_upload of
// different code for one policy are refused, naming both (issue 25 row 4:
// both planned clean forever, each taking the other's upload for its own).
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

// TestAccPolicyResource_importInlineCode: importing a policy into a
// tfgov_policy whose `content` (a file's) is the code the policy already
// has compares the code (issue 25 row 6: the apply uploaded the identical
// code): the apply uploads nothing, and the next plan is empty.
func TestAccPolicyResource_importInlineCode(t *testing.T) {
	pol := testAccPolicy(t, tfe.OPA)
	if err := testAccClient(t).Policies.Upload(context.Background(), pol.ID, []byte(regoCode)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "policy.rego")
	if err := os.WriteFile(file, []byte(regoCode), 0o600); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`resource "tfgov_policy" "test" {
  name              = %q
  kind              = "opa"
  query             = "data.terraform.deny"
  enforcement_level = "advisory"
  content           = file(%q)
}
import {
  to = tfgov_policy.test
  id = %q
}
`, pol.Name, file, pol.ID)
	uploads := func() int { return sandboxUploads(pol.ID) }
	before := 0
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig: func() { before = uploads() },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content"), knownvalue.StringExact(regoCode)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content"), knownvalue.StringExact(regoCode)),
					stateCheckFunc(func(context.Context, *tfjson.State) error {
						if n := uploads() - before; n != 0 {
							return fmt.Errorf("the apply of the import uploaded %d times, want 0: the service had that code", n)
						}
						return nil
					}),
				},
			},
			{Config: config, PlanOnly: true},
		},
	})
}
