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

// TestAccPolicyCodeProof_notBorrowed (issue 35 row 2): on a service where
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

// TestAccPolicyCodeProof_otherService (issue 35 row 3): proofs seen on one
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

// TestAccPolicyCodeProof_serviceChanged (issue 35 row 3): a service that
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
