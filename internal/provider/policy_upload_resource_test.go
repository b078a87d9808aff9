package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const uploadAddr = "tfgov_policy_upload.test"

const (
	sentinelCode   = "main = rule { true }\n"
	sentinelCodeV2 = "import \"tfplan/v2\" as tfplan\n\nmain = rule { length(tfplan.resource_changes) < 100 }\n"
	regoCode       = "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains msg if {\n  some rc in input.plan.resource_changes\n  not rc.change.after.tags\n  msg := sprintf(\"%s has no tags\", [rc.address])\n}\n"
	// regoV0Code is Rego from before v1 (no `if`, no `contains`), which
	// policy sets pinned to an older OPA still run.
	regoV0Code = "package terraform.policies.tags\n\ndeny[msg] {\n  rc := input.plan.resource_changes[_]\n  not rc.change.after.tags\n  msg := \"untagged\"\n}\n"
	badRego    = "package terraform.policies.tags\n\ndeny contains msg if {\n  msg := \n"
)

func sha256String(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// testAccPolicyWithUpload is a policy and its code given inline.
func testAccPolicyWithUpload(name, kind, code string) string {
	query := ""
	if kind == "opa" {
		query = `query = "data.terraform.policies.tags.deny"`
	}
	return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name = %[1]q
  kind = %[2]q
  %[3]s
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  content   = %[4]q
}
`, name, kind, query, code)
}

// testAccCheckCode checks through go-tfe that the policy of the resource at
// addr (a tfgov_policy, or a tfgov_policy_upload, whose id is its
// policy_id) holds code.
func testAccCheckCode(t *testing.T, addr, code string) statecheck.StateCheck {
	return stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
		id, err := stateID(s, addr)
		if err != nil {
			return err
		}
		got, err := testAccClient(t).Policies.Download(ctx, id)
		if err != nil {
			return fmt.Errorf("downloading the code of %s: %w", id, err)
		}
		if !bytes.Equal(got, []byte(code)) {
			return fmt.Errorf("policy %s holds %q, want %q", id, got, code)
		}
		return nil
	})
}

func TestAccPolicyUploadResource_sentinel(t *testing.T) {
	name := testAccName("upload")
	var policyID string
	samePolicy := statecheck.CompareValue(compare.ValuesSame())
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				Config: testAccPolicyWithUpload(name, "sentinel", sentinelCode),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256String(sentinelCode))),
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("source"), knownvalue.Null()),
					statecheck.CompareValuePairs(uploadAddr, tfjsonpath.New("id"), policyAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					samePolicy.AddStateValue(policyAddr, tfjsonpath.New("id")),
					testAccCheckCode(t, uploadAddr, sentinelCode),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						var err error
						policyID, err = stateID(s, policyAddr)
						return err
					}),
				},
			},
			// Import by policy ID: the code comes back as content.
			{ResourceName: uploadAddr, ImportState: true, ImportStateVerify: true},
			// New code is uploaded in place; the policy is untouched.
			{
				Config:           testAccPolicyWithUpload(name, "sentinel", sentinelCodeV2),
				ConfigPlanChecks: expectAction(uploadAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256String(sentinelCodeV2))),
					samePolicy.AddStateValue(policyAddr, tfjsonpath.New("id")),
					testAccCheckCode(t, uploadAddr, sentinelCodeV2),
				},
			},
			// Drift: code changed outside Terraform; the plan uploads it again.
			{
				PreConfig: func() {
					if err := testAccClient(t).Policies.Upload(context.Background(), policyID, []byte("main = rule { false }\n")); err != nil {
						t.Fatalf("uploading outside Terraform: %v", err)
					}
				},
				Config: testAccPolicyWithUpload(name, "sentinel", sentinelCodeV2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256String(sentinelCodeV2))),
				}},
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, uploadAddr, sentinelCodeV2)},
			},
			// Drift: the policy is deleted outside Terraform; both are made again.
			{
				PreConfig: func() {
					if err := testAccClient(t).Policies.Delete(context.Background(), policyID); err != nil {
						t.Fatalf("deleting the policy outside Terraform: %v", err)
					}
				},
				Config: testAccPolicyWithUpload(name, "sentinel", sentinelCodeV2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, uploadAddr, sentinelCodeV2)},
			},
		},
	})
}

func TestAccPolicyUploadResource_source(t *testing.T) {
	name := testAccName("upload-src")
	dir := t.TempDir()
	file := filepath.Join(dir, name+".rego")
	write := func(code string) {
		if err := os.WriteFile(file, []byte(code), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(regoCode)
	config := func(path string) string {
		return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name  = %[1]q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  source    = %[2]q
}
`, name, path)
	}
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				Config: config(file),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256String(regoCode))),
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content"), knownvalue.Null()),
					testAccCheckCode(t, uploadAddr, regoCode),
				},
			},
			// Editing the file plans an upload.
			{
				PreConfig:        func() { write(regoV0Code) },
				Config:           config(file),
				ConfigPlanChecks: expectAction(uploadAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256String(regoV0Code))),
					testAccCheckCode(t, uploadAddr, regoV0Code),
				},
			},
			// Code that is not Rego is refused at plan (the kind is known
			// from the last upload): the policy keeps its code.
			{
				PreConfig:   func() { write(badRego) },
				Config:      config(file),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Invalid Rego.*The policy is an OPA policy, and its code does not parse as Rego, so nothing\s+will be uploaded.*rego_parse_error`),
			},
			// ... even when it does not look like Rego at all.
			{
				PreConfig:   func() { write("main = rule { true }\n") },
				Config:      config(file),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Invalid Rego.*The policy is an OPA policy`),
			},
			// An empty file is refused at plan.
			{
				PreConfig:   func() { write("\n") },
				Config:      config(file),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Empty policy code.*the code is empty.*can never pass`),
			},
			{
				PreConfig:         func() { write(regoV0Code) },
				Config:            config(file),
				ConfigPlanChecks:  expectAction(uploadAddr, plancheck.ResourceActionNoop),
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, uploadAddr, regoV0Code)},
			},
			// A missing file is an error at plan time.
			{
				Config:      config(filepath.Join(dir, "missing.rego")),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Cannot read the policy code.*source: the\s+file\s+\S*missing.rego\s+does\s+not\s+exist`),
			},
		},
	})
}

// TestAccPolicyUploadResource_tooLarge refuses code over 10 MB at plan
// time, inline or from a file, before any request, with one summary
// ("Policy code too large") for both.
func TestAccPolicyUploadResource_tooLarge(t *testing.T) {
	const policyID = "pol-neveruploaded0001"
	big := filepath.Join(t.TempDir(), "big.sentinel")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#"), maxPolicyCodeSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	exact := filepath.Join(t.TempDir(), "exact.sentinel")
	if err := os.WriteFile(exact, bytes.Repeat([]byte("#"), maxPolicyCodeSize), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		body string
		want *regexp.Regexp
	}{
		"file":   {fmt.Sprintf("source = %q", big), wrappedRE(`Policy code too large.*big.sentinel: The code is 10485761 bytes; the API accepts at most 10485760 bytes \(10 MB\)`)},
		"inline": {`content = format("%10485761s", "")`, wrappedRE(`Policy code too large.*The code is 10485761 bytes; the API accepts at most 10485760 bytes`)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:      fmt.Sprintf("resource \"tfgov_policy_upload\" \"test\" {\n  policy_id = %q\n  %s\n}\n", policyID, tc.body),
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want.String()),
				}},
			})
		})
	}
	// Exactly 10 MB plans (the apply would then find no such policy).
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:             fmt.Sprintf("resource \"tfgov_policy_upload\" \"test\" {\n  policy_id = %q\n  source = %q\n}\n", policyID, exact),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
	if sb := testAccSandbox(); sb != nil {
		for _, p := range []string{"/api/v2/policies/" + policyID, "/api/v2/policies/" + policyID + "/download"} {
			if n := sb.RequestsTo("GET", p); n != 0 {
				t.Errorf("%d requests to %s", n, p)
			}
		}
		if n := sb.RequestsTo("PUT", "/api/v2/policies/"+policyID+"/upload"); n != 0 {
			t.Errorf("%d uploads", n)
		}
	}
}

// TestAccPolicyUploadResource_invalid covers the other plan-time errors.
func TestAccPolicyUploadResource_invalid(t *testing.T) {
	tests := map[string]struct{ body, want string }{
		"neither":        {`policy_id = "pol-abc"`, `Missing Attribute Configuration.*Exactly one of these attributes must be configured: \[content,source\]`},
		"both":           {`policy_id = "pol-abc"` + "\n" + `content = "x"` + "\n" + `source = "x"`, `Invalid Attribute Combination.*Exactly one of these attributes must be configured: \[content,source\]`},
		"policy id":      {`policy_id = "polset-abc"` + "\n" + `content = "x"`, `policy_id.*must be an ID of the form pol-<id>`},
		"sha mismatch":   {`policy_id = "pol-abc"` + "\n" + `content = "x"` + "\n" + `content_sha256 = "` + sha256String("y") + `"`, `content_sha256 does not match content`},
		"sha not hex":    {`policy_id = "pol-abc"` + "\n" + `content = "x"` + "\n" + `content_sha256 = "abc"`, `content_sha256.*must be 64 lowercase hexadecimal characters`},
		"directory":      {`policy_id = "pol-abc"` + "\n" + fmt.Sprintf("source = %q", t.TempDir()), `is a directory, not a file`},
		"empty source":   {`policy_id = "pol-abc"` + "\n" + `source = ""`, `source.*at least 1`},
		"empty content":  {`policy_id = "pol-abc"` + "\n" + `content = ""`, `Empty policy code.*content: the code is empty`},
		"blank content":  {`policy_id = "pol-abc"` + "\n" + `content = " \n "`, `Empty policy code`},
		"bad rego":       {`policy_id = "pol-abc"` + "\n" + fmt.Sprintf("content = %q", badRego), `Invalid Rego.*rego_parse_error`},
		"policy missing": {`policy_id = "pol-doesnotexist0001"` + "\n" + `content = "x"`, `Policy pol-doesnotexist0001 not found, or the token may not manage policies`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:      "resource \"tfgov_policy_upload\" \"test\" {\n" + tc.body + "\n}\n",
					PlanOnly:    name != "policy missing",
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
	t.Run("import bad id", func(t *testing.T) {
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:        "resource \"tfgov_policy_upload\" \"test\" {\n  policy_id = \"pol-abc\"\n  content = \"x\"\n}\n",
				ResourceName:  uploadAddr,
				ImportState:   true,
				ImportStateId: "acme/name",
				ExpectError:   wrappedRE(`want the policy ID, pol-<id>`),
			}},
		})
	})
	// A policy without code has no upload to import: said so, naming the
	// policy, instead of Terraform's "non-existent remote object".
	t.Run("import a policy without code", func(t *testing.T) {
		pol := testAccPolicy(t, tfe.Sentinel)
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:        fmt.Sprintf("resource \"tfgov_policy_upload\" \"test\" {\n  policy_id = %q\n  content = \"x\"\n}\n", pol.ID),
				ResourceName:  uploadAddr,
				ImportState:   true,
				ImportStateId: pol.ID,
				ExpectError:   wrappedRE(`Cannot import policy code.*Policy ` + pol.ID + ` \("` + pol.Name + `", sentinel\) has no code yet.*remove the import`),
			}},
		})
	})
	// A policy that does not exist is said to be missing, not "without
	// code".
	t.Run("import a missing policy", func(t *testing.T) {
		accParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:        "resource \"tfgov_policy_upload\" \"test\" {\n  policy_id = \"pol-doesnotexist00001\"\n  content = \"x\"\n}\n",
				ResourceName:  uploadAddr,
				ImportState:   true,
				ImportStateId: "pol-doesnotexist00001",
				ExpectError:   wrappedRE(`Cannot import policy code.*Policy pol-doesnotexist00001 was not found`),
			}},
		})
	})
}

// TestAccPolicyUploadResource_destroyKeepsPolicy uploads to a policy made
// outside this configuration: destroying the upload leaves the policy and
// its code alone.
func TestAccPolicyUploadResource_destroyKeepsPolicy(t *testing.T) {
	pol := testAccPolicy(t, tfe.Sentinel)
	config := fmt.Sprintf(`
resource "tfgov_policy_upload" "test" {
  policy_id = %q
  content   = %q
}
`, pol.ID, sentinelCode)
	accParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			got, err := testAccClient(t).Policies.Download(context.Background(), pol.ID)
			if err != nil {
				return fmt.Errorf("policy %s after destroying its upload: %w", pol.ID, err)
			}
			if string(got) != sentinelCode {
				return fmt.Errorf("policy %s holds %q after destroy, want the last upload", pol.ID, got)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, uploadAddr, sentinelCode)}},
		},
	})
}

// TestAccPolicyUploadResource_opaInline uploads inline Rego, and refuses
// inline code that is not Rego without uploading it.
func TestAccPolicyUploadResource_opaInline(t *testing.T) {
	name := testAccName("upload-opa")
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			// Rego (it declares a package) that does not parse is refused
			// at plan, although the policy is new: nothing is made.
			{
				Config:      testAccPolicyWithUpload(name, "opa", badRego),
				ExpectError: wrappedRE(`Invalid Rego.*content.*The code is Rego \(it declares a package, or the file is\s+named \*\.rego\) but\s+does not parse, so nothing will be uploaded.*rego_parse_error`),
			},
			{
				PreConfig: func() {
					l, err := testAccClient(t).Policies.List(context.Background(), testAccOrganization(), &tfe.PolicyListOptions{Search: name})
					if err != nil || len(l.Items) != 0 {
						t.Fatalf("after a plan-time refusal the policy should not exist: %v, %+v", err, l)
					}
				},
				Config:            testAccPolicyWithUpload(name, "opa", regoCode),
				ConfigStateChecks: []statecheck.StateCheck{testAccCheckCode(t, uploadAddr, regoCode)},
				Check: func(s *terraform.State) error {
					if id := testAccPolicyID(s, policyAddr); id == "" {
						return fmt.Errorf("%s has no ID", policyAddr)
					}
					return nil
				},
			},
		},
	})
}

// testAccPolicy makes a policy of kind through go-tfe, deleted when the
// test ends.
func testAccPolicy(t *testing.T, kind tfe.PolicyKind) *tfe.Policy {
	t.Helper()
	c := testAccClient(t)
	opts := tfe.PolicyCreateOptions{Name: tfe.String(testAccName("fixture")), Kind: kind, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}
	if kind == tfe.OPA {
		opts.Query = tfe.String("data.terraform.deny")
	}
	pol, err := c.Policies.Create(context.Background(), testAccOrganization(), opts)
	if err != nil {
		t.Fatalf("creating policy: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Policies.Delete(context.Background(), pol.ID); err != nil && !isNotFound(err) {
			t.Errorf("deleting policy %s: %v", pol.ID, err)
		}
	})
	return pol
}

// TestAccPolicyResource_requests counts the API requests (go-tfe's start-up
// ping and the token check aside) of a policy and its upload: create, refresh and destroy. It
// is not parallel, so the counter sees no other test's requests.
func TestAccPolicyResource_requests(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	// Each provider start costs go-tfe's ping and the token check, exactly
	// one of each; the phases count the rest.
	var startPings, startChecks int
	snapshot := func() map[string]int {
		s := sb.Stats()
		startPings, startChecks = s["GET /api/v2/ping"], s["GET /api/v2/account/details"]
		delete(s, "GET /api/v2/ping")
		delete(s, "GET /api/v2/account/details")
		return s
	}
	pings, checks := sb.RequestsTo("GET", "/api/v2/ping"), sb.RequestsTo("GET", "/api/v2/account/details")
	defer func() {
		snapshot()
		// The test's own go-tfe client may ping too, never check.
		if p, c := startPings-pings, startChecks-checks; c == 0 || c > p {
			t.Errorf("provider starts: %d pings and %d token checks, want one check per provider start", p, c)
		}
	}()
	since := func(before map[string]int) (map[string]int, int) {
		diff, total := map[string]int{}, 0
		for k, v := range snapshot() {
			if d := v - before[k]; d != 0 {
				diff[k] = d
				total += d
			}
		}
		return diff, total
	}
	var start time.Time // of the phase, for the rotating recheck (policy_code_proof.go)
	var policyID string
	want := func(phase string, got map[string]int, total int, exp map[string]int) {
		t.Logf("%s: %d requests %v", phase, total, got)
		if _, refresh := exp[orgPolicies]; refresh && recheckedIn(policyID, start, time.Now()) {
			exp["GET /api/v2/policies/{id}/download"]++
		}
		for k, v := range exp {
			if got[k] != v {
				t.Errorf("%s: %d × %s, want %d", phase, got[k], k, v)
			}
		}
		n := 0
		for _, v := range exp {
			n += v
		}
		if total != n {
			t.Errorf("%s: %d requests, want %d", phase, total, n)
		}
	}
	name := testAccName("counted")
	var before map[string]int
	accTest(t, resource.TestCase{
		PreCheck: func() { testAccPreCheck(t); before, start = snapshot(), time.Now() },
		CheckDestroy: func(*terraform.State) error {
			if n := sb.RequestsTo("DELETE", "/api/v2/policies/"+policyID); n != 1 {
				return fmt.Errorf("destroy made %d DELETE requests, want 1", n)
			}
			if n := sb.RequestsTo("PUT", "/api/v2/policies/"+policyID+"/upload"); n != 1 {
				return fmt.Errorf("%d uploads over the whole test, want 1 (destroying the upload makes no request)", n)
			}
			// Since the refresh step's check: that step's follow-up plan
			// (a refresh) and the destroy, which the harness runs with
			// -refresh=false (a plain terraform destroy adds a refresh).
			got, total := since(before)
			// The refresh recorded the policy's updated-at with the code's
			// hash, so the plan's refresh downloads nothing.
			want("follow-up plan + destroy", got, total, map[string]int{
				orgPolicies:                    testAccPolicyListPages(t), // both resources' refresh
				"DELETE /api/v2/policies/{id}": 1,                         // tfgov_policy_upload's destroy makes none
			})
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: testAccPolicyWithUpload(name, "sentinel", sentinelCode),
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
					var err error
					policyID, err = stateID(s, policyAddr)
					got, total := since(before)
					want("create", got, total, map[string]int{
						"POST /api/v2/organizations/{org}/policies": 1, // the policy; its answer gives the upload the kind (nothing listed first)
						"PUT /api/v2/policies/{id}/upload":          1, // the code
						"GET /api/v2/policies/{id}":                 2, // updated-at right before the upload (the upload's own read, never the create's answer) and after it (policy_code_proof.go)
						"GET /api/v2/policies/{id}/download":        1, // the code at that updated-at
					})
					return err
				})},
			},
			{
				PreConfig:    func() { before, start = snapshot(), time.Now() },
				RefreshState: true,
				Check: func(*terraform.State) error {
					got, total := since(before)
					// The first refresh after this provider's upload downloads
					// nothing: the policy's updated-at is the one recorded
					// with the code right after the upload.
					want("refresh", got, total, map[string]int{
						orgPolicies: testAccPolicyListPages(t), // both resources, from one list
					})
					before, start = snapshot(), time.Now() // after testAccPolicyListPages' own requests
					return nil
				},
			},
		},
	})
}

// TestAccPolicyUploadResource_importWithSource: an import (block) into a
// configuration with `source` plans one in-place update, content -> source,
// with the same content_sha256 (Terraform cannot know the file an imported
// upload came from; the docs say so), and its apply uploads nothing; the
// next plan is empty. A generated configuration (content) plans clean.
func TestAccPolicyUploadResource_importWithSource(t *testing.T) {
	pol := testAccPolicy(t, tfe.OPA)
	if err := testAccClient(t).Policies.Upload(context.Background(), pol.ID, []byte(regoCode)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "policy.rego")
	if err := os.WriteFile(file, []byte(regoCode), 0o600); err != nil {
		t.Fatal(err)
	}
	upload := fmt.Sprintf("resource \"tfgov_policy_upload\" \"test\" {\n  policy_id = %q\n  source    = %q\n}\n", pol.ID, file)
	importBlock := fmt.Sprintf("import {\n  to = tfgov_policy_upload.test\n  id = %q\n}\n", pol.ID)
	uploads := func() int { return sandboxUploads(pol.ID) }
	before := 0
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig: func() { before = uploads() },
				Config:    upload + importBlock,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(uploadAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content_sha256"), knownvalue.StringExact(sha256String(regoCode))),
					plancheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("content"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(uploadAddr, tfjsonpath.New("source"), knownvalue.StringExact(file)),
					testAccCheckCode(t, uploadAddr, regoCode),
					stateCheckFunc(func(context.Context, *tfjson.State) error {
						if n := uploads() - before; n != 0 {
							return fmt.Errorf("the apply after the import uploaded %d times, want 0", n)
						}
						return nil
					}),
				},
			},
			{Config: upload, PlanOnly: true},
			{ResourceName: uploadAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: pol.ID, GenerateConfig: true},
		},
	})
}

// TestAccPolicyUploadResource_regoAtPlanExistingPolicy: a new upload to an
// OPA policy that already exists (managed in the same configuration) is
// checked as Rego at plan, although the code does not look like Rego: the
// kind comes from the policy's refresh, without a request. Nothing is
// uploaded.
func TestAccPolicyUploadResource_regoAtPlanExistingPolicy(t *testing.T) {
	name := testAccName("upload-kind")
	policyOnly := fmt.Sprintf("resource \"tfgov_policy\" \"test\" {\n  name  = %q\n  kind  = \"opa\"\n  query = \"data.terraform.policies.tags.deny\"\n}\n", name)
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{Config: policyOnly},
			{
				Config:      testAccPolicyWithUpload(name, "opa", sentinelCode),
				PlanOnly:    true,
				ExpectError: wrappedRE(`Invalid Rego.*The policy is an OPA policy, and its code does not parse as Rego, so nothing\s+will be uploaded`),
			},
			{
				Config: policyOnly,
				Check: func(s *terraform.State) error {
					if _, err := testAccClient(t).Policies.Download(context.Background(), testAccPolicyID(s, policyAddr)); !isNotFound(err) {
						return fmt.Errorf("download after a plan-time refusal: want 404 (no code), got %w", err)
					}
					return nil
				},
			},
		},
	})
}

// sandboxUploads is how many uploads of policy id's code the in-process
// sandbox has served (0 against a live organization, where the tests that
// count them only compare two counts).
func sandboxUploads(id string) int {
	if sb := testAccSandbox(); sb != nil {
		return sb.RequestsTo("PUT", "/api/v2/policies/"+id+"/upload")
	}
	return 0
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
