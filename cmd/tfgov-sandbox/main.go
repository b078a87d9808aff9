// Command tfgov-sandbox runs the local emulator of the HCP Terraform API
// that tfgov's acceptance tests and quickstart use.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tfgov-sandbox:", err)
		stop()
		os.Exit(1)
	}
}

// run serves until ctx ends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tfgov-sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8787", "address of the API listener")
	uploadListen := fs.String("upload-listen", "127.0.0.1:0", "address of the one-time upload listener")
	token := fs.String("token", "", "admin token (generated and printed when empty)")
	data := fs.String("data", "", "persist the state in this file (atomically rewritten after every change)")
	seed := fs.String("seed", "", `create a ready-made organization ("demo")`)
	envFile := fs.String("env-file", "", "also write the export lines to this file")
	quiet := fs.Bool("quiet", false, "do not log requests")
	rateLimit := fs.Int("rate-limit", 30, "X-RateLimit-Limit to advertise, as the real service does (0: none)")
	testWorkers := fs.Int("test-run-workers", 2, "module test runs executed at once; more wait in the queue")
	terraform := fs.String("terraform", "terraform", "Terraform CLI that module test runs execute (a path, or a name on PATH)")
	var tlsf tlsFlags
	fs.BoolVar(&tlsf.on, "tls", false, "serve HTTPS with a self-signed certificate made at start (see --tls-cert-out)")
	fs.StringVar(&tlsf.certOut, "tls-cert-out", "", "with --tls, write the certificate (PEM) here (default: tfgov-sandbox-cert.pem in the temporary directory)")
	fs.StringVar(&tlsf.certFile, "tls-cert", "", "serve HTTPS with this certificate (PEM; with --tls-key)")
	fs.StringVar(&tlsf.keyFile, "tls-key", "", "private key (PEM) of --tls-cert")
	latency := fs.Duration("latency", 0, "delay every request by this long before serving it (parallel requests wait concurrently)")
	policyUpdatedAt := fs.String("policy-updated-at", "upload+patch", "which writes move a policy's updated-at: upload+patch, upload, patch or none (the reference does not say; see internal/sandbox/README.md)")
	faults := fs.String("faults", "", "random faults, e.g. seed=7,429=0.05,503=0.05,lost=0.05,slow=0.05,slow-delay=1s (see internal/sandbox/README.md)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	movedBy, err := sandbox.ParsePolicyUpdatedAt(*policyUpdatedAt)
	if err != nil {
		return err
	}
	var chaos sandbox.Chaos
	if *faults != "" {
		var err error
		if chaos, err = sandbox.ParseChaos(*faults); err != nil {
			return err
		}
	}
	var logger *log.Logger
	if !*quiet {
		logger = log.New(stderr, "", log.LstdFlags)
	}
	tlsConfig, certFile, err := tlsf.config(*listen)
	if err != nil {
		return err
	}
	srv, err := sandbox.New(sandbox.Options{Token: *token, DataFile: *data, UploadListen: *uploadListen, Logger: logger, RateLimit: *rateLimit,
		TestRunWorkers: *testWorkers, Terraform: *terraform, Latency: *latency, Chaos: chaos, TLS: tlsConfig,
		PolicyUpdatedAt: movedBy,
	})
	if err != nil {
		return err
	}
	defer srv.Close() //nolint:errcheck // shutting down
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", *listen)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", *listen, err)
	}
	address := "http://" + ln.Addr().String()
	if tlsConfig != nil {
		address = "https://" + ln.Addr().String()
	}

	var out strings.Builder
	fmt.Fprintf(&out, "# tfgov sandbox on %s\n", address)
	if chaos.Enabled() {
		fmt.Fprintf(&out, "# chaos: %s\n", srv.Chaos())
	}
	if tlsConfig == nil {
		fmt.Fprintf(&out, "export TFE_ADDRESS=%s\n", address)
	}
	userToken := srv.AdminToken()
	if *seed == "" {
		fmt.Fprintf(&out, "# admin token (site admin, for bootstrapping organizations)\nexport TFE_TOKEN=%s\n", srv.AdminToken())
	} else {
		vars, err := srv.Seed(*seed)
		if err != nil {
			return err
		}
		fmt.Fprintf(&out, "# admin token: %s\n", srv.AdminToken())
		for _, v := range vars {
			fmt.Fprintf(&out, "# %s\nexport %s=%s\n", v.About, v.Env, v.Value)
			if v.Env == "TFE_TOKEN" {
				userToken = v.Value
			}
		}
	}
	if tlsConfig != nil {
		writeTLSExports(&out, ln.Addr(), certFile, userToken)
	}
	// The env file is complete before anything is printed, so a script that
	// waits for either can use it at once.
	if *envFile != "" {
		if err := os.WriteFile(*envFile, []byte(out.String()), 0o600); err != nil {
			return err
		}
	}
	fmt.Fprint(stdout, out.String())
	return srv.ListenAndServe(ctx, ln)
}
