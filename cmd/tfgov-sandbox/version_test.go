package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// TestRunVersion: -version prints the version the build stamped (make
// build and goreleaser set main.version) and exits without serving.
func TestRunVersion(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "0.1.0"
	var out strings.Builder
	if err := run(context.Background(), []string{"-version"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "tfgov-sandbox 0.1.0\n" {
		t.Errorf("-version printed %q, want %q", got, "tfgov-sandbox 0.1.0\n")
	}
}
