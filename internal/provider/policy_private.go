package provider

import (
	"context"
	"encoding/json"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Private state records of the policy resources, and the helpers that read
// and write them.

// Private state of tfgov_policy_upload.
const (
	// policyKindKey: the policy's kind, learnt at the last upload, so
	// that the next plan checks Rego without a request. Stored as an array,
	// ["<policy ID>", "<kind>", "<name>", "<organization>"]: private state
	// is written twice in base64, and the state's size is Terraform's time
	// at scale (code_proof.go).
	policyKindKey = "k"
)

type policyKindRecord struct {
	PolicyID string `json:"policy_id"`
	Kind     string `json:"kind"`
	// Name and Organization complete the policy's identity, so that the
	// next upload needs no read of the policy.
	Name         string `json:"name,omitempty"`
	Organization string `json:"organization,omitempty"`
}

// MarshalJSON writes the record as an array (policyKindKey).
func (r policyKindRecord) MarshalJSON() ([]byte, error) {
	return json.Marshal([]string{r.PolicyID, r.Kind, r.Name, r.Organization})
}

// UnmarshalJSON reads MarshalJSON's array.
func (r *policyKindRecord) UnmarshalJSON(b []byte) error {
	var a []string
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	if len(a) != 4 {
		return fmt.Errorf("a policy kind record of %d fields", len(a))
	}
	*r = policyKindRecord{PolicyID: a[0], Kind: a[1], Name: a[2], Organization: a[3]}
	return nil
}

// getPolicyKind reads the record of this resource's last upload.
func getPolicyKind(ctx context.Context, p privateGetter, diags *diag.Diagnostics) (policyKindRecord, bool) {
	return privateJSON[policyKindRecord](ctx, p, policyKindKey, diags)
}

// privateGetter is the part of the framework's private state that reads.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateJSON reads a JSON value from private state; ok is false when the
// key is absent or unreadable (then the caller does without it).
func privateJSON[T any](ctx context.Context, p privateGetter, key string, diags *diag.Diagnostics) (v T, ok bool) {
	if p == nil {
		return v, false
	}
	b, d := p.GetKey(ctx, key)
	diags.Append(d...)
	if len(b) == 0 || json.Unmarshal(b, &v) != nil {
		return v, false
	}
	return v, true
}

func privateValue(v any) []byte {
	b, _ := json.Marshal(v) // plain structs of strings
	return b
}

// rememberKind records the policy's identity for the next plan's Rego
// check and the next upload.
func rememberKind(ctx context.Context, p privateStateSetter, policyID string, pol policyIdentity, diags *diag.Diagnostics) {
	if pol.kind != "" {
		diags.Append(p.SetKey(ctx, policyKindKey, privateValue(policyKindRecord{PolicyID: policyID, Kind: string(pol.kind), Name: pol.name, Organization: pol.organization}))...)
	}
}

// recordedPolicy is the identity of policy id as this resource's last
// upload recorded it in private state (prior), when complete.
func recordedPolicy(ctx context.Context, prior privateGetter, id string, diags *diag.Diagnostics) (policyIdentity, bool) {
	if prior == nil {
		return policyIdentity{}, false
	}
	rec, ok := getPolicyKind(ctx, prior, diags)
	pi := policyIdentity{kind: tfe.PolicyKind(rec.Kind), name: rec.Name, organization: rec.Organization}
	return pi, ok && rec.PolicyID == id && pi.complete()
}

type privateStateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// importedCodeKey holds the SHA-256 of code that tfgov_policy keeps in
// content_sha256 without having uploaded it: found by the import's refresh
// (noteImportedCode) and kept, as later refreshes find it, until an apply
// configures the code. A configuration with content_wo or source then plans
// no change, one that leaves the code to a tfgov_policy_upload keeps the
// digest (no change either), and an apply that uploads nothing on it
// confirms it first (one download). tfgov_policy_upload holds it from its
// import's refresh to the next refresh, for that confirmation.
const importedCodeKey = "imported_code"

// noteImportedCode downloads the code of pol, just imported (one request),
// and returns its SHA-256; null for a policy without code, or when the
// download fails (the plan then shows the configured code's upload).
func (d *providerData) noteImportedCode(ctx context.Context, pol *policyAPI) types.String {
	code, err := d.client.Policies.Download(ctx, pol.ID)
	if err != nil {
		if !isNotFound(err) {
			tflog.Debug(ctx, "Downloading the code of an imported policy failed; a configuration with code uploads it", map[string]any{"id": pol.ID, "error": err.Error()})
		}
		return types.StringNull()
	}
	return types.StringValue(sha256Hex(code))
}
