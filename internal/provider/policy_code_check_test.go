package provider

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestAccPolicyResource_sourceRewrittenDuringApply (issue 43 bug b): a
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

// TestAccPolicyCodeProof_mismatchDropsAll (issue 43 bug a): after a recheck
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
