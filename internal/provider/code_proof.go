package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// When a refresh may skip downloading a policy's code.
//
// A refresh of policy code (tfgov_policy with `content`,
// tfgov_policy_upload) must find code changed outside Terraform. The
// download costs a request per policy; the organization's policy list,
// which every refresh reads anyway (100 policies a request), gives each
// policy's `updated-at`. The reference says only that `updated-at` is null
// right after creation: nothing says that an upload of code moves it, nor
// that an update (PATCH) does. So the provider skips a download only on
// two pieces of evidence, both seen on the service it is talking to:
//
//  1. Uploads move updated-at here (codeProof.Proven). Only an upload of
//     this provider's own is observed closely enough to show it: the
//     provider reads updated-at right before the upload (B: the create's
//     answer, null; the answer of its own PATCH when it sent one just
//     before, never a value from before that PATCH, which may itself have
//     moved it; else a read of the policy) and right after it (A: a read
//     of the policy). A != B shows that uploads move it. A == B shows
//     nothing (uploads do not move it, or it moved within the same
//     millisecond): without an earlier proof nothing is recorded and every
//     refresh downloads (logged at debug level, with the reason); an
//     earlier proof is kept, as the service's behaviour does not change
//     from one upload to the next. What is left unproven: an outside PATCH landing between
//     the two reads, on a service where only PATCH moves updated-at, would
//     be taken for the upload's move; the window is the upload's own
//     request.
//  2. The code at a known updated-at (codeProof.At): updated-at read
//     BEFORE the code was known to be the code in state (after its own
//     upload the provider reads the policy, then downloads the code; a
//     refresh reads the list, then downloads). With (1), any upload after
//     that read moved updated-at away from At, so a policy still showing At
//     still has that code. At is recorded only when the code found is the
//     code in state.
//
// A PATCH's answer shows updated-at after the PATCH. When it still equals
// At, the code is unchanged (PATCH does not move it here, and no upload
// did). When it moved, nothing tells whether the PATCH alone moved it or an
// upload by someone else came first (a saved plan applied after another
// person's upload), so the provider downloads the code right after the
// PATCH and records the answer's updated-at with it; a download that shows
// other code records nothing, and the next refresh finds the change.
//
// Under each behaviour of the service (sandbox.PolicyUpdatedAt):
//   - upload and PATCH move it: a plan downloads nothing after an apply; a
//     PATCH of a policy with code costs a download;
//   - upload only: as above, and a PATCH costs nothing more;
//   - PATCH only, or neither: never proven, so every refresh downloads the
//     code of every policy (what hashicorp/tfe does on every plan).
//
// The Date header and clock windows play no part.
//
// Private state: the key codeProofKey holds At as a number (encode: in
// milliseconds since 2020, or nanoseconds when it has a finer part) when
// (1) holds; 0 when it holds but no code is known at an updated-at; absent
// otherwise. The state's size is Terraform's time at scale (issue 29), so
// the proof is the fewest bytes that carry it: a key of one letter and 12
// digits, which the provider's server writes to Terraform as 6 bytes
// (private_compact.go), 8 characters of the state file where the
// framework's form took 32, 19 digits of nanoseconds 48 and
// {"code_proof":{"at":"<RFC 3339>"}} 84. Earlier keys (code_proof,
// and code_signal, policy_seen, policy_write, which rested on the Date
// header and on PATCHes taken for one's own) are dropped at the next
// write; a proof under the old key, or in nanoseconds, is read once.
const codeProofKey = "p"

// legacyCodeKeys are private state keys of earlier versions.
var legacyCodeKeys = []string{"code_proof", "code_signal", "policy_seen", "policy_write"}

// legacyCodeProofKey held the proof as {"at": "<RFC 3339>"}.
const legacyCodeProofKey = "code_proof"

// codeProof is what a policy's code keeps in private state: see above.
type codeProof struct {
	Proven bool
	At     string // updatedAtSignal's form; "" for none
}

// encode is the proof as private state stores it: At in milliseconds
// since proofEpoch (12 digits until 2051; the API's timestamps have
// millisecond precision), or in Unix nanoseconds when it has a finer part
// (19 digits). What neither form can carry unambiguously (proofEpoch
// itself, a finer time before 2001 or after 2261) is written as 0, no At:
// the next refresh downloads, which is always safe.
func (p codeProof) encode() []byte {
	if p.At == "" {
		return []byte("0")
	}
	at, err := time.Parse(time.RFC3339Nano, p.At)
	if err != nil {
		return []byte("0") // not reached: At is updatedAtSignal's
	}
	if at.Nanosecond()%int(time.Millisecond) != 0 {
		if at.Year() >= 2262 || at.UnixNano() < nanosFrom { // beyond UnixNano's range
			return []byte("0")
		}
		return strconv.AppendInt(nil, at.UnixNano(), 10)
	}
	return strconv.AppendInt(nil, at.UnixMilli()-proofEpoch.UnixMilli(), 10)
}

// proofEpoch is the origin of encode's milliseconds.
var proofEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// nanosFrom is the smallest number encode writes in nanoseconds (a time
// after 2001-09-09); all smaller ones are milliseconds since proofEpoch
// (within 31 million years of it). Earlier versions wrote Unix nanoseconds
// always, which read the same.
const nanosFrom = 1e18

// decodeCodeProof reads encode's form; ok is false for anything else.
func decodeCodeProof(raw []byte) (codeProof, bool) {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return codeProof{}, false
	}
	if n == 0 {
		return codeProof{Proven: true}, true
	}
	at := time.UnixMilli(proofEpoch.UnixMilli() + n)
	if n >= nanosFrom {
		at = time.Unix(0, n)
	} else if n <= -nanosFrom {
		return codeProof{}, false
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
		return "no proof that uploads move a policy's updated-at on this service (none seen across an upload of this provider's own), so updated-at cannot show that the code is unchanged"
	case p.At == "":
		return "no updated-at recorded together with the code in state"
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

func getCodeProof(ctx context.Context, priv privateGetter) (codeProof, diag.Diagnostics) {
	var diags diag.Diagnostics
	if priv == nil {
		return codeProof{}, nil
	}
	raw, d := priv.GetKey(ctx, codeProofKey)
	diags.Append(d...)
	if p, ok := decodeCodeProof(raw); ok {
		return p, diags
	}
	raw, d = priv.GetKey(ctx, legacyCodeProofKey)
	diags.Append(d...)
	var legacy struct {
		At string `json:"at"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &legacy) != nil {
		return codeProof{}, diags // none or unreadable: download
	}
	return codeProof{Proven: true, At: legacy.At}, diags
}

func setCodeProof(ctx context.Context, priv privateStateSetter, p codeProof) diag.Diagnostics {
	var diags diag.Diagnostics
	if priv == nil {
		return nil
	}
	for _, k := range legacyCodeKeys {
		diags.Append(priv.SetKey(ctx, k, nil)...)
	}
	if !p.Proven {
		return append(diags, priv.SetKey(ctx, codeProofKey, nil)...)
	}
	return append(diags, priv.SetKey(ctx, codeProofKey, p.encode())...)
}

// policyWrites remembers, by policy ID, updated-at as the answer of this
// process's last write of the policy (its create, its PATCH, the read right
// after its upload) showed it: a tfgov_policy_upload's upload right after
// takes it as the value before the upload.
type policyWrites struct{ m sync.Map }

func (w *policyWrites) note(pol *policyAPI) { w.m.Store(pol.ID, updatedAtSignal(pol)) }

func (w *policyWrites) last(id string) (string, bool) {
	v, ok := w.m.Load(id)
	s, _ := v.(string)
	return s, ok
}

// putCode uploads code to policy id (one request), which may move the
// policy's updated-at, so the organization's shared list is dropped. Then
// it gathers the evidence (see above): it reads the policy (one request),
// compares its updated-at with before (the value right before the upload;
// nil when none is known closely enough, and prior, the proof so far, is
// kept), and when uploads move updated-at here, downloads the code (one
// request) to record it at that updated-at. A failed upload is an error; a
// failed read or download after it only leaves the next refresh to
// download.
func (d *providerData) putCode(ctx context.Context, id string, pol policyIdentity, code []byte, before *string, prior codeProof, diags *diag.Diagnostics) codeProof {
	tflog.Debug(ctx, "Uploading policy code", map[string]any{"policy_id": id, "bytes": len(code), "kind": string(pol.kind)})
	defer d.lists.policies.invalidate(pol.organization)
	pc := policyClient{d.client}
	if err := pc.upload(ctx, id, code); err != nil {
		diags.AddError("Error uploading policy code", policyError("Policy "+id, err))
		return codeProof{}
	}
	tflog.Info(ctx, "Uploaded policy code", map[string]any{"policy_id": id, "bytes": len(code), "sha256": sha256Hex(code)})
	after, err := pc.read(ctx, id)
	if err != nil {
		tflog.Debug(ctx, "Reading the policy after its upload failed; the next refresh downloads its code", map[string]any{"policy_id": id, "error": err.Error()})
		return codeProof{}
	}
	d.lists.writes.note(after)
	proven := prior.Proven || (before != nil && *before != updatedAtSignal(after))
	if !proven {
		tflog.Debug(ctx, "No proof that the upload moved the policy's updated-at: updated-at cannot show a change of code here, so every refresh downloads it",
			map[string]any{"policy_id": id, "updated_at": updatedAtSignal(after)})
	}
	if !proven {
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
// learn), else the answer of this process's last write of the policy, else
// a read of the policy (one request).
func (d *providerData) valueBefore(ctx context.Context, id string, prior codeProof) *string {
	if prior.Proven {
		return nil
	}
	if v, ok := d.lists.writes.last(id); ok {
		return &v
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
