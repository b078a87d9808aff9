package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/tfgov/terraform-provider-tfgov/internal/rpcrelease"
	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// testAccProtoV6ProviderFactories runs the provider in-process.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"tfgov": testServer,
}

// testServer is the server as main.go's serve builds it, so that every test runs what users run.
func testServer() (tfprotov6.ProviderServer, error) {
	return rpcrelease.Wrap(providerserver.NewProtocol6(New("test")())()), nil
}

// accTest runs an acceptance test case against the provider in-process,
// with testAccPreCheck unless the case brings its own PreCheck.
func accTest(t *testing.T, c resource.TestCase) {
	t.Helper()
	resource.Test(t, accCase(t, c))
}

// accParallelTest is accTest for a case that may run beside others.
func accParallelTest(t *testing.T, c resource.TestCase) {
	t.Helper()
	resource.ParallelTest(t, accCase(t, c))
}

// accUnitTest runs a case that needs no service (and no TF_ACC).
func accUnitTest(t *testing.T, c resource.TestCase) {
	t.Helper()
	c.ProtoV6ProviderFactories = testAccProtoV6ProviderFactories
	resource.UnitTest(t, c)
}

func accCase(t *testing.T, c resource.TestCase) resource.TestCase {
	if c.PreCheck == nil {
		c.PreCheck = func() { testAccPreCheck(t) }
	}
	c.ProtoV6ProviderFactories = testAccProtoV6ProviderFactories
	return c
}

// accSandbox is the in-process sandbox, or nil against a live endpoint.
var accSandbox *sandbox.Server

// TestMain runs acceptance tests (TF_ACC set) against a live organization
// when TFE_TOKEN is set (with TFE_ORGANIZATION, and TFE_HOSTNAME or
// TFE_ADDRESS), and otherwise against an in-process sandbox with an
// organization bootstrapped through the public API, exactly as a user
// would make one. Either way the provider under test reads TFE_ADDRESS,
// TFE_TOKEN and TFE_ORGANIZATION from the environment.
func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	defer removeCLIProvider()
	// The processes the tests start (Terraform, the provider, terraform test) are short-lived:
	// GOGC=400 spares them a fifth of their CPU. DESIGN.md "Go's garbage collector settings".
	if os.Getenv("GOGC") == "" {
		os.Setenv("GOGC", "400") // cannot fail for a valid name
	}
	if os.Getenv("TF_ACC") == "" {
		return m.Run()
	}
	if err := findTerraform(); err != nil {
		fmt.Fprintln(os.Stderr, "acceptance tests:", err)
		return 1
	}
	// Terraform must not call home during tests.
	os.Setenv("CHECKPOINT_DISABLE", "1") // cannot fail for a valid name
	if os.Getenv("TFE_TOKEN") != "" {
		if os.Getenv("TFE_ORGANIZATION") == "" {
			fmt.Fprintln(os.Stderr, "acceptance tests: TFE_TOKEN is set, so the tests run against a live organization, which TFE_ORGANIZATION must name")
			return 1
		}
		return m.Run()
	}
	// Before any TLS connection: Go reads SSL_CERT_FILE once per process.
	removeCert, err := trustAccCertificate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "acceptance tests: the HTTPS sandbox's certificate:", err)
		return 1
	}
	defer removeCert()
	stop, err := startSandbox()
	if err != nil {
		fmt.Fprintln(os.Stderr, "acceptance tests: starting the sandbox:", err)
		return 1
	}
	defer stop()
	return m.Run()
}

// findTerraform makes plugin-testing use the local Terraform CLI, never a
// download: TF_ACC_TERRAFORM_PATH if set, else terraform on PATH.
func findTerraform() error {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("TF_ACC_TERRAFORM_PATH=%s: %w", p, err)
		}
		return nil
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		return fmt.Errorf("terraform (1.11 or later) is not on PATH; install it or set TF_ACC_TERRAFORM_PATH")
	}
	return os.Setenv("TF_ACC_TERRAFORM_PATH", p)
}

// startSandbox starts an in-process sandbox, creates an organization with
// the admin token, makes a token for its owner and points the provider's
// environment variables at them.
func startSandbox() (func(), error) {
	sb, err := newSandboxOrganization(sandbox.Options{}, "tfgov-acc")
	if err != nil {
		return nil, err
	}
	for k, v := range map[string]string{"TFE_ADDRESS": sb.address, "TFE_TOKEN": sb.token, "TFE_ORGANIZATION": sb.organization} {
		if err := os.Setenv(k, v); err != nil {
			sb.stop()
			return nil, err
		}
	}
	accSandbox = sb.srv
	return sb.stop, nil
}

// sandboxOrganization is an in-process sandbox with one organization and
// its owner's token.
type sandboxOrganization struct {
	srv                          *sandbox.Server
	address, token, organization string
	stop                         func()
}

// newSandboxOrganization starts a sandbox with opts, creates organization
// org with the admin token, and makes a token for its owner, all through
// the public API.
func newSandboxOrganization(opts sandbox.Options, org string) (*sandboxOrganization, error) {
	return newWrappedSandboxOrganization(opts, org, nil)
}

// newWrappedSandboxOrganization is newSandboxOrganization with the
// sandbox's handler behind wrap (nil: none), for a test that acts at a
// chosen moment of a request.
func newWrappedSandboxOrganization(opts sandbox.Options, org string, wrap func(http.Handler) http.Handler) (*sandboxOrganization, error) {
	srv, err := sandbox.New(opts)
	if err != nil {
		return nil, err
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	ts := httptest.NewServer(h)
	stop := func() {
		ts.Close()
		_ = srv.Close()
	}
	token, err := bootstrapOrganization(ts.URL, srv.AdminToken(), org, nil)
	if err != nil {
		stop()
		return nil, err
	}
	return &sandboxOrganization{srv: srv, address: ts.URL, token: token, organization: org, stop: stop}, nil
}

// ownSandbox starts a sandbox of the test's own (for tests that change the
// whole sandbox: chaos, latency) with an organization, stopped at the end of
// the test, and returns it with a go-tfe client of the organization's owner.
func ownSandbox(t *testing.T, opts sandbox.Options, org string) (*sandboxOrganization, *tfe.Client) {
	t.Helper()
	sb, err := newSandboxOrganization(opts, org)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.stop)
	c, err := tfe.NewClient(&tfe.Config{Address: sb.address, Token: sb.token})
	if err != nil {
		t.Fatal(err)
	}
	return sb, c
}

// bootstrapOrganization creates org on the sandbox at address with its
// admin token, as a user would, and returns a token of the org's owner.
// httpClient may be nil (go-tfe's default).
func bootstrapOrganization(address, adminToken, org string, httpClient *http.Client) (string, error) {
	ctx := context.Background()
	admin, err := tfe.NewClient(&tfe.Config{Address: address, Token: adminToken, HTTPClient: httpClient})
	if err != nil {
		return "", err
	}
	if _, err := admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(org), Email: tfe.String("acc-owner@" + org + ".invalid")}); err != nil {
		return "", err
	}
	ms, err := admin.OrganizationMemberships.List(ctx, org, nil)
	if err != nil || len(ms.Items) == 0 {
		return "", fmt.Errorf("finding the owner of %s: %w (%d memberships)", org, err, len(ms.Items))
	}
	tok, err := admin.UserTokens.Create(ctx, ms.Items[0].User.ID, tfe.UserTokenCreateOptions{Description: "acceptance tests"})
	if err != nil {
		return "", err
	}
	return tok.Token, nil
}

// testAccPreCheck skips an acceptance test without TF_ACC, as
// resource.Test does, and fails one whose environment is incomplete.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	for _, k := range []string{"TFE_TOKEN", "TFE_ORGANIZATION"} {
		if os.Getenv(k) == "" {
			t.Fatalf("%s must be set for acceptance tests (TestMain sets it when it starts the sandbox)", k)
		}
	}
}

// testAccOrganization is the organization the acceptance tests work in.
func testAccOrganization() string { return os.Getenv("TFE_ORGANIZATION") }

// testAccSandbox returns the in-process sandbox, or nil when the tests run
// against a live endpoint. Only request counters and fault switches may use
// it; fixtures are always made through the public API. Against a live
// endpoint it records the calling test in the file TFGOV_ACC_LIVE_GAPS
// names, if any: the tests that do less there, which CI's other pass runs
// whole on the in-process sandbox (.ci/run).
func testAccSandbox() *sandbox.Server {
	if accSandbox == nil {
		recordLiveGap()
	}
	return accSandbox
}

// recordLiveGap appends the name of the test that called testAccSandbox
// (the first Test function on the stack) to the file TFGOV_ACC_LIVE_GAPS.
func recordLiveGap() {
	file := os.Getenv("TFGOV_ACC_LIVE_GAPS")
	if file == "" {
		return
	}
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	name := "(no test on the stack)"
	for {
		f, more := frames.Next()
		fn := f.Function[strings.LastIndex(f.Function, "/")+1:] // provider.TestAccX.func1
		if parts := strings.Split(fn, "."); len(parts) > 1 && strings.HasPrefix(parts[1], "Test") {
			name = parts[1]
			break
		}
		if !more {
			break
		}
	}
	out, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(fmt.Sprintf("TFGOV_ACC_LIVE_GAPS: %v", err))
	}
	defer out.Close()
	if _, err := fmt.Fprintln(out, name); err != nil {
		panic(fmt.Sprintf("TFGOV_ACC_LIVE_GAPS: %v", err))
	}
}

var (
	accClientOnce sync.Once
	accClient     *tfe.Client
	errAccClient  error
)

// testAccClient is a go-tfe client with the provider's credentials, for
// fixtures and for changes made outside Terraform.
//
// Fixtures are made before resource.Test could skip a test without TF_ACC,
// so the client skips it here instead.
func testAccClient(t *testing.T) *tfe.Client {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	accClientOnce.Do(func() {
		address := os.Getenv("TFE_ADDRESS")
		if address == "" {
			address = "https://" + cmp.Or(os.Getenv("TFE_HOSTNAME"), defaultHostname)
		}
		accClient, errAccClient = tfe.NewClient(&tfe.Config{Address: address, Token: os.Getenv("TFE_TOKEN"), RetryServerErrors: true})
	})
	if errAccClient != nil {
		t.Fatalf("go-tfe client: %v", errAccClient)
	}
	return accClient
}

// testAccName returns a unique name for a fixture or resource.
func testAccName(prefix string) string {
	return strings.ToLower(prefix + "-" + randomSuffix())
}

var (
	terraformVersionOnce sync.Once
	terraformVersionV    *version.Version
	errTerraformVersion  error
)

// terraformVersion is the version of the Terraform under test
// (TF_ACC_TERRAFORM_PATH), read once per test binary.
func terraformVersion(t *testing.T) *version.Version {
	t.Helper()
	terraformVersionOnce.Do(func() {
		out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output() //nolint:noctx // the test's own terraform
		if err != nil {
			errTerraformVersion = fmt.Errorf("terraform version: %w", err)
			return
		}
		var v struct {
			Version string `json:"terraform_version"`
		}
		if err := json.Unmarshal(out, &v); err != nil {
			errTerraformVersion = fmt.Errorf("terraform version -json: %w\n%s", err, out)
			return
		}
		terraformVersionV, errTerraformVersion = version.NewVersion(v.Version)
	})
	if errTerraformVersion != nil {
		t.Fatal(errTerraformVersion)
	}
	return terraformVersionV
}

// skipTerraformBelow skips a test that runs the terraform binary itself
// when that binary is older than least.
func skipTerraformBelow(t *testing.T, least string) {
	t.Helper()
	if v := terraformVersion(t); v.LessThan(version.Must(version.NewVersion(least))) {
		// The words of tfversion.SkipBelow, which .ci/run counts as a
		// skip gated on the Terraform version.
		t.Skipf("Terraform CLI version %s is below minimum version %s: skipping test", v, least)
	}
}
