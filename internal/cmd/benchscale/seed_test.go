package main

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Two instances of one real apply (N=2, -seed-state's, Terraform 1.11):
// their private states hold the code proof at each policy's updated-at.
const (
	privateAt545 = "eyJwIjoiSWtKcE0ySXRlREp6Tm5scWRXZHdJZz09In0=" // 2026-11-29T07:04:23.545Z
	privateAt547 = "eyJwIjoiSWtKcE0ySXRlREp6Tm5scWRXZHlJZz09In0=" // 2026-11-29T07:04:23.547Z
)

func template(t *testing.T, private string, attrs map[string]any) map[string]any {
	t.Helper()
	base := map[string]any{"content": nil, "content_sha256": nil, "content_wo": nil, "description": "policy 0 v0",
		"enforcement_level": "hard-mandatory", "id": "pol-template", "kind": "sentinel", "name": "bench-src-0",
		"organization": "tfgov-demo", "query": nil, "source": nil, "tests_sha256": nil, "tests_wo": nil}
	for k, v := range attrs {
		base[k] = v
	}
	inst := map[string]any{"index_key": 0, "schema_version": 0, "attributes": base, "sensitive_attributes": []any{}}
	if private != "" {
		inst["private"] = private
	}
	return inst
}

// TestCloneInstance: a clone takes the object's own fields, sets only the
// code attributes its template's configuration set, and re-encodes the
// proof as the provider does; an unknown private key is refused.
func TestCloneInstance(t *testing.T) {
	q := "data.terraform.policies.bench_7.deny"
	at547, _ := time.Parse(time.RFC3339Nano, "2026-11-29T07:04:23.547Z")
	obj := seededPolicy{id: "pol-7", name: "bench-src-7", description: "policy 7 v0", kind: "opa", enforcementLevel: "advisory",
		query: &q, code: "package x\n", source: "/code/v0/7.policy", updatedAt: at547}
	const sum = "3ea66a23367f14bd3e79ebd5c296779a4c3c40ef3a2035e23863b56ab5894bc5" // sha256 of "package x\n"
	cases := []struct {
		name      string
		tmpl      map[string]any
		want      map[string]any // attributes checked
		private   string         // "": none expected
		errSubstr string
	}{
		{"source, the proof re-encoded at the object's updated-at",
			template(t, privateAt545, map[string]any{"source": "/code/v0/0.policy", "content_sha256": "00"}),
			map[string]any{"id": "pol-7", "name": "bench-src-7", "description": "policy 7 v0", "kind": "opa", "query": q,
				"enforcement_level": "advisory", "source": "/code/v0/7.policy", "content_sha256": sum, "content": nil, "content_wo": nil},
			privateAt547, ""},
		{"content keeps the code, no digest",
			template(t, "", map[string]any{"content": "main = rule { true }\n"}),
			map[string]any{"content": "package x\n", "content_sha256": nil, "source": nil}, "", ""},
		{"a Sentinel object's query is null",
			template(t, "", map[string]any{"kind": "opa", "query": "data.q"}),
			map[string]any{"query": nil, "kind": "sentinel"}, "", ""},
		{"a key it does not know",
			template(t, base64.StdEncoding.EncodeToString([]byte(`{"grants":"W10="}`)), nil), nil, "", `key "grants"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := obj
			if tc.name == "a Sentinel object's query is null" {
				o.kind, o.query = "sentinel", nil
			}
			got, err := cloneInstance(tc.tmpl, o, 7)
			if tc.errSubstr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errSubstr) {
					t.Fatalf("err = %v, want one naming %s", err, tc.errSubstr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got["index_key"] != 7 {
				t.Errorf("index_key = %v", got["index_key"])
			}
			attrs := got["attributes"].(map[string]any)
			for k, want := range tc.want {
				if attrs[k] != want {
					t.Errorf("%s = %v, want %v", k, attrs[k], want)
				}
			}
			if p, _ := got["private"].(string); p != tc.private {
				t.Errorf("private = %q, want %q", p, tc.private)
			}
			if tc.tmpl["attributes"].(map[string]any)["id"] != "pol-template" {
				t.Error("the template was changed")
			}
		})
	}
}

// TestEncodeProofAt: milliseconds since 2020 in base 36, or Unix
// nanoseconds after a '.' when finer (the provider's codeProof.encode).
func TestEncodeProofAt(t *testing.T) {
	cases := []struct{ at, want string }{
		{"2026-11-29T07:04:23.547Z", "2s6yjugr"}, // privateAt547's
		{"2020-01-01T00:00:00.035Z", "z"},
		{"2020-01-01T00:00:00.000000036Z", ".bzk0gr9x2ip0"},
	}
	for _, tc := range cases {
		at, err := time.Parse(time.RFC3339Nano, tc.at)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeProofAt(at); got != tc.want {
			t.Errorf("encodeProofAt(%s) = %q, want %q", tc.at, got, tc.want)
		}
	}
}

func state(t *testing.T, insts ...map[string]any) []byte {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"version": 4, "serial": 3, "resources": []any{
		map[string]any{"mode": "managed", "type": "tfgov_policy", "name": "r", "instances": insts}}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestSeedState: the seeded objects are appended after the applied ones,
// at their indices; a state without the resource is an error.
func TestSeedState(t *testing.T) {
	objs := []seededPolicy{{}, {id: "pol-1", name: "bench-src-1", kind: "sentinel"}, {id: "pol-2", name: "bench-src-2", kind: "sentinel"}}
	out, err := seedState(state(t, template(t, "", nil)), "tfgov_policy", "r", objs)
	if err != nil {
		t.Fatal(err)
	}
	insts, err := stateInstances(out)
	if err != nil {
		t.Fatal(err)
	}
	var ids []any
	for _, in := range insts {
		ids = append(ids, in["attributes.id"])
	}
	if got := jsonText(t, ids); got != `["pol-template","pol-1","pol-2"]` {
		t.Errorf("ids = %s", got)
	}
	if !strings.Contains(string(out), `"index_key": 2`) || !strings.Contains(string(out), `"serial": 4`) {
		t.Errorf("no index 2 or serial not moved on:\n%s", out)
	}
	if _, err := seedState(state(t, template(t, "", nil)), "tfgov_policy", "other", objs); err == nil {
		t.Error("a missing resource: no error")
	}
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSeedCheck: the refresh may change a seeded instance where it changed
// the applied ones (the source digest it records), nowhere else (a wrong
// enforcement level, a wrong proof).
func TestSeedCheck(t *testing.T) {
	withS := base64.StdEncoding.EncodeToString([]byte(`{"p":"IkJpM2ItWDJzNnlqdWdyIg==","s":"ImExZThkNTFiIg=="}`))
	plain := base64.StdEncoding.EncodeToString([]byte(`{"p":"IkJpM2ItWDJzNnlqdWdyIg=="}`))
	otherProof := base64.StdEncoding.EncodeToString([]byte(`{"p":"IkJpM2ItWDJzNnlqdWdwIg=="}`))
	cases := []struct {
		name               string
		seeded, refreshed  []map[string]any
		wantFields, errSub string
	}{
		{"alike", []map[string]any{template(t, plain, nil), template(t, plain, nil)},
			[]map[string]any{template(t, withS, nil), template(t, withS, nil)}, "private.s", ""},
		{"unchanged", []map[string]any{template(t, plain, nil), template(t, plain, nil)},
			[]map[string]any{template(t, plain, nil), template(t, plain, nil)}, "none", ""},
		{"a seeded attribute the refresh corrects", []map[string]any{template(t, plain, nil), template(t, plain, nil)},
			[]map[string]any{template(t, plain, nil), template(t, plain, map[string]any{"enforcement_level": "advisory"})}, "", "[1] attributes.enforcement_level"},
		{"a seeded proof the refresh corrects", []map[string]any{template(t, plain, nil), template(t, plain, nil)},
			[]map[string]any{template(t, plain, nil), template(t, otherProof, nil)}, "", "[1] private.p"},
		{"an instance gone", []map[string]any{template(t, plain, nil), template(t, plain, nil)},
			[]map[string]any{template(t, plain, nil)}, "", "2 instances seeded, 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fields, err := seedCheck(state(t, tc.seeded...), state(t, tc.refreshed...), 1)
			if tc.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errSub) {
					t.Fatalf("err = %v, want one with %q", err, tc.errSub)
				}
				return
			}
			if err != nil || fields != tc.wantFields {
				t.Errorf("seedCheck = %q, %v; want %q", fields, err, tc.wantFields)
			}
		})
	}
}
