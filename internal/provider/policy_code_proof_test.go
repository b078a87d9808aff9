package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

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
// (an HCL expression): in content ("inline"), in content_wo ("content_wo"), or
// in a tfgov_policy_upload ("upload"); output "id" is the policy's ID.
func proofConfig(shape, desc, code string) string {
	if attr := map[string]string{"inline": "content", "content_wo": "content_wo"}[shape]; attr != "" {
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
//     upload made between the plan and its apply (a PATCH's move of
//     updated-at must not pass for the provider's own);
//   - after a description change applied without a saved plan, the outside
//     upload made right after it.
//
// Each plan after an apply is empty, and its requests are logged (the
// table in PERFORMANCE.md).
func TestAccPolicyCodeProof(t *testing.T) {
	const codeA, codeB, codeC = "main = rule { true }\n", "main = rule { false }\n", "main = rule { 1 == 1 }\n"
	for _, movedBy := range sandbox.PolicyUpdatedAtValues {
		for _, shape := range []string{"inline", "content_wo", "upload"} {
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

// TestAccPolicyCodeProof_mismatchDropsAll: after a recheck
// finds a policy's code changed at an unmoved updated-at, no proof of that
// service counts for the rest of the run. Three proven policies on a
// service that stops moving updated-at get other code outside Terraform; in
// an hour when the first is due for its recheck, the plan finds every one:
// the others (refreshed after the first, which they depend on) download
// their code, their proofs dropped with the first's mismatch, though their
// hour is not due.
func TestAccPolicyCodeProof_mismatchDropsAll(t *testing.T) {
	t.Parallel()
	d := newProofDir(t, sandbox.PolicyUpdatedByUploadAndPatch)
	d.write("main.tf", requiredProvidersShim+`resource "tfgov_policy" "a" {
  name    = "due"
  content = "main = rule { true }\n"
}
resource "tfgov_policy" "b" {
  count      = 2
  name       = "after-${count.index}"
  content    = "main = rule { true }\n"
  depends_on = [tfgov_policy.a]
}
output "ids" { value = join(" ", concat([tfgov_policy.a.id], tfgov_policy.b[*].id)) }
`)
	d.tf("apply", "-auto-approve")
	ids := strings.Fields(strings.TrimSpace(d.tf("output", "-raw", "ids")))
	for addr, ok := range proofsInState(t, d.dir) {
		if !ok {
			t.Fatalf("%s holds no proof on a service where uploads move updated-at", addr)
		}
	}
	if err := d.sb.srv.SetPolicyUpdatedAt(sandbox.PolicyUpdatedByNeither); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		d.upload(id, "main = rule { false }\n")
	}

	// The middle of an hour (of the sandbox's clock) when a is due; the
	// policies refreshed after it that are not due then must download too
	// (two of them: both in a's group is a chance of 1 in 529).
	now := time.Now()
	hour := now.Unix() / 3600
	for !recheckDue(ids[0], hour) {
		hour++
	}
	var after []string
	for i, id := range ids[1:] {
		if !recheckDue(id, hour) {
			after = append(after, fmt.Sprintf("tfgov_policy.b[%d]", i))
		}
	}
	if len(after) == 0 {
		t.Skip("every policy fell in the due policy's recheck group")
	}
	d.sb.srv.SetClockOffset(time.Unix(hour*3600+1800, 0).Sub(now))
	out, code := runTerraformEnv(t, d.dir, d.env, "plan", "-detailed-exitcode", "-no-color")
	if code != 2 || !strings.Contains(out, "Policy code changed without its updated-at moving") || !strings.Contains(strings.Join(strings.Fields(out), " "), "A plan writes no state") {
		t.Fatalf("the recheck of tfgov_policy.a did not find its code changed (exit %d):\n%s", code, out)
	}
	for _, addr := range append(after, "tfgov_policy.a") {
		if !strings.Contains(out, "# "+addr+" will be updated in-place") {
			t.Errorf("the plan does not show %s's code changed outside Terraform:\n%s", addr, out)
		}
	}
}

// proofsInState returns, by resource address, whether each instance of the
// state file in dir holds a code proof (private state key codeProofKey).
func proofsInState(t *testing.T, dir string) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				IndexKey any    `json:"index_key"`
				Private  string `json:"private"`
			}
		}
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range st.Resources {
		for _, i := range r.Instances {
			addr := r.Type + "." + r.Name
			if i.IndexKey != nil {
				addr += fmt.Sprintf("[%v]", i.IndexKey)
			}
			var priv map[string]json.RawMessage
			if b, err := base64.StdEncoding.DecodeString(i.Private); err == nil && len(b) > 0 {
				if err := json.Unmarshal(b, &priv); err != nil {
					t.Fatalf("%s: private state %q is not the framework's format: %v", addr, b, err)
				}
			}
			_, got[addr] = priv[codeProofKey]
		}
	}
	return got
}

// applyPolicies applies n policies proof-<i> with one line of code and
// returns their IDs.
func (d *proofDir) applyPolicies(n int) []string {
	d.t.Helper()
	d.write("main.tf", requiredProvidersShim+fmt.Sprintf(`resource "tfgov_policy" "p" {
  count   = %d
  name    = "proof-${count.index}"
  content = "main = rule { true }\n"
}
output "ids" { value = tfgov_policy.p[*].id }
`, n))
	d.tf("apply", "-auto-approve")
	var ids []string
	if err := json.Unmarshal([]byte(d.tf("output", "-json", "ids")), &ids); err != nil {
		d.t.Fatal(err)
	}
	return ids
}

// planUntilFound plans once an hour of the sandbox's clock (moved forward
// an hour before each plan) until a plan shows a change of addr's code, up
// to the recheck's bound of proofRecheck plans, and returns which plan did
// (from 1; 0 for none), its output, and the downloads of each plan.
func (d *proofDir) planUntilFound(addr string) (found int, out string, downloads []int) {
	d.t.Helper()
	for plan := range proofRecheck {
		d.sb.srv.SetClockOffset(time.Duration(plan) * time.Hour)
		var code int
		n := d.requests(func() { out, code = runTerraformEnv(d.t, d.dir, d.env, "plan", "-detailed-exitcode", "-no-color") })
		downloads = append(downloads, n["GET /api/v2/policies/{id}/download"])
		switch {
		case code == 0:
			continue
		case code != 2 || !strings.Contains(out, "# "+addr+" will be updated in-place") || !strings.Contains(out, "~ content"):
			d.t.Fatalf("plan %d: exit %d, want a change of %s's code:\n%s", plan+1, code, addr, out)
		}
		return plan + 1, out, downloads
	}
	return 0, out, downloads
}

// TestAccPolicyCodeProof_notBorrowed: a proof is never made from another
// write's answer. On a service where
// only PATCH moves updated-at, in the apply that changes a policy's
// description and its code, an outside PATCH that changes nothing visible
// lands right after the provider's own PATCH, before the upload.
//
//   - tfgov_policy_upload reads updated-at itself right before its upload
//     (it took the PATCH's answer before): it sees the outside PATCH's move
//     before the upload, none across it, and records no proof, so a later
//     outside upload shows in the next plan;
//   - tfgov_policy with content takes its own PATCH's answer as the value
//     before its upload, and the outside PATCH lands inside that window:
//     no rule over updated-at can tell that move from the upload's
//     (DESIGN.md), so the proof is wrong, and the rotating recheck finds
//     the later outside upload, says so, and drops the service's proofs.
func TestAccPolicyCodeProof_notBorrowed(t *testing.T) {
	const codeA, codeB, codeC = "main = rule { true }\n", "main = rule { false }\n", "main = rule { 1 == 1 }\n"
	for _, shape := range []string{"upload", "inline"} {
		t.Run(shape, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Bool
			var outside atomic.Pointer[tfe.Client]
			d := newProofDirWrapped(t, sandbox.Options{PolicyUpdatedAt: sandbox.PolicyUpdatedByPatch}, func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					next.ServeHTTP(w, r)
					// The answer is still buffered: the provider sees it
					// after this outside PATCH, which sets nothing new, a
					// few milliseconds later (updated-at has milliseconds).
					if r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/api/v2/policies/") && armed.CompareAndSwap(true, false) {
						time.Sleep(5 * time.Millisecond)
						id := r.URL.Path[len("/api/v2/policies/"):]
						if _, err := outside.Load().Policies.Update(context.Background(), id, tfe.PolicyUpdateOptions{}); err != nil {
							t.Errorf("the outside PATCH: %v", err)
						}
					}
				})
			})
			outside.Store(d.client)
			config := func(desc, code string) string { return proofConfig(shape, desc, fmt.Sprintf("%q", code)) }
			d.write("main.tf", config("v1", codeA))
			d.tf("apply", "-auto-approve")
			id := strings.Trim(strings.TrimSpace(d.tf("output", "-raw", "id")), `"`)

			armed.Store(true)
			d.write("main.tf", config("v2", codeB))
			d.tf("apply", "-auto-approve")
			if armed.Load() {
				t.Fatal("the apply sent no PATCH: the outside PATCH never landed")
			}
			proofs := proofsInState(t, d.dir)
			d.upload(id, codeC)
			addr := map[string]string{"upload": "tfgov_policy_upload.p", "inline": "tfgov_policy.p"}[shape]
			found, out, downloads := d.planUntilFound(addr)
			warned := strings.Contains(out, "Policy code changed without its updated-at moving")
			t.Logf("%s: found by plan %d; downloads a plan: %v", shape, found, downloads)
			switch {
			case found == 0:
				t.Fatalf("the outside upload was not found within %d plans an hour apart:\n%s", proofRecheck, out)
			case shape == "upload" && (proofs[addr] || found != 1 || warned):
				t.Errorf("the upload took the outside PATCH's move for its own: proof recorded %v, found by plan %d, warning %v:\n%s", proofs[addr], found, warned, out)
			case shape == "inline" && !warned:
				t.Errorf("the recheck found the change but did not say that the service's proofs were dropped:\n%s", out)
			}
		})
	}
}

// TestAccPolicyCodeProof_otherService: proofs seen on one
// service are no proof on another. Five policies are proven on a sandbox
// where uploads move updated-at; its state is restored into a second one,
// at another address, where nothing moves updated-at; code uploaded there
// outside Terraform to every policy shows in the next plan, every one of
// them (the rotating recheck alone would download about one in 23), and
// the refresh drops the proofs.
func TestAccPolicyCodeProof_otherService(t *testing.T) {
	t.Parallel()
	testCLIConfig(t)
	if testAccSandbox() == nil {
		t.Skip("restoring a sandbox's state into another needs in-process sandboxes")
	}
	data := filepath.Join(t.TempDir(), "sandbox.json")
	d := newProofDirOpts(t, sandbox.Options{DataFile: data})
	ids := d.applyPolicies(5)
	for addr, ok := range proofsInState(t, d.dir) {
		if !ok {
			t.Fatalf("%s holds no proof on a service where uploads move updated-at", addr)
		}
	}
	d.sb.stop()

	// The restore: the same data at another address.
	srv, err := sandbox.New(sandbox.Options{DataFile: data, PolicyUpdatedAt: sandbox.PolicyUpdatedByNeither})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	for i, kv := range d.env {
		if strings.HasPrefix(kv, "TFE_ADDRESS=") {
			d.env[i] = "TFE_ADDRESS=" + ts.URL
		}
	}
	other, err := tfe.NewClient(&tfe.Config{Address: ts.URL, Token: d.sb.token})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if err := other.Policies.Upload(context.Background(), id, []byte("main = rule { false }\n")); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runTerraformEnv(t, d.dir, d.env, "plan", "-detailed-exitcode", "-no-color")
	if code != 2 || strings.Count(out, "~ content") != len(ids) {
		t.Fatalf("the plan on the restored service shows %d of %d outside uploads (exit %d):\n%s", strings.Count(out, "~ content"), len(ids), code, out)
	}
	d.tf("apply", "-refresh-only", "-auto-approve")
	for addr, ok := range proofsInState(t, d.dir) {
		if ok {
			t.Errorf("%s keeps a proof of another service after a refresh", addr)
		}
	}
}

// TestAccPolicyCodeProof_serviceChanged: a service that
// stops moving updated-at on upload (an upgrade) after the proofs were
// made. Code uploaded outside Terraform to one of eight proven policies is
// found by the rotating recheck within its bound, 23 plans an hour apart
// (the sandbox's clock is moved an hour before each plan); the plan that
// finds it warns that the service's proofs are dropped, the apply that
// follows within the hour finds it too and repairs it, and records no proof
// for it.
func TestAccPolicyCodeProof_serviceChanged(t *testing.T) {
	t.Parallel()
	d := newProofDir(t, sandbox.PolicyUpdatedByUploadAndPatch)
	ids := d.applyPolicies(8)
	if err := d.sb.srv.SetPolicyUpdatedAt(sandbox.PolicyUpdatedByNeither); err != nil {
		t.Fatal(err)
	}
	const changed = 5
	d.upload(ids[changed], "main = rule { false }\n")
	found, out, downloads := d.planUntilFound(fmt.Sprintf("tfgov_policy.p[%d]", changed))
	if found == 0 {
		t.Fatalf("the outside upload was not found within %d plans an hour apart (downloads a plan: %v)", proofRecheck, downloads)
	}
	if !strings.Contains(out, "Policy code changed without its updated-at moving") {
		t.Errorf("plan %d found the change without the warning:\n%s", found, out)
	}
	t.Logf("found by plan %d; downloads a plan: %v", found, downloads)
	d.tf("apply", "-auto-approve")
	if d.code(ids[changed]) != "main = rule { true }\n" {
		t.Fatal("the apply did not repair the code")
	}
	if proofsInState(t, d.dir)[fmt.Sprintf("tfgov_policy.p[%d]", changed)] {
		t.Error("the repaired policy holds a proof on a service where uploads no longer move updated-at")
	}
	d.emptyPlan("after the repair")
}
