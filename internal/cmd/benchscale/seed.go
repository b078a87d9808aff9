package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// -seed-state: the measured phases start from a state made without
// Terraform's create, whose CPU grows with N² (98 minutes at N = 10,000).
// A real apply of seedTemplates policies gives the instances' templates;
// the other policies are made through the API as the resource makes them
// (create, upload, read), and the state gets one instance each, cloned
// from a template with the object's own fields. A plan after the seeded
// state shows no changes when the clone is faithful.

// seedTemplates is the policies the real apply makes.
const seedTemplates = 2

// seedWorkers bounds the concurrent writes to the sandbox.
const seedWorkers = 8

// seededPolicy is one policy made through the API, as its instance needs it.
type seededPolicy struct {
	id, name, description, kind string
	enforcementLevel            string  // the API's default for the kind: the configuration sets none
	query                       *string // nil: null (Sentinel)
	code                        string
	source                      string // the configuration's source path
	updatedAt                   time.Time
}

// seed makes the state of n policies of configuration render (version 0),
// names prefix<i>, in b.dir; it returns how many the real apply made.
func (b *bench) seed(ctx context.Context, typ, prefix string, n int, render func(*bench, int, int) string) (int, error) {
	small := min(n, seedTemplates)
	if err := os.WriteFile(filepath.Join(b.dir, "main.tf"), []byte(render(b, small, 0)), 0o644); err != nil {
		return 0, err
	}
	if _, err := b.phase(ctx, typ, "tfgov", "seed", small, []string{"apply", "-auto-approve"}); err != nil {
		return 0, err
	}
	c, err := tfe.NewClient(&tfe.Config{Address: b.sandboxURL, Token: b.vars["TFE_TOKEN"], HTTPClient: b.http})
	if err != nil {
		return 0, err
	}
	objs := make([]seededPolicy, n)
	idx := make(chan int)
	errs := make(chan error, seedWorkers)
	var wg sync.WaitGroup
	for range seedWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				p := b.pols[i]
				o := seededPolicy{name: fmt.Sprint(prefix, i), description: fmt.Sprintf("policy %d v0", i), kind: p.Kind,
					code: p.code[0], source: fmt.Sprintf("%s/v0/%d.policy", b.code, i)}
				if q, ok := p.Query.(string); ok {
					o.query = &q
				}
				if err := makePolicy(ctx, c, b.vars["TFE_ORGANIZATION"], &o); err != nil {
					errs <- fmt.Errorf("seeding %s: %w", o.name, err)
					return
				}
				objs[i] = o
			}
		}()
	}
	var failed error
feed:
	for i := small; i < n; i++ {
		select {
		case idx <- i:
		case failed = <-errs:
			break feed
		}
	}
	close(idx)
	wg.Wait()
	if failed == nil && len(errs) > 0 {
		failed = <-errs
	}
	if failed != nil {
		return 0, failed
	}
	file := filepath.Join(b.dir, "terraform.tfstate")
	raw, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	out, err := seedState(raw, "tfgov_policy", "r", objs)
	if err != nil {
		return 0, err
	}
	return small, os.WriteFile(file, out, 0o644)
}

// makePolicy makes o as tfgov_policy's create does: the POST without an
// enforcement level (the API's default), the upload, the read whose
// updated-at the resource records with the code.
func makePolicy(ctx context.Context, c *tfe.Client, org string, o *seededPolicy) error {
	opts := &tfe.PolicyCreateOptions{Name: &o.name, Kind: tfe.PolicyKind(o.kind), Query: o.query, Description: &o.description}
	var pol tfe.Policy
	if err := tfeclient.APIRequest(ctx, c, "POST", "organizations/"+url.PathEscape(org)+"/policies", opts, nil, &pol); err != nil {
		return err
	}
	if err := c.Policies.Upload(ctx, pol.ID, []byte(o.code)); err != nil {
		return err
	}
	read, err := c.Policies.Read(ctx, pol.ID)
	if err != nil {
		return err
	}
	o.id, o.enforcementLevel, o.updatedAt = pol.ID, string(read.EnforcementLevel), read.UpdatedAt
	return nil
}

// seedState is the state raw (a real apply's) with the instances of
// resource typ.name at each index of objs whose id is set, cloned from the
// resource's first instance.
func seedState(raw []byte, typ, name string, objs []seededPolicy) ([]byte, error) {
	var st map[string]any
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, err
	}
	resources, _ := st["resources"].([]any)
	for _, r := range resources {
		res, _ := r.(map[string]any)
		if res["type"] != typ || res["name"] != name {
			continue
		}
		insts, _ := res["instances"].([]any)
		if len(insts) == 0 {
			return nil, fmt.Errorf("the state has no instance of %s.%s to clone", typ, name)
		}
		tmpl, _ := insts[0].(map[string]any)
		for i, o := range objs {
			if o.id == "" {
				continue
			}
			inst, err := cloneInstance(tmpl, o, i)
			if err != nil {
				return nil, err
			}
			insts = append(insts, inst)
		}
		res["instances"] = insts
		if s, ok := st["serial"].(float64); ok {
			st["serial"] = s + 1
		}
		return json.MarshalIndent(st, "", "  ")
	}
	return nil, fmt.Errorf("the state has no resource %s.%s", typ, name)
}

// cloneInstance is tmpl (a state instance of tfgov_policy) for o at index:
// its attributes, identity and private state with o's fields.
func cloneInstance(tmpl map[string]any, o seededPolicy, index int) (map[string]any, error) {
	b, err := json.Marshal(tmpl)
	if err != nil {
		return nil, err
	}
	var inst map[string]any
	if err := json.Unmarshal(b, &inst); err != nil {
		return nil, err
	}
	attrs, ok := inst["attributes"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the template instance has no attributes")
	}
	sum := sha256.Sum256([]byte(o.code))
	digest := hex.EncodeToString(sum[:])
	inst["index_key"] = index
	attrs["id"], attrs["name"], attrs["description"], attrs["kind"] = o.id, o.name, o.description, o.kind
	attrs["enforcement_level"] = o.enforcementLevel
	attrs["query"] = nil
	if o.query != nil {
		attrs["query"] = *o.query
	}
	// The code's attributes are those the template's configuration set.
	for key, v := range map[string]string{"content": o.code, "content_sha256": digest, "source": o.source} {
		if attrs[key] != nil {
			attrs[key] = v
		}
	}
	if id, ok := inst["identity"].(map[string]any); ok {
		id["id"] = o.id
	}
	if p, ok := inst["private"].(string); ok && p != "" {
		if inst["private"], err = clonePrivate(p, digest, o.updatedAt); err != nil {
			return nil, err
		}
	}
	return inst, nil
}

// clonePrivate is the private state p (base64 of the framework's JSON
// object of base64 values) with the code proof's time (DESIGN.md "Policy
// code proofs", "Private state") and the source file's digest of this
// object; a key it does not know is an error, not a copy of another
// object's data.
func clonePrivate(p, digest string, updatedAt time.Time) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		return "", fmt.Errorf("private state: %w", err)
	}
	var keys map[string][]byte
	if err := json.Unmarshal(raw, &keys); err != nil {
		return "", fmt.Errorf("private state: %w", err)
	}
	for k, v := range keys {
		switch k {
		case "p": // the service's tag, then At when the code was seen at it
			var proof string
			if err := json.Unmarshal(v, &proof); err != nil || len(proof) < proofTagLen {
				return "", fmt.Errorf("private state: code proof %q", v)
			}
			if len(proof) > proofTagLen {
				proof = proof[:proofTagLen] + encodeProofAt(updatedAt)
			}
			keys[k], _ = json.Marshal(proof)
		case "s": // the source file's digest, its first 8 hex digits
			keys[k], _ = json.Marshal(digest[:8])
		default:
			return "", fmt.Errorf("private state: key %q, which -seed-state does not know how to clone", k)
		}
	}
	out, err := json.Marshal(keys)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(out), nil
}

// proofTagLen is the provider's serviceTagLen.
const proofTagLen = 6

// encodeProofAt is the provider's codeProof.encode of At: milliseconds
// since 2020 in base 36, or after a '.' Unix nanoseconds in base 36 when
// finer.
func encodeProofAt(at time.Time) string {
	if at.Nanosecond()%int(time.Millisecond) != 0 {
		return "." + strconv.FormatInt(at.UnixNano(), 36)
	}
	return strconv.FormatInt(at.UnixMilli()-time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), 36)
}

// checkSeed (-seed-check) runs terraform apply -refresh-only on the seeded
// state, not measured, and fails unless the refresh changes the seeded
// instances only where it also changes the applied ones (index <
// applied): the provider reads back what the clone wrote.
func (b *bench) checkSeed(ctx context.Context, typ string, n, applied int) (string, error) {
	file := filepath.Join(b.dir, "terraform.tfstate")
	seeded, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if _, err := b.phase(ctx, typ, "tfgov", "seed-check", n, []string{"apply", "-refresh-only", "-auto-approve"}); err != nil {
		return "", err
	}
	refreshed, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	return seedCheck(seeded, refreshed, applied)
}

// seedCheck compares a seeded state with the same state refreshed: the
// fields that changed on the applied instances (index < applied) may
// change on the seeded ones, no other. It returns those fields ("none").
func seedCheck(seeded, refreshed []byte, applied int) (string, error) {
	a, err := stateInstances(seeded)
	if err != nil {
		return "", err
	}
	r, err := stateInstances(refreshed)
	if err != nil {
		return "", err
	}
	if len(a) != len(r) {
		return "", fmt.Errorf("-seed-check: %d instances seeded, %d after the refresh", len(a), len(r))
	}
	changed := func(i int) []string {
		var fields []string
		for f := range maps.Keys(a[i]) {
			if !reflect.DeepEqual(a[i][f], r[i][f]) {
				fields = append(fields, f)
			}
		}
		for f := range maps.Keys(r[i]) {
			if _, ok := a[i][f]; !ok {
				fields = append(fields, f)
			}
		}
		slices.Sort(fields)
		return slices.Compact(fields)
	}
	allowed := map[string]bool{}
	for i := range min(applied, len(a)) {
		for _, f := range changed(i) {
			allowed[f] = true
		}
	}
	var bad []string
	for i := applied; i < len(a); i++ {
		for _, f := range changed(i) {
			if !allowed[f] {
				bad = append(bad, fmt.Sprintf("[%d] %s: %v, then %v", i, f, a[i][f], r[i][f]))
			}
		}
	}
	if len(bad) > 0 {
		return "", fmt.Errorf("-seed-check: the refresh changed seeded instances where it left the applied ones:\n%s", strings.Join(bad, "\n"))
	}
	if len(allowed) == 0 {
		return "none", nil
	}
	return strings.Join(slices.Sorted(maps.Keys(allowed)), ", "), nil
}

// stateInstances is the instances of a state's one resource, by index,
// each as its fields: its attributes, identity and each private state key.
func stateInstances(raw []byte) ([]map[string]any, error) {
	var st struct {
		Resources []struct {
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
				Identity   any            `json:"identity"`
				Private    string         `json:"private"`
			}
		}
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, err
	}
	if len(st.Resources) != 1 {
		return nil, fmt.Errorf("-seed-check: %d resources in the state, want 1", len(st.Resources))
	}
	var out []map[string]any
	for _, inst := range st.Resources[0].Instances {
		fields := map[string]any{"identity": inst.Identity}
		for k, v := range inst.Attributes {
			fields["attributes."+k] = v
		}
		if inst.Private != "" {
			raw, err := base64.StdEncoding.DecodeString(inst.Private)
			if err != nil {
				return nil, err
			}
			var keys map[string][]byte
			if err := json.Unmarshal(raw, &keys); err != nil {
				return nil, err
			}
			for k, v := range keys {
				fields["private."+k] = string(v)
			}
		}
		out = append(out, fields)
	}
	return out, nil
}
