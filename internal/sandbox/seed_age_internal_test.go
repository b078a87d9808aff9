package sandbox

import (
	"testing"
	"time"
)

// TestParseAge: a seed file's ages are Go durations or whole days.
func TestParseAge(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30d", 720 * time.Hour, true},
		{"720h", 720 * time.Hour, true},
		{"1h30m", 90 * time.Minute, true},
		{"0d", 0, true},
		{"0", 0, true},
		{"-1h", 0, false},
		{"-3d", 0, false},
		{"1.5d", 0, false},
		{"d", 0, false},
		{"30", 0, false},
		{"30 days", 0, false},
	} {
		got, err := parseAge(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseAge(%q) = %s, %v; want %s, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
