package provider

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadPolicySource_errors: a source that names no file, a directory or
// an unreadable file is an error naming the attribute and the path looked
// at, not a raw "stat ...: no such file or directory"; a missing file stays
// fs.ErrNotExist for the plan (a file written during the apply). The
// "${path.module}" hint comes only for a bare relative path whose
// directory is missing (a child module's own file); "./policies/x", which
// "${path.module}/policies/x" gives in the root module, lists the files of
// its directory instead, and no error mentions content_sha256.
func TestReadPolicySource_errors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir(filepath.Join(dir, "policies"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "policies", "tags.sentinel"), []byte("main = rule { true }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A directory of many files: the error names the closest to the one
	// asked for, not the first few by name.
	if err := os.Mkdir(filepath.Join(dir, "many"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a1.rego", "a2.rego", "a3.rego", "a4.rego", "a5.rego", "a6.rego", "a7.rego", "a8.rego", "b9.rego", "require-tags.rego", "zz-restrict-regions.rego"} {
		if err := os.WriteFile(filepath.Join(dir, "many", f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const hint = `"${path.module}/`
	tests := map[string]struct {
		name     string
		want     []string
		not      []string
		notExist bool
	}{
		"relative, directory missing": {"rules/missing.rego", []string{
			"source: the file " + filepath.Join(dir, "rules", "missing.rego") + " does not exist, nor does its directory " + filepath.Join(dir, "rules"),
			`source = "rules/missing.rego" is taken from the directory Terraform runs in`,
			`"${path.module}/rules/missing.rego"`}, nil, true},
		"path.module of the root module": {"./policies/missing.sentinel", []string{
			"source: the file " + filepath.Join(dir, "policies", "missing.sentinel") + " does not exist; its directory " + filepath.Join(dir, "policies") + " holds tags.sentinel."},
			[]string{hint}, true},
		"relative, directory exists":     {"policies/missing.sentinel", []string{"holds tags.sentinel"}, []string{hint}, true},
		"path.module, directory missing": {"./rules/missing.rego", []string{"nor does its directory"}, []string{hint}, true},
		"absolute": {filepath.Join(dir, "none.sentinel"), []string{"source: the file " + filepath.Join(dir, "none.sentinel") + " does not exist; its directory"},
			[]string{hint}, true},
		"closest of many": {"many/zz-restrict-region.rego", []string{
			"its directory " + filepath.Join(dir, "many") + " holds 11 files, the closest names: zz-restrict-regions.rego, "},
			[]string{"a1.rego, a2.rego", "more"}, true},
		"directory": {filepath.Join(dir, "policies"), []string{"is a directory, not a file"}, nil, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := readPolicySource(tc.name)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			for _, w := range append(tc.not, "content_sha256") {
				if strings.Contains(err.Error(), w) {
					t.Errorf("error %q has %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "stat ") || strings.Contains(err.Error(), "no such file") {
				t.Errorf("error %q is the raw stat error", err)
			}
			if got := errors.Is(err, fs.ErrNotExist); got != tc.notExist {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = %v, want %v", got, tc.notExist)
			}
		})
	}
}
