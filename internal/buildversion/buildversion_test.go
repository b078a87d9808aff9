package buildversion

import (
	"runtime/debug"
	"testing"
)

func TestOf(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		stamped, module string
		want            string
	}{
		"goreleaser":             {"0.1.0", "(devel)", "0.1.0"},
		"make build, git tag":    {"v0.1.0-3-gabc1234-dirty", "(devel)", "0.1.0-3-gabc1234-dirty"},
		"go install at a tag":    {"dev", "v0.1.0", "0.1.0"},
		"go install, snapshot":   {"dev", "v0.1.1-snapshot-abc1234", "0.1.1-snapshot-abc1234"},
		"go build in a checkout": {"dev", "(devel)", "dev"},
		"pseudo-version":         {"dev", "v0.0.0-20261126154417-2095f8c1a2b3", "dev"},
		"pseudo-version, dirty":  {"dev", "v0.1.1-0.20261126154417-2095f8c1a2b3+dirty", "dev"},
		"no build info":          {"dev", "", "dev"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			info := func() (*debug.BuildInfo, bool) {
				if tc.module == "" {
					return nil, false
				}
				return &debug.BuildInfo{Main: debug.Module{Version: tc.module}}, true
			}
			if got := of(tc.stamped, info); got != tc.want {
				t.Errorf("of(%q, %q) = %q, want %q", tc.stamped, tc.module, got, tc.want)
			}
		})
	}
}
