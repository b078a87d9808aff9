package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionFlag: the provider's binary, built with the version stamped
// as goreleaser and make build stamp it, prints it with -version and
// exits.
func TestVersionFlag(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "terraform-provider-tfgov")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=0.1.0", "-o", bin, ".") //nolint:noctx // fixed arguments
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-version").CombinedOutput() //nolint:noctx // fixed arguments
	if err != nil || string(out) != "terraform-provider-tfgov 0.1.0\n" {
		t.Errorf("-version: %q, %v; want %q", out, err, "terraform-provider-tfgov 0.1.0\n")
	}
}

// TestReleaseConfig: what a tag publishes is what the repository's own
// routes build: goreleaser stamps the version into both binaries; make
// build and make install stamp git describe's; make release-snapshot runs
// the release's goreleaser configuration for every platform; the release
// workflow runs the goreleaser version the Makefile pins (which make
// mirror-check and make release-snapshot use); and README promises no
// `@latest` before CHANGELOG has a released version.
func TestReleaseConfig(t *testing.T) {
	t.Parallel()
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gr := read(".goreleaser.yml")
	if n := strings.Count(gr, `-X main.version={{.Version}}`); n != 2 {
		t.Errorf(".goreleaser.yml stamps main.version in %d builds, want 2 (the provider and the sandbox)", n)
	}
	mk := read("GNUmakefile")
	for _, want := range []string{
		`go build -ldflags "$(VERSION_LDFLAGS)" -o $(BIN)/terraform-provider-tfgov .`,
		`go build -ldflags "$(VERSION_LDFLAGS)" -o $(BIN)/tfgov-sandbox ./cmd/tfgov-sandbox`,
		`go install -ldflags "$(VERSION_LDFLAGS)" .`,
		"git describe --tags",
		"release-snapshot: $(GORELEASER)",
		"$(GORELEASER) release --snapshot --clean",
	} {
		if !strings.Contains(mk, want) {
			t.Errorf("GNUmakefile lacks %q", want)
		}
	}
	pinned := regexp.MustCompile(`(?m)^GORELEASER_VERSION := (\S+)$`).FindStringSubmatch(mk)
	used := regexp.MustCompile(`(?m)^\s*version: (\S+) # GORELEASER_VERSION in GNUmakefile$`).FindStringSubmatch(read(".github/workflows/release.yml"))
	if pinned == nil || used == nil || pinned[1] != used[1] {
		t.Errorf("release.yml runs goreleaser %v, GNUmakefile pins %v: a tag would build with another goreleaser than make mirror-check", used, pinned)
	}
	changelog := read("CHANGELOG.md")
	released := regexp.MustCompile(`(?m)^## \d+\.\d+\.\d+ \(\w+ \d+, \d{4}\)$`).MatchString(changelog)
	guides, err := filepath.Glob("docs/guides/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range append(guides, "README.md") {
		if !released && regexp.MustCompile("go install \\S+@latest").MatchString(read(page)) {
			t.Errorf("%s tells to go install …@latest, but CHANGELOG.md has no released version: there is nothing to install yet", page)
		}
	}
}
