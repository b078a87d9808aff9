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
// fs.ErrNotExist for the plan (a file written during the apply).
func TestReadPolicySource_errors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir(filepath.Join(dir, "policies"), 0o700); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		name     string
		want     []string
		notExist bool
	}{
		"relative": {"policies/missing.rego", []string{
			"source: the file " + filepath.Join(dir, "policies", "missing.rego") + " does not exist",
			`source = "policies/missing.rego" is taken from the directory Terraform runs in`,
			`"${path.module}/policies/missing.rego"`}, true},
		"absolute":  {filepath.Join(dir, "none.sentinel"), []string{"source: the file " + filepath.Join(dir, "none.sentinel") + " does not exist."}, true},
		"directory": {filepath.Join(dir, "policies"), []string{"is a directory, not a file"}, false},
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
			if strings.Contains(err.Error(), "stat ") || strings.Contains(err.Error(), "no such file") {
				t.Errorf("error %q is the raw stat error", err)
			}
			if got := errors.Is(err, fs.ErrNotExist); got != tc.notExist {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = %v, want %v", got, tc.notExist)
			}
		})
	}
}
