package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Hashes of local files read at plan, for saved plans: DESIGN.md "Local files at plan".

// localHashRecord is the last refresh's hash of Path: perhaps the digest's first digits.
type localHashRecord struct {
	Path   string
	SHA256 string
}

type localHash struct {
	Path     string           // the configured path
	Now      string           // its hash, read by this plan
	Creating bool             // no prior state
	State    types.String     // the hash in state
	Recorded *localHashRecord // the last refresh's record; nil if none
}

type errChangedSincePlan struct{ path, was, now string }

func (e *errChangedSincePlan) Error() string {
	return fmt.Sprintf("%s had hash %s when Terraform read it for the plan, and has hash %s now, so the saved plan no longer describes it", e.path, e.was, e.now)
}

func (h localHash) plan() (types.String, error) {
	switch {
	case h.Creating:
		return types.StringUnknown(), nil
	case h.Recorded != nil && h.Recorded.Path == h.Path:
		// A record may keep only the digest's first digits (localHashDigits).
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

// planLocalHash plans hash now of path p, against the refresh's record of statePath; a file
// changed since is an error on attr, its summary naming what ("Policy file").
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
