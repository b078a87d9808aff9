package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNamesMatchGoreleaser: the snapshot names its files, stamps its
// binaries and builds them as .goreleaser.yml has goreleaser do, on every
// platform the release builds.
func TestNamesMatchGoreleaser(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", ".goreleaser.yml"))
	if err != nil {
		t.Fatal(err)
	}
	gr := string(b)
	templates := regexp.MustCompile(`(?m)^\s*(?:name_template|binary): "([^"]+)"$`).FindAllStringSubmatch(gr, -1)
	var got []string
	for _, m := range templates {
		got = append(got, m[1])
	}
	want := []string{
		"{{ .ProjectName }}_v{{ .Version }}",                      // the provider's binary
		"{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}", // its archive
		"tfgov-sandbox_{{ .Version }}_{{ .Os }}_{{ .Arch }}",      // the sandbox's archive
		"{{ .ProjectName }}_{{ .Version }}_manifest.json",         // checksum's extra file
		"{{ .ProjectName }}_{{ .Version }}_SHA256SUMS",            // checksum
		"{{ .ProjectName }}_{{ .Version }}_manifest.json",         // release's extra file
	}
	if !slices.Equal(got, want) {
		t.Fatalf(".goreleaser.yml's templates changed:\n got %q\nwant %q\nchange namesFor to match", got, want)
	}
	const v = "0.1.0+dev.abc1234"
	render := func(tmpl, goos, goarch string) string {
		return strings.NewReplacer("{{ .ProjectName }}", projectName, "{{ .Version }}", v, "{{ .Os }}", goos, "{{ .Arch }}", goarch).Replace(tmpl)
	}
	for _, p := range [][2]string{{"linux", "amd64"}, {"darwin", "arm64"}, {"windows", "386"}, {"freebsd", "arm"}} {
		n := namesFor(v, p[0], p[1])
		exe, sandboxExt := "", ".tar.gz"
		if p[0] == "windows" { // goreleaser adds .exe; format_overrides: zip
			exe, sandboxExt = ".exe", ".zip"
		}
		for _, c := range [][2]string{
			{n.providerBinary, render(want[0], p[0], p[1]) + exe},
			{n.providerArchive, render(want[1], p[0], p[1]) + ".zip"},
			{n.sandboxArchive, render(want[2], p[0], p[1]) + sandboxExt},
			{n.manifest, render(want[3], p[0], p[1])},
			{n.sums, render(want[4], p[0], p[1])},
			{n.sandboxBinary, "tfgov-sandbox" + exe},
		} {
			if c[0] != c[1] {
				t.Errorf("%s_%s: %s, goreleaser names it %s", p[0], p[1], c[0], c[1])
			}
		}
	}
	for _, line := range []string{
		`- "-s -w -X main.version={{.Version}}"`, // ldflags, both builds
		"- -trimpath",
		"- CGO_ENABLED=0",
		`mod_timestamp: "{{ .CommitTimestamp }}"`,
		"ids: [provider]", // checksum: only the provider's archives
		"src: internal/sandbox/README.md",
	} {
		if n := strings.Count(gr, line); n == 0 {
			t.Errorf(".goreleaser.yml no longer has %q, which the snapshot does as it does", line)
		}
	}
	if ldflags(v) != strings.ReplaceAll("-s -w -X main.version={{.Version}}", "{{.Version}}", v) {
		t.Errorf("ldflags %q", ldflags(v))
	}
}

// TestRun: a snapshot's files, with the build replaced by two stand-in
// binaries: the provider's zip (binary, README.md, CHANGELOG.md), the
// sandbox's tar.gz (binary and its README), the manifest, SHA256SUMS of the
// provider's zip and the manifest only, and metadata.json's version, which
// scripts/mirror-check.sh reads.
func TestRun(t *testing.T) {
	buildBinaries = func(_ context.Context, _ options, dir string, _ func(string, ...any)) error {
		for _, name := range []string{projectName, sandboxName} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("binary "+name), 0o755); err != nil { //nolint:gosec // a stand-in executable
				return err
			}
		}
		return nil
	}
	t.Cleanup(func() { buildBinaries = build })
	t.Chdir(filepath.Join("..", "..", ".."))
	const v = "0.1.0+dev.abc1234"
	dist := t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), options{goos: "linux", goarch: "amd64", dist: dist, version: v}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"terraform-provider-tfgov_0.1.0+dev.abc1234_linux_amd64.zip", "tfgov-sandbox_0.1.0+dev.abc1234_linux_amd64.tar.gz", "_SHA256SUMS", "done:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the progress lacks %q:\n%s", want, out.String())
		}
	}
	n := namesFor(v, "linux", "amd64")
	zr, err := zip.OpenReader(filepath.Join(dist, n.providerArchive))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var zipped []string
	for _, f := range zr.File {
		zipped = append(zipped, f.Name)
		if f.Name == n.providerBinary && f.Mode().Perm() != 0o755 {
			t.Errorf("%s has mode %v in the zip, want 0755", f.Name, f.Mode())
		}
	}
	if want := []string{"terraform-provider-tfgov_v0.1.0+dev.abc1234", "README.md", "CHANGELOG.md"}; !slices.Equal(zipped, want) {
		t.Errorf("the provider's zip holds %q, want %q", zipped, want)
	}
	f, err := os.Open(filepath.Join(dist, n.sandboxArchive))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var tarred []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		tarred = append(tarred, h.Name)
		if h.Name == "README.md" {
			b, _ := io.ReadAll(tr)
			if !bytes.HasPrefix(b, []byte("# The tfgov sandbox")) {
				t.Errorf("the sandbox's archive's README.md is not internal/sandbox/README.md: %.40q", b)
			}
		}
	}
	if want := []string{"tfgov-sandbox", "README.md"}; !slices.Equal(tarred, want) {
		t.Errorf("the sandbox's archive holds %q, want %q", tarred, want)
	}
	sums, err := os.ReadFile(filepath.Join(dist, n.sums))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, name := range []string{n.providerArchive, n.manifest} {
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		want.WriteString(hex.EncodeToString(sum[:]) + "  " + name + "\n")
	}
	if string(sums) != want.String() {
		t.Errorf("SHA256SUMS:\n%s\nwant\n%s", sums, want.String())
	}
	var meta map[string]any
	b, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &meta); err != nil || meta["version"] != v {
		t.Errorf("metadata.json: %s (%v)", b, err)
	}
}
