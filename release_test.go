package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	tfgovprovider "github.com/tfgov/terraform-provider-tfgov/internal/provider"
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
// build and make install stamp git describe's; make release-snapshot ALL=1
// runs the release's goreleaser configuration for every platform, and one
// platform's (and make mirror-check's) is built by Go's toolchain; the release
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
		"$(GORELEASER) release --snapshot --clean --skip=before,sign;",
		`if [ "$(ALL)" = 1 ]`,
		"go run ./internal/cmd/snapshot -dist dist",
		"go run ./internal/cmd/snapshot -os linux -arch amd64",
	} {
		if !strings.Contains(mk+read("scripts/mirror-check.sh"), want) {
			t.Errorf("GNUmakefile (or scripts/mirror-check.sh) lacks %q", want)
		}
	}
	// One platform's snapshot (the install guide's route) and mirror-check
	// build with Go's toolchain: compiling goreleaser first took longer than
	// the build (issue 55).
	for _, target := range []string{"release-snapshot", "mirror-check"} {
		if m := regexp.MustCompile(`(?m)^` + target + `:([^#\n]*)`).FindStringSubmatch(mk); m == nil || strings.Contains(m[1], "GORELEASER") {
			t.Errorf("GNUmakefile's %s needs goreleaser built first: %v", target, m)
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
		if !released && regexp.MustCompile(`go install \S+@latest`).MatchString(read(page)) {
			t.Errorf("%s tells to go install …@latest, but CHANGELOG.md has no released version: there is nothing to install yet", page)
		}
	}
}

// TestSnapshotVersion: a build from a clone before a release (make
// release-snapshot, make mirror-check, make build before the first tag) is
// the CHANGELOG's next release with the commit as build metadata, which
// the install guide's own version constraint selects: a pre-release
// (0.1.1-snapshot-abc1234) is selected only when named exactly.
func TestSnapshotVersion(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("bash", "scripts/snapshot-version.sh").Output() //nolint:noctx // fixed arguments
	if err != nil {
		t.Fatalf("scripts/snapshot-version.sh: %v", err)
	}
	got := strings.TrimSpace(string(out))
	changelog, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	next := regexp.MustCompile(`^## (\d+\.\d+\.\d+) `).FindSubmatch(changelog)
	if next == nil {
		t.Fatal("CHANGELOG.md opens with no ## X.Y.Z")
	}
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(string(next[1])) + `\+dev\.[0-9a-f]{7,}(\.dirty)?$`).MatchString(got) {
		t.Errorf("snapshot version %q, want %s+dev.<commit>", got, next[1])
	}
	gr, err := os.ReadFile(".goreleaser.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gr), `version_template: "{{ .Env.TFGOV_SNAPSHOT_VERSION }}"`) {
		t.Error(".goreleaser.yml's snapshot version is not TFGOV_SNAPSHOT_VERSION (scripts/snapshot-version.sh)")
	}
	main, err := os.ReadFile("examples/guides/install/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*version\s*=\s*"([^"]+)"`).FindSubmatch(main)
	if m == nil {
		t.Fatal("examples/guides/install/main.tf has no version constraint")
	}
	c, err := goversion.NewConstraint(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	v := goversion.Must(goversion.NewVersion(got))
	if v.Prerelease() != "" || !c.Check(v) {
		t.Errorf("the install guide's version = %q does not select the snapshot %s", m[1], got)
	}
}

// TestChangelog: CHANGELOG.md's newest section is complete and ordered as
// the release notes of HashiCorp's providers are: NOTES, FEATURES,
// ENHANCEMENTS, BUG FIXES; FEATURES opens with a "**New <kind>:**" line
// for every action, data source, list resource and resource the provider
// serves, by kind and then name; ENHANCEMENTS are grouped action/,
// data-source/, list-resource/, provider:, resource/ (by name), sandbox:.
// The section stays "(Unreleased)" until a tag exists.
func TestChangelog(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	if !regexp.MustCompile(`^## \d+\.\d+\.\d+ \((Unreleased|\w+ \d+, \d{4})\)$`).MatchString(lines[0]) {
		t.Fatalf("CHANGELOG.md opens with %q, want ## X.Y.Z (Unreleased) or a date", lines[0])
	}
	sections := map[string][]string{}
	var order []string
	cur := ""
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "## ") {
			break // an older version
		}
		switch {
		case regexp.MustCompile(`^[A-Z][A-Z ]+:$`).MatchString(l):
			cur = strings.TrimSuffix(l, ":")
			order = append(order, cur)
		case strings.HasPrefix(l, "* ") && cur != "":
			sections[cur] = append(sections[cur], l)
		case strings.TrimSpace(l) != "":
			t.Errorf("CHANGELOG.md: a line outside a bullet list: %q", l)
		}
	}
	rank := func(keys []string, k string) int {
		for i, x := range keys {
			if x == k {
				return i
			}
		}
		return -1
	}
	sectionOrder := []string{"NOTES", "FEATURES", "ENHANCEMENTS", "BUG FIXES"}
	for i, s := range order {
		if rank(sectionOrder, s) < 0 || (i > 0 && rank(sectionOrder, s) <= rank(sectionOrder, order[i-1])) {
			t.Errorf("CHANGELOG.md sections %v: want them in the order %v, each once", order, sectionOrder)
			break
		}
	}
	// FEATURES: the New lines first, by kind then name, then the rest.
	kinds := []string{"Action", "Data Source", "List Resource", "Resource"}
	newRE := regexp.MustCompile("^\\* \\*\\*New (Action|Data Source|List Resource|Resource):\\*\\* `(tfgov_\\w+)`")
	have := map[string]bool{}
	prev, others := "", false
	for _, l := range sections["FEATURES"] {
		m := newRE.FindStringSubmatch(l)
		if m == nil {
			others = true
			continue
		}
		key := fmt.Sprintf("%d %s", rank(kinds, m[1]), m[2])
		if others || key < prev {
			t.Errorf("CHANGELOG.md FEATURES: %q is out of order (New lines first, by kind, then name)", l)
		}
		prev = key
		have[m[1]+" "+m[2]] = true
	}
	for _, typ := range providerTypes(t) {
		if !have[typ] {
			t.Errorf("CHANGELOG.md FEATURES has no \"**New %s:**\" line", strings.Replace(typ, " tfgov_", ":** `tfgov_", 1)+"`")
		}
	}
	// ENHANCEMENTS: grouped by prefix.
	groups := []string{"action/", "data-source/", "list-resource/", "provider", "resource/", "sandbox"}
	last := ""
	for _, l := range sections["ENHANCEMENTS"] {
		prefix, _, _ := strings.Cut(strings.TrimPrefix(l, "* "), ":")
		g := -1
		for i, p := range groups {
			if prefix == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(prefix, p)) {
				g = i
			}
		}
		if g < 0 {
			t.Errorf("CHANGELOG.md ENHANCEMENTS: %q has no known prefix (%v)", l, groups)
			continue
		}
		key := fmt.Sprintf("%d %s", g, prefix)
		if g == rank(groups, "provider") || g == rank(groups, "sandbox") {
			key = fmt.Sprintf("%d", g)
		}
		if key < last {
			t.Errorf("CHANGELOG.md ENHANCEMENTS: %q is out of order (groups %v, resources by name)", l, groups)
		}
		last = key
	}
}

// providerTypes is every type the provider serves, as "<Kind> tfgov_<name>".
func providerTypes(t *testing.T) []string {
	t.Helper()
	ctx := context.Background()
	p := tfgovprovider.New("test")()
	var out []string
	for _, f := range p.Resources(ctx) {
		var md resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		out = append(out, "Resource "+md.TypeName)
	}
	for _, f := range p.DataSources(ctx) {
		var md datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		out = append(out, "Data Source "+md.TypeName)
	}
	for _, f := range p.(fwprovider.ProviderWithListResources).ListResources(ctx) {
		var md resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		out = append(out, "List Resource "+md.TypeName)
	}
	for _, f := range p.(fwprovider.ProviderWithActions).Actions(ctx) {
		var md action.MetadataResponse
		f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		out = append(out, "Action "+md.TypeName)
	}
	return out
}
