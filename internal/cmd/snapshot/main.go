// Command snapshot builds the release archives of one platform with Go's own
// toolchain (make release-snapshot, make mirror-check): what goreleaser's
// `release --snapshot` of .goreleaser.yml makes for that platform (the same
// file names, binary names, archive contents, SHA256SUMS, manifest, version
// stamping and build flags), without building goreleaser first, which takes
// longer than the build itself. goreleaser stays for the release and for
// every platform at once (make release-snapshot ALL=1). DESIGN.md "Release
// snapshots without goreleaser".
//
// It prints its progress: the packages compiled out of those needed, every
// few seconds, then each file it writes.
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The names .goreleaser.yml gives (TestNamesMatchGoreleaser holds them to it).
const (
	projectName = "terraform-provider-tfgov"
	sandboxName = "tfgov-sandbox"
)

func main() {
	var o options
	flag.StringVar(&o.goos, "os", runtime.GOOS, "target GOOS")
	flag.StringVar(&o.goarch, "arch", runtime.GOARCH, "target GOARCH")
	flag.StringVar(&o.dist, "dist", "dist", "output directory, emptied first (as goreleaser --clean)")
	flag.StringVar(&o.version, "version", os.Getenv("TFGOV_SNAPSHOT_VERSION"), "the version to stamp (default: TFGOV_SNAPSHOT_VERSION, from scripts/snapshot-version.sh)")
	flag.StringVar(&o.sign, "sign", os.Getenv("GPG_FINGERPRINT"), "GPG key to sign SHA256SUMS and the sandbox's archive with, as the release does (default: GPG_FINGERPRINT; empty: unsigned)")
	flag.Parse()
	if err := run(context.Background(), o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "snapshot:", err)
		os.Exit(1)
	}
}

type options struct {
	goos, goarch, dist, version, sign string
}

// names are the files of one platform's snapshot, as .goreleaser.yml names them.
type names struct {
	providerBinary, sandboxBinary   string
	providerArchive, sandboxArchive string
	sums, manifest                  string
}

func namesFor(version, goos, goarch string) names {
	exe, sandboxExt := "", ".tar.gz"
	if goos == "windows" {
		exe, sandboxExt = ".exe", ".zip"
	}
	return names{
		providerBinary:  projectName + "_v" + version + exe,
		sandboxBinary:   sandboxName + exe,
		providerArchive: fmt.Sprintf("%s_%s_%s_%s.zip", projectName, version, goos, goarch),
		sandboxArchive:  fmt.Sprintf("%s_%s_%s_%s%s", sandboxName, version, goos, goarch, sandboxExt),
		sums:            fmt.Sprintf("%s_%s_SHA256SUMS", projectName, version),
		manifest:        fmt.Sprintf("%s_%s_manifest.json", projectName, version),
	}
}

// ldflags are .goreleaser.yml's, for both builds.
func ldflags(version string) string { return "-s -w -X main.version=" + version }

func run(ctx context.Context, o options, out io.Writer) error {
	if o.version == "" {
		return errors.New("no version: set TFGOV_SNAPSHOT_VERSION (bash scripts/snapshot-version.sh) or -version")
	}
	start := time.Now()
	say := func(format string, args ...any) {
		fmt.Fprintf(out, "snapshot: [%5.1fs] %s\n", time.Since(start).Seconds(), fmt.Sprintf(format, args...))
	}
	n := namesFor(o.version, o.goos, o.goarch)
	if err := os.RemoveAll(o.dist); err != nil {
		return err
	}
	bin := filepath.Join(o.dist, o.goos+"_"+o.goarch)
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	say("building %s and %s %s for %s_%s with %s (CGO_ENABLED=0, -trimpath, -ldflags %q)",
		projectName, sandboxName, o.version, o.goos, o.goarch, runtime.Version(), ldflags(o.version))
	if err := buildBinaries(ctx, o, bin, say); err != nil {
		return err
	}
	provider, sandbox := filepath.Join(bin, n.providerBinary), filepath.Join(bin, n.sandboxBinary)
	exe := map[bool]string{true: ".exe"}[o.goos == "windows"]
	if err := os.Rename(filepath.Join(bin, projectName+exe), provider); err != nil {
		return err
	}
	// mod_timestamp: the binaries carry the commit's time, as goreleaser's do.
	if ts, err := commitTime(ctx); err == nil {
		for _, f := range []string{provider, sandbox} {
			if err := os.Chtimes(f, ts, ts); err != nil {
				return err
			}
		}
	}
	// goreleaser's default archive files (README*, CHANGELOG*, LICENSE*) for the provider;
	// the sandbox's archive has its own README (strip_parent).
	extra, err := defaultArchiveFiles(".")
	if err != nil {
		return err
	}
	providerZip := filepath.Join(o.dist, n.providerArchive)
	if err := writeZip(providerZip, append([]archiveFile{{name: n.providerBinary, path: provider, mode: 0o755}}, extra...)); err != nil {
		return err
	}
	say("%s", n.providerArchive)
	sandboxFiles := []archiveFile{{name: n.sandboxBinary, path: sandbox, mode: 0o755}, {name: "README.md", path: filepath.Join("internal", "sandbox", "README.md"), mode: 0o644}}
	sandboxArchive := filepath.Join(o.dist, n.sandboxArchive)
	if strings.HasSuffix(n.sandboxArchive, ".zip") {
		err = writeZip(sandboxArchive, sandboxFiles)
	} else {
		err = writeTarGz(sandboxArchive, sandboxFiles)
	}
	if err != nil {
		return err
	}
	say("%s", n.sandboxArchive)
	manifest, err := os.ReadFile("terraform-registry-manifest.json")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.dist, n.manifest), manifest, 0o644); err != nil { //nolint:gosec // a release's public file
		return err
	}
	// checksum: the provider's archives and the manifest, never the sandbox's (the registry reads it).
	sums, err := checksums(o.dist, []string{n.providerArchive, n.manifest})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.dist, n.sums), []byte(sums), 0o644); err != nil { //nolint:gosec // a release's public file
		return err
	}
	say("%s", n.sums)
	if o.sign != "" {
		for _, f := range []string{n.sums, n.sandboxArchive} {
			if err := gpgSign(ctx, o.sign, filepath.Join(o.dist, f)); err != nil {
				return err
			}
			say("%s.sig (key %s)", f, o.sign)
		}
	}
	if err := writeMetadata(ctx, o, filepath.Join(o.dist, "metadata.json")); err != nil {
		return err
	}
	say("done: %s in %s", o.dist, time.Since(start).Round(100*time.Millisecond))
	return nil
}

// buildBinaries is build; tests replace it.
var buildBinaries = build

// build compiles both binaries in one go build (they share its work), printing
// how many of the packages needed it has compiled every few seconds.
func build(ctx context.Context, o options, dir string, say func(string, ...any)) error {
	env := append(os.Environ(), "CGO_ENABLED=0", "GOOS="+o.goos, "GOARCH="+o.goarch)
	pkgs := []string{".", "./cmd/tfgov-sandbox"}
	list := exec.CommandContext(ctx, "go", append([]string{"list", "-deps"}, pkgs...)...)
	list.Env = env
	total := -1
	if b, err := list.Output(); err == nil {
		total = len(strings.Fields(string(b)))
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-v", "-trimpath", "-ldflags", ldflags(o.version), "-o", dir + string(filepath.Separator)}, pkgs...)...)
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	var errs []string
	done, last := 0, time.Now()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		if strings.ContainsAny(line, " :") { // a package path has neither: an error
			errs = append(errs, line)
			continue
		}
		done++
		if time.Since(last) >= 5*time.Second {
			last = time.Now()
			if total > 0 {
				say("compiled %d of the %d packages the binaries need (the others come from the build cache)", done, total)
			} else {
				say("compiled %d packages", done)
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, strings.Join(errs, "\n"))
	}
	say("built both binaries (%d packages compiled, the rest from the build cache)", done)
	return nil
}

type archiveFile struct {
	name, path string
	mode       os.FileMode
}

// defaultArchiveFiles are goreleaser's default archive files found in dir.
func defaultArchiveFiles(dir string) ([]archiveFile, error) {
	var out []archiveFile
	for _, pattern := range []string{"licence*", "LICENCE*", "license*", "LICENSE*", "readme*", "README*", "changelog*", "CHANGELOG*"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, err
		}
		for _, f := range m {
			if !slices.ContainsFunc(out, func(a archiveFile) bool { return a.path == f }) {
				out = append(out, archiveFile{name: filepath.Base(f), path: f, mode: 0o644})
			}
		}
	}
	return out, nil
}

func writeZip(name string, files []archiveFile) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, a := range files {
		if err := addFile(a, func(h *fileHeader, r io.Reader) error {
			zh := &zip.FileHeader{Name: a.name, Method: zip.Deflate, Modified: h.modTime}
			zh.SetMode(a.mode)
			w, err := zw.CreateHeader(zh)
			if err != nil {
				return err
			}
			_, err = io.Copy(w, r)
			return err
		}); err != nil {
			return errors.Join(err, f.Close())
		}
	}
	return errors.Join(zw.Close(), f.Close())
}

func writeTarGz(name string, files []archiveFile) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, a := range files {
		if err := addFile(a, func(h *fileHeader, r io.Reader) error {
			if err := tw.WriteHeader(&tar.Header{Name: a.name, Mode: int64(a.mode), Size: h.size, ModTime: h.modTime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
				return err
			}
			_, err := io.Copy(tw, r)
			return err
		}); err != nil {
			return errors.Join(err, f.Close())
		}
	}
	return errors.Join(tw.Close(), gz.Close(), f.Close())
}

type fileHeader struct {
	size    int64
	modTime time.Time
}

func addFile(a archiveFile, write func(*fileHeader, io.Reader) error) error {
	f, err := os.Open(a.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return write(&fileHeader{size: st.Size(), modTime: st.ModTime()}, f)
}

// checksums is goreleaser's checksum file: "<sha256>  <name>" lines, sorted by name.
func checksums(dir string, files []string) (string, error) {
	files = slices.Sorted(slices.Values(files))
	var b strings.Builder
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	return b.String(), nil
}

func gpgSign(ctx context.Context, key, file string) error {
	cmd := exec.CommandContext(ctx, "gpg", "--batch", "--local-user", key, "--output", file+".sig", "--detach-sign", file) //nolint:gosec // the key the user named
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gpg --detach-sign %s: %w\n%s", file, err, out)
	}
	return nil
}

func commitTime(ctx context.Context) (time.Time, error) {
	b, err := exec.CommandContext(ctx, "git", "log", "-1", "--format=%ct").Output()
	if err != nil {
		return time.Time{}, err
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return time.Unix(sec, 0), err
}

// writeMetadata writes goreleaser's metadata.json fields for a snapshot.
func writeMetadata(ctx context.Context, o options, name string) error {
	commit := ""
	if b, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output(); err == nil {
		commit = strings.TrimSpace(string(b))
	}
	b, err := json.MarshalIndent(map[string]any{
		"project_name": projectName,
		"version":      o.version,
		"commit":       commit,
		"date":         time.Now().UTC().Format(time.RFC3339),
		"runtime":      map[string]string{"goos": o.goos, "goarch": o.goarch},
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(b, '\n'), 0o644) //nolint:gosec // not a secret
}
