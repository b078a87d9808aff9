// Package buildversion is the version the binaries report and serve: the one a build stamps
// (`-ldflags "-X main.version=…"`), else the module version `go install` records, else "dev".
package buildversion

import (
	"runtime/debug"
	"strings"
)

// Of is the version of a binary whose main package's version variable
// holds stamped ("dev" when no build stamped it).
func Of(stamped string) string {
	return of(stamped, debug.ReadBuildInfo)
}

func of(stamped string, info func() (*debug.BuildInfo, bool)) string {
	if stamped != "" && stamped != "dev" {
		return strings.TrimPrefix(stamped, "v")
	}
	// go install …@v0.1.0 records v0.1.0; a build in a checkout records
	// "(devel)" or a pseudo-version, which says less than "dev" would.
	if bi, ok := info(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" && !isPseudo(bi.Main.Version) {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return "dev"
}

// isPseudo reports whether v is a Go pseudo-version (v0.0.0-20261126…-abcdef
// and its +dirty form), which names a commit, not a release.
func isPseudo(v string) bool {
	v, _, _ = strings.Cut(v, "+")
	parts := strings.Split(v, "-")
	if len(parts) < 3 {
		return false
	}
	ts := parts[len(parts)-2]
	if i := strings.LastIndex(ts, "."); i >= 0 {
		ts = ts[i+1:]
	}
	return len(ts) == 14 && strings.Trim(ts, "0123456789") == "" && len(parts[len(parts)-1]) == 12
}
