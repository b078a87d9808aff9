package provider

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// When a refresh may skip downloading a policy's code: DESIGN.md "Policy code proofs".

// codeProof: Proven, an upload of this resource's own moved updated-at on this service;
// At, the updated-at at which the code in state was seen on it.
type codeProof struct {
	Proven bool
	At     string // updatedAtSignal's form; "" for none
}

// updatedAtSignal is pol's updated-at to the precision the API gives; "" when null.
func updatedAtSignal(pol *policyAPI) string {
	if pol.UpdatedAt.IsZero() {
		return ""
	}
	return pol.UpdatedAt.UTC().Format(time.RFC3339Nano)
}

func (p codeProof) unchanged(pol *policyAPI) bool {
	return p.Proven && p.At != "" && p.At == updatedAtSignal(pol)
}

// why says, for the debug log, why a refresh downloads.
func (p codeProof) why(pol *policyAPI) string {
	switch {
	case !p.Proven:
		return "no proof, seen on this service, that uploads move a policy's updated-at (none seen across an upload of this resource's own, or the proof was of another service or dropped), so updated-at cannot show that the code is unchanged"
	case p.At == "":
		return "no updated-at recorded together with the code in state"
	case p.unchanged(pol):
		return "the rotating recheck of proven policies (DESIGN.md, \"Policy code proofs\")"
	default:
		return fmt.Sprintf("updated-at moved from %s to %s", p.At, updatedAtSignal(pol))
	}
}

// downloaded is the proof after the code in state was found at pol's updated-at (read first).
func (p codeProof) downloaded(pol *policyAPI) codeProof {
	if !p.Proven || pol == nil {
		return codeProof{Proven: p.Proven}
	}
	return codeProof{Proven: true, At: updatedAtSignal(pol)}
}

func (d *providerData) skipDownload(ctx context.Context, pol *policyAPI, proof codeProof) bool {
	if proof.unchanged(pol) && !d.proofs.recheck(pol.ID) {
		tflog.Debug(ctx, "Policy code unchanged: updated-at still shows the value recorded with the code in state, and uploads move it on this service; not downloading",
			map[string]any{"policy_id": pol.ID, "updated_at": updatedAtSignal(pol)})
		return true
	}
	tflog.Debug(ctx, "Downloading policy code", map[string]any{"policy_id": pol.ID, "why": proof.why(pol)})
	return false
}

// checkDownload: code changed while updated-at did not drops every proof of the service.
func (d *providerData) checkDownload(pol *policyAPI, proof codeProof, sum, found string, diags *diag.Diagnostics) {
	if proof.unchanged(pol) && found != sum {
		d.proofs.drop(pol, sum, found, diags)
	}
}

// putCode uploads code, then gathers the evidence of DESIGN.md "Policy code proofs": a read, and a download when
// uploads move updated-at here. Only a failed upload is an error.
func (d *providerData) putCode(ctx context.Context, id string, pol policyIdentity, code []byte, before *string, prior codeProof, diags *diag.Diagnostics) codeProof {
	tflog.Debug(ctx, "Uploading policy code", map[string]any{"policy_id": id, "bytes": len(code), "kind": string(pol.kind)})
	defer d.lists.policies.invalidate(pol.organization)
	pc := policyClient{d.client}
	if err := pc.upload(ctx, id, code); err != nil {
		diags.AddError("Error uploading policy code", policyError("Policy "+id, err))
		return codeProof{}
	}
	tflog.Info(ctx, "Uploaded policy code", map[string]any{"policy_id": id, "bytes": len(code), "sha256": sha256Hex(code)})
	if d.proofs.dropped.Load() {
		return codeProof{} // this run found a proof of this service wrong
	}
	after, err := pc.read(ctx, id)
	if err != nil {
		tflog.Debug(ctx, "Reading the policy after its upload failed; the next refresh downloads its code", map[string]any{"policy_id": id, "error": err.Error()})
		return codeProof{}
	}
	if !prior.Proven && (before == nil || *before == updatedAtSignal(after)) {
		tflog.Debug(ctx, "No proof that the upload moved the policy's updated-at: updated-at cannot show a change of code here, so every refresh downloads it",
			map[string]any{"policy_id": id, "updated_at": updatedAtSignal(after)})
		return codeProof{}
	}
	got, err := d.client.Policies.Download(ctx, id)
	if err != nil || sha256Hex(got) != sha256Hex(code) {
		tflog.Debug(ctx, "The code after the upload is not known to be the code uploaded; the next refresh downloads it", map[string]any{"policy_id": id})
		return codeProof{Proven: true}
	}
	return codeProof{Proven: true, At: updatedAtSignal(after)}
}

// valueBefore is updated-at right before an upload (a read of its own); nil when prior proves it.
func (d *providerData) valueBefore(ctx context.Context, id string, prior codeProof) *string {
	if prior.Proven {
		return nil
	}
	pol, err := policyClient{d.client}.read(ctx, id)
	if err != nil {
		return nil
	}
	v := updatedAtSignal(pol)
	return &v
}

// afterPatch is the proof after this provider's PATCH answered pol, for code sum in state.
func (d *providerData) afterPatch(ctx context.Context, pol *policyAPI, prior codeProof, sum string) codeProof {
	if !prior.Proven || prior.unchanged(pol) {
		return prior
	}
	got, err := d.client.Policies.Download(ctx, pol.ID)
	if err != nil || sha256Hex(got) != sum {
		tflog.Debug(ctx, "The code after the policy's update is not known to be the code in state; the next refresh downloads it", map[string]any{"policy_id": pol.ID})
		return codeProof{Proven: true}
	}
	return codeProof{Proven: true, At: updatedAtSignal(pol)}
}

// proofRecheck groups, one an hour: prime, so that any period of whole hours reaches them all.
const proofRecheck = 23

type proofChecks struct {
	tag string // serviceTag of the provider's API
	// dropped: a recheck found code changed while updated-at stayed.
	dropped atomic.Bool
	// now is the service's time (its Date header's).
	now func() time.Time
}

// recheck: proven policy id is downloaded anyway in its group's hour, the same for a plan and its apply.
func (c *proofChecks) recheck(id string) bool {
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	return recheckDue(id, now().Unix()/3600)
}

func recheckDue(id string, hour int64) bool {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return (int64(h.Sum32())+hour)%proofRecheck == 0
}

func (c *proofChecks) drop(pol *policyAPI, sumInState, sumFound string, diags *diag.Diagnostics) {
	c.dropped.Store(true)
	diags.AddWarning("Policy code changed without its updated-at moving",
		fmt.Sprintf("Policy %s holds code (SHA-256 %s) other than the code in state (SHA-256 %s), though its updated-at (%s) has not moved since that code was seen: on this service uploads do not move updated-at, or the policy was restored. "+
			"For the rest of this run tfgov takes no proof of this service: later refreshes download each policy's code and record no proof, so an apply drops them; proofs kept by refreshes before this one are rechecked in their hour (DESIGN.md, \"Policy code proofs\"). A proof is made again only when an upload of tfgov's own moves updated-at. "+
			"A plan writes no state, so this finding lasts only as long as this run: a plan in another hour may show no change for this policy again while the service holds the other code. "+
			"Apply this change, or run terraform apply -refresh-only, to record what this run found.",
			pol.ID, sumFound, sumInState, updatedAtSignal(pol)))
}
