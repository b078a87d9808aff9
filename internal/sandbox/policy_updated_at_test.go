package sandbox_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestPolicyUpdatedAtSwitch: under each behaviour, through go-tfe, a new
// policy's updated-at is null, and an upload and an update move it or not
// as the switch says; the switch also changes at run time, and refuses an
// unknown value.
func TestPolicyUpdatedAtSwitch(t *testing.T) {
	for _, tc := range []struct {
		movedBy           sandbox.PolicyUpdatedAt
		byUpload, byPatch bool
	}{
		{"", true, true},
		{sandbox.PolicyUpdatedByUploadAndPatch, true, true},
		{sandbox.PolicyUpdatedByUpload, true, false},
		{sandbox.PolicyUpdatedByPatch, false, true},
		{sandbox.PolicyUpdatedByNeither, false, false},
	} {
		t.Run(string(tc.movedBy), func(t *testing.T) {
			w := newWorldWith(t, sandbox.Options{PolicyUpdatedAt: tc.movedBy})
			ctx := context.Background()
			pol, err := w.owner.Policies.Create(ctx, w.org, tfe.PolicyCreateOptions{Name: tfe.String("p"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
			if err != nil {
				t.Fatal(err)
			}
			if !pol.UpdatedAt.IsZero() {
				t.Fatalf("updated-at right after creation: %v, want null", pol.UpdatedAt)
			}
			last := pol.UpdatedAt
			step := func(what string, moves bool, write func()) {
				t.Helper()
				time.Sleep(2 * time.Millisecond) // updated-at has millisecond precision
				write()
				got, err := w.owner.Policies.Read(ctx, pol.ID)
				if err != nil {
					t.Fatal(err)
				}
				if moved := !got.UpdatedAt.Equal(last); moved != moves {
					t.Errorf("%s: updated-at %v -> %v, want moved %v", what, last, got.UpdatedAt, moves)
				}
				last = got.UpdatedAt
			}
			step("upload", tc.byUpload, func() {
				if err := w.owner.Policies.Upload(ctx, pol.ID, []byte("main = rule { true }")); err != nil {
					t.Fatal(err)
				}
			})
			step("update", tc.byPatch, func() {
				if _, err := w.owner.Policies.Update(ctx, pol.ID, tfe.PolicyUpdateOptions{Description: tfe.String("d")}); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
	t.Run("switched at run time", func(t *testing.T) {
		w := newWorld(t)
		req := func(method, body string) (int, string) {
			r, _ := http.NewRequestWithContext(context.Background(), method, w.inst.URL+"/_sandbox/policy-updated-at", strings.NewReader(body))
			r.Header.Set("Authorization", "Bearer "+w.inst.Token)
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b strings.Builder
			_, _ = io.Copy(&b, resp.Body)
			return resp.StatusCode, b.String()
		}
		if code, body := req("PUT", `{"moved_by":"patch"}`); code != http.StatusOK || !strings.Contains(body, `"patch"`) {
			t.Fatalf("PUT: %d %s", code, body)
		}
		if code, body := req("GET", ""); code != http.StatusOK || !strings.Contains(body, `"moved_by":"patch"`) {
			t.Fatalf("GET: %d %s", code, body)
		}
		if code, body := req("PUT", `{"moved_by":"sometimes"}`); code != http.StatusBadRequest || !strings.Contains(body, "upload+patch, upload, patch, none") {
			t.Fatalf("PUT of an unknown value: %d %s", code, body)
		}
	})
}
