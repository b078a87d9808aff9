package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// Saved plans of the resources that hash local files at plan time
// (code_hash.go): `terraform plan -out` then `terraform apply PLANFILE`
// with the file edited in between must apply, or fail with an error that
// says so, never with Terraform's "Provider produced inconsistent final
// plan".

// cliDir is a working directory for runTerraform with main.tf.
type cliDir struct {
	t   *testing.T
	dir string
}

func newCLIDir(t *testing.T, config string) *cliDir {
	t.Helper()
	testCLIConfig(t)
	testAccPreCheck(t)
	d := &cliDir{t: t, dir: t.TempDir()}
	d.write("main.tf", requiredProvidersShim+config)
	t.Cleanup(func() {
		if out, err := runTerraform(t, d.dir, "destroy", "-auto-approve", "-no-color"); err != nil {
			t.Errorf("terraform destroy: %v\n%s", err, out)
		}
	})
	return d
}

func (d *cliDir) write(name, content string) {
	d.t.Helper()
	p := filepath.Join(d.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		d.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		d.t.Fatal(err)
	}
}

// must runs terraform and fails the test on an error.
func (d *cliDir) must(args ...string) string {
	d.t.Helper()
	out, err := runTerraform(d.t, d.dir, append(args, "-no-color")...)
	if err != nil {
		d.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if strings.Contains(out, "bug in the provider") {
		d.t.Fatalf("terraform %s blames the provider:\n%s", strings.Join(args, " "), out)
	}
	return out
}

// applyFails applies the saved plan tfplan, which must fail with every
// one of want (whitespace folded), and not blame the provider.
func (d *cliDir) applyFails(want ...string) {
	d.t.Helper()
	out, err := runTerraform(d.t, d.dir, "apply", "-no-color", "tfplan")
	if err == nil {
		d.t.Fatalf("apply of the saved plan: no error\n%s", out)
	}
	folded := strings.Join(strings.Fields(out), " ")
	for _, w := range want {
		if !strings.Contains(folded, w) {
			d.t.Errorf("apply output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "bug in the provider") {
		d.t.Errorf("apply output blames the provider:\n%s", out)
	}
}

// emptyPlan checks that a plan shows no changes.
func (d *cliDir) emptyPlan() {
	d.t.Helper()
	if out := d.must("plan", "-detailed-exitcode"); !strings.Contains(out, "No changes") {
		d.t.Errorf("plan after apply is not empty:\n%s", out)
	}
}

// policyCode is the code on the service of the policy at addr in state.
func (d *cliDir) policyCode(ctx context.Context, addr string) string {
	d.t.Helper()
	id, _ := d.stateAttr(addr, "id").(string)
	b, err := testAccClient(d.t).Policies.Download(ctx, id)
	if err != nil {
		d.t.Fatalf("downloading the code of %s: %v", id, err)
	}
	return string(b)
}

// stateAttr is attribute attr of the resource at addr in state.
func (d *cliDir) stateAttr(addr, attr string) any {
	d.t.Helper()
	out := d.must("show", "-json")
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &st); err != nil {
		d.t.Fatalf("terraform show -json: %v\n%s", err, out)
	}
	for _, r := range st.Values.RootModule.Resources {
		if r.Address == addr {
			return r.Values[attr]
		}
	}
	d.t.Fatalf("%s is not in state:\n%s", addr, out)
	return nil
}

// TestAccPolicyUploadResource_sourceChangedAfterPlan: a tfgov_policy_upload
// whose source file is edited between `terraform plan -out` and the apply
// of that plan. A create plans content_sha256 unknown and uploads the file
// as the apply finds it; an update fails with a clear error and uploads
// nothing.
func TestAccPolicyUploadResource_sourceChangedAfterPlan(t *testing.T) {
	testSourceChangedAfterPlan(t, "tfgov_policy_upload.test", `
resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  source    = "${path.module}/policy.rego"
}
`)
}

// TestAccPolicyResource_sourceChangedAfterPlan is the same for
// tfgov_policy's own `source`.
func TestAccPolicyResource_sourceChangedAfterPlan(t *testing.T) {
	testSourceChangedAfterPlan(t, "tfgov_policy.test", `
resource "tfgov_policy" "test" {
  name   = %q
  kind   = "opa"
  query  = "data.terraform.policies.tags.deny"
  source = "${path.module}/policy.rego"
}
`)
}

// testSourceChangedAfterPlan applies config (%q: the policy's name), whose
// resource addr reads policy.rego, through saved plans whose file is edited
// before their apply.
func testSourceChangedAfterPlan(t *testing.T, addr, config string) {
	name := testAccName("saved")
	d := newCLIDir(t, fmt.Sprintf(config, name))
	ctx := context.Background()
	code := func() string { return d.policyCode(ctx, "tfgov_policy.test") }

	// Create: the plan cannot promise the file's hash, and the apply
	// uploads the edited file.
	d.write("policy.rego", regoV0Code)
	out := d.must("plan", "-out=tfplan")
	if !regexp.MustCompile(`content_sha256 += \(known after apply\)`).MatchString(out) {
		t.Errorf("the create's plan does not show content_sha256 as known after apply:\n%s", out)
	}
	d.write("policy.rego", regoCode)
	d.must("apply", "tfplan")
	if got := code(); got != regoCode {
		t.Errorf("code after the create: %q, want the file as the apply found it", got)
	}
	if got := d.stateAttr(addr, "content_sha256"); got != sha256Hex([]byte(regoCode)) {
		t.Errorf("content_sha256 %v, want the uploaded code's", got)
	}
	d.emptyPlan()

	// Update: the file edited after the plan is refused, nothing uploaded.
	d.write("policy.rego", regoV0Code)
	d.must("plan", "-out=tfplan")
	d.write("policy.rego", regoCode+"# edited after the plan\n")
	d.applyFails("Error: Policy file changed since the plan", "Nothing was uploaded", "Run terraform plan again")
	if got := code(); got != regoCode {
		t.Errorf("code after the refused apply: %q, want the code applied before", got)
	}
	// A new plan takes the edited file.
	d.must("apply", "-auto-approve")
	if got := code(); got != regoCode+"# edited after the plan\n" {
		t.Errorf("code after the second apply: %q, want the edited file", got)
	}
	d.emptyPlan()
}

// TestAccModuleTestRunResource_sourceChangedAfterPlan: a tfgov_module_test_run
// whose directory is edited between `terraform plan -out` and the apply of
// that plan: a new run's source_hash is known after apply, so the apply
// runs the directory as it finds it, and records its hash.
func TestAccModuleTestRunResource_sourceChangedAfterPlan(t *testing.T) {
	mod := testAccModule(t)
	d := newCLIDir(t, testAccTestRunConfig(mod, `source = "${path.module}/module"`, "wait_for_completion = false"))
	src := testModuleDir(t, "pass")
	if err := os.CopyFS(filepath.Join(d.dir, "module"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	hash := func() string {
		t.Helper()
		p, err := packConfiguration(filepath.Join(d.dir, "module"), false)
		if err != nil {
			t.Fatal(err)
		}
		return p.hash
	}

	// Create.
	out := d.must("plan", "-out=tfplan")
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "source_hash = (known after apply)") {
		t.Errorf("the create's plan does not show source_hash as known after apply:\n%s", out)
	}
	d.write("module/README.md", "edited after the plan\n")
	d.must("apply", "tfplan")
	if got := d.stateAttr("tfgov_module_test_run.test", "source_hash"); got != hash() {
		t.Errorf("source_hash %v after the apply, want the directory's as the apply found it (%s)", got, hash())
	}
	first := d.stateAttr("tfgov_module_test_run.test", "id")
	d.emptyPlan()

	// Replace: edited before the plan and again after it.
	d.write("module/README.md", "edited again\n")
	d.must("plan", "-out=tfplan")
	d.write("module/README.md", "and again after the plan\n")
	d.must("apply", "tfplan")
	if got := d.stateAttr("tfgov_module_test_run.test", "source_hash"); got != hash() {
		t.Errorf("source_hash %v after the replace, want the directory's as the apply found it (%s)", got, hash())
	}
	second := d.stateAttr("tfgov_module_test_run.test", "id")
	if second == first {
		t.Errorf("the run was not replaced: still %v", second)
	}
	d.emptyPlan()

	// In place (waiting for completion is not part of the run): a
	// directory edited after the plan is refused, and the run is kept.
	d.write("main.tf", requiredProvidersShim+testAccTestRunConfig(mod, `source = "${path.module}/module"`, "wait_for_completion = true", "fail_on_test_failure = false"))
	d.must("plan", "-out=tfplan")
	d.write("module/README.md", "edited after the in-place plan\n")
	d.applyFails("Error: Module directory changed since the plan", "Nothing was uploaded", "Run terraform plan again")
	if id := d.stateAttr("tfgov_module_test_run.test", "id"); id != second {
		t.Errorf("the refused apply changed the run: %v, want %v", id, second)
	}
}

// TestAccModuleTestVariableResource_secretNotShown: the value of a
// variable marked sensitive appears neither in the plan, nor in the apply's
// output, nor in the provider's logs at TRACE; a plain variable's value is
// shown as readable_value.
func TestAccModuleTestVariableResource_secretNotShown(t *testing.T) {
	const secret = "hunter2-d4e5f6"
	mod := testAccModule(t)
	d := newCLIDir(t, testAccTestVariableConfig(mod, `key = "PASSWORD"`, fmt.Sprintf("value = %q", secret), "sensitive = true")+`
resource "tfgov_module_test_variable" "plain" {
  module_name     = "`+mod.Name+`"
  module_provider = "`+mod.Provider+`"
  key             = "REGION"
  value           = "eu-west-1"
}
`)
	logFile := filepath.Join(t.TempDir(), "provider.log")
	t.Setenv("TF_LOG_PROVIDER", "TRACE")
	t.Setenv("TF_LOG_PATH", logFile)
	plan := d.must("plan")
	apply := d.must("apply", "-auto-approve")
	for what, out := range map[string]string{"plan": plan, "apply": apply} {
		if strings.Contains(out, secret) {
			t.Errorf("the %s shows the secret:\n%s", what, out)
		}
		if what == "plan" && !strings.Contains(strings.Join(strings.Fields(out), " "), `readable_value = "eu-west-1"`) {
			t.Errorf("the %s does not show the plain variable's readable_value:\n%s", what, out)
		}
	}
	if !strings.Contains(plan, "(sensitive value)") {
		t.Errorf("the plan does not show the value as sensitive:\n%s", plan)
	}
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) == 0 {
		t.Fatal("no provider log written")
	}
	if strings.Contains(string(logs), secret) {
		t.Errorf("the provider's TRACE log holds the secret")
	}
	if got := d.stateAttr("tfgov_module_test_variable.test", "readable_value"); got != nil {
		t.Errorf("readable_value of the sensitive variable: %v, want null", got)
	}
	d.emptyPlan()
}

// TestAccPolicyUploadResource_writtenDuringApply: a
// tfgov_policy_upload whose source file another resource writes during the
// apply, with content_sha256 from that writer (terraform_data stands for
// it; its output is unknown at plan when its input changes). The plan shows
// the upload as known after apply; the apply uploads the file as the
// writer left it (written here between the plan and its apply), checked
// against the digest then known; a file that does not match it fails the
// apply and uploads nothing.
func TestAccPolicyUploadResource_writtenDuringApply(t *testing.T) {
	t.Parallel()
	name := testAccName("writer")
	d := newCLIDir(t, fmt.Sprintf(`
variable "digest" { type = string }

resource "tfgov_policy" "test" {
  name  = %q
  kind  = "opa"
  query = "data.terraform.policies.tags.deny"
}

resource "terraform_data" "writer" {
  input = var.digest
}

resource "tfgov_policy_upload" "test" {
  policy_id      = tfgov_policy.test.id
  source         = "${path.module}/policy.rego"
  content_sha256 = terraform_data.writer.output
}
`, name))
	ctx := context.Background()
	code := func() string { return d.policyCode(ctx, "tfgov_policy.test") }
	digest := func(code string) { d.write("terraform.tfvars", fmt.Sprintf("digest = %q\n", sha256Hex([]byte(code)))) }
	known := regexp.MustCompile(`content_sha256 += "[0-9a-f]{64}" -> \(known after apply\)`)

	d.write("policy.rego", regoV0Code)
	digest(regoV0Code)
	d.must("apply", "-auto-approve")
	if got := code(); got != regoV0Code {
		t.Fatalf("code after the create: %q", got)
	}

	// The writer's new digest, unknown at plan; the file written after.
	digest(regoCode)
	out := d.must("plan", "-out=tfplan")
	if !strings.Contains(out, "# tfgov_policy_upload.test will be updated in-place") || !known.MatchString(out) {
		t.Errorf("the plan does not show the upload with content_sha256 known after apply:\n%s", out)
	}
	d.write("policy.rego", regoCode)
	d.must("apply", "tfplan")
	if got := code(); got != regoCode {
		t.Errorf("code after the apply: %q, want the file as the writer left it", got)
	}
	if got := d.stateAttr("tfgov_policy_upload.test", "content_sha256"); got != sha256Hex([]byte(regoCode)) {
		t.Errorf("content_sha256 %v, want the uploaded code's", got)
	}

	// The file already rewritten when the plan runs: the same.
	edited := regoCode + "# edited\n"
	d.write("policy.rego", edited)
	digest(edited)
	d.must("apply", "-auto-approve")
	if got := code(); got != edited {
		t.Errorf("code after the apply of a file written before the plan: %q", got)
	}

	// A writer whose file does not match its digest: nothing uploaded.
	digest(regoV0Code)
	d.must("plan", "-out=tfplan")
	d.write("policy.rego", regoCode)
	d.applyFails("content_sha256 does not match the source file")
	if got := code(); got != edited {
		t.Errorf("code after the refused apply: %q, want the code applied before", got)
	}
	digest(regoCode) // for the destroy's plan
}

// TestAccPolicyResource_importUploadedBeforeApply: an
// import planned with -out into a configuration whose code the policy had
// at plan, and other code uploaded before the apply. The apply does not
// take the import's plan-time digest for the service's code: it downloads
// the code once, finds it changed and uploads the configured code. The
// same for tfgov_policy's `content` and tfgov_policy_upload's `source`
// (each plans a state-only update after an import).
func TestAccPolicyResource_importUploadedBeforeApply(t *testing.T) {
	const code, other = "main = rule { true }\n", "main = rule { false }\n"
	for shape, config := range map[string]string{
		"content": `
resource "tfgov_policy" "test" {
  name              = %[1]q
  enforcement_level = "advisory"
  content           = %[2]q
}
import {
  to = tfgov_policy.test
  id = %[3]q
}
`,
		"upload": `
resource "tfgov_policy" "test" {
  name              = %[1]q
  enforcement_level = "advisory"
}
resource "tfgov_policy_upload" "test" {
  policy_id = tfgov_policy.test.id
  source    = "${path.module}/policy.sentinel"
}
import {
  to = tfgov_policy.test
  id = %[3]q
}
import {
  to = tfgov_policy_upload.test
  id = %[3]q
}
`,
	} {
		t.Run(shape, func(t *testing.T) {
			t.Parallel()
			pol := testAccPolicy(t, tfe.Sentinel)
			c := testAccClient(t)
			ctx := context.Background()
			if err := c.Policies.Upload(ctx, pol.ID, []byte(code)); err != nil {
				t.Fatal(err)
			}
			d := newCLIDir(t, fmt.Sprintf(config, pol.Name, code, pol.ID))
			d.write("policy.sentinel", code)
			d.must("plan", "-out=tfplan")
			if err := c.Policies.Upload(ctx, pol.ID, []byte(other)); err != nil {
				t.Fatal(err)
			}
			d.must("apply", "tfplan")
			got, err := c.Policies.Download(ctx, pol.ID)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != code {
				t.Errorf("the service has %q after the apply, want the configured %q: the apply took the import's plan-time digest for the code uploaded since", got, code)
			}
			d.emptyPlan()
		})
	}
}

// TestAccPolicyResource_importShapes (import into the recommended shapes
// plans clean): four policies with code, imported into
// content_wo, into tfgov_policy with a tfgov_policy_upload (the shape
// -generate-config-out writes), into content and into source, each with
// the code the policy has. The first two plan no change; content and
// source plan a state-only update, and the plan warns, naming each, that
// it uploads nothing. The apply uploads nothing, and the next plan is empty.
func TestAccPolicyResource_importShapes(t *testing.T) {
	t.Parallel()
	const code = "main = rule { true }\n"
	c := testAccClient(t)
	ctx := context.Background()
	pols := map[string]*tfe.Policy{}
	for _, shape := range []string{"wo", "pair", "content", "source"} {
		pols[shape] = testAccPolicy(t, tfe.Sentinel)
		if err := c.Policies.Upload(ctx, pols[shape].ID, []byte(code)); err != nil {
			t.Fatal(err)
		}
	}
	d := newCLIDir(t, fmt.Sprintf(`
resource "tfgov_policy" "wo" {
  name              = %[1]q
  enforcement_level = "advisory"
  content_wo        = %[5]q
}
resource "tfgov_policy" "pair" {
  name              = %[2]q
  enforcement_level = "advisory"
}
resource "tfgov_policy_upload" "pair" {
  policy_id = tfgov_policy.pair.id
  content   = %[5]q
}
resource "tfgov_policy" "content" {
  name              = %[3]q
  enforcement_level = "advisory"
  content           = %[5]q
}
resource "tfgov_policy" "source" {
  name              = %[4]q
  enforcement_level = "advisory"
  source            = "${path.module}/policy.sentinel"
}
import {
  to = tfgov_policy.wo
  id = %[6]q
}
import {
  to = tfgov_policy.pair
  id = %[7]q
}
import {
  to = tfgov_policy_upload.pair
  id = %[7]q
}
import {
  to = tfgov_policy.content
  id = %[8]q
}
import {
  to = tfgov_policy.source
  id = %[9]q
}
`, pols["wo"].Name, pols["pair"].Name, pols["content"].Name, pols["source"].Name, code,
		pols["wo"].ID, pols["pair"].ID, pols["content"].ID, pols["source"].ID))
	d.write("policy.sentinel", code)
	out := d.must("plan", "-out=tfplan")
	folded := strings.Join(strings.Fields(out), " ")
	for addr, change := range map[string]bool{
		"tfgov_policy.wo": false, "tfgov_policy.pair": false, "tfgov_policy_upload.pair": false,
		"tfgov_policy.content": true, "tfgov_policy.source": true,
	} {
		if got := strings.Contains(out, "# "+addr+" will be updated in-place"); got != change {
			t.Errorf("%s: an update planned %v, want %v:\n%s", addr, got, change, out)
		}
	}
	if !strings.Contains(folded, "5 to import, 0 to add, 2 to change, 0 to destroy") {
		t.Errorf("the plan's summary is not 5 to import, 2 (state-only) to change:\n%s", out)
	}
	// One warning, each policy's folded into it by Terraform.
	warned := 0
	for _, shape := range []string{"content", "source"} {
		if strings.Contains(folded, "Policy "+pols[shape].ID+" ("+pols[shape].Name+") already has the configured code") {
			warned++
		}
	}
	if warned != 1 || strings.Count(folded, "Warning: Imported policy code: this update uploads nothing") != 1 || !strings.Contains(folded, "(and one more similar warning elsewhere)") {
		t.Errorf("the plan does not warn once, for both updates, that they upload nothing:\n%s", out)
	}
	if strings.Contains(folded, "Policy "+pols["wo"].ID+" (") || strings.Contains(folded, "Policy "+pols["pair"].ID+" (") {
		t.Errorf("the plan warns about a shape that plans no change:\n%s", out)
	}
	var updated []time.Time
	for _, shape := range []string{"wo", "pair", "content", "source"} {
		p, err := c.Policies.Read(ctx, pols[shape].ID)
		if err != nil {
			t.Fatal(err)
		}
		updated = append(updated, p.UpdatedAt)
	}
	d.must("apply", "tfplan")
	for i, shape := range []string{"wo", "pair", "content", "source"} {
		p, err := c.Policies.Read(ctx, pols[shape].ID)
		if err != nil {
			t.Fatal(err)
		}
		if !p.UpdatedAt.Equal(updated[i]) {
			t.Errorf("%s: updated-at moved from %s to %s: the apply wrote to a policy that had the configured code", shape, updated[i], p.UpdatedAt)
		}
	}
	d.emptyPlan()
}

// TestAccPolicyResource_sourceMoved: a saved plan that
// moves tfgov_policy's source to another file plans that file's digest as
// known (it exists at plan); applied after that file changed, it fails
// and sends nothing, whether the new file had the same code at plan or
// other code. The apply's plan cannot know what the plan read from a path
// its refresh never read, so the failure is Terraform's own check of the
// planned digest (DESIGN.md, "Local files at plan").
func TestAccPolicyResource_sourceMoved(t *testing.T) {
	t.Parallel()
	name := testAccName("moved")
	d := newCLIDir(t, "")
	config := func(file string) {
		d.write("main.tf", requiredProvidersShim+fmt.Sprintf(`
resource "tfgov_policy" "test" {
  name   = %q
  source = "${path.module}/%s"
}
`, name, file))
	}
	ctx := context.Background()
	code := func() string { return d.policyCode(ctx, "tfgov_policy.test") }
	const a, b, e = "main = rule { true }\n", "main = rule { false }\n", "main = rule { 1 == 2 }\n"
	d.write("a.sentinel", a)
	config("a.sentinel")
	d.must("apply", "-auto-approve")

	// Moved to a file of other code: its digest is known at plan.
	d.write("b.sentinel", b)
	config("b.sentinel")
	out := d.must("plan", "-out=tfplan")
	if want := fmt.Sprintf("content_sha256 = %q -> %q", sha256Hex([]byte(a)), sha256Hex([]byte(b))); !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("the plan of the move does not show %s:\n%s", want, out)
	}
	d.must("apply", "tfplan")
	if got := code(); got != b {
		t.Fatalf("code after the move: %q", got)
	}

	// Moved again, the new file edited after the plan: nothing is sent,
	// for a file of the same code at plan as for one of other code.
	for file, atPlan := range map[string]string{"c.sentinel": b, "d.sentinel": a} {
		d.write(file, atPlan)
		config(file)
		d.must("plan", "-out=tfplan")
		d.write(file, e)
		out, err := runTerraform(t, d.dir, "apply", "-no-color", "tfplan")
		folded := strings.Join(strings.Fields(out), " ")
		onDigest := strings.Contains(folded, "changed since the plan") || strings.Contains(folded, "content_sha256: was")
		if err == nil || !onDigest {
			t.Errorf("%s: the apply of a plan whose file changed since did not fail on the digest (err %v):\n%s", file, err, out)
		}
		if got := code(); got != b {
			t.Errorf("%s: the service has %q after the refused apply, want %q", file, got, b)
		}
	}
}
