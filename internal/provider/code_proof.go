package provider

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// When a refresh may skip downloading a policy's code: DESIGN.md, "Policy
// code proofs", gives the rules, the interleavings they were checked
// against and the recheck's bound.
//
// Private state: codeProofKey holds a JSON string, the tag of the service
// the proof was seen on (serviceTag) followed by At (encode). The key is
// one letter because Terraform's time at scale grows with the state's
// bytes.
const codeProofKey = "p"

// codeProof is what a policy's code keeps in private state: Proven, an
// upload of this resource's own moved the policy's updated-at on this
// service; At, the updated-at at which the code in state was seen on it.
type codeProof struct {
	Proven bool
	At     string // updatedAtSignal's form; "" for none
}

// serviceTagLen is the length of serviceTag's tag: 36 bits of SHA-256.
const serviceTagLen = 6

// serviceTag names the service at base (host and base path) in a proof: a
// proof seen on another service is no proof (a state restored against
// another instance, a hostname moved).
func serviceTag(base url.URL) string {
	sum := sha256.Sum256([]byte(base.Host + base.Path))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:serviceTagLen]
}

// encode is the proof as private state stores it, for the service tagged
// tag: a JSON string of the tag, then At in base 36, in milliseconds since
// proofEpoch (8 digits until 2109; the API's timestamps have millisecond
// precision), or after a '.' in Unix nanoseconds when it has a finer part.
func (p codeProof) encode(tag string) []byte {
	s := tag
	if at, err := time.Parse(time.RFC3339Nano, p.At); err == nil && p.At != "" {
		if at.Nanosecond()%int(time.Millisecond) != 0 {
			s += "." + strconv.FormatInt(at.UnixNano(), 36)
		} else {
			s += strconv.FormatInt(at.UnixMilli()-proofEpoch.UnixMilli(), 36)
		}
	}
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// proofEpoch is the origin of encode's milliseconds.
var proofEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// decodeCodeProof reads encode's form for the service tagged tag; ok is
// false for anything else, a proof of another service included.
func decodeCodeProof(raw []byte, tag string) (codeProof, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil || len(s) < serviceTagLen || s[:serviceTagLen] != tag {
		return codeProof{}, false
	}
	rest := s[serviceTagLen:]
	if rest == "" {
		return codeProof{Proven: true}, true
	}
	nanos := rest[0] == '.'
	if nanos {
		rest = rest[1:]
	}
	n, err := strconv.ParseInt(rest, 36, 64)
	if err != nil {
		return codeProof{}, false
	}
	at := time.Unix(0, n)
	if !nanos {
		at = time.UnixMilli(proofEpoch.UnixMilli() + n)
	}
	return codeProof{Proven: true, At: at.UTC().Format(time.RFC3339Nano)}, true
}

// unchanged reports whether pol, as the list shows it, still has the code
// recorded at At: no download needed.
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

// downloaded is the proof after the code in state was found at pol's
// updated-at (read before the download).
func (p codeProof) downloaded(pol *policyAPI) codeProof {
	if !p.Proven || pol == nil {
		return codeProof{Proven: p.Proven}
	}
	return codeProof{Proven: true, At: updatedAtSignal(pol)}
}

func (d *providerData) getCodeProof(ctx context.Context, priv privateGetter) (codeProof, diag.Diagnostics) {
	if priv == nil || d.proofs.dropped.Load() {
		return codeProof{}, nil
	}
	raw, diags := priv.GetKey(ctx, codeProofKey)
	p, _ := decodeCodeProof(raw, d.proofs.tag)
	return p, diags
}

func (d *providerData) setCodeProof(ctx context.Context, priv privateStateSetter, p codeProof) diag.Diagnostics {
	if priv == nil {
		return nil
	}
	if !p.Proven || d.proofs.dropped.Load() {
		return priv.SetKey(ctx, codeProofKey, nil)
	}
	return priv.SetKey(ctx, codeProofKey, p.encode(d.proofs.tag))
}

// proofRecheck is how many groups the rotating recheck divides proven
// policies into: one group an hour of the service's clock. Prime, so that
// plans made at any period of whole hours that is not a multiple of it
// (hourly, daily, weekly) reach every group.
const proofRecheck = 23

// proofChecks is the provider's recheck of code proofs on its service.
type proofChecks struct {
	tag string // serviceTag of the provider's API
	// dropped: a recheck found code changed while updated-at stayed;
	// no proof of this service counts from then on.
	dropped atomic.Bool
	// now is the service's time (its Date header's, the local clock's
	// before any answer).
	now func() time.Time
}

// recheck reports whether a refresh downloads the code of proven policy
// id anyway: its group is the current hour's. Not a random pick, so that
// a plan and the apply that follows within the hour see the same.
func (c *proofChecks) recheck(id string) bool {
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	return recheckDue(id, now().Unix()/3600)
}

// recheckDue reports whether policy id's group is the group of the hour
// (since 1970) hour.
func recheckDue(id string, hour int64) bool {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return (int64(h.Sum32())+hour)%proofRecheck == 0
}

// drop records that a recheck found changed code at an unmoved
// updated-at, with the warning for the user.
func (c *proofChecks) drop(pol *policyAPI, sumInState, sumFound string, diags *diag.Diagnostics) {
	c.dropped.Store(true)
	diags.AddWarning("Policy code changed without its updated-at moving",
		fmt.Sprintf("Policy %s holds code (SHA-256 %s) other than the code in state (SHA-256 %s), though its updated-at (%s) has not moved since that code was seen: on this service uploads do not move updated-at, or the policy was restored. "+
			"For the rest of this run tfgov takes no proof of this service: later refreshes download each policy's code and record no proof, so an apply drops them; proofs kept by refreshes before this one are rechecked in their hour (DESIGN.md, \"Policy code proofs\"). A proof is made again only when an upload of tfgov's own moves updated-at. "+
			"A plan writes no state, so this finding lasts only as long as this run: a plan in another hour may show no change for this policy again while the service holds the other code. "+
			"Apply this change, or run terraform apply -refresh-only, to record what this run found.",
			pol.ID, sumFound, sumInState, updatedAtSignal(pol)))
}

// skipDownload reports whether a refresh may skip downloading pol's code:
// the proof shows it unchanged and no recheck falls on it.
func (d *providerData) skipDownload(ctx context.Context, pol *policyAPI, proof codeProof) bool {
	if proof.unchanged(pol) && !d.proofs.recheck(pol.ID) {
		tflog.Debug(ctx, "Policy code unchanged: updated-at still shows the value recorded with the code in state, and uploads move it on this service; not downloading",
			map[string]any{"policy_id": pol.ID, "updated_at": updatedAtSignal(pol)})
		return true
	}
	tflog.Debug(ctx, "Downloading policy code", map[string]any{"policy_id": pol.ID, "why": proof.why(pol)})
	return false
}

// checkDownload compares the code a refresh downloaded (SHA-256 found) with
// the code in state (sum) where the proof said it was unchanged: code that
// changed while updated-at did not drops every proof of the service.
func (d *providerData) checkDownload(pol *policyAPI, proof codeProof, sum, found string, diags *diag.Diagnostics) {
	if proof.unchanged(pol) && found != sum {
		d.proofs.drop(pol, sum, found, diags)
	}
}

// putCode uploads code to policy id (one request), which may move the
// policy's updated-at, so the organization's shared list is dropped. Then
// it gathers the evidence (DESIGN.md): it reads the policy (one request),
// compares its updated-at with before (this resource's own read or write
// immediately before the upload; nil when prior already proves it), and
// when uploads move updated-at here, downloads the code (one request) to
// record it at that updated-at. A failed upload is an error; a failed read
// or download after it only leaves the next refresh to download.
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

// valueBefore is updated-at right before an upload to policy id, for
// putCode: nil when prior already proves that uploads move it (nothing to
// learn), else a read of the policy (one request), never a value another
// resource's write saw.
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

// afterPatch is the proof after this provider's PATCH answered pol, for
// code with SHA-256 sum in state: unchanged when the answer still shows the
// updated-at recorded with the code; else the code is downloaded (one
// request) and recorded at the answer's updated-at when it is still sum.
// Without proof that uploads move updated-at, nothing is downloaded (every
// refresh downloads anyway).
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
