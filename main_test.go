package main

import (
	"os"
	"strings"
	"testing"
)

func TestQuietUnlessAsked(t *testing.T) {
	tests := map[string]struct {
		env  map[string]string
		want map[string]string // TF_LOG_PROVIDER, TF_LOG_SDK afterwards
	}{
		"nothing asked: off":          {env: nil, want: map[string]string{"TF_LOG_PROVIDER": "OFF", "TF_LOG_SDK": "OFF"}},
		"TF_LOG asks":                 {env: map[string]string{"TF_LOG": "trace"}, want: map[string]string{"TF_LOG_PROVIDER": "", "TF_LOG_SDK": ""}},
		"TF_LOG_PROVIDER asks":        {env: map[string]string{"TF_LOG_PROVIDER": "debug"}, want: map[string]string{"TF_LOG_PROVIDER": "debug", "TF_LOG_SDK": ""}},
		"TF_LOG_SDK_FRAMEWORK asks":   {env: map[string]string{"TF_LOG_SDK_FRAMEWORK": "trace"}, want: map[string]string{"TF_LOG_PROVIDER": "", "TF_LOG_SDK": ""}},
		"TF_LOG_PATH asks":            {env: map[string]string{"TF_LOG_PATH": "/tmp/tf.log"}, want: map[string]string{"TF_LOG_PROVIDER": "", "TF_LOG_SDK": ""}},
		"an empty TF_LOG asks none":   {env: map[string]string{"TF_LOG": ""}, want: map[string]string{"TF_LOG_PROVIDER": "OFF", "TF_LOG_SDK": "OFF"}},
		"other TF_ variables ignored": {env: map[string]string{"TF_REATTACH_PROVIDERS": "{}"}, want: map[string]string{"TF_LOG_PROVIDER": "OFF", "TF_LOG_SDK": "OFF"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			// Not parallel: the environment is the process's.
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "TF_LOG") {
					t.Setenv(k, "")
				}
			}
			for _, k := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK"} {
				t.Setenv(k, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			quietUnlessAsked()
			for k, want := range tc.want {
				if got := os.Getenv(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}
