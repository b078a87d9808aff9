package policyeval

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestBuiltinsReviewed: each builtin of the OPA version go.mod pins is either allowed or refused,
// and the evaluator's capabilities hold exactly the allowed ones. An OPA upgrade that adds a
// builtin fails here until the builtin is reviewed (it stays refused meanwhile).
func TestBuiltinsReviewed(t *testing.T) {
	var unreviewed []string
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		_, refused := refusedBuiltins[b.Name]
		if allowed[b.Name] == refused {
			unreviewed = append(unreviewed, b.Name)
		}
	}
	if len(unreviewed) > 0 {
		t.Errorf("builtins neither allowed nor refused (or both): %v; review each (DESIGN.md \"Evaluating OPA policies locally\") and add it to allowedBuiltins or refusedBuiltins", unreviewed)
	}
	var gone []string
	for _, name := range allowedBuiltins {
		if ast.BuiltinMap[name] == nil {
			gone = append(gone, name)
		}
	}
	for name := range refusedBuiltins {
		if ast.BuiltinMap[name] == nil {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		t.Errorf("reviewed builtins that this OPA does not have: %v", gone)
	}
	var got []string
	for _, b := range capabilities().Builtins {
		got = append(got, b.Name)
	}
	want := slices.Clone(allowedBuiltins)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("capabilities hold %d builtins, want the %d allowed:\n got %v\nwant %v", len(got), len(want), got, want)
	}
	if caps := capabilities(); caps.AllowNet == nil || len(caps.AllowNet) != 0 {
		t.Errorf("allow_net %v, want empty (no host), not nil (any host)", caps.AllowNet)
	}
	// The builtins that reach out, as reviewed for OPA v1.22.2 (DESIGN.md).
	var refused []string
	for name := range refusedBuiltins {
		refused = append(refused, name)
	}
	sort.Strings(refused)
	if want := []string{"http.send", "json.match_schema", "json.verify_schema", "net.lookup_ip_addr", "opa.runtime"}; !slices.Equal(refused, want) {
		t.Errorf("refused builtins %v, want %v", refused, want)
	}
}

// TestRefusedBuiltins: every builtin of OPA's that can reach the network, the file system or the
// environment is refused at compile, naming it, in an evaluation and in a test module; nothing
// is requested and no file's content shows.
func TestRefusedBuiltins(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `{"type": "string", "description": "SECRET-FROM-THE-NETWORK"}`)
	}))
	defer srv.Close()
	secret := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(secret, []byte(`{"type": "string", "description": "SECRET-FROM-THE-DISK"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TFGOV_TEST_VARIABLE", "SECRET-FROM-THE-ENVIRONMENT")
	remote := fmt.Sprintf(`{"$ref": %q}`, srv.URL+"/schema.json")
	local := fmt.Sprintf(`{"$ref": %q}`, "file://"+filepath.ToSlash(secret))
	// Arguments come from the input, as a URL built from a plan would: nothing to see at compile.
	for _, tc := range []struct{ name, builtin, call, arg string }{
		{"http.send", "http.send", `http.send(input.arg)`, fmt.Sprintf(`{"method": "get", "url": %q}`, srv.URL)},
		{"net.lookup_ip_addr", "net.lookup_ip_addr", `net.lookup_ip_addr(input.arg)`, `"localhost"`},
		{"opa.runtime", "opa.runtime", `opa.runtime().env[input.arg]`, `"TFGOV_TEST_VARIABLE"`},
		{"json.match_schema remote $ref", "json.match_schema", `json.match_schema("x", input.arg)`, remote},
		{"json.match_schema file $ref", "json.match_schema", `json.match_schema({"a": 1}, input.arg)`, local},
		{"json.verify_schema remote $ref", "json.verify_schema", `json.verify_schema(input.arg)`, remote},
		{"json.verify_schema file $ref", "json.verify_schema", `json.verify_schema(input.arg)`, local},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			want := "rego_type_error: undefined function " + tc.builtin + " (refused by the provider: "
			check := func(where, msg string) {
				t.Helper()
				if !strings.Contains(msg, want) {
					t.Errorf("%s: %s\nwant an error with %q", where, msg, want)
				}
				if strings.Contains(msg, "SECRET") {
					t.Errorf("%s shows what the builtin reached: %s", where, msg)
				}
			}
			input := `{"arg": ` + tc.arg + `}`
			policy := Module{Name: "p.rego", Code: []byte("package p\n\ndeny contains x if {\n\tx := " + tc.call + "\n}\n")}
			out, err := Evaluate(context.Background(), []Module{policy}, "data.p.deny", []byte(input))
			if err != nil {
				check("evaluation", err.Error())
			} else {
				check("evaluation", fmt.Sprintf("no error, violations %s", out.Violations))
			}
			res, err := RunTests(context.Background(), []Module{{Name: "q.rego", Code: []byte("package q\n\ndeny contains 1 if false\n")}},
				[]Module{{Name: "q_test.rego", Code: []byte("package q_test\n\ntest_call if {\n\tx := " + tc.call + " with input as " + input + "\n\tx != null\n}\n")}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Failures) == 0 {
				t.Errorf("test module: %d passed, no failure; want the call refused", res.Passed)
			} else {
				check("test module", res.Failures[0].String())
			}
			if n := hits.Load(); n > 0 {
				t.Errorf("%d request(s) reached the server", n)
			}
		})
	}
}

// TestAllowedBuiltinsStayLocal: allowed builtins that take a key or a time zone reach nothing:
// a JWT's key given as a URL is not fetched.
func TestAllowedBuiltinsStayLocal(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"
	policy := Module{Name: "p.rego", Code: []byte(fmt.Sprintf(`package p

deny contains "verified" if io.jwt.decode_verify(%q, {"cert": %q})[0]

deny contains "rs256" if io.jwt.verify_rs256(%q, %q)

deny contains "zone" if time.date([0, "../../etc/passwd"])
`, jwt, srv.URL+"/jwks.json", jwt, srv.URL+"/key.pem"))}
	out, err := Evaluate(context.Background(), []Module{policy}, "data.p.deny", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Pass {
		t.Errorf("violations %s, want none", out.Violations)
	}
	if n := hits.Load(); n > 0 {
		t.Errorf("%d request(s) reached the server", n)
	}
}
