package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestRenderLogTail(t *testing.T) {
	tests := map[string]struct {
		log  string
		n    int
		want string
	}{
		"messages": {
			log: `{"@level":"info","@message":"tests/a.tftest.hcl... in progress","type":"test_file"}
{"@level":"info","@message":"  run \"one\"... pass","type":"test_run"}`,
			n:    10,
			want: "tests/a.tftest.hcl... in progress\n  run \"one\"... pass",
		},
		"diagnostic detail": {
			log:  `{"@level":"error","@message":"Error: Test assertion failed","diagnostic":{"severity":"error","summary":"Test assertion failed","detail":"The answer is not 42."}}`,
			n:    10,
			want: "Error: Test assertion failed: The answer is not 42.",
		},
		"plain lines and blanks": {
			log:  "starting\n\n  \nnot json {\n",
			n:    10,
			want: "starting\nnot json {",
		},
		"multi-line message": {
			log:  `{"@message":"line one\nline two\n"}`,
			n:    10,
			want: "line one\nline two",
		},
		"tail": {
			log:  "1\n2\n3\n4\n5",
			n:    2,
			want: "... (3 earlier lines)\n4\n5",
		},
		"empty": {log: "", n: 5, want: ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := renderLogTail([]byte(tc.log), tc.n); got != tc.want {
				t.Errorf("renderLogTail = %q, want %q", got, tc.want)
			}
		})
	}
}

// writeTree writes files (path -> content) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPackConfiguration(t *testing.T) {
	module := map[string]string{
		"main.tf":                `output "x" { value = 1 }`,
		"tests/x.tftest.hcl":     `run "x" {}`,
		".terraformignore":       "*.log\n",
		"debug.log":              "ignored",
		".terraform/providers/p": "ignored by default",
		".git/config":            "ignored by default",
	}
	base, err := packConfiguration(writeTree(t, module), true)
	if err != nil {
		t.Fatal(err)
	}
	if base.files != 3 {
		t.Errorf("packed %d files, want 3 (main.tf, the test and .terraformignore; not debug.log, .git or .terraform/providers)", base.files)
	}

	t.Run("same files, other times and place", func(t *testing.T) {
		dir := writeTree(t, module)
		old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(dir, "main.tf"), old, old); err != nil {
			t.Fatal(err)
		}
		got, err := packConfiguration(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if got.hash != base.hash {
			t.Errorf("hash %s, want %s: the hash must not depend on times, the directory's path or whether an archive was made", got.hash, base.hash)
		}
		if got.archive != nil || len(base.archive) == 0 {
			t.Errorf("archive of %d bytes when only the hash was asked for, %d bytes when it was", len(got.archive), len(base.archive))
		}
	})

	changes := map[string]func(map[string]string){
		"edited file": func(m map[string]string) { m["main.tf"] = `output "x" { value = 2 }` },
		"added file":  func(m map[string]string) { m["tests/y.tftest.hcl"] = `run "y" {}` },
		"renamed file": func(m map[string]string) {
			m["tests/z.tftest.hcl"] = m["tests/x.tftest.hcl"]
			delete(m, "tests/x.tftest.hcl")
		},
		"ignored file": func(m map[string]string) { m["debug.log"] = "changed" },
		"removed file": func(m map[string]string) { delete(m, "tests/x.tftest.hcl") },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range module {
				files[k] = v
			}
			change(files)
			got, err := packConfiguration(writeTree(t, files), true)
			if err != nil {
				t.Fatal(err)
			}
			same := name == "ignored file"
			if (got.hash == base.hash) != same {
				t.Errorf("hash changed = %v, want %v", got.hash != base.hash, !same)
			}
		})
	}

	t.Run("not a directory", func(t *testing.T) {
		dir := writeTree(t, module)
		if _, err := packConfiguration(filepath.Join(dir, "main.tf"), false); err == nil || !strings.Contains(err.Error(), "is not a directory") {
			t.Errorf("err = %v, want is not a directory", err)
		}
		if _, err := packConfiguration(filepath.Join(dir, "missing"), false); err == nil {
			t.Error("packing a missing directory succeeded")
		}
	})
}

func TestCheckHCLLiteral(t *testing.T) {
	tests := map[string]bool{
		`"text"`:               true,
		`42`:                   true,
		`true`:                 true,
		`null`:                 true,
		`["a", "b"]`:           true,
		`{ a = 1, "b" = [2] }`: true,
		`"a${"b"}"`:            true,
		`text`:                 false,
		`var.x`:                false,
		`upper("a")`:           false,
		`"unterminated`:        false,
		`1 +`:                  false,
		``:                     false,
	}
	for src, ok := range tests {
		if err := checkHCLLiteral("v", src); (err == nil) != ok {
			t.Errorf("checkHCLLiteral(%q) = %v, want ok %v", src, err, ok)
		}
	}
}

func TestRelativePathValidator(t *testing.T) {
	tests := map[string]bool{
		"tests":              true,
		"tests/unit":         true,
		"./tests":            true,
		"a/../b":             true,
		"tests/a.tftest.hcl": true,
		"/tests":             false,
		"..":                 false,
		"../tests":           false,
		"a/../../b":          false,
		`..\tests`:           false,
		" ":                  false,
	}
	for p, ok := range tests {
		resp := &validator.StringResponse{}
		relativePathValidator{}.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("test_directory"), ConfigValue: types.StringValue(p)}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("%q: errors %v, want ok %v", p, resp.Diagnostics, ok)
		}
	}
}

// BenchmarkPackConfiguration compares what a plan does with a module
// directory (hash only) with what a create does (hash and archive).
func BenchmarkPackConfiguration(b *testing.B) {
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "module-tests", "pass"))
	if err != nil {
		b.Fatal(err)
	}
	for _, archive := range []bool{false, true} {
		b.Run(map[bool]string{false: "hash", true: "archive"}[archive], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := packConfiguration(dir, archive); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
