package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/provider"
)

func TestQuietUnlessAsked(t *testing.T) {
	tests := map[string]struct {
		env  map[string]string
		want map[string]string // TF_LOG_PROVIDER_TFGOV, TF_LOG_SDK afterwards
	}{
		"nothing asked: off":          {env: nil, want: map[string]string{"TF_LOG_PROVIDER_TFGOV": "OFF", "TF_LOG_SDK": "OFF"}},
		"TF_LOG asks":                 {env: map[string]string{"TF_LOG": "trace"}, want: map[string]string{"TF_LOG_PROVIDER_TFGOV": "", "TF_LOG_SDK": ""}},
		"TF_LOG_PROVIDER asks":        {env: map[string]string{"TF_LOG_PROVIDER": "debug"}, want: map[string]string{"TF_LOG_PROVIDER": "debug", "TF_LOG_PROVIDER_TFGOV": "", "TF_LOG_SDK": ""}},
		"TF_LOG_SDK_FRAMEWORK asks":   {env: map[string]string{"TF_LOG_SDK_FRAMEWORK": "trace"}, want: map[string]string{"TF_LOG_PROVIDER_TFGOV": "", "TF_LOG_SDK": ""}},
		"TF_LOG_PATH asks":            {env: map[string]string{"TF_LOG_PATH": "/tmp/tf.log"}, want: map[string]string{"TF_LOG_PROVIDER_TFGOV": "", "TF_LOG_SDK": ""}},
		"an empty TF_LOG asks none":   {env: map[string]string{"TF_LOG": ""}, want: map[string]string{"TF_LOG_PROVIDER_TFGOV": "OFF", "TF_LOG_SDK": "OFF"}},
		"other TF_ variables ignored": {env: map[string]string{"TF_REATTACH_PROVIDERS": "{}"}, want: map[string]string{"TF_LOG_PROVIDER_TFGOV": "OFF", "TF_LOG_SDK": "OFF"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			// Not parallel: the environment is the process's.
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "TF_LOG") {
					t.Setenv(k, "")
				}
			}
			for _, k := range []string{"TF_LOG_PROVIDER", "TF_LOG_PROVIDER_TFGOV", "TF_LOG_SDK"} {
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

// TestQuietUnlessAskedSilencesLoggers runs terraform-plugin-go's protocol
// server, as main serves it, in a child process under each environment,
// and reads what one RPC writes to stderr (what Terraform would read and,
// without TF_LOG, discard): a line of the provider's own (tflog) and the
// SDK's trace of the request.
func TestQuietUnlessAskedSilencesLoggers(t *testing.T) {
	if os.Getenv("TFGOV_LOG_PROBE") != "" {
		probeLogs(t)
		return
	}
	const ownLine, sdkLine = `"@message":"probe: the provider's own line"`, `"@module":"sdk.proto"`
	tests := map[string]struct {
		env          []string
		own, sdkLogs bool
	}{
		"nothing asked: silent":                   {},
		"TF_LOG=trace: both":                      {env: []string{"TF_LOG=trace"}, own: true, sdkLogs: true},
		"TF_LOG_PROVIDER_TFGOV=debug: both":       {env: []string{"TF_LOG_PROVIDER_TFGOV=debug"}, own: true, sdkLogs: true},
		"TF_LOG_SDK_PROTO=trace: both":            {env: []string{"TF_LOG_SDK_PROTO=trace"}, own: true, sdkLogs: true},
		"TF_LOG_PROVIDER_TFGOV=warn: SDK only":    {env: []string{"TF_LOG_PROVIDER_TFGOV=warn"}, sdkLogs: true},
		"TF_LOG_SDK=off: the provider's own only": {env: []string{"TF_LOG_SDK=off"}, own: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestQuietUnlessAskedSilencesLoggers$", "-test.count=1")
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "TF_LOG") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(append(cmd.Env, "TFGOV_LOG_PROBE=1"), tc.env...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if out, err := cmd.Output(); err != nil {
				t.Fatalf("child: %v\n%s\n%s", err, out, stderr.String())
			}
			got := stderr.String()
			if strings.Contains(got, ownLine) != tc.own {
				t.Errorf("the provider's own line written: %t, want %t; stderr:\n%s", !tc.own, tc.own, got)
			}
			if strings.Contains(got, sdkLine) != tc.sdkLogs {
				t.Errorf("the SDK's lines written: %t, want %t; stderr:\n%s", !tc.sdkLogs, tc.sdkLogs, got)
			}
		})
	}
}

// probeLogs is the child of TestQuietUnlessAskedSilencesLoggers: main's
// logging setup, then one RPC through terraform-plugin-go's server to a
// provider that logs a line of its own at debug level.
func probeLogs(t *testing.T) {
	quietUnlessAsked()
	srv := tf6server.New(providerAddress, logProbe{})
	if _, err := srv.GetMetadata(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

// logProbe answers GetMetadata with a debug line; it has no other RPC.
type logProbe struct{ tfprotov6.ProviderServer }

func (logProbe) GetMetadata(ctx context.Context, _ *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	tflog.Debug(ctx, "probe: the provider's own line")
	return &tfprotov6.GetMetadataResponse{}, nil
}

// TestServeReleasesContexts: 10,000 RPCs through the server main serves, each context as heavy
// as terraform-plugin-go's (its loggers) plus 25 KB, keep under 5 MB of live heap. The control
// holds the measure to what it measures: the framework alone keeps each RPC's context; when it
// stops keeping them, rpcrelease can go (DESIGN.md "Releasing each RPC's context").
func TestServeReleasesContexts(t *testing.T) {
	t.Setenv("TF_LOG_SDK", "OFF") // main's quietUnlessAsked: the loggers are still built for each RPC
	t.Setenv("TF_LOG_PROVIDER_TFGOV", "OFF")
	const rpcs, ballast = 10_000, 25 << 10
	if kept := keptPerRPC(t, serve(provider.New("test")()), rpcs, ballast); kept*rpcs > 5<<20 {
		t.Errorf("%d RPCs kept %.1f MB of live heap (%d bytes each), want under 5 MB", rpcs, float64(kept*rpcs)/(1<<20), kept)
	}
	const controlRPCs = 1_000
	if kept := keptPerRPC(t, providerserver.NewProtocol6(provider.New("test")())(), controlRPCs, ballast); kept < ballast {
		t.Errorf("without rpcrelease %d RPCs kept %d bytes each, want at least the %d each carried: the framework releases them now", controlRPCs, kept, ballast)
	}
}

// keptPerRPC: the live heap, after a collection, that n GetMetadata calls through
// terraform-plugin-go's server leave per call, each call's context ended after it as gRPC's is.
func keptPerRPC(t *testing.T, downstream tfprotov6.ProviderServer, n, ballast int) int {
	t.Helper()
	srv := tf6server.New(providerAddress, downstream)
	if _, err := srv.GetMetadata(context.Background(), nil); err != nil { // what the first call builds once
		t.Fatal(err)
	}
	before := liveHeap()
	for range n {
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ballastKey{}, make([]byte, ballast)))
		_, err := srv.GetMetadata(ctx, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	after := liveHeap()
	runtime.KeepAlive(srv)
	t.Logf("%T: %d RPCs, %.1f MB live heap kept", downstream, n, float64(after-before)/(1<<20))
	return max(0, int(after)-int(before)) / n
}

type ballastKey struct{}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
