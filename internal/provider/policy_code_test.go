package provider

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const orgPolicies = "GET /api/v2/organizations/{org}/policies"

const (
	policyUploadRoute = "PUT /api/v2/policies/{id}/upload"
	policyDeleteRoute = "DELETE /api/v2/policies/{id}"
)

// testAccPolicyContentWO is testAccPolicyInline with the code in content_wo.
func testAccPolicyContentWO(name, code string) string {
	return strings.Replace(testAccPolicyInline(name, code), "content =", "content_wo =", 1)
}

// digestOnlyState checks that state keeps the code's digest and no code.
func digestOnlyState(code string) []statecheck.StateCheck {
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
	name := testAccName("contentwo")
	var policyID string
	const regoV2 = "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains \"v2\" if { false }\n"
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			// Refused at plan: nothing is made.
			{Config: testAccPolicyContentWO(name, badRego), PlanOnly: true, ExpectError: wrappedRE(`Invalid Rego.*content_wo`)},
			{
				Config:      strings.Replace(testAccPolicyContentWO(name, regoCode), "content_wo", "content = \"x\"\n  content_wo", 1),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Invalid Attribute Combination.*content_wo`),
			},
			{
				Config: testAccPolicyContentWO(name, regoCode),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256Hex([]byte(regoCode)))),
				}},
				ConfigStateChecks: append(digestOnlyState(regoCode), testAccCheckCode(t, policyAddr, regoCode),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						var err error
						policyID, err = stateID(s, policyAddr)
						return err
					})),
			},
			// Changed code is checked again at plan (unchanged code is not:
			// its own plan checked it).
			{Config: testAccPolicyContentWO(name, badRego), PlanOnly: true, ExpectError: wrappedRE(`Invalid Rego.*content_wo`)},
			{
				Config:            testAccPolicyContentWO(name, regoV2),
				ConfigPlanChecks:  expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(digestOnlyState(regoV2), testAccCheckCode(t, policyAddr, regoV2)),
			},
			// Drift: code uploaded outside Terraform shows as its digest,
			// and the apply uploads the configured code again.
			outsideUploadStep(t, &policyID, regoCode),
			{
				Config:            testAccPolicyContentWO(name, regoV2),
				ConfigPlanChecks:  expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(digestOnlyState(regoV2), testAccCheckCode(t, policyAddr, regoV2)),
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
			{Config: testAccPolicyContentWO(name, regoV2), ConfigStateChecks: digestOnlyState(regoV2)},
			// Removing content_wo plans its default, no code managed: the
			// code stays on the service.
			{
				Config: strings.Replace(testAccPolicyContentWO(name, regoV2), "content_wo =", "# content_wo =", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(policyAddr, tfjsonpath.New("content_sha256"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, policyAddr, regoV2)},
			},
		},
	})
}

// TestAccPolicyResource_sourceAndContentWONoReupload: an import into a configuration
// with content_wo or source uploads nothing when the service has that code
// (both plans show content_sha256, which the import's download records);
// moving to content and back with the same code uploads nothing either.
func TestAccPolicyResource_sourceAndContentWONoReupload(t *testing.T) {
	for _, shape := range []string{"content_wo", "source"} {
		t.Run(shape, func(t *testing.T) {
			pol := testAccPolicy(t, tfe.OPA)
			if err := testAccClient(t).Policies.Upload(context.Background(), pol.ID, []byte(regoCode)); err != nil {
				t.Fatal(err)
			}
			digestOnly := strings.Replace(testAccPolicyContentWO(pol.Name, regoCode), `name`, fmt.Sprintf("organization = %q\n  name", testAccOrganization()), 1)
			if shape == "source" {
				digestOnly = testAccPolicySource(t, pol.Name, regoCode)
				digestOnly = strings.Replace(digestOnly, `name`, fmt.Sprintf("organization = %q\n  name", testAccOrganization()), 1)
			}
			inline := strings.Replace(testAccPolicyContentWO(pol.Name, regoCode), `name`, fmt.Sprintf("organization = %q\n  name", testAccOrganization()), 1)
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
						Config:            digestOnly + importBlock,
						ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: checks},
						ConfigStateChecks: append(digestOnlyState(regoCode), none),
					},
					{Config: digestOnly, PlanOnly: true},
					{PreConfig: count, Config: inline, ConfigStateChecks: []statecheck.StateCheck{none}},
					{PreConfig: count, Config: digestOnly, ConfigStateChecks: append(digestOnlyState(regoCode), none)},
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
	name := testAccName("contentwosaved")
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
		return append(digestOnlyState(code), statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("source"), knownvalue.StringExact(file)))
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
				ConfigStateChecks: append(digestOnlyState(regoV2), uploads(0)),
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
					want["GET /api/v2/policies/{id}/download"]++ // the rotating recheck's hour (policy_code_proof.go)
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
					// The proof (policy_code_proof.go): did the upload move updated-at, and
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

// TestAccPolicyResource_sourceRewrittenDuringApply: a
// tfgov_policy's source file rewritten during the apply, after the apply's
// plan checked it and before the upload (here while the provider's PATCH
// of the description is answered). The provider reads the file once,
// checks its digest and uploads those bytes: the service gets the code the
// plan showed, and the next plan shows the rewritten file.
func TestAccPolicyResource_sourceRewrittenDuringApply(t *testing.T) {
	t.Parallel()
	const codeA, codeB, codeZ = "main = rule { true }\n", "main = rule { false }\n", "main = rule { 1 == 2 }\n"
	var file atomic.Pointer[string]
	var rewrote atomic.Bool
	d := newProofDirWrapped(t, sandbox.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if p := file.Load(); p != nil && r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/api/v2/policies/") && rewrote.CompareAndSwap(false, true) {
				if err := os.WriteFile(*p, []byte(codeZ), 0o600); err != nil {
					t.Errorf("rewriting the file: %v", err)
				}
			}
			next.ServeHTTP(w, r)
		})
	})
	config := func(desc string) string {
		return requiredProvidersShim + fmt.Sprintf(`resource "tfgov_policy" "p" {
  name        = "rewritten"
  description = %q
  source      = "${path.module}/policy.sentinel"
}
output "id" { value = tfgov_policy.p.id }
`, desc)
	}
	d.write("policy.sentinel", codeA)
	d.write("main.tf", config("v1"))
	d.tf("apply", "-auto-approve")
	id := strings.TrimSpace(d.tf("output", "-raw", "id"))

	p := filepath.Join(d.dir, "policy.sentinel")
	file.Store(&p)
	d.write("policy.sentinel", codeB)
	d.write("main.tf", config("v2"))
	out := d.tf("apply", "-auto-approve")
	if !rewrote.Load() {
		t.Fatalf("the apply sent no PATCH: the file was never rewritten\n%s", out)
	}
	if got := d.code(id); got != codeB {
		t.Errorf("the service has %q, want %q, the code the plan showed and the apply checked (the file was rewritten to %q during the apply)", got, codeB, codeZ)
	}
	d.planShowsDrift("the file rewritten during the apply")
}

// TestAccPolicyResource_importInlineCode: importing a policy into a
// tfgov_policy whose `content` (a file's) is the code the policy already
// has compares the code, so that identical code is not uploaded again: the apply uploads nothing, and the next plan is empty.
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

// failingSandbox is a sandbox of the test's own (its faults match every
// policy) and the provider block that reaches it without retries
// (retry_max = 0), so that one 500 fails a code upload: the failure tests
// check what the docs of tfgov_policy and tfgov_policy_upload say happens.
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

// TestReadPolicySource_errors: a source that names no file, a directory or
// an unreadable file is an error naming the attribute and the path looked
// at, not a raw "stat ...: no such file or directory"; a missing file stays
// fs.ErrNotExist for the plan (a file written during the apply). The
// "${path.module}" hint comes only for a bare relative path whose
// directory is missing (a child module's own file); "./policies/x", which
// "${path.module}/policies/x" gives in the root module, lists the files of
// its directory instead, and no error mentions content_sha256.
func TestReadPolicySource_errors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir(filepath.Join(dir, "policies"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "policies", "tags.sentinel"), []byte("main = rule { true }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A directory of many files: the error names the closest to the one
	// asked for, not the first few by name.
	if err := os.Mkdir(filepath.Join(dir, "many"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a1.rego", "a2.rego", "a3.rego", "a4.rego", "a5.rego", "a6.rego", "a7.rego", "a8.rego", "b9.rego", "require-tags.rego", "zz-restrict-regions.rego"} {
		if err := os.WriteFile(filepath.Join(dir, "many", f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const hint = `"${path.module}/`
	tests := map[string]struct {
		name     string
		want     []string
		not      []string
		notExist bool
	}{
		"relative, directory missing": {"rules/missing.rego", []string{
			"source: the file " + filepath.Join(dir, "rules", "missing.rego") + " does not exist, nor does its directory " + filepath.Join(dir, "rules"),
			`source = "rules/missing.rego" is taken from the directory Terraform runs in`,
			`"${path.module}/rules/missing.rego"`}, nil, true},
		"path.module of the root module": {"./policies/missing.sentinel", []string{
			"source: the file " + filepath.Join(dir, "policies", "missing.sentinel") + " does not exist; its directory " + filepath.Join(dir, "policies") + " holds tags.sentinel."},
			[]string{hint}, true},
		"relative, directory exists":     {"policies/missing.sentinel", []string{"holds tags.sentinel"}, []string{hint}, true},
		"path.module, directory missing": {"./rules/missing.rego", []string{"nor does its directory"}, []string{hint}, true},
		"absolute": {filepath.Join(dir, "none.sentinel"), []string{"source: the file " + filepath.Join(dir, "none.sentinel") + " does not exist; its directory"},
			[]string{hint}, true},
		"closest of many": {"many/zz-restrict-region.rego", []string{
			"its directory " + filepath.Join(dir, "many") + " holds 11 files, the closest names: zz-restrict-regions.rego, "},
			[]string{"a1.rego, a2.rego", "more"}, true},
		"directory": {filepath.Join(dir, "policies"), []string{"is a directory, not a file"}, nil, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := readPolicySource(tc.name)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			for _, w := range append(tc.not, "content_sha256") {
				if strings.Contains(err.Error(), w) {
					t.Errorf("error %q has %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "stat ") || strings.Contains(err.Error(), "no such file") {
				t.Errorf("error %q is the raw stat error", err)
			}
			if got := errors.Is(err, fs.ErrNotExist); got != tc.notExist {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = %v, want %v", got, tc.notExist)
			}
		})
	}
}

func TestPlanPolicyCode(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "p.rego")
	if err := os.WriteFile(file, []byte("package p\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileSum := sha256Hex([]byte("package p\n"))
	inlineSum := sha256Hex([]byte("x"))
	null, unknown := types.StringNull(), types.StringUnknown()
	str := types.StringValue
	// refreshed is the private state of a refresh that found the file at
	// the path in state with digest sum (recordSource).
	refreshed := func(_, sum string) fakePrivate {
		priv := fakePrivate{}
		recordLocalHash(ctx, priv, sum)
		return priv
	}
	for _, tc := range []struct {
		name                               string
		content, source, configured, state types.String
		creating                           bool
		priv                               fakePrivate
		want                               types.String
		wantErr                            string
	}{
		{"no code", null, null, null, null, false, nil, null, ""},
		{"inline", str("x"), null, null, null, true, nil, str(inlineSum), ""},
		{"inline, configured matches", str("x"), null, str(inlineSum), null, true, nil, str(inlineSum), ""},
		{"inline, configured differs", str("x"), null, str(fileSum), null, true, nil, null, "content_sha256 does not match content"},
		{"inline unknown", unknown, null, null, null, true, nil, unknown, ""},
		{"source, create", null, str(file), null, null, true, nil, unknown, ""},
		{"source, update after refresh", null, str(file), null, str(inlineSum), false, refreshed(file, fileSum), str(fileSum), ""},
		{"source, unchanged, no refresh", null, str(file), null, str(fileSum), false, fakePrivate{}, str(fileSum), ""},
		{"source, edited after the plan", null, str(file), null, str(fileSum), false, refreshed(file, inlineSum), unknown, "Policy file changed since the plan"},
		{"source, configured matches", null, str(file), str(fileSum), null, true, nil, str(fileSum), ""},
		{"source, configured differs", null, str(file), str(inlineSum), null, true, nil, null, "content_sha256 does not match the source file"},
		{"source missing, configured: written during the apply", null, str(filepath.Join(dir, "later.rego")), str(fileSum), null, true, nil, str(fileSum), ""},
		{"source missing, not configured", null, str(filepath.Join(dir, "none.rego")), null, null, true, nil, null, "Cannot read the policy code"},
		{"source unknown", null, unknown, null, null, true, nil, unknown, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			var priv privateGetter
			if tc.priv != nil {
				priv = tc.priv
			}
			got := planPolicyCode(ctx, tc.content, tc.source, tc.configured, tc.state, tc.source, tc.creating, priv, &diags)
			if tc.wantErr != "" {
				if !diags.HasError() || !strings.Contains(diags.Errors()[0].Summary(), tc.wantErr) {
					t.Fatalf("diagnostics %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasError() {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			if !got.SHA256.Equal(tc.want) {
				t.Errorf("content_sha256 planned %s, want %s", got.SHA256, tc.want)
			}
		})
	}
}
