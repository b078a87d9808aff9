package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

// A policy's tests and examples (tests_wo) at plan: fixtures.

const testedPolicy = `package terraform.policies.tags

import rego.v1

deny contains msg if {
	some rc in input.plan.resource_changes
	not rc.change.after.tags.owner
	msg := sprintf("%s has no owner tag", [rc.address])
}
`

// testedPolicyTest asserts msg for an untagged bucket; its first line is
// line 1 of the file.
func testedPolicyTest(msg string) string {
	return `package terraform.policies.tags_test

import rego.v1

import data.terraform.policies.tags

test_tagged_passes if {
	count(tags.deny) == 0 with input as {"plan": {"resource_changes": [{"address": "aws_s3_bucket.logs", "change": {"after": {"tags": {"owner": "platform"}}}}]}}
}

test_untagged_denied if {
	tags.deny == {"` + msg + `"} with input as {"plan": {"resource_changes": [{"address": "aws_s3_bucket.logs", "change": {"after": {"tags": {}}}}]}}
}
`
}

const (
	taggedInput   = `{"plan": {"resource_changes": [{"address": "aws_s3_bucket.logs", "change": {"actions": ["create"], "after": {"tags": {"owner": "platform"}}}}]}}`
	untaggedInput = `{"plan": {"resource_changes": [{"address": "aws_s3_bucket.logs", "change": {"actions": ["create"], "after": {"tags": null}}}]}}`
)

// testedPolicyConfig is a tfgov_policy of testedPolicy in dir, with its
// tests (dir/*_test.rego) and two examples, the untagged one expecting
// untagged ("pass" or "fail").
func testedPolicyConfig(name, dir, kind, untagged string) string {
	return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name   = %[1]q
  kind   = %[3]q
  query  = %[4]s
  source = "%[2]s/tags.rego"
  tests_wo = {
    files = ["%[2]s/*_test.rego"]
    examples = [
      { name = "tagged", input = file("%[2]s/tagged.json"), expect = "pass" },
      { name = "untagged", input = file("%[2]s/untagged.json"), expect = %[5]q,
        violations = %[5]q == "fail" ? jsonencode(["aws_s3_bucket.logs has no owner tag"]) : null },
    ]
  }
}
`, name, filepath.ToSlash(dir), kind, map[bool]string{true: `"data.terraform.policies.tags.deny"`, false: "null"}[kind == "opa"], untagged)
}

// testRuns counts the runs of the tests of the policy whose code module
// is name, from a step's PreConfig (mark) to its checks.
type testRuns struct {
	name   string
	before int64
}

func (c *testRuns) now() int64 {
	if n, ok := policyTestRuns.Load(c.name); ok {
		if n, ok := n.(*atomic.Int64); ok {
			return n.Load()
		}
	}
	return 0
}

func (c *testRuns) mark() { c.before = c.now() }

func (c *testRuns) expect(ran bool) statecheck.StateCheck {
	return stateCheckFunc(func(context.Context, *tfjson.State) error {
		if n := c.now() - c.before; (n > 0) != ran {
			return fmt.Errorf("the step ran the policy's tests %d times; want them run: %v", n, ran)
		}
		return nil
	})
}

// TestAccPolicyResource_tests: a tfgov_policy whose test fails, or whose
// example disagrees, fails the plan naming it, and nothing is made; fixed,
// the plan shows the create and the apply uploads. An unchanged plan runs
// no test; an edit of the tests alone plans an update of tests_sha256 and
// runs them once more. A Sentinel policy with tests is refused.
func TestAccPolicyResource_tests(t *testing.T) {
	name := testAccName("tested")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tags.rego"), testedPolicy)
	writeFile(t, filepath.Join(dir, "tags_test.rego"), testedPolicyTest("aws_s3_bucket.logs lacks an owner tag"))
	writeFile(t, filepath.Join(dir, "tagged.json"), taggedInput)
	writeFile(t, filepath.Join(dir, "untagged.json"), untaggedInput)
	runs := &testRuns{name: filepath.ToSlash(dir) + "/tags.rego"}
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				Config:      testedPolicyConfig(name, dir, "sentinel", "fail"),
				PlanOnly:    true,
				ExpectError: matchWrapped(`Policy tests need an OPA policy`, `Sentinel's runtime is a separate closed-source binary`, "`sentinel test`"),
			},
			{
				Config: testedPolicyConfig(name, dir, "opa", "fail"),
				ExpectError: matchWrapped(`Policy test failed`, `nothing will be uploaded`,
					`data.terraform.policies.tags_test.test_untagged_denied (`+filepath.ToSlash(dir)+`/tags_test.rego:11): fail: line 12, tags.deny == {"aws_s3_bucket.logs lacks an owner tag"}`),
			},
			{
				PreConfig: func() {
					writeFile(t, filepath.Join(dir, "tags_test.rego"), testedPolicyTest("aws_s3_bucket.logs has no owner tag"))
				},
				Config: testedPolicyConfig(name, dir, "opa", "pass"),
				ExpectError: matchWrapped(`Policy example disagrees`, `example [1] ("untagged") expects pass, but query data.terraform.policies.tags.deny gives 1 violation(s), so nothing will be uploaded:`,
					`- "aws_s3_bucket.logs has no owner tag"`),
			},
			{
				Config: testedPolicyConfig(name, dir, "opa", "fail"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					testAccCheckCode(t, policyAddr, testedPolicy),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("tests_sha256"), knownvalue.StringRegexp(sha256RE)),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("tests_wo"), knownvalue.Null()),
				},
			},
			// Unchanged: no plan of the step runs a test.
			{
				PreConfig:         runs.mark,
				Config:            testedPolicyConfig(name, dir, "opa", "fail"),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{runs.expect(false)},
			},
			// A new test alone: an update of tests_sha256, run once more.
			{
				PreConfig: func() {
					writeFile(t, filepath.Join(dir, "more_test.rego"), "package more_test\n\ntest_more if { true }\n")
					runs.mark()
				},
				Config: testedPolicyConfig(name, dir, "opa", "fail"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{runs.expect(true)},
			},
			// The query alone: the examples run again, under it (tests_sha256 holds the query).
			{
				Config: strings.Replace(testedPolicyConfig(name, dir, "opa", "fail"), `"data.terraform.policies.tags.deny"`,
					`"data.terraform.policies.tags.warn"`, 1),
				PlanOnly:    true,
				ExpectError: matchWrapped(`Policy example failed to evaluate`, `query "data.terraform.policies.tags.warn" is undefined`),
			},
			// content_wo's code (write-only, in the configuration only) is
			// evaluated at plan too.
			{
				Config: strings.Replace(testedPolicyConfig(name, dir, "opa", "pass"), `source = "`+filepath.ToSlash(dir)+`/tags.rego"`,
					`content_wo = file("`+filepath.ToSlash(dir)+`/tags.rego")`, 1),
				PlanOnly:    true,
				ExpectError: matchWrapped(`Policy example disagrees`, `example [1] ("untagged") expects pass`),
			},
		},
	})
}

// TestAccPolicyUploadResource_tests: tfgov_policy_upload runs its inline
// tests and its examples (with tests_wo.query) as tfgov_policy does.
func TestAccPolicyUploadResource_tests(t *testing.T) {
	name := testAccName("uptested")
	config := func(msg, untagged string) string {
		return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  content   = %q
  tests_wo = {
    code  = [%q]
    query = tfgov_policy.test.query
    examples = [{ input = %q, expect = %q }]
  }
}
`, name, testedPolicy, testedPolicyTest(msg), untaggedInput, untagged)
	}
	const addr = "tfgov_policy_upload.test"
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				Config:      config("lacks", "fail"),
				ExpectError: matchWrapped(`Policy test failed`, `test_untagged_denied (tests_wo.code[0].rego:11): fail: line 12`),
			},
			{
				Config:      config("aws_s3_bucket.logs has no owner tag", "pass"),
				ExpectError: matchWrapped(`Policy example disagrees`, `example [0] expects pass`, `"aws_s3_bucket.logs has no owner tag"`),
			},
			{
				Config: config("aws_s3_bucket.logs has no owner tag", "fail"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					testAccCheckCode(t, addr, testedPolicy),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tests_sha256"), knownvalue.StringRegexp(sha256RE)),
				},
			},
		},
	})
}

// TestAccPolicyUploadResource_testsQuery: tfgov_policy_upload's tests_wo.query must be its policy's
// query, which HCP Terraform evaluates: examples that pass under another query (here `warn`, always
// empty) fail the apply of a new policy before the upload, and the plan of an existing one.
func TestAccPolicyUploadResource_testsQuery(t *testing.T) {
	name := testAccName("upquery")
	config := func(query, example string) string {
		return fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  content   = %q
  tests_wo = {
    query    = %s
    examples = [{ name = %q, input = %q, expect = "pass" }]
  }
}
`, name, testedPolicy+"\nwarn contains \"never\" if false\n", query, example, taggedInput)
	}
	other := config(`"data.terraform.policies.tags.warn"`, "tagged")
	const addr = "tfgov_policy_upload.test"
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				// A new policy: its query is known at apply (the upload's own plan there), before the upload.
				Config: other,
				ExpectError: matchWrapped(`Policy tests use another query`, `tests_wo.query is "data.terraform.policies.tags.warn", but the policy's query is "data.terraform.policies.tags.deny"`,
					"so nothing"),
			},
			{
				Config: config("tfgov_policy.test.query", "tagged"),
				ConfigStateChecks: []statecheck.StateCheck{
					testAccCheckCode(t, addr, testedPolicy+"\nwarn contains \"never\" if false\n"),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tests_sha256"), knownvalue.StringRegexp(sha256RE)),
				},
			},
			{
				// The tests alone change: the apply's own plan, which knows no policy query, agrees.
				Config: config("tfgov_policy.test.query", "tagged bucket"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				Config:      other,
				PlanOnly:    true,
				ExpectError: matchWrapped(`Policy tests use another query`, `but the policy's query is "data.terraform.policies.tags.deny"`, "nothing will be uploaded"),
			},
		},
	})
}

// TestSameRegoQuery: queries compare as Rego, spacing aside.
func TestSameRegoQuery(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"data.terraform.deny", "data.terraform.deny", true},
		{"data.terraform.deny", " data.terraform.deny\n", true},
		{`data.terraform["deny"]`, "data.terraform.deny", true},
		{"data.terraform.deny", "data.terraform.policies.deny", false},
		{"data.terraform.deny", "data.terraform.deny[", false},
	} {
		if got := sameRegoQuery(tc.a, tc.b); got != tc.want {
			t.Errorf("sameRegoQuery(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestQuickstartPolicyTests: the quickstart's OPA policy passes its own
// tests and examples (examples/quickstart/policies.tf), as its plan runs
// them; and an example expecting the other outcome, or other violations,
// is reported with the violations the policy gave.
func TestQuickstartPolicyTests(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot(), "examples", "quickstart", "policies")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	code := policyeval.Module{Name: "required-tags.rego", Code: read("required-tags.rego")}
	const query = "data.terraform.policies.required_tags.deny"
	missing := []json.RawMessage{json.RawMessage(`"aws_s3_bucket.logs is missing the tags {\"cost-center\"}"`)}
	for _, tc := range []struct {
		name     string
		examples []policyExample
		want     []string // substrings of the errors, in order; none: passes
	}{
		{name: "as configured", examples: []policyExample{
			{name: "tagged", input: read("examples/tagged.json")},
			{name: "untagged", input: read("examples/untagged.json"), fail: true, violations: missing},
		}},
		{name: "fail expected, passes", examples: []policyExample{{name: "tagged", input: read("examples/tagged.json"), fail: true}},
			want: []string{`example [0] ("tagged") expects fail, but query ` + query + ` gives an empty array: the policy passes this input`}},
		{name: "pass expected, fails", examples: []policyExample{{input: read("examples/untagged.json")}},
			want: []string{`example [0] expects pass, but query ` + query + ` gives 1 violation(s), so nothing will be uploaded:` + "\n" + `  - "aws_s3_bucket.logs is missing the tags {\"cost-center\"}"`}},
		{name: "other violations", examples: []policyExample{{input: read("examples/untagged.json"), fail: true, violations: []json.RawMessage{json.RawMessage(`"x"`)}}},
			want: []string{`gives 1 violation(s) other than the 1 the example lists, so nothing will be uploaded:` + "\n" + `  - "aws_s3_bucket.logs is missing the tags {\"cost-center\"}"` + "\nThe example lists:\n" + `  - "x"`}},
		{name: "no resource changes", examples: []policyExample{{input: []byte(`{"plan": {"resource_changes": 3}}`)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tests := &policyTests{modules: []policyeval.Module{{Name: "required-tags_test.rego", Code: read("required-tags_test.rego")}}, examples: tc.examples}
			var diags diag.Diagnostics
			tests.run(context.Background(), "Policy \"required-tags\"", code, query, "will be", &diags)
			var got []string
			for _, d := range diags.Errors() {
				got = append(got, d.Detail())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("errors %q, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("error %q lacks %q", got[i], w)
				}
			}
		})
	}
}

// TestPolicyTestsDigest: tests_sha256 changes with everything a run of the tests depends on, so
// that a plan never skips tests that would run otherwise: the code's name and bytes, the query (a
// policy whose query alone changes is tested again), each test module and each example.
func TestPolicyTestsDigest(t *testing.T) {
	t.Parallel()
	code := policyeval.Module{Name: "tags.rego", Code: []byte(testedPolicy)}
	base := func() *policyTests {
		return &policyTests{
			modules:  []policyeval.Module{{Name: "tags_test.rego", Code: []byte(testedPolicyTest("m"))}},
			examples: []policyExample{{name: "untagged", input: []byte(untaggedInput), fail: true, violations: []json.RawMessage{json.RawMessage(`"m"`)}}},
		}
	}
	const query = "data.terraform.policies.tags.deny"
	want := base().digest(code, query)
	if again := base().digest(code, query); again != want {
		t.Fatalf("the same tests give digests %s and %s", want, again)
	}
	seen := map[string]string{want: "the base"}
	for _, tc := range []struct {
		name   string
		change func(*policyTests, *policyeval.Module, *string)
	}{
		{"the code's name", func(_ *policyTests, c *policyeval.Module, _ *string) { c.Name = "other.rego" }},
		{"the code", func(_ *policyTests, c *policyeval.Module, _ *string) { c.Code = append(c.Code, '\n') }},
		{"the query", func(_ *policyTests, _ *policyeval.Module, q *string) { *q = "data.terraform.policies.tags.warn" }},
		{"a test module's name", func(p *policyTests, _ *policyeval.Module, _ *string) { p.modules[0].Name = "other_test.rego" }},
		{"a test module's code", func(p *policyTests, _ *policyeval.Module, _ *string) {
			p.modules[0].Code = []byte(testedPolicyTest("n"))
		}},
		{"a test module more", func(p *policyTests, _ *policyeval.Module, _ *string) { p.modules = append(p.modules, p.modules[0]) }},
		{"an example's name", func(p *policyTests, _ *policyeval.Module, _ *string) { p.examples[0].name = "other" }},
		{"an example's input", func(p *policyTests, _ *policyeval.Module, _ *string) { p.examples[0].input = []byte(taggedInput) }},
		{"an example's outcome", func(p *policyTests, _ *policyeval.Module, _ *string) { p.examples[0].fail = false }},
		{"an example's violations", func(p *policyTests, _ *policyeval.Module, _ *string) { p.examples[0].violations = nil }},
	} {
		p, c, q := base(), code, query
		c.Code = append([]byte(nil), code.Code...)
		tc.change(p, &c, &q)
		got := p.digest(c, q)
		if other, dup := seen[got]; dup {
			t.Errorf("changing %s leaves the digest of %s", tc.name, other)
		}
		seen[got] = tc.name
	}
}

// TestPolicyTestsRunOnce: in one provider process the same code, query,
// tests and examples run once when they pass (an apply's own plan, then
// its upload), and again after a failure, which is never recorded.
func TestPolicyTestsRunOnce(t *testing.T) {
	t.Parallel()
	name := fmt.Sprintf("run-once-%d.rego", time.Now().UnixNano())
	pass := []byte("package p\nimport rego.v1\ndeny contains msg if { input.bad; msg := \"bad\" }\n")
	fail := []byte("package p\nimport rego.v1\ndeny contains \"always\" if { true }\n")
	tests := &policyTests{examples: []policyExample{{name: "good", input: []byte(`{"bad": false}`)}}}
	c := testedCode{who: "Policy \"p\"", code: policyeval.Module{Name: name}, passed: new(sync.Map)}
	runs := &testRuns{name: name}
	for i, step := range []struct {
		code    []byte
		wantRun bool
		wantErr bool
	}{
		{pass, true, false},
		{pass, false, false}, // passed already
		{fail, true, true},
		{fail, true, true}, // a failure is not recorded
		{pass, false, false},
	} {
		c.code.Code = step.code
		runs.mark()
		var diags diag.Diagnostics
		tests.runOnce(context.Background(), c, "data.p.deny", tests.digest(c.code, "data.p.deny"), "will be", &diags)
		if ran := runs.now() > runs.before; ran != step.wantRun || diags.HasError() != step.wantErr {
			t.Errorf("step %d: ran %v, errors %v; want ran %v, errors %v", i, ran, diags, step.wantRun, step.wantErr)
		}
	}
}
