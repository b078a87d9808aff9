// Command benchscale measures the provider at scale (make bench-scale): for
// each resource type it applies N resources under one parent, plans (which
// must be empty), updates them and destroys them, against a tfgov-sandbox
// started with --latency and --rate-limit (over HTTPS), and prints the wall
// time of each phase, the provider process's CPU time, Terraform's own CPU
// time, the requests per resource by route (the sandbox's GET
// /_sandbox/stats) and the state's bytes per object (internal/statesize).
// The same phases of N terraform_data resources give the floor Terraform
// core itself sets.
//
// With -tfe (a hashicorp/tfe provider binary), each type that hashicorp/tfe
// has too is also measured with it, against the same sandbox, the two
// providers taking turns (-runs times, the first alternating), and the
// medians are printed side by side.
//
// Each provider runs as a process that Terraform reattaches to
// (TF_REATTACH_PROVIDERS), so its CPU time is read from /proc between
// phases; with -launched, Terraform starts each provider itself, as it does
// for users, each process under time(1), which gives its peak RSS and CPU.
//
// With -seed-state, the create is not measured: the policies' state is
// made without Terraform's create, whose CPU grows with N² (seed.go), and
// the plan, update and destroy start from it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

func main() {
	n := flag.Int("n", 200, "resources per type")
	latencies := flag.String("latency", "25ms", "the sandbox's --latency; a comma-separated list (such as 0,25ms) measures each in turn")
	rateLimit := flag.Int("rate-limit", 30, "the sandbox's --rate-limit (0: none)")
	parallelism := flag.Int("parallelism", 10, "terraform -parallelism")
	types := flag.String("types", "terraform_data,agent_token,team_access,test_variable,policy,policy_inline,policy_lean,policy_source", "comma-separated resource types to measure")
	codeDir := flag.String("code-dir", "", "a folder of real .sentinel and .rego policy files, cycled, for the policies' code; empty: code generated with real policies' size distribution (policycode.go)")
	tinyCode := flag.Bool("tiny-code", false, "one line of Sentinel as every policy's code: the worst case for the per-instance overhead, not a real size")
	terraform := flag.String("terraform", "terraform", "Terraform CLI")
	bin := flag.String("bin", "bin", "directory holding terraform-provider-tfgov and tfgov-sandbox (make build)")
	tfeProvider := flag.String("tfe", "", "a hashicorp/tfe provider binary (terraform-provider-tfe): each type with a hashicorp/tfe equivalent is measured with both providers, interleaved; empty: tfgov only")
	runs := flag.Int("runs", 1, "runs of each type and provider, interleaved phase by phase; the medians are printed")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the tfgov provider process to this file (with -fresh-providers, each phase's process writes it anew: the last phase's is kept)")
	plans := flag.Int("plans", 1, "plans in each run, each measured and counted in the medians: a plan is the shortest phase, so the one with most noise")
	launched := flag.Bool("launched", false, "let Terraform start the providers itself (dev_overrides), one process per walk as users run them, each under /usr/bin/time: the phase's peak RSS is its largest process's, its provider CPU theirs summed")
	freshProviders := flag.Bool("fresh-providers", true, "start each provider anew for every terraform command, as Terraform does when it starts them itself; false: one reattached process each for the whole run, which keeps every RPC's context (terraform-plugin-framework frees them only when Terraform stops the provider: PERFORMANCE.md)")
	skipUpdate := flag.Bool("skip-update", false, "leave out the update phase (to measure the plan at N=1000 sooner)")
	firstPlan := flag.Bool("first-plan", false, "measure a plan before the create too (phase plan-new): for policy_tested, the plan that runs every policy's tests")
	seedCheck := flag.Bool("seed-check", false, "with -seed-state: after seeding, run terraform apply -refresh-only (not measured) and fail unless it changes the seeded instances only where it changes the 2 applied ones: the proof that the seeded state is what the provider itself writes; the plan measured then starts from the refreshed state (run it at small N)")
	seedState := flag.Bool("seed-state", false, "replace the create (not measured) by a state made without Terraform's create, whose CPU grows with N²: a real apply of 2 policies gives the instances' templates, the other policies are made through the API as tfgov_policy makes them, and the state gets each one's instance cloned from a template (seed.go); tfgov's policy_inline, policy_lean and policy_source only")
	providerLog := flag.String("provider-log", "OFF", "the providers' log level (TF_LOG, TF_LOG_PROVIDER_<TYPE>, TF_LOG_SDK...): OFF, DEBUG, TRACE; or unset: no TF_LOG* variable, as Terraform starts them when the user sets none; their logs are discarded")
	flag.Parse()
	// An interrupt stops the terraform command under way, and the sandbox
	// and the provider (exec.CommandContext kills them).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o := options{n: *n, rateLimit: *rateLimit, parallelism: *parallelism, runs: max(*runs, 1), types: strings.Split(*types, ","),
		terraform: *terraform, bin: *bin, tfe: *tfeProvider, providerLog: *providerLog, cpuProfile: *cpuProfile, codeDir: *codeDir, tinyCode: *tinyCode, plans: max(*plans, 1), skipUpdate: *skipUpdate, freshProviders: *freshProviders, firstPlan: *firstPlan, launched: *launched, seedState: *seedState, seedCheck: *seedCheck}
	err := func() error {
		for _, l := range strings.Split(*latencies, ",") {
			latency, err := time.ParseDuration(strings.TrimSpace(l))
			if err != nil {
				return fmt.Errorf("-latency: %w", err)
			}
			o.latency = latency
			if err := run(ctx, o); err != nil {
				return err
			}
		}
		return nil
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		stop()
		os.Exit(1) // stop ran

	}
}

type options struct {
	n, rateLimit, parallelism, runs, plans       int
	skipUpdate, freshProviders, firstPlan        bool
	launched, seedState, seedCheck               bool
	latency                                      time.Duration
	types                                        []string
	terraform, bin, tfe, providerLog, cpuProfile string
	codeDir                                      string
	tinyCode                                     bool
}

type bench struct {
	terraform, dir, sandboxURL, hostname, adminToken string
	env                                              []string
	http                                             *http.Client
	providers                                        map[string]providerSpec // by provider: tfgov, tfe
	providerPID                                      map[string]int          // of the running providers
	reattach                                         string                  // TF_REATTACH_PROVIDERS of the running providers
	freshProviders                                   bool                    // -fresh-providers
	usageFile                                        string                  // -launched: where time(1) appends each provider process's figures
	sandboxPID                                       int
	parallelism                                      int
	vars                                             map[string]string
	teams                                            []string // made for team_access, one grant each
	code                                             string   // the policies' code: v0/, v1/ and policies.json (writeCode)
	pols                                             []benchPolicy
}

// result is one phase of one run.
type result struct {
	wall, providerCPU, terraformCPU, sandboxCPU time.Duration
	requests                                    int
	peakRSS                                     int // KiB, the largest provider process's (-launched); 0 when not measured
	stateBytes                                  int // per object after the phase (0 after destroy)
	routes                                      string
}

func run(ctx context.Context, o options) error {
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bench-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	port, err := freePort()
	if err != nil {
		return err
	}
	// HTTPS, as the real service: hashicorp/tfe finds the API by service
	// discovery over HTTPS, and both providers pay the same TLS.
	b := &bench{terraform: o.terraform, parallelism: o.parallelism, hostname: "127.0.0.1:" + strconv.Itoa(port), adminToken: "bench-admin-token-0123456789",
		providerPID: map[string]int{}, freshProviders: o.freshProviders}
	b.sandboxURL = "https://" + b.hostname
	envFile, certFile := filepath.Join(work, "sandbox.env"), filepath.Join(work, "sandbox.pem")
	sb := exec.CommandContext(ctx, filepath.Join(bin, "tfgov-sandbox"), "--listen", b.hostname, "--token", b.adminToken,
		"--seed", "demo", "--env-file", envFile, "--quiet", "--latency", o.latency.String(), "--rate-limit", strconv.Itoa(o.rateLimit),
		"--tls", "--tls-cert-out", certFile)
	sb.Stdout, sb.Stderr = io.Discard, os.Stderr
	if err := sb.Start(); err != nil {
		return fmt.Errorf("starting the sandbox: %w", err)
	}
	defer func() { _ = sb.Process.Kill(); _ = sb.Wait() }()
	b.sandboxPID = sb.Process.Pid
	if b.vars, err = waitForEnv(envFile); err != nil {
		return err
	}
	pem, err := os.ReadFile(certFile)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	b.http = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}

	common := append([]string{"TFE_TOKEN=" + b.vars["TFE_TOKEN"], "TFE_ORGANIZATION=" + b.vars["TFE_ORGANIZATION"], "SSL_CERT_FILE=" + certFile, "TF_CLI_CONFIG_FILE="}, providerLogEnv(o.providerLog)...)
	b.providers = map[string]providerSpec{"tfgov": {filepath.Join(bin, "terraform-provider-tfgov"), append(append(withoutLogVariables(os.Environ()), common...), "TFE_ADDRESS="+b.sandboxURL)}}
	if o.cpuProfile != "" {
		abs, err := filepath.Abs(o.cpuProfile)
		if err != nil {
			return err
		}
		tfgov := b.providers["tfgov"]
		tfgov.env = append(tfgov.env, "TFGOV_CPU_PROFILE="+abs)
		b.providers["tfgov"] = tfgov
	}
	if o.tfe != "" {
		b.providers["tfe"] = providerSpec{o.tfe, append(append(withoutLogVariables(os.Environ()), common...), "TFE_HOSTNAME="+b.hostname)}
	}
	b.env = append(os.Environ(),
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_LOG=", "TF_CLI_CONFIG_FILE=", "SSL_CERT_FILE="+certFile,
		"TFE_ADDRESS="+b.sandboxURL, "TFE_HOSTNAME="+b.hostname, "TFE_TOKEN="+b.vars["TFE_TOKEN"], "TFE_ORGANIZATION="+b.vars["TFE_ORGANIZATION"])
	if o.launched {
		if b.usageFile, err = b.launchThroughTerraform(work); err != nil {
			return err
		}
	} else if !o.freshProviders {
		stop, err := b.startProviders(ctx, slices.Sorted(maps.Keys(b.providers))...)
		if err != nil {
			return err
		}
		defer stop()
	}

	pols := make([]benchPolicy, o.n)
	switch {
	case o.tinyCode:
		for i := range pols {
			pols[i] = benchPolicy{Kind: "sentinel", code: [2]string{"main = rule { true }\n", "main = rule { true } # v1\n"}}
		}
	case o.codeDir != "":
		if pols, err = readCodeDir(o.codeDir, o.n); err != nil {
			return err
		}
	default:
		pols = generateCode(o.n)
	}
	b.code, b.pols = filepath.Join(work, "code"), pols
	if err := writeCode(b.code, pols); err != nil {
		return err
	}
	if slices.Contains(o.types, "policy_tested") {
		if err := writeTestedCode(filepath.Join(b.code, "tested"), o.n); err != nil {
			return err
		}
	}
	med, p99 := codeStats(pols)
	fmt.Printf("bench-scale: N=%d, latency %s, rate limit %d, -parallelism=%d, provider log %s, %d run(s) each, interleaved phase by phase; policy code: median %d B, p99 %d B\n\n",
		o.n, o.latency, o.rateLimit, o.parallelism, o.providerLog, o.runs, med, p99)
	fmt.Printf("%-15s %-8s %-8s %4s %9s %12s %9s %13s %11s %9s %10s %11s  %s\n", "type", "provider", "phase", "run", "wall", "provider CPU", "peak RSS", "terraform CPU", "sandbox CPU", "requests", "per res.", "state B/obj", "requests by route")
	// The plans follow the create, each measured: a plan is the shortest
	// phase, so the one with most noise.
	type phase struct {
		name    string
		version int
		args    []string
	}
	var phases []phase
	if o.firstPlan {
		phases = append(phases, phase{"plan-new", 0, []string{"plan"}})
	}
	phases = append(phases, phase{"create", 0, []string{"apply", "-auto-approve"}})
	for range o.plans {
		phases = append(phases, phase{"plan", 0, []string{"plan", "-detailed-exitcode"}})
	}
	if !o.skipUpdate {
		phases = append(phases, phase{"update", 1, []string{"apply", "-auto-approve"}})
	}
	phases = append(phases, phase{"destroy", 1, []string{"destroy", "-auto-approve"}})
	type key struct{ typ, provider, phase string }
	results := map[key][]result{}
	var order []key // the medians' rows: by type, provider (tfgov first), phase
	for _, typ := range o.types {
		cfg, ok := configs[typ]
		if !ok {
			return fmt.Errorf("unknown type %q", typ)
		}
		if o.seedState && (cfg.seedPrefix == "" || o.tfe != "") {
			return fmt.Errorf("-seed-state: %s with tfgov alone only (-types policy_inline, policy_lean or policy_source, no -tfe)", typ)
		}
		if cfg.setup != nil {
			if err := cfg.setup(ctx, b, o.n); err != nil {
				return fmt.Errorf("%s setup: %w", typ, err)
			}
		}
		variants := []string{"tfgov"}
		if o.tfe != "" && cfg.tfe != nil {
			variants = append(variants, "tfe")
		}
		for _, v := range variants {
			for _, ph := range phases {
				if k := (key{typ, v, ph.name}); !slices.Contains(order, k) && (ph.name != "create" || !o.seedState) {
					order = append(order, k)
				}
			}
		}
		for r := 0; r < o.runs; r++ {
			// Interleaved phase by phase: the two providers' objects live
			// side by side in the sandbox, and each phase of one runs next
			// to the same phase of the other, in ABBA order (which goes
			// first alternates from phase to phase and from run to run).
			// The machine's speed drifts over minutes; with whole runs
			// taking turns, the provider that went first twice in three
			// runs met more of the drift.
			for _, v := range variants {
				if err := os.MkdirAll(filepath.Join(work, fmt.Sprintf("%s-%s-%d", typ, v, r)), 0o755); err != nil {
					return err
				}
			}
			for p, ph := range phases {
				vs := variants
				if (r+p)%2 == 1 && len(vs) == 2 {
					vs = []string{vs[1], vs[0]}
				}
				for _, v := range vs {
					render := cfg.config
					if v == "tfe" {
						render = cfg.tfe
					}
					b.dir = filepath.Join(work, fmt.Sprintf("%s-%s-%d", typ, v, r))
					if ph.name == "create" && o.seedState {
						start := time.Now()
						applied, err := b.seed(ctx, typ, cfg.seedPrefix, o.n, render)
						if err != nil {
							return err
						}
						if o.seedCheck {
							fields, err := b.checkSeed(ctx, typ, o.n, applied)
							if err != nil {
								return err
							}
							fmt.Printf("-seed-check: terraform apply -refresh-only changed the %d seeded instances only where it changed the %d applied ones (%s)\n", o.n-applied, applied, fields)
						}
						fmt.Printf("%-15s %-8s create (seeded, not measured) %4d: %d by terraform apply, %d through the API, in %.1fs\n", typ, v, r+1, applied, o.n-applied, time.Since(start).Seconds())
						continue
					}
					if err := os.WriteFile(filepath.Join(b.dir, "main.tf"), []byte(render(b, o.n, ph.version)), 0o644); err != nil {
						return err
					}
					res, err := b.phase(ctx, typ, v, ph.name, o.n, ph.args)
					if err != nil {
						return err
					}
					fmt.Printf("%-15s %-8s %-8s %4d %8.1fs %11.2fs %9s %12.2fs %10.2fs %9d %10.2f %11d  %s\n", typ, v, ph.name, r+1, res.wall.Seconds(), res.providerCPU.Seconds(), rssText(res.peakRSS),
						res.terraformCPU.Seconds(), res.sandboxCPU.Seconds(), res.requests, float64(res.requests)/float64(o.n), res.stateBytes, res.routes)
					k := key{typ, v, ph.name}
					results[k] = append(results[k], res)
				}
			}
		}
	}
	fmt.Printf("\nMedians of %d run(s), N=%d, latency %s (ratio: tfgov / tfe, wall time, of the medians; paired: the median of each run's ratio)\n", o.runs, o.n, o.latency)
	fmt.Printf("%-15s %-8s %-8s %9s %12s %9s %13s %11s %9s %11s %7s %7s %9s\n", "type", "provider", "phase", "wall", "provider CPU", "peak RSS", "terraform CPU", "sandbox CPU", "requests", "state B/obj", "ratio", "paired", "RSS ratio")
	for _, k := range order {
		m := median(results[k])
		ratio, paired, rssRatio := "", "", ""
		if k.provider == "tfgov" {
			if t, ok := results[key{k.typ, "tfe", k.phase}]; ok {
				mt := median(t)
				ratio = fmt.Sprintf("%.2fx", m.wall.Seconds()/mt.wall.Seconds())
				paired = fmt.Sprintf("%.2fx", pairedRatio(results[k], t))
				if mt.peakRSS > 0 {
					rssRatio = fmt.Sprintf("%.2fx", float64(m.peakRSS)/float64(mt.peakRSS))
				}
			}
		}
		fmt.Printf("%-15s %-8s %-8s %8.1fs %11.2fs %9s %12.2fs %10.2fs %9d %11d %7s %7s %9s\n", k.typ, k.provider, k.phase, m.wall.Seconds(), m.providerCPU.Seconds(), rssText(m.peakRSS), m.terraformCPU.Seconds(), m.sandboxCPU.Seconds(), m.requests, m.stateBytes, ratio, paired, rssRatio)
	}
	fmt.Println()
	return nil
}

// pairedRatio is the median of a/b's wall time, run by run: the runs pair
// each phase of one provider with the same phase of the other.
func pairedRatio(a, b []result) float64 {
	r := make([]float64, 0, len(a))
	for i := range min(len(a), len(b)) {
		r = append(r, a[i].wall.Seconds()/b[i].wall.Seconds())
	}
	return medianOf(r)
}

// medianOf is the median of v (sorted in place); 0 when v is empty.
func medianOf(v []float64) float64 {
	sort.Float64s(v)
	switch {
	case len(v) == 0:
		return 0
	case len(v)%2 == 1:
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// median is the median of each figure of rs, taken separately.
func median(rs []result) result {
	pick := func(f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		return medianOf(v)
	}
	return result{
		wall:         time.Duration(pick(func(r result) float64 { return float64(r.wall) })),
		providerCPU:  time.Duration(pick(func(r result) float64 { return float64(r.providerCPU) })),
		terraformCPU: time.Duration(pick(func(r result) float64 { return float64(r.terraformCPU) })),
		sandboxCPU:   time.Duration(pick(func(r result) float64 { return float64(r.sandboxCPU) })),
		requests:     int(pick(func(r result) float64 { return float64(r.requests) })),
		stateBytes:   int(pick(func(r result) float64 { return float64(r.stateBytes) })),
		peakRSS:      int(pick(func(r result) float64 { return float64(r.peakRSS) })),
	}
}

// providerLogEnv is the providers' log variables for -provider-log: none
// for "unset"; else the level for Terraform's and the SDK's variables and
// for each provider's own logger, which terraform-plugin-go sets from
// TF_LOG_PROVIDER_<TYPE> alone.
func providerLogEnv(level string) []string {
	if level == "unset" {
		return nil
	}
	var env []string
	for _, name := range []string{"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_TFGOV", "TF_LOG_PROVIDER_TFE", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		env = append(env, name+"="+level)
	}
	return env
}

// withoutLogVariables is env without its TF_LOG* variables: the providers'
// logging is -provider-log's alone.
func withoutLogVariables(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TF_LOG") {
			out = append(out, kv)
		}
	}
	return out
}

// providerSpec is how to start a provider: its binary and environment.
type providerSpec struct {
	path string
	env  []string
}

// startProviders starts the named providers in debug mode, records their
// process IDs and TF_REATTACH_PROVIDERS, and returns the function that
// stops them.
func (b *bench) startProviders(ctx context.Context, names ...string) (func(), error) {
	var stops []func()
	stopAll := func() {
		for _, stop := range stops {
			stop()
		}
	}
	reattach := map[string]json.RawMessage{}
	for _, name := range names {
		p := b.providers[name]
		pid, addrs, stop, err := startProvider(ctx, p.path, p.env)
		if err != nil {
			stopAll()
			return nil, fmt.Errorf("starting %s: %w", name, err)
		}
		stops = append(stops, stop)
		b.providerPID[name] = pid
		maps.Copy(reattach, addrs)
	}
	raw, err := json.Marshal(reattach)
	if err != nil {
		stopAll()
		return nil, err
	}
	b.reattach = string(raw)
	return stopAll, nil
}

// startProvider starts a provider in debug mode and returns its process
// ID, its TF_REATTACH_PROVIDERS entries and a function that stops it.
func startProvider(ctx context.Context, path string, env []string) (int, map[string]json.RawMessage, func(), error) {
	prov := exec.CommandContext(ctx, path, "-debug")
	prov.Env = env
	out, err := prov.StdoutPipe()
	if err != nil {
		return 0, nil, nil, err
	}
	prov.Stderr = io.Discard
	if err := prov.Start(); err != nil {
		return 0, nil, nil, err
	}
	stopProvider := func() {
		// An interrupt ends a debug-mode provider cleanly, writing its
		// profile; a kill if it does not.
		_ = prov.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = prov.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = prov.Process.Kill()
			<-done
		}
	}
	raw, err := readReattach(out)
	if err != nil {
		stopProvider()
		return 0, nil, nil, err
	}
	var addrs map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &addrs); err != nil {
		stopProvider()
		return 0, nil, nil, fmt.Errorf("reading TF_REATTACH_PROVIDERS: %w", err)
	}
	return prov.Process.Pid, addrs, stopProvider, nil
}

// phase runs one terraform command and returns its figures.
func (b *bench) phase(ctx context.Context, typ, provider, name string, n int, args []string) (result, error) {
	var res result
	if err := b.resetStats(); err != nil {
		return res, err
	}
	launched := b.usageFile != ""
	if launched {
		if err := os.WriteFile(b.usageFile, nil, 0o644); err != nil {
			return res, err
		}
	} else if b.freshProviders {
		// The provider's start is part of the phase, as when Terraform
		// starts it: its CPU counts from the process's start.
		stop, err := b.startProviders(ctx, provider)
		if err != nil {
			return res, err
		}
		defer stop()
	}
	pid := b.providerPID[provider]
	var cpu0 time.Duration
	if !launched && !b.freshProviders {
		var err error
		if cpu0, err = procCPU(pid); err != nil {
			return res, err
		}
	}
	sbCPU0, err := procCPU(b.sandboxPID)
	if err != nil {
		return res, err
	}
	cmd := exec.CommandContext(ctx, b.terraform, append(args, "-input=false", "-no-color", "-parallelism="+strconv.Itoa(b.parallelism))...)
	cmd.Dir, cmd.Env = b.dir, b.env
	if !launched {
		cmd.Env = append(b.env, "TF_REATTACH_PROVIDERS="+b.reattach)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	res.wall = time.Since(start)
	if name == "plan" {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 2 {
			return res, fmt.Errorf("%s (%s): the plan after apply is not empty:\n%s", typ, provider, out.String())
		}
	}
	if err != nil {
		return res, fmt.Errorf("%s (%s) %s: %w\n%s", typ, provider, name, err, out.String())
	}
	if launched {
		res.providerCPU, res.peakRSS, err = readUsage(b.usageFile)
	} else {
		var cpu1 time.Duration
		cpu1, err = procCPU(pid)
		res.providerCPU = cpu1 - cpu0
	}
	if err != nil {
		return res, err
	}
	sbCPU1, err := procCPU(b.sandboxPID)
	if err != nil {
		return res, err
	}
	res.sandboxCPU = sbCPU1 - sbCPU0
	stats, total, err := b.stats()
	if err != nil {
		return res, err
	}
	routes := make([]string, 0, len(stats))
	for route, c := range stats {
		routes = append(routes, fmt.Sprintf("%s=%d", route, c))
	}
	sort.Strings(routes)
	res.routes = strings.Join(routes, " ")
	res.terraformCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	res.requests = total
	if raw, err := os.ReadFile(filepath.Join(b.dir, "terraform.tfstate")); err == nil {
		sizes, err := statesize.Instances(raw)
		if err != nil {
			return res, err
		}
		sum := 0
		for _, s := range sizes {
			for _, v := range s {
				sum += v
			}
		}
		res.stateBytes = sum / n
	}
	return res, nil
}

func (b *bench) resetStats() error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, b.sandboxURL+"/_sandbox/stats", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+b.adminToken)
	resp, err := b.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("resetting the sandbox's counter: %s", resp.Status)
	}
	return nil
}

func (b *bench) stats() (map[string]int, int, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, b.sandboxURL+"/_sandbox/stats", nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+b.adminToken)
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	var doc struct {
		Requests map[string]int `json:"requests"`
		Total    int            `json:"total"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, 0, err
	}
	return doc.Requests, doc.Total, nil
}

// benchConfig is one measured resource type: config renders N resources
// (version 1 changes each of them), tfe the same objects with hashicorp/tfe
// (nil: it has no equivalent), setup makes what they need.
type benchConfig struct {
	setup       func(ctx context.Context, b *bench, n int) error
	config, tfe func(b *bench, n, version int) string
	seedPrefix  string // the policies' name prefix, for -seed-state; empty: not supported
}

const header = `terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}
`

const tfeHeader = `terraform {
  required_providers {
    tfe = { source = "hashicorp/tfe" }
  }
}
`

// policyConfig is n policies of type typ (tfgov_policy or tfe_policy)
// named prefix<index>, with the code of version v (writeCode) given as
// codeAttr = file(...) (source: the file's path), or without code when
// codeAttr is empty; extra follows. The prefixes (bench-inl-, bench-two-,
// bench-wo0-, bench-src-, bench-tfe-)
// have the same length, so that names take the same bytes of state with
// either provider.
func policyConfig(b *bench, typ, prefix, codeAttr string, n, v int, extra string) string {
	code := ""
	switch codeAttr {
	case "":
	case "source": // a path: the provider reads the file
		code = fmt.Sprintf("\n  source = \"%s/v%d/${count.index}.policy\"", b.code, v)
	default:
		code = fmt.Sprintf("\n  %s = file(\"%s/v%d/${count.index}.policy\")", codeAttr, b.code, v)
	}
	return fmt.Sprintf(`locals {
  policies = jsondecode(file(%q))
}

resource %q "r" {
  count       = %d
  name        = "%s${count.index}"
  kind        = local.policies[count.index].kind
  query       = local.policies[count.index].query
  description = "policy ${count.index} v%d"%s
}
%s`, b.code+"/policies.json", typ, n, prefix, v, code, extra)
}

var configs = map[string]benchConfig{
	"terraform_data": {config: func(_ *bench, n, v int) string {
		return fmt.Sprintf(`resource "terraform_data" "r" {
  count = %d
  input = "item ${count.index} v%d"
}
`, n, v)
	}},
	"agent_token": {
		// description forces a new token: the update is a replacement.
		config: func(b *bench, n, v int) string {
			return header + fmt.Sprintf(`resource "tfgov_agent_token" "r" {
  count         = %d
  agent_pool_id = %q
  description   = "token ${count.index} v%d"
}
`, n, b.vars["TF_VAR_agent_pool_id"], v)
		},
		tfe: func(b *bench, n, v int) string {
			return tfeHeader + fmt.Sprintf(`resource "tfe_agent_token" "r" {
  count         = %d
  agent_pool_id = %q
  description   = "token ${count.index} v%d"
}
`, n, b.vars["TF_VAR_agent_pool_id"], v)
		},
	},
	"team_access": {
		setup: makeTeams, // 2N: the providers' grants live side by side
		config: func(b *bench, n, v int) string {
			return header + teamAccess(b, "tfgov_team_access", n, v)
		},
		tfe: func(b *bench, n, v int) string {
			return tfeHeader + teamAccess(b, "tfe_team_access", n, v)
		},
	},
	"test_variable": {
		config: func(b *bench, n, v int) string {
			return header + testVariable(b, "tfgov_module_test_variable", n, v)
		},
		tfe: func(b *bench, n, v int) string {
			return tfeHeader + testVariable(b, "tfe_test_variable", n, v)
		},
	},
	"policy_inline": {
		seedPrefix: "bench-inl-",
		config: func(b *bench, n, v int) string {
			return header + policyConfig(b, "tfgov_policy", "bench-inl-", "content", n, v, "")
		},
		tfe: tfePolicy,
	},
	"policy_lean": {
		seedPrefix: "bench-wo0-",
		config: func(b *bench, n, v int) string {
			return header + policyConfig(b, "tfgov_policy", "bench-wo0-", "content_wo", n, v, "")
		},
		tfe: tfePolicy,
	},
	"policy_source": {
		seedPrefix: "bench-src-",
		config: func(b *bench, n, v int) string {
			return header + policyConfig(b, "tfgov_policy", "bench-src-", "source", n, v, "")
		},
		tfe: tfePolicy,
	},
	"policy_tested": {
		config: func(b *bench, n, v int) string {
			return header + testedPolicyConfig(b, n, v)
		},
	},
	"policy": {
		config: func(b *bench, n, v int) string {
			return header + policyConfig(b, "tfgov_policy", "bench-two-", "", n, v, fmt.Sprintf(`
resource "tfgov_policy_upload" "r" {
  count     = %d
  policy_id = tfgov_policy.r[count.index].id
  source    = "%s/v%d/${count.index}.policy"
}
`, n, b.code, v))
		},
		tfe: tfePolicy,
	},
}

func tfePolicy(b *bench, n, v int) string {
	return tfeHeader + policyConfig(b, "tfe_policy", "bench-tfe-", "policy", n, v, "")
}

// teamAccess grants N teams access, tfgov the first N of makeTeams' and
// hashicorp/tfe the next N: a team has one grant on a workspace.
func teamAccess(b *bench, typ string, n, v int) string {
	teams := b.teams[:n]
	if strings.HasPrefix(typ, "tfe_") {
		teams = b.teams[n : 2*n]
	}
	return fmt.Sprintf(`locals {
  teams = split(",", %q)
}

resource %q "r" {
  count        = %d
  team_id      = local.teams[count.index]
  workspace_id = %q
  access       = %q
}
`, strings.Join(teams, ","), typ, n, b.vars["TF_VAR_workspace_id"], []string{"read", "plan"}[v])
}

// testVariable makes N test variables of one module; the providers' keys
// (TGV_N, TFE_N) differ, as they live side by side, and have one length.
func testVariable(b *bench, typ string, n, v int) string {
	keyPrefix := "TGV"
	if strings.HasPrefix(typ, "tfe_") {
		keyPrefix = "TFE"
	}
	return fmt.Sprintf(`resource %q "r" {
  count           = %d
  organization    = %q
  module_name     = %q
  module_provider = %q
  key             = "%s_${count.index}"
  value           = "value v%d"
  category        = "env"
}
`, typ, n, b.vars["TFE_ORGANIZATION"], b.vars["TF_VAR_module_name"], b.vars["TF_VAR_module_provider"], keyPrefix, v)
}

// makeTeams makes 2N teams for team_access, one grant each: N for each
// provider.
func makeTeams(ctx context.Context, b *bench, n int) error {
	c, err := tfe.NewClient(&tfe.Config{Address: b.sandboxURL, Token: b.vars["TFE_TOKEN"], HTTPClient: b.http})
	if err != nil {
		return err
	}
	for i := len(b.teams); i < 2*n; i++ {
		t, err := c.Teams.Create(ctx, b.vars["TFE_ORGANIZATION"], tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("bench-%d", i))})
		if err != nil {
			return err
		}
		b.teams = append(b.teams, t.ID)
	}
	return nil
}

// procCPU is the user and system CPU time of a process so far.
func procCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses.
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks, nil
}

var reattachRE = regexp.MustCompile(`TF_REATTACH_PROVIDERS='(.*)'`)

// readReattach reads the provider's debug output up to its
// TF_REATTACH_PROVIDERS line, then drains the rest in the background.
func readReattach(out interface{ Read([]byte) (int, error) }) (string, error) {
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := reattachRE.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() { // draining
				}
			}()
			return m[1], nil
		}
	}
	return "", fmt.Errorf("the provider printed no TF_REATTACH_PROVIDERS line: %w", sc.Err())
}

// waitForEnv waits for the sandbox's --env-file and reads its exports.
func waitForEnv(name string) (map[string]string, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		raw, err := os.ReadFile(name)
		if err == nil && bytes.Contains(raw, []byte("TFE_TOKEN")) {
			vars := map[string]string{}
			for _, line := range strings.Split(string(raw), "\n") {
				k, v, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "export "), "=")
				if ok {
					vars[k] = strings.Trim(v, `'"`)
				}
			}
			return vars, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, fmt.Errorf("the sandbox wrote no %s", name)
}

func freePort() (int, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, fmt.Errorf("unexpected address %v", l.Addr())
	}
	return addr.Port, nil
}

// launchThroughTerraform has Terraform start the providers itself: a CLI
// configuration whose dev_overrides point at scripts that run each
// provider, with its environment, under time(1), which appends the
// process's peak RSS and CPU to the returned file.
func (b *bench) launchThroughTerraform(work string) (string, error) {
	usage := filepath.Join(work, "provider-usage")
	overrides := ""
	for name, p := range b.providers {
		dir := filepath.Join(work, "launch", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		// The provider's environment is p.env, as when benchscale starts it,
		// plus what Terraform adds for the plugin handshake.
		script := "#!/bin/sh\n"
		inherited := map[string]bool{}
		for _, kv := range os.Environ() {
			inherited[kv] = true
		}
		own := map[string]bool{}
		for _, kv := range p.env {
			k, v, _ := strings.Cut(kv, "=")
			own[k] = true
			if !inherited[kv] {
				script += "export " + k + "='" + strings.ReplaceAll(v, "'", `'\''`) + "'\n"
			}
		}
		for _, kv := range b.env {
			if k, _, _ := strings.Cut(kv, "="); !own[k] {
				script += "unset " + k + "\n"
			}
		}
		script += fmt.Sprintf("exec /usr/bin/time -a -o '%s' -f '%%M %%U %%S' '%s' \"$@\"\n", usage, p.path)
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+name), []byte(script), 0o755); err != nil {
			return "", err
		}
		source := map[string]string{"tfgov": "tfgov/tfgov", "tfe": "hashicorp/tfe"}[name]
		overrides += fmt.Sprintf("    %q = %q\n", source, dir)
	}
	cli := filepath.Join(work, "launch.tfrc")
	if err := os.WriteFile(cli, []byte("provider_installation {\n  dev_overrides {\n"+overrides+"  }\n  direct {}\n}\n"), 0o644); err != nil {
		return "", err
	}
	b.env = append(b.env, "TF_CLI_CONFIG_FILE="+cli)
	return usage, nil
}

// readUsage sums the CPU of the provider processes time(1) recorded in
// file and returns the largest peak RSS among them, in KiB.
func readUsage(file string) (time.Duration, int, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, err
	}
	var cpu time.Duration
	peak := 0
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var rss int
		var user, sys float64
		if _, err := fmt.Sscanf(line, "%d %f %f", &rss, &user, &sys); err != nil {
			continue // time(1)'s "Command exited with non-zero status" or "terminated by signal" lines
		}
		peak = max(peak, rss)
		cpu += time.Duration((user + sys) * float64(time.Second))
	}
	if peak == 0 {
		return 0, 0, fmt.Errorf("%s: no provider process was recorded", file)
	}
	return cpu, peak, nil
}

// rssText is a peak RSS in KiB as MB, or "-" when not measured.
func rssText(kib int) string {
	if kib == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MB", float64(kib)/1024)
}
