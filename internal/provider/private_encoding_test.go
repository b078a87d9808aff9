package provider

import (
	"encoding/json"
	"testing"
)

// TestCodeProofEncoding: the proof round-trips through its private state
// form (Unix nanoseconds; 0 for proven without a recorded updated-at), and
// anything else reads as no proof.
func TestCodeProofEncoding(t *testing.T) {
	t.Parallel()
	for name, p := range map[string]codeProof{
		"milliseconds": {Proven: true, At: "2026-11-25T11:43:23.121Z"},
		"nanoseconds":  {Proven: true, At: "2026-11-25T11:43:23.123456789Z"},
		"seconds":      {Proven: true, At: "2026-11-25T11:43:23Z"},
		"no value":     {Proven: true},
	} {
		got, ok := decodeCodeProof(p.encode())
		if !ok || got != p {
			t.Errorf("%s: %s reads back as %+v (%v), want %+v", name, p.encode(), got, ok, p)
		}
	}
	for _, raw := range []string{"", "x", "-1", `{"at":"2026-11-25T11:43:23.121Z"}`} {
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
