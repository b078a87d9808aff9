package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

func walls(s ...float64) []result {
	rs := make([]result, len(s))
	for i, v := range s {
		rs[i].wall = time.Duration(v * float64(time.Second))
	}
	return rs
}

// TestRatios: the ratio of the medians and the median of the runs' ratios
// differ when one run is an outlier on one side only.
func TestRatios(t *testing.T) {
	cases := []struct {
		name          string
		tfgov, tfe    []result
		ratio, paired float64
	}{
		{"one run", walls(9), walls(10), 0.9, 0.9},
		{"an outlier in one pair", walls(9.3, 8.3, 9.7), walls(9.9, 8.8, 8.9), 9.3 / 8.9, 8.3 / 8.8},
		{"even runs", walls(1, 2, 3, 4), walls(2, 2, 2, 2), 2.5 / 2, (1.0 + 1.5) / 2},
		{"no runs", nil, nil, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ratio float64
			if len(tc.tfe) > 0 {
				ratio = median(tc.tfgov).wall.Seconds() / median(tc.tfe).wall.Seconds()
			}
			if d := ratio - tc.ratio; d > 1e-9 || d < -1e-9 {
				t.Errorf("ratio of the medians = %v, want %v", ratio, tc.ratio)
			}
			if got := pairedRatio(tc.tfgov, tc.tfe); got-tc.paired > 1e-9 || got-tc.paired < -1e-9 {
				t.Errorf("pairedRatio = %v, want %v", got, tc.paired)
			}
		})
	}
}

// TestProviderLogEnv: "unset" passes no log variable (and the bench's own
// are dropped); a level reaches every logger, each provider's own included.
func TestProviderLogEnv(t *testing.T) {
	if got := providerLogEnv("unset"); len(got) != 0 {
		t.Errorf("unset: %q, want none", got)
	}
	got := strings.Join(providerLogEnv("OFF"), " ")
	for _, want := range []string{"TF_LOG=OFF", "TF_LOG_SDK=OFF", "TF_LOG_PROVIDER_TFGOV=OFF", "TF_LOG_PROVIDER_TFE=OFF"} {
		if !strings.Contains(got, want) {
			t.Errorf("OFF: %q lacks %s", got, want)
		}
	}
	env := withoutLogVariables([]string{"HOME=/root", "TF_LOG=trace", "TF_LOG_PROVIDER_TFGOV=debug", "TF_IN_AUTOMATION=1"})
	if strings.Join(env, " ") != "HOME=/root TF_IN_AUTOMATION=1" {
		t.Errorf("withoutLogVariables: %q", env)
	}
}

// TestReadUsage: time(1)'s lines of several provider processes give the
// largest peak RSS and the CPU summed; its status lines are passed over.
func TestReadUsage(t *testing.T) {
	cases := []struct {
		name, text string
		cpu        time.Duration
		peak       int
		err        bool
	}{
		{"one process", "38120 1.50 0.25\n", 1750 * time.Millisecond, 38120, false},
		{"a walk each", "30000 0.10 0.02\n181000 5.00 1.00\n90000 2.00 0.50\n", 8620 * time.Millisecond, 181000, false},
		{"a status line", "Command terminated by signal 2\n40000 1.00 0.00\n", time.Second, 40000, false},
		{"none", "", 0, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := t.TempDir() + "/usage"
			if err := os.WriteFile(file, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			cpu, peak, err := readUsage(file)
			if (err != nil) != tc.err || cpu.Round(time.Millisecond) != tc.cpu || peak != tc.peak {
				t.Errorf("readUsage = %v, %d, %v; want %v, %d, error %v", cpu, peak, err, tc.cpu, tc.peak, tc.err)
			}
		})
	}
}
