package provider

import (
	"encoding/json"
	"testing"
)

// TestCodeProofEncoding: the proof round-trips through its private state
// form (milliseconds since 2020, or Unix nanoseconds for a finer time; 0
// for proven without a recorded updated-at), earlier versions' nanoseconds
// read the same, what the short form cannot carry is written as no
// updated-at (a download, never a wrong skip), and anything else reads as
// no proof.
func TestCodeProofEncoding(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		p    codeProof
		want string // encode's form
	}{
		"milliseconds":       {codeProof{Proven: true, At: "2026-11-25T11:43:23.121Z"}, "217770203121"},
		"seconds":            {codeProof{Proven: true, At: "2026-11-25T11:43:23Z"}, "217770203000"},
		"before the epoch":   {codeProof{Proven: true, At: "2019-06-01T00:00:00.5Z"}, "-18489599500"},
		"beyond a Duration":  {codeProof{Proven: true, At: "2400-01-01T00:00:00Z"}, "11991628800000"},
		"nanoseconds":        {codeProof{Proven: true, At: "2026-11-25T11:43:23.123456789Z"}, "1795607003123456789"},
		"no value":           {codeProof{Proven: true}, "0"},
		"the epoch itself":   {codeProof{Proven: true, At: "2020-01-01T00:00:00Z"}, "0"},
		"finer, before 2001": {codeProof{Proven: true, At: "2000-01-01T00:00:00.0000001Z"}, "0"},
		"finer, after 2261":  {codeProof{Proven: true, At: "2400-01-01T00:00:00.0000001Z"}, "0"},
	} {
		raw := tc.p.encode()
		if string(raw) != tc.want {
			t.Errorf("%s: encoded as %s, want %s", name, raw, tc.want)
		}
		want := tc.p
		if tc.want == "0" {
			want.At = "" // proven, no updated-at: the next refresh downloads
		}
		if got, ok := decodeCodeProof(raw); !ok || got != want {
			t.Errorf("%s: %s reads back as %+v (%v), want %+v", name, raw, got, ok, want)
		}
	}
	// Earlier versions wrote Unix nanoseconds.
	if got, ok := decodeCodeProof([]byte("1795607003121000000")); !ok || got.At != "2026-11-25T11:43:23.121Z" {
		t.Errorf("nanoseconds of an earlier version read as %+v (%v)", got, ok)
	}
	for _, raw := range []string{"", "x", "-1000000000000000000", `{"at":"2026-11-25T11:43:23.121Z"}`} {
		if got, ok := decodeCodeProof([]byte(raw)); ok {
			t.Errorf("%q reads as proof %+v", raw, got)
		}
	}
}

// TestPolicyKindRecordEncoding: the record is written as an array and read
// from it or from the object earlier versions wrote.
func TestPolicyKindRecordEncoding(t *testing.T) {
	t.Parallel()
	want := policyKindRecord{PolicyID: "pol-1", Kind: "opa", Name: "tags", Organization: "org"}
	if got := string(privateValue(want)); got != `["pol-1","opa","tags","org"]` {
		t.Errorf("written as %s", got)
	}
	for _, raw := range []string{`["pol-1","opa","tags","org"]`, `{"policy_id":"pol-1","kind":"opa","name":"tags","organization":"org"}`} {
		var got policyKindRecord
		if err := json.Unmarshal([]byte(raw), &got); err != nil || got != want {
			t.Errorf("%s reads as %+v (%v)", raw, got, err)
		}
	}
	var got policyKindRecord
	if err := json.Unmarshal([]byte(`["pol-1","opa"]`), &got); err == nil {
		t.Errorf("a short array reads as %+v", got)
	}
}
