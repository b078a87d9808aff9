package provider

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Every private state key. Short: private state is base64 twice over in the
// state file, and Terraform's time at scale grows with the state's bytes.
const (
	importingKey    = "importing"     // the read that follows an import explains a missing object
	localHashKey    = "s"             // a local file's digest as the refresh found it (code_hash.go)
	codeProofKey    = "p"             // DESIGN.md "Policy code proofs"
	policyKindKey   = "k"             // tfgov_policy_upload: its policy's identity, from the last upload
	importedCodeKey = "imported_code" // digest of code an import found, until an apply configures it
	grantRecordKey  = "grants"        // exclusive team access: the grants the refresh saw
	writtenValueKey = "w"             // a plain variable's or parameter's value_wo, as a digest (recordWrittenValue)
)

type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// privateJSON reads a JSON value; ok is false when it is absent or unreadable.
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

// markImporting marks an import's answer for the read that follows it (importedMissing).
func markImporting(ctx context.Context, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importingKey, []byte(`true`))...)
}

// takeImporting reports whether this read follows an import, and clears the mark.
func takeImporting(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) bool {
	if req.Private == nil {
		return false
	}
	b, d := req.Private.GetKey(ctx, importingKey)
	resp.Diagnostics.Append(d...)
	if len(b) == 0 {
		return false
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importingKey, nil)...)
	return true
}

// localHashDigits: an edit keeps them with odds of 1 in 2^32, for ~30 bytes an instance.
const localHashDigits = 8

// recordLocalHash records the digest of the file at the path in state ("": none).
func recordLocalHash(ctx context.Context, priv privateSetter, sum string) diag.Diagnostics {
	var v []byte
	if len(sum) >= localHashDigits {
		v = privateValue(sum[:localHashDigits])
	}
	return priv.SetKey(ctx, localHashKey, v)
}

// forgetLocalHash drops the refresh's record from the planned private
// state. In ModifyPlan req.Private is resp.Private: read the record first.
func forgetLocalHash(ctx context.Context, priv privateSetter) diag.Diagnostics {
	return priv.SetKey(ctx, localHashKey, nil)
}

// serviceTagLen is the length of serviceTag's tag: 36 bits of SHA-256.
const serviceTagLen = 6

// serviceTag names the service (host and base path) a proof was seen on.
func serviceTag(base url.URL) string {
	sum := sha256.Sum256([]byte(base.Host + base.Path))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:serviceTagLen]
}

// encode is a JSON string of the tag, then At in base 36: milliseconds
// since proofEpoch, or after a '.' Unix nanoseconds when it has a finer part.
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

var proofEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// decodeCodeProof reads encode's form; not ok for anything else, another service's included.
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

func (d *providerData) getCodeProof(ctx context.Context, priv privateGetter) (codeProof, diag.Diagnostics) {
	if priv == nil || d.proofs.dropped.Load() {
		return codeProof{}, nil
	}
	raw, diags := priv.GetKey(ctx, codeProofKey)
	p, _ := decodeCodeProof(raw, d.proofs.tag)
	return p, diags
}

func (d *providerData) setCodeProof(ctx context.Context, priv privateSetter, p codeProof) diag.Diagnostics {
	if priv == nil {
		return nil
	}
	if !p.Proven || d.proofs.dropped.Load() {
		return priv.SetKey(ctx, codeProofKey, nil)
	}
	return priv.SetKey(ctx, codeProofKey, p.encode(d.proofs.tag))
}

// policyKindRecord, stored as an array, lets the next plan check Rego and
// the next upload skip a read of the policy.
type policyKindRecord struct {
	PolicyID     string `json:"policy_id"`
	Kind         string `json:"kind"`
	Name         string `json:"name,omitempty"`
	Organization string `json:"organization,omitempty"`
}

func (r policyKindRecord) MarshalJSON() ([]byte, error) {
	return json.Marshal([]string{r.PolicyID, r.Kind, r.Name, r.Organization})
}

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

func getPolicyKind(ctx context.Context, p privateGetter, diags *diag.Diagnostics) (policyKindRecord, bool) {
	return privateJSON[policyKindRecord](ctx, p, policyKindKey, diags)
}

func rememberKind(ctx context.Context, p privateSetter, policyID string, pol policyIdentity, diags *diag.Diagnostics) {
	if pol.kind != "" {
		diags.Append(p.SetKey(ctx, policyKindKey, privateValue(policyKindRecord{PolicyID: policyID, Kind: string(pol.kind), Name: pol.name, Organization: pol.organization}))...)
	}
}

// grantRecord is what an exclusive access's refresh saw, so that an
// update's apply removes only the grants its plan saw.
type grantRecord map[string]string // team ID → grant ID

// readGrantRecord returns the record in p, its grant IDs with prefix (tws-, tprj-), or nil when
// there is none (a state no refresh of this version wrote).
func readGrantRecord(ctx context.Context, p privateGetter, prefix string, diags *diag.Diagnostics) grantRecord {
	if p == nil || reflect.ValueOf(p).IsNil() {
		return nil
	}
	b, d := p.GetKey(ctx, grantRecordKey)
	diags.Append(d...)
	var s string
	if len(b) == 0 || json.Unmarshal(b, &s) != nil {
		return nil
	}
	rec := grantRecord{}
	for _, pair := range strings.Split(s, ",") {
		if team, grant, ok := strings.Cut(pair, ":"); ok {
			rec["team-"+team] = prefix + grant
		}
	}
	return rec
}

// writeGrantRecord keeps rec as a JSON string of "team:grant" pairs
// without the IDs' prefixes, joined by commas.
func writeGrantRecord(ctx context.Context, p privateSetter, prefix string, rec grantRecord, diags *diag.Diagnostics) {
	if p == nil || reflect.ValueOf(p).IsNil() {
		return
	}
	pairs := make([]string, 0, len(rec))
	for team, grant := range rec {
		pairs = append(pairs, strings.TrimPrefix(team, "team-")+":"+strings.TrimPrefix(grant, prefix))
	}
	slices.Sort(pairs)
	b, _ := json.Marshal(strings.Join(pairs, ",")) // a string always marshals
	diags.Append(p.SetKey(ctx, grantRecordKey, b)...)
}
