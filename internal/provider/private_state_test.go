package provider

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestPrivateState_frameworkServer: the private state tfgov
// writes (a policy's code proof) is the framework's own format, which the
// framework's server reads back (rpcrelease, as main and every test serve
// it, changes no request or response): a refresh and a plan on a fresh
// server take it without error and keep the proof.
func TestPrivateState_frameworkServer(t *testing.T) {
	ctx := context.Background()
	const org = "private-fw"
	_, c, p := protoSandbox(t, org, nil)
	if _, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("pol"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}); err != nil {
		t.Fatal(err)
	}
	const typ = "tfgov_policy"
	res := p.list(typ, nil, true, 10)
	if len(res) != 1 {
		t.Fatalf("%d policies listed", len(res))
	}
	prior := res[0].resource
	planned := map[string]tftypes.Value{}
	for k, v := range prior {
		planned[k] = v
	}
	planned["content"] = tftypes.NewValue(tftypes.String, "main = rule { true }\n")
	config := map[string]tftypes.Value{"name": prior["name"], "kind": prior["kind"], "enforcement_level": prior["enforcement_level"], "content": planned["content"]}
	rt := p.schema.ResourceSchemas[typ].ValueType()
	applied, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: typ, PriorState: p.dynamic(rt, prior), PlannedState: p.dynamic(rt, planned), Config: p.dynamic(rt, config),
	})
	if err != nil || hasErrors(applied.Diagnostics) {
		t.Fatalf("the upload: %v %s", err, diagText(applied.Diagnostics))
	}
	var keys map[string][]byte // the framework's format: a JSON object of base64 values
	if err := json.Unmarshal(applied.Private, &keys); err != nil || len(keys[codeProofKey]) == 0 {
		t.Fatalf("private state %q is not the framework's format with a proof (%v)", applied.Private, err)
	}

	fresh := p.fresh()
	read, err := fresh.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typ, CurrentState: applied.NewState, Private: applied.Private})
	if err != nil || hasErrors(read.Diagnostics) {
		t.Fatalf("a fresh framework server's refresh: %v %s", err, diagText(read.Diagnostics))
	}
	if err := json.Unmarshal(read.Private, &keys); err != nil || len(keys[codeProofKey]) == 0 {
		t.Fatalf("the refresh dropped the proof: %q (%v)", read.Private, err)
	}
	plan, err := fresh.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: typ, PriorState: read.NewState, ProposedNewState: read.NewState, Config: p.dynamic(rt, config), PriorPrivate: read.Private,
	})
	if err != nil || hasErrors(plan.Diagnostics) {
		t.Fatalf("a fresh framework server's plan: %v %s", err, diagText(plan.Diagnostics))
	}
	if string(plan.PlannedPrivate) != string(read.Private) {
		t.Errorf("the plan changed private state %q to %q", read.Private, plan.PlannedPrivate)
	}
}

// fakePrivate is private state in a map.
type fakePrivate map[string][]byte

func (p fakePrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func (p fakePrivate) SetKey(_ context.Context, key string, v []byte) diag.Diagnostics {
	if len(v) == 0 {
		delete(p, key)
	} else {
		p[key] = v
	}
	return nil
}

// TestCodeProofEncoding: the proof round-trips through its private state
// form (the service's tag, then milliseconds since 2020 in base 36, or Unix
// nanoseconds for a finer time; the tag alone for proven without a recorded
// updated-at), and reads as no proof on another service or in any other
// form.
func TestCodeProofEncoding(t *testing.T) {
	t.Parallel()
	tag := serviceTag(url.URL{Scheme: "https", Host: "app.terraform.io", Path: "/api/v2/"})
	for name, tc := range map[string]struct {
		p    codeProof
		want string // encode's form, after the tag
	}{
		"milliseconds":     {codeProof{Proven: true, At: "2026-11-25T11:43:23.121Z"}, "2s1ir84x"},
		"seconds":          {codeProof{Proven: true, At: "2026-11-25T11:43:23Z"}, "2s1ir81k"},
		"before the epoch": {codeProof{Proven: true, At: "2019-06-01T00:00:00.5Z"}, "-8hs8aa4"},
		"nanoseconds":      {codeProof{Proven: true, At: "2026-11-25T11:43:23.123456789Z"}, ".dn49k5hor4et"},
		"the epoch itself": {codeProof{Proven: true, At: "2020-01-01T00:00:00Z"}, "0"},
		"no value":         {codeProof{Proven: true}, ""},
	} {
		raw := tc.p.encode(tag)
		if want, _ := json.Marshal(tag + tc.want); string(raw) != string(want) {
			t.Errorf("%s: encoded as %s, want %s", name, raw, want)
		}
		if got, ok := decodeCodeProof(raw, tag); !ok || got != tc.p {
			t.Errorf("%s: %s reads back as %+v (%v), want %+v", name, raw, got, ok, tc.p)
		}
		other := serviceTag(url.URL{Host: "tfe.example.com", Path: "/api/v2/"})
		if got, ok := decodeCodeProof(raw, other); ok {
			t.Errorf("%s: %s reads as %+v on another service", name, raw, got)
		}
	}
	for _, raw := range []string{"", "x", "217770203121", `"` + tag[:3] + `"`, `"` + tag + `zz!"`, `{"at":"2026-11-25T11:43:23.121Z"}`} {
		if got, ok := decodeCodeProof([]byte(raw), tag); ok {
			t.Errorf("%q reads as proof %+v", raw, got)
		}
	}
}

// TestServiceTag: the tag names the host (with its port) and the base path.
func TestServiceTag(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, u := range []string{"https://app.terraform.io/api/v2/", "https://tfe.example.com/api/v2/", "https://tfe.example.com:8443/api/v2/", "https://tfe.example.com/tfe/api/v2/"} {
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		tag := serviceTag(*parsed)
		if len(tag) != serviceTagLen {
			t.Errorf("%s: tag %q", u, tag)
		}
		if prev, ok := seen[tag]; ok {
			t.Errorf("%s and %s share the tag %s", u, prev, tag)
		}
		seen[tag] = u
	}
}

// TestPolicyKindRecordEncoding: the record is written as an array and read
// back from it.
func TestPolicyKindRecordEncoding(t *testing.T) {
	t.Parallel()
	want := policyKindRecord{PolicyID: "pol-1", Kind: "opa", Name: "tags", Organization: "org"}
	if got := string(privateValue(want)); got != `["pol-1","opa","tags","org"]` {
		t.Errorf("written as %s", got)
	}
	var got policyKindRecord
	if err := json.Unmarshal([]byte(`["pol-1","opa","tags","org"]`), &got); err != nil || got != want {
		t.Errorf("reads as %+v (%v)", got, err)
	}
	for _, raw := range []string{`["pol-1","opa"]`, `{"policy_id":"pol-1","kind":"opa","name":"tags","organization":"org"}`} {
		if err := json.Unmarshal([]byte(raw), &got); err == nil {
			t.Errorf("%s reads as %+v", raw, got)
		}
	}
}
