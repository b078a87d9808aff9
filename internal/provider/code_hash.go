package provider

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Hashes of local files taken at plan time, and saved plans.
//
// Three attributes are the hash of something read from disk when Terraform
// plans: content_sha256 of tfgov_policy_upload's `source` file,
// source_hash of a module test run's `source` directory, and tfgov_policy's
// content_sha256 of its `source` file (policy_source.go). `terraform apply PLANFILE` plans again before it applies, and
// a planned value that differs then makes Terraform fail with "Provider
// produced inconsistent final plan", blaming the provider. So:
//
//   - A create has no prior state, and nothing of its first plan reaches the
//     apply's plan: the hash is planned unknown, and the apply hashes (and
//     uploads) the file as it then finds it.
//   - Otherwise every refresh records in private state the hash of the file
//     at the path in state (recordLocalHash). The apply's plan gets that
//     same private state (the refreshed state is saved in the plan), so a
//     file that no longer hashes as the refresh found it is refused with an
//     error saying so, before anything is uploaded.
//   - With no record for the configured path (the path changed, or no
//     refresh: -refresh=false, or the first plan after an import), the hash
//     is planned known only when it equals the one in state (no change,
//     nothing to apply); a change is planned unknown, and the apply takes the
//     file as it finds it.
//
// The plan drops the record (forgetLocalHash), so it does not outlive the
// apply of the plan.

// localHashKey holds the refresh's record of the file (or directory) at
// the path in state: the first localHashDigits hex digits of its hash.
// Between a plan and its apply an edit keeps them with odds of 1 in 2^32,
// at about 30 bytes of state an instance instead of about 200 for the path
// and the whole digest (private state is base64 twice over).
const (
	localHashKey    = "s"
	localHashDigits = 8
)

// localHashRecord is the hash of the file (or directory) at Path as the last
// refresh found it: SHA256 may be the digest's first digits.
type localHashRecord struct {
	Path   string
	SHA256 string
}

// localHash is what planning a hash of a local file needs.
type localHash struct {
	Path     string           // the configured path
	Now      string           // its hash, read by this plan
	Creating bool             // no prior state
	State    types.String     // the hash in state
	Recorded *localHashRecord // the last refresh's record; nil if none
}

// errChangedSincePlan is a file whose hash differs from the refresh's.
type errChangedSincePlan struct{ path, was, now string }

func (e *errChangedSincePlan) Error() string {
	return fmt.Sprintf("%s had hash %s when Terraform read it for the plan, and has hash %s now, so the saved plan no longer describes it", e.path, e.was, e.now)
}

// plan returns the value to plan, or errChangedSincePlan.
func (h localHash) plan() (types.String, error) {
	switch {
	case h.Creating:
		return types.StringUnknown(), nil
	case h.Recorded != nil && h.Recorded.Path == h.Path:
		// A record may keep only the digest's first digits (policy_source.go).
		if h.Recorded.SHA256 == "" || !strings.HasPrefix(h.Now, h.Recorded.SHA256) {
			return types.StringUnknown(), &errChangedSincePlan{path: h.Path, was: h.Recorded.SHA256, now: h.Now}
		}
		return types.StringValue(h.Now), nil
	case !h.State.IsNull() && !h.State.IsUnknown() && h.State.ValueString() == h.Now:
		return types.StringValue(h.Now), nil
	default:
		return types.StringUnknown(), nil
	}
}

// planLocalHash plans the hash now of the local path p (see localHash),
// with the refresh's record of statePath, the path in state. A file changed
// since the refresh is an error on attr, whose summary names what (such as
// "Policy file") and whose detail says nothing was done.
func planLocalHash(ctx context.Context, priv privateGetter, attr path.Path, what, p, now string, creating bool, state, statePath types.String, diags *diag.Diagnostics) types.String {
	h := localHash{Path: p, Now: now, Creating: creating, State: state}
	if rec, ok := privateJSON[string](ctx, priv, localHashKey, diags); ok && rec != "" && !statePath.IsNull() && !statePath.IsUnknown() {
		h.Recorded = &localHashRecord{Path: statePath.ValueString(), SHA256: rec}
	}
	v, err := h.plan()
	if err != nil {
		diags.AddAttributeError(attr, what+" changed since the plan",
			err.Error()+". Nothing was uploaded. Run terraform plan again to review the change, then apply it. "+
				"(With -refresh=false the plan compares with the file as the last refresh read it: refresh first.)")
	}
	return v
}

// recordLocalHash records, for the apply of a saved plan, the hash of the
// file at the path in state as this refresh finds it ("": none).
func recordLocalHash(ctx context.Context, priv privateStateSetter, sum string) diag.Diagnostics {
	var v []byte
	if len(sum) >= localHashDigits {
		v = privateValue(sum[:localHashDigits])
	}
	return priv.SetKey(ctx, localHashKey, v)
}

// forgetLocalHash drops the refresh's record from the planned private
// state: it served this plan only. In ModifyPlan, req.Private is
// resp.Private: read the record first.
func forgetLocalHash(ctx context.Context, priv privateStateSetter) diag.Diagnostics {
	return priv.SetKey(ctx, localHashKey, nil)
}

// plannedCode is the code a plan of tfgov_policy_upload (or of
// tfgov_policy's source) uploads.
type plannedCode struct {
	SHA256 types.String // to plan as content_sha256
	Code   []byte       // the code, when read now; nil otherwise
	Attr   string       // the attribute that holds it: "content" or "source"
	Name   string       // "content", or the source file's path
}

// planPolicyCode plans content_sha256 of the code in content or source:
// the SHA-256 of content, or of the source file, which it reads (refusing
// one over the API's limit); configured is content_sha256 as configured,
// which must match. A file that does not exist yet is accepted only when
// content_sha256 is configured, for a file another resource writes during
// the apply. A source file's hash is planned by planLocalHash (saved
// plans); state and stateSource are
// content_sha256 and source in state, priv the prior private state.
// Null when no code is configured, unknown when it is not known yet.
func planPolicyCode(ctx context.Context, content, source, configured, state, stateSource types.String, creating bool, priv privateGetter, diags *diag.Diagnostics) plannedCode {
	out := plannedCode{SHA256: configured} // null or unknown unless configured
	switch {
	case configured.IsUnknown() && !source.IsNull():
		// The digest of a file another resource writes during the apply
		// (issue 43 row 3): the file now is not the file the apply
		// uploads, so the plan shows the upload as known after apply, and
		// the apply's plan, with the digest known, checks the file then.
		return out
	case !content.IsNull() && !content.IsUnknown():
		got := sha256Hex([]byte(content.ValueString()))
		if !configured.IsNull() && !configured.IsUnknown() && configured.ValueString() != got {
			diags.AddAttributeError(path.Root("content_sha256"), "content_sha256 does not match content",
				fmt.Sprintf("content_sha256 is %s but the SHA-256 of content is %s. Leave content_sha256 out: it is computed from content.", configured.ValueString(), got))
			return out
		}
		sum := types.StringValue(got)
		if configured.IsUnknown() {
			sum = configured // Terraform takes no known plan of an unknown configured value
		}
		return plannedCode{SHA256: sum, Code: []byte(content.ValueString()), Attr: "content", Name: "content"}
	case !source.IsNull() && !source.IsUnknown():
		name := source.ValueString()
		code, err := readPolicySource(name)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !configured.IsNull():
			// Written during the apply; checked against content_sha256 then.
			return out
		case err != nil:
			diags.AddAttributeError(path.Root("source"), sourceErrorSummary(err), err.Error())
			return out
		case !configured.IsNull() && !configured.IsUnknown():
			if configured.ValueString() != sha256Hex(code) {
				diags.AddAttributeError(path.Root("content_sha256"), "content_sha256 does not match the source file",
					fmt.Sprintf("content_sha256 is %s but the SHA-256 of %s is %s.", configured.ValueString(), name, sha256Hex(code)))
				return out
			}
		default:
			out.SHA256 = planLocalHash(ctx, priv, path.Root("source"), "Policy file", name, sha256Hex(code), creating, state, stateSource, diags)
			if out.SHA256.IsUnknown() && !creating && !diags.HasError() {
				// A path the refresh did not read (source moved to another
				// file, or no refresh): the plan shows the file as it is now
				// (issue 43 row 4). The apply's plan reads it again, and a
				// file changed since makes Terraform stop the apply before
				// anything is sent; no record of the plan's reading reaches
				// that plan to name it (DESIGN.md, "Local files at plan").
				out.SHA256 = types.StringValue(sha256Hex(code))
			}
		}
		out.Code, out.Attr, out.Name = code, "source", name
		return out
	}
	if out.SHA256.IsNull() && (!content.IsNull() || !source.IsNull()) {
		out.SHA256 = types.StringUnknown()
	}
	return out
}
