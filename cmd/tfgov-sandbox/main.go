// Command tfgov-sandbox runs the local emulator of the HCP Terraform API
// that tfgov's acceptance tests and quickstart use.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tfgov/terraform-provider-tfgov/internal/buildversion"
	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// version is set by the build, as the provider's is (goreleaser's ldflags
// from the tag, make build's from git describe).
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var exit *commandExit
		if errors.As(err, &exit) {
			stop()
			os.Exit(exit.code) // the deferred stop has run
		}
		fmt.Fprintln(os.Stderr, "tfgov-sandbox:", err)
		stop()
		os.Exit(1)
	}
}

// commandExit is the exit status of the command run with `-- COMMAND`
// when it is not 0: tfgov-sandbox exits with it.
type commandExit struct{ code int }

func (e *commandExit) Error() string { return fmt.Sprintf("the command exited with status %d", e.code) }

// run serves until ctx ends, or, given a command after the flags, runs it
// with the export lines in its environment and serves until it exits.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tfgov-sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8787", "address of the API listener")
	uploadListen := fs.String("upload-listen", "127.0.0.1:0", "address of the one-time upload listener")
	token := fs.String("token", "", "admin token (generated and printed when empty)")
	data := fs.String("data", "", "persist the state in this file (atomically rewritten after every change)")
	seed := fs.String("seed", "", `create a ready-made organization ("demo", seeds/demo.json)`)
	seedFile := fs.String("seed-file", "", "create the organizations, teams, workspaces, agent pools, registry modules, users and tokens this JSON file declares (see internal/sandbox/README.md)")
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
	clockOffset := fs.Duration("clock-offset", 0, "run the sandbox's clock this far ahead of the machine's (behind when negative, e.g. -10s): the times it stores and its answers' Date header")
	showVersion := fs.Bool("version", false, "print the sandbox's version and exit")
	faults := fs.String("faults", "", "random faults, e.g. seed=7,429=0.05,503=0.05,lost=0.05,slow=0.05,slow-delay=1s (see internal/sandbox/README.md)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: tfgov-sandbox [flags] [-- COMMAND [ARGS...]]\n\nWith a COMMAND, the sandbox runs it with the export lines in its environment, stops when it exits and exits with its status.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *showVersion {
		_, err := fmt.Fprintln(stdout, "tfgov-sandbox", buildversion.Of(version))
		return err
	}
	if *seed != "" && *seedFile != "" {
		return errors.New("--seed and --seed-file are exclusive: --seed demo is the seed file seeds/demo.json")
	}
	var seedRaw []byte
	if *seedFile != "" {
		var err error
		if seedRaw, err = os.ReadFile(*seedFile); err != nil {
			return fmt.Errorf("--seed-file: %w", err)
		}
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
		PolicyUpdatedAt: movedBy, ClockOffset: *clockOffset,
	})
	if err != nil {
		return err
	}
	defer srv.Close() // shutting down
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
	// A seed flag applies that seed; without one, a --data file seeded
	// before gets its seed again, so its exports (a working user token
	// among them) are printed on every start.
	var vars []sandbox.SeedVar
	seedName := *seed
	switch {
	case *seed != "":
		vars, err = srv.Seed(*seed)
	case *seedFile != "":
		seedName = *seedFile
		vars, err = srv.SeedFile(*seedFile, seedRaw)
	default:
		seedName, vars, err = srv.Reseed()
	}
	if err != nil {
		return err
	}
	if vars == nil {
		fmt.Fprintf(&out, "# admin token (site admin, for bootstrapping organizations)\nexport TFE_TOKEN=%s\n", srv.AdminToken())
	} else {
		fmt.Fprintf(&out, "# seed: %s\n# admin token: %s\n", seedName, srv.AdminToken())
		for _, v := range vars {
			if v.About != "" {
				fmt.Fprintf(&out, "# %s\n", v.About)
			}
			fmt.Fprintf(&out, "export %s=%s\n", v.Env, shellQuote(v.Value))
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
	if command := fs.Args(); len(command) > 0 {
		fmt.Fprint(stderr, out.String())
		return runCommand(ctx, srv, ln, command, exportsOf(out.String()), stdout, stderr)
	}
	fmt.Fprint(stdout, out.String())
	return srv.ListenAndServe(ctx, ln)
}

// runCommand serves on ln while command runs with env added to the
// environment, then stops the sandbox; a command that fails is a
// commandExit with its status.
func runCommand(ctx context.Context, srv *sandbox.Server, ln net.Listener, command, env []string, stdout, stderr io.Writer) error {
	serveCtx, stopServing := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe(serveCtx, ln) }()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...) // the user's own command
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	// Interrupted, the command gets the interrupt (Terraform then stops
	// cleanly) and 10 seconds before it is killed.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	stopServing()
	if serr := <-served; serr != nil {
		return serr
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return &commandExit{code: exit.ExitCode()}
	}
	if err != nil {
		return fmt.Errorf("running %s: %w", command[0], err)
	}
	return nil
}

// exportsOf returns the NAME=value of each export line of out.
func exportsOf(out string) []string {
	var env []string
	for line := range strings.Lines(out) {
		if kv, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "export "); ok {
			k, v, _ := strings.Cut(kv, "=")
			env = append(env, k+"="+shellUnquote(v))
		}
	}
	return env
}

// shellQuote quotes v for a POSIX shell when it holds anything but
// letters, digits and ./:@,+_- (IDs and tokens never do).
func shellQuote(v string) string {
	if v != "" && strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./:@,+_-") == "" {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// shellUnquote reverses shellQuote.
func shellUnquote(v string) string {
	if len(v) >= 2 && strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") {
		return strings.ReplaceAll(v[1:len(v)-1], `'\''`, "'")
	}
	return v
}
