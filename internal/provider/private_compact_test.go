package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// frameworkPrivate is private state as the framework writes it: a JSON
// object of base64 values.
func frameworkPrivate(t testing.TB, m map[string]string) []byte {
	t.Helper()
	raw := make(map[string][]byte, len(m))
	for k, v := range m {
		raw[k] = []byte(v)
	}
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCompactPrivate(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want []byte // nil: passed through unchanged
	}{
		{"proof of 12 digits", frameworkPrivate(t, map[string]string{"p": "217789819304"}), []byte{0, 0x32, 0xb5, 0x48, 0xe9, 0xa8}},
		{"proven, no updated-at", frameworkPrivate(t, map[string]string{"p": "0"}), []byte{0}},
		{"one", frameworkPrivate(t, map[string]string{"p": "1"}), []byte{0, 1}},
		{"a byte boundary", frameworkPrivate(t, map[string]string{"p": "256"}), []byte{0, 1, 0}},
		{"nanoseconds", frameworkPrivate(t, map[string]string{"p": "1764090000123456789"}), []byte{0, 0x18, 0x7b, 0x4e, 0x82, 0x31, 0x2d, 0x6d, 0x15}},
		{"the largest uint64", frameworkPrivate(t, map[string]string{"p": strconv.FormatUint(math.MaxUint64, 10)}), []byte{0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"beyond uint64", frameworkPrivate(t, map[string]string{"p": "18446744073709551616"}), nil},
		{"before 2020: negative", frameworkPrivate(t, map[string]string{"p": "-5"}), nil},
		{"leading zero", frameworkPrivate(t, map[string]string{"p": "05"}), nil},
		{"plus sign", frameworkPrivate(t, map[string]string{"p": "+5"}), nil},
		{"not a number", frameworkPrivate(t, map[string]string{"p": `{"at":"x"}`}), nil},
		{"another key too", frameworkPrivate(t, map[string]string{"p": "5", "r": `["pol-1"]`}), nil},
		{"a key sorted before p", frameworkPrivate(t, map[string]string{"a": "1", "p": "5"}), nil},
		{"another key alone", frameworkPrivate(t, map[string]string{"r": "5"}), nil},
		{"the framework's import marker", frameworkPrivate(t, map[string]string{".import_before_read": "true"}), nil},
		{"empty", nil, nil},
		{"hashicorp/tfe's", []byte("null"), nil},
		{"prefix only", []byte(`{"p":"`), nil},
		{"prefix and suffix overlap", []byte(`{"p":"}`), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := compactPrivate(tc.in)
			want := tc.want
			if want == nil {
				want = tc.in
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("compactPrivate(%q) = %x, want %x", tc.in, got, want)
			}
			// What Terraform sends back reaches the framework as the
			// framework wrote it.
			if back := expandPrivate(got); !bytes.Equal(back, tc.in) {
				t.Fatalf("expandPrivate(%x) = %q, want %q", got, back, tc.in)
			}
		})
	}
}

// TestCompactPrivateBytes is the reason for the compact form: a proof of
// 12 digits takes 8 characters of the state file (as many as hashicorp/tfe's
// "null"), where the framework's form took 32.
func TestCompactPrivateBytes(t *testing.T) {
	in := frameworkPrivate(t, map[string]string{"p": "217789819304"})
	if got, want := base64.StdEncoding.EncodedLen(len(in)), 32; got != want {
		t.Fatalf("the framework's form takes %d characters, want %d", got, want)
	}
	if got, want := base64.StdEncoding.EncodedLen(len(compactPrivate(in))), base64.StdEncoding.EncodedLen(len("null")); got != want {
		t.Fatalf("the compact form takes %d characters, want %d (hashicorp/tfe's empty private state)", got, want)
	}
}

func TestExpandPrivatePassesThrough(t *testing.T) {
	for _, in := range [][]byte{nil, {}, []byte("null"), []byte(`{"p":"MA=="}`), make([]byte, 10)} {
		if got := expandPrivate(in); !bytes.Equal(got, in) {
			t.Errorf("expandPrivate(%x) = %x, want it unchanged", in, got)
		}
	}
}

// FuzzCompactPrivate: whatever the framework writes comes back to it
// unchanged, and a compact form is what compactPrivate makes of its
// expansion.
func FuzzCompactPrivate(f *testing.F) {
	f.Add(uint64(217789819304), "")
	f.Add(uint64(0), "r")
	f.Add(uint64(math.MaxUint64), "")
	f.Add(uint64(1), "p2")
	f.Fuzz(func(t *testing.T, n uint64, other string) {
		m := map[string]string{"p": strconv.FormatUint(n, 10)}
		if other != "" && other != "p" {
			m[other] = `"x"`
		}
		in := frameworkPrivate(t, m)
		c := compactPrivate(in)
		if back := expandPrivate(c); !bytes.Equal(back, in) {
			t.Fatalf("%q → %x → %q", in, c, back)
		}
		if len(m) == 1 && (len(c) == 0 || c[0] != compactProofTag) {
			t.Fatalf("a proof alone was not compacted: %q → %x", in, c)
		}
		if len(m) > 1 && !bytes.Equal(c, in) {
			t.Fatalf("%q with another key was changed: %x", in, c)
		}
		if again := compactPrivate(expandPrivate(c)); !bytes.Equal(again, c) {
			t.Fatalf("compact form %x → %x", c, again)
		}
	})
}

// TestCompactPrivateServer drives the server's RPCs: private state reaches
// Terraform compact and the framework in its own form.
func TestCompactPrivateServer(t *testing.T) {
	full := frameworkPrivate(t, map[string]string{"p": "217789819304"})
	compact := compactPrivate(full)
	fake := &privateEcho{}
	s := compactPrivateServer{fake}
	ctx := context.Background()

	read, _ := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{Private: compact})
	plan, _ := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{PriorPrivate: compact})
	apply, _ := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{PlannedPrivate: compact})
	move, _ := s.MoveResourceState(ctx, &tfprotov6.MoveResourceStateRequest{SourcePrivate: compact})
	imp, _ := s.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{})
	for i, seen := range fake.seen {
		if !bytes.Equal(seen, full) {
			t.Errorf("RPC %d: the framework got %q, want %q", i, seen, full)
		}
	}
	if len(fake.seen) != 4 {
		t.Errorf("the framework saw %d private states, want 4", len(fake.seen))
	}
	for name, got := range map[string][]byte{"read": read.Private, "plan": plan.PlannedPrivate, "apply": apply.Private, "move": move.TargetPrivate, "import": imp.ImportedResources[0].Private} {
		if !bytes.Equal(got, compact) {
			t.Errorf("%s: Terraform got %x, want %x", name, got, compact)
		}
	}
}

// privateEcho stands in for the framework's server: it records the private
// state each RPC brings and answers with the same (an import, with a proof).
type privateEcho struct {
	frameworkServer
	seen [][]byte
}

func (e *privateEcho) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	e.seen = append(e.seen, req.Private)
	return &tfprotov6.ReadResourceResponse{Private: req.Private}, nil
}

func (e *privateEcho) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	e.seen = append(e.seen, req.PriorPrivate)
	return &tfprotov6.PlanResourceChangeResponse{PlannedPrivate: req.PriorPrivate}, nil
}

func (e *privateEcho) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	e.seen = append(e.seen, req.PlannedPrivate)
	return &tfprotov6.ApplyResourceChangeResponse{Private: req.PlannedPrivate}, nil
}

func (e *privateEcho) MoveResourceState(_ context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	e.seen = append(e.seen, req.SourcePrivate)
	return &tfprotov6.MoveResourceStateResponse{TargetPrivate: req.SourcePrivate}, nil
}

func (e *privateEcho) ImportResourceState(context.Context, *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return &tfprotov6.ImportResourceStateResponse{ImportedResources: []*tfprotov6.ImportedResource{{Private: []byte(`{"p":"MjE3Nzg5ODE5MzA0"}`)}}}, nil
}
