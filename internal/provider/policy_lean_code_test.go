package provider

import (
	"context"
	"fmt"
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
)

// testAccPolicyLean is testAccPolicyInline with the code in content_wo.
func testAccPolicyLean(name, code string) string {
	return strings.Replace(testAccPolicyInline(name, code), "content =", "content_wo =", 1)
}

// leanState checks that state keeps the code's digest and no code.
func leanState(code string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(code)))),
		statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_wo"), knownvalue.Null()),
		statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content"), knownvalue.Null()),
	}
}

// TestAccPolicyResource_contentWO: tfgov_policy with `content_wo` keeps
// only the code's SHA-256 in state; it uploads the code at create, refuses
// Rego that does not parse and `content` beside it at plan time, uploads
// new code in place, finds code uploaded outside Terraform, moves to
// `content` and back without an upload, and removing it leaves the code.
func TestAccPolicyResource_contentWO(t *testing.T) {
	name := testAccName("lean")
	var policyID string
	const regoV2 = "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains \"v2\" if { false }\n"
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			// Refused at plan: nothing is made.
			{Config: testAccPolicyLean(name, badRego), PlanOnly: true, ExpectError: wrappedRE(`Invalid Rego.*content_wo`)},
			{
				Config:      strings.Replace(testAccPolicyLean(name, regoCode), "content_wo", "content = \"x\"\n  content_wo", 1),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Invalid Attribute Combination.*content_wo`),
			},
			{
				Config: testAccPolicyLean(name, regoCode),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(regoCode)))),
				}},
				ConfigStateChecks: append(leanState(regoCode), testAccCheckCode(t, policyAddr, regoCode),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						var err error
						policyID, err = stateID(s, policyAddr)
						return err
					})),
			},
			// Changed code is checked again at plan (unchanged code is not:
			// its own plan checked it).
			{Config: testAccPolicyLean(name, badRego), PlanOnly: true, ExpectError: wrappedRE(`Invalid Rego.*content_wo`)},
			{
				Config:            testAccPolicyLean(name, regoV2),
				ConfigPlanChecks:  expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(leanState(regoV2), testAccCheckCode(t, policyAddr, regoV2)),
			},
			// Drift: code uploaded outside Terraform shows as its digest,
			// and the apply uploads the configured code again.
			outsideUploadStep(t, &policyID, regoCode),
			{
				Config:            testAccPolicyLean(name, regoV2),
				ConfigPlanChecks:  expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(leanState(regoV2), testAccCheckCode(t, policyAddr, regoV2)),
			},
			// Import by ID: the code is not tracked until the next apply.
			{ResourceName: policyAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"content_sha256"}},
			// The same code as content, then back: the state changes, the
			// service does not (the upload count stays).
			{
				Config: testAccPolicyInline(name, regoV2),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content"), knownvalue.StringExact(regoV2)),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.Null()),
					testAccCheckCode(t, policyAddr, regoV2),
				},
			},
			{Config: testAccPolicyLean(name, regoV2), ConfigStateChecks: leanState(regoV2)},
			// Removing content_wo plans its default, no code managed: the
			// code stays on the service.
			{
				Config: strings.Replace(testAccPolicyLean(name, regoV2), "content_wo =", "# content_wo =", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, policyAddr, regoV2)},
			},
		},
	})
}

// TestAccPolicyResource_leanNoReupload: an import into a configuration
// with content_wo or source uploads nothing when the service has that code
// (both plans show content_sha256, which the import's download records);
// moving to content and back with the same code uploads nothing either.
func TestAccPolicyResource_leanNoReupload(t *testing.T) {
	for _, shape := range []string{"content_wo", "source"} {
		t.Run(shape, func(t *testing.T) {
			pol := testAccPolicy(t, tfe.OPA)
			if err := testAccClient(t).Policies.Upload(context.Background(), pol.ID, []byte(regoCode)); err != nil {
				t.Fatal(err)
			}
			lean := strings.Replace(testAccPolicyLean(pol.Name, regoCode), `name`, fmt.Sprintf("organization = %q\n  name", testAccOrganization()), 1)
			if shape == "source" {
				lean = testAccPolicySource(t, pol.Name, regoCode)
				lean = strings.Replace(lean, `name`, fmt.Sprintf("organization = %q\n  name", testAccOrganization()), 1)
			}
			inline := strings.Replace(testAccPolicyLean(pol.Name, regoCode), `name`, fmt.Sprintf("organization = %q\n  name", testAccOrganization()), 1)
			inline = strings.Replace(inline, "content_wo", "content", 1)
			importBlock := fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", policyAddr, pol.ID)
			before := 0
			count := func() { before = sandboxUploads(pol.ID) }
			none := stateCheckFunc(func(context.Context, *tfjson.State) error {
				if n := sandboxUploads(pol.ID) - before; n != 0 {
					return fmt.Errorf("the apply uploaded %d times, want 0", n)
				}
				return nil
			})
			checks := []plancheck.PlanCheck{plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(regoCode))))}
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{
					{
						PreConfig:         count,
						Config:            lean + importBlock,
						ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: checks},
						ConfigStateChecks: append(leanState(regoCode), none),
					},
					{Config: lean, PlanOnly: true},
					{PreConfig: count, Config: inline, ConfigStateChecks: []statecheck.StateCheck{none}},
					{PreConfig: count, Config: lean, ConfigStateChecks: append(leanState(regoCode), none)},
				},
			})
		})
	}
}

// TestAccPolicyResource_contentWOChangedAfterPlan: a saved plan of a
// policy with content_wo = file(...), applied after the file changed,
// fails and sends nothing, at create as at update; a new plan applies the
// file. The error is Terraform's own: 1.11 reports an "inconsistent final
// plan" naming both digests (as for any configuration value that changed
// since the plan, content = file(...) included: its re-plan at apply
// gives the provider nothing of the saved plan to compare with), and later
// versions find that file() read other bytes than the plan's.
func TestAccPolicyResource_contentWOChangedAfterPlan(t *testing.T) {
	name := testAccName("leansaved")
	d := newCLIDir(t, fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name       = %q
  kind       = "opa"
  query      = "data.terraform.policies.tags.deny"
  content_wo = file("${path.module}/policy.rego")
}
`, name))
	ctx := context.Background()
	edited := regoCode + "# edited after the plan\n"
	// Terraform 1.11 names both digests; later versions stop at file()
	// itself, which read other bytes than the plan's.
	refused := func(was, now string) {
		t.Helper()
		out, err := runTerraform(t, d.dir, "apply", "-no-color", "tfplan")
		folded := strings.Join(strings.Fields(out), " ")
		digests := strings.Contains(folded, "content_sha256: was cty.StringVal(\""+sha256Hex([]byte(was))) &&
			strings.Contains(folded, "but now cty.StringVal(\""+sha256Hex([]byte(now)))
		fileChanged := strings.Contains(folded, `Call to function "file" failed: function returned an inconsistent result`)
		if err == nil || (!digests && !fileChanged) {
			t.Fatalf("apply of a saved plan after the code changed: %v, want an error naming both digests or file()'s changed result:\n%s", err, out)
		}
	}

	// Create: nothing is made.
	d.write("policy.rego", regoV0Code)
	d.must("plan", "-out=tfplan")
	d.write("policy.rego", regoCode)
	refused(regoV0Code, regoCode)
	if _, err := (policyClient{testAccClient(t)}).findByName(ctx, testAccOrganization(), name); !isNotFound(err) {
		t.Errorf("after the refused create, the policy exists or the lookup failed: %v", err)
	}
	d.must("apply", "-auto-approve")
	id, _ := d.stateAttr(policyAddr, "id").(string)
	d.emptyPlan()

	// Update: nothing is uploaded.
	d.write("policy.rego", regoV0Code)
	d.must("plan", "-out=tfplan")
	d.write("policy.rego", edited)
	refused(regoV0Code, edited)
	if got, err := testAccClient(t).Policies.Download(ctx, id); err != nil || string(got) != regoCode {
		t.Errorf("code after the refused update: %q (%v), want the code applied before", got, err)
	}
	d.must("apply", "-auto-approve")
	if got, err := testAccClient(t).Policies.Download(ctx, id); err != nil || string(got) != edited {
		t.Errorf("code after the new plan's apply: %q (%v), want the edited file", got, err)
	}
	if got := d.stateAttr(policyAddr, "content_sha256"); got != sha256Hex([]byte(edited)) {
		t.Errorf("content_sha256 %v, want the edited file's", got)
	}
	d.emptyPlan()
}

// testAccPolicySourceFile is testAccPolicyInline with the code read by the
// provider from file (source).
func testAccPolicySourceFile(name, file string) string {
	return strings.Replace(testAccPolicyInline(name, ""), `content = ""`, fmt.Sprintf("source  = %q", file), 1)
}

// testAccPolicySource writes code to a file of its own and returns
// testAccPolicySourceFile of it.
func testAccPolicySource(t *testing.T, name, code string) string {
	file := filepath.Join(t.TempDir(), "tags.rego")
	writeFile(t, file, code)
	return testAccPolicySourceFile(name, file)
}

func writeFile(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAccPolicyResource_source: tfgov_policy with `source` keeps the path
// and the code's SHA-256 in state, never the code; it refuses a missing
// file, a file over the API's limit, Rego that does not parse and
// `content` beside it at plan time,
// uploads an edited file in place (the plan shows the new digest), finds
// code uploaded outside Terraform, imports, moves to `content_wo` and back
// without an upload, and removing it leaves the code.
func TestAccPolicyResource_source(t *testing.T) {
	name := testAccName("src")
	dir := t.TempDir()
	file := filepath.Join(dir, "tags.rego")
	config := testAccPolicySourceFile(name, file)
	const regoV2 = "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains \"v2\" if { false }\n"
	var policyID string
	before := 0
	count := func() { before = sandboxUploads(policyID) }
	uploads := func(want int) statecheck.StateCheck {
		return stateCheckFunc(func(context.Context, *tfjson.State) error {
			if n := sandboxUploads(policyID) - before; testAccSandbox() != nil && n != want {
				return fmt.Errorf("the apply uploaded %d times, want %d", n, want)
			}
			return nil
		})
	}
	sourceState := func(code string) []statecheck.StateCheck {
		return append(leanState(code), statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("source"), knownvalue.StringExact(file)))
	}
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			// Refused at plan: nothing is made.
			{Config: config, PlanOnly: true, ExpectError: wrappedRE(`Cannot read the policy code.*tags.rego\s+does not exist`)},
			{
				PreConfig:   func() { writeFile(t, file, strings.Repeat("#", maxPolicyCodeSize+1)) },
				Config:      config,
				PlanOnly:    true,
				ExpectError: wrappedRE(`Policy code too large.*at\s+most\s+10485760\s+bytes`),
			},
			{PreConfig: func() { writeFile(t, file, badRego) }, Config: config, PlanOnly: true, ExpectError: wrappedRE(`Invalid Rego.*source`)},
			{
				PreConfig:   func() { writeFile(t, file, regoCode) },
				Config:      strings.Replace(config, "source  =", "content = \"x\"\n  source  =", 1),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Invalid Attribute Combination.*source`),
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(policyAddr, tfjsonpath.New("content_sha256")),
				}},
				ConfigStateChecks: append(sourceState(regoCode), testAccCheckCode(t, policyAddr, regoCode),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						var err error
						policyID, err = stateID(s, policyAddr)
						return err
					})),
			},
			// An edited file plans its digest and uploads once.
			{
				PreConfig: func() { writeFile(t, file, regoV2); count() },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(regoV2)))),
				}},
				ConfigStateChecks: append(sourceState(regoV2), testAccCheckCode(t, policyAddr, regoV2), uploads(1)),
			},
			// Drift: code uploaded outside Terraform shows as its digest,
			// and the apply uploads the file again.
			outsideUploadStep(t, &policyID, regoCode),
			{
				Config:            config,
				ConfigPlanChecks:  expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(sourceState(regoV2), testAccCheckCode(t, policyAddr, regoV2)),
			},
			// Import by ID: the path is the configuration's alone.
			{ResourceName: policyAddr, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"content_sha256", "source"}},
			// The same code as content_wo, then back: no upload.
			{
				PreConfig:         count,
				Config:            strings.Replace(config, fmt.Sprintf("source  = %q", file), fmt.Sprintf("content_wo = file(%q)", file), 1),
				ConfigStateChecks: append(leanState(regoV2), uploads(0)),
			},
			{PreConfig: count, Config: config, ConfigStateChecks: append(sourceState(regoV2), uploads(0))},
			// Removing source plans no code managed: the code stays.
			{
				Config: strings.Replace(config, "source  =", "# source  =", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, policyAddr, regoV2)},
			},
		},
	})
}

// outsideUploadStep uploads code to the policy *id outside Terraform and
// refreshes: state shows the code's digest, and the plan a change.
func outsideUploadStep(t *testing.T, id *string, code string) resource.TestStep {
	return resource.TestStep{
		PreConfig: func() {
			if err := testAccClient(t).Policies.Upload(context.Background(), *id, []byte(code)); err != nil {
				t.Fatalf("uploading outside Terraform: %v", err)
			}
		},
		RefreshState:       true,
		ExpectNonEmptyPlan: true,
		Check:              resource.TestCheckResourceAttr(policyAddr, "content_sha256", sha256Hex([]byte(code))),
	}
}
