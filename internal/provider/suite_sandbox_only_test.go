package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// notSandbox is a service that answers like HCP Terraform: target's API,
// passed through, with the discovery document's tfgov-sandbox.v1 left out.
// It records every request it gets.
type notSandbox struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD /path" (+ " with token")
}

func newNotSandbox(t *testing.T, target string) *notSandbox {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	ns := &notSandbox{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.URL.Path != "/.well-known/terraform.json" {
			return nil
		}
		var doc map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
			return err
		}
		delete(doc, tfeclient.SandboxServiceID)
		b, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		resp.ContentLength = int64(len(b))
		resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	ns.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ns.mu.Lock()
		req := r.Method + " " + r.URL.Path
		if r.Header.Get("Authorization") != "" {
			req += " with token"
		}
		ns.seen = append(ns.seen, req)
		ns.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(ns.Close)
	return ns
}

// beyondDiscovery is every request but the unauthenticated discovery GET.
func (ns *notSandbox) beyondDiscovery() []string {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	var out []string
	for _, r := range ns.seen {
		if r != "GET /.well-known/terraform.json" {
			out = append(out, r)
		}
	}
	return out
}

// testAccServiceURL is the service the acceptance tests reach: TFE_ADDRESS,
// else https:// and TFE_HOSTNAME (the live path).
func testAccServiceURL() string {
	if a := os.Getenv("TFE_ADDRESS"); a != "" {
		return a
	}
	return "https://" + os.Getenv("TFE_HOSTNAME")
}

// TestAccProviderSandboxOnly: sandbox_only refuses a service that answers
// like HCP Terraform but is not a tfgov sandbox (the tests' own service
// behind a proxy that leaves out the discovery entry) at configure, naming
// its host, with nothing sent but the discovery GET (no token, no read, no
// write); against the tests' sandbox (in-process, or tfgov-sandbox --tls on
// the live path, by hostname) the same configuration applies.
func TestAccProviderSandboxOnly(t *testing.T) {
	testAccPreCheck(t)
	service := testAccServiceURL()
	if !isTfgovSandbox(t, service) {
		t.Skipf("%s is not a tfgov sandbox: sandbox_only would refuse it, as it should", service)
	}
	ns := newNotSandbox(t, service)
	// Sanity: the proxy answers the API as the service does.
	if _, err := testAccClientAtToken(t, ns.URL, os.Getenv("TFE_TOKEN")).Organizations.Read(context.Background(), testAccOrganization()); err != nil {
		t.Fatalf("the proxy does not pass the API through: %v", err)
	}
	ns.mu.Lock()
	ns.seen = nil
	ns.mu.Unlock()
	name := testAccName("sandbox-only")
	policy := testAccPolicyConfig(name, "sentinel", "advisory", "", "")
	host := strings.TrimPrefix(ns.URL, "http://")
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      fmt.Sprintf("provider \"tfgov\" {\n  address      = %q\n  sandbox_only = true\n}\n\n", ns.URL) + policy,
				ExpectError: regexp.MustCompile(`(?s)Not a tfgov sandbox: ` + regexp.QuoteMeta(host) + `.*lists\s+no\s+tfgov-sandbox\.v1.*Nothing\s+was\s+read\s+or\s+written\s+there`),
			},
			{
				PreConfig: func() {
					if got := ns.beyondDiscovery(); len(got) > 0 {
						t.Errorf("sandbox_only sent %q to a host that is not a sandbox, want only the discovery document's GET", got)
					}
				},
				Config: "provider \"tfgov\" {\n  sandbox_only = true\n}\n\n" + policy,
				Check:  resource.TestCheckResourceAttr(policyAddr, "name", name),
			},
		},
		CheckDestroy: testAccCheckPolicyDestroyed(t, name),
	})
}

// isTfgovSandbox reads service's discovery document as the provider does.
func isTfgovSandbox(t *testing.T, service string) bool {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, service+"/.well-known/terraform.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("discovery of %s: %v", service, err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return false
	}
	_, ok := doc[tfeclient.SandboxServiceID]
	return ok
}

// TestAccGuideTestingOutsideTheSandbox is issue 55's first row: the guide's
// terraform test run without the tfgov-sandbox wrapper, in a shell holding
// a real organization's credentials. That organization is the example's
// seed file (hand-made policy and grants included) in a sandbox of the
// test's own behind a proxy that hides what it is, so without sandbox_only
// the run would import, fail on "already exists" and tear down what it
// adopted. The test file's provider block sets sandbox_only: the run fails
// at configure naming the host, and the organization sees no request but
// the discovery GET; its policies and grants are as they were.
func TestAccGuideTestingOutsideTheSandbox(t *testing.T) {
	t.Parallel()
	rc := testCLIConfig(t)
	dir := t.TempDir()
	example := filepath.Join(repoRoot(), "examples", "guides", "test-without-an-organization")
	if err := os.CopyFS(dir, os.DirFS(example)); err != nil {
		t.Fatal(err)
	}
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	service := httptest.NewServer(srv)
	t.Cleanup(func() { service.Close(); _ = srv.Close() })
	vars, err := srv.SeedFile(filepath.Join(dir, "seed.json"), mustRead(t, filepath.Join(dir, "seed.json")))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, v := range vars {
		env[v.Env] = v.Value
	}
	client := testAccClientAtToken(t, service.URL, env["TFE_TOKEN"])
	before := organizationObjects(t, client, env["TFE_ORGANIZATION"])
	ns := newNotSandbox(t, service.URL)

	cmdEnv := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"TFE_ADDRESS=" + ns.URL, "TFE_TOKEN=" + env["TFE_TOKEN"], "TFE_ORGANIZATION=" + env["TFE_ORGANIZATION"]}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TFE_") || strings.HasPrefix(k, "TF_TOKEN_") || strings.HasPrefix(k, "TF_VAR_") || k == "TF_CLI_CONFIG_FILE" || k == "TFGOV_SANDBOX_ONLY" {
			continue
		}
		cmdEnv = append(cmdEnv, kv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Getenv("TF_ACC_TERRAFORM_PATH"), "test", "-no-color") //nolint:gosec // the Terraform under test
	cmd.Dir, cmd.Env = dir, cmdEnv
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("terraform test outside the sandbox: want a failure, got %v\n%s", err, out)
	}
	host := strings.TrimPrefix(ns.URL, "http://")
	if !regexp.MustCompile(`Not a tfgov sandbox: ` + regexp.QuoteMeta(host)).Match(out) {
		t.Errorf("terraform test outside the sandbox does not fail naming the host %s:\n%s", host, out)
	}
	if got := ns.beyondDiscovery(); len(got) > 0 {
		t.Errorf("terraform test outside the sandbox sent %q to the organization, want only the discovery document's GET", got)
	}
	if after := organizationObjects(t, client, env["TFE_ORGANIZATION"]); after != before {
		t.Errorf("the organization changed: before %s, after %s", before, after)
	}
}

// TestGuideTestFilesAreSandboxOnly: every test file of the examples that
// applies tfgov's resources to a service says it runs only against the
// sandbox. The policy library's (testing-policies) evaluates offline and
// reaches no service, so it does not; a test file of a configuration
// without tfgov (the quickstart's module under test) has nothing to say.
func TestGuideTestFilesAreSandboxOnly(t *testing.T) {
	t.Parallel()
	offline := map[string]bool{"guides/testing-policies/tests/required_tags.tftest.hcl": true}
	want := regexp.MustCompile(`(?m)^provider "tfgov" \{\n  sandbox_only = true\n\}$`)
	root := filepath.Join(repoRoot(), "examples")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".tftest.hcl") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if offline[filepath.ToSlash(rel)] || !usesTfgov(t, filepath.Dir(filepath.Dir(path))) {
			return nil
		}
		n++
		if !want.Match(mustRead(t, path)) {
			t.Errorf("examples/%s has no provider \"tfgov\" { sandbox_only = true }: run outside the sandbox, it would apply to whatever host the environment names", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no test file found under examples/")
	}
}

// usesTfgov: a .tf file of dir requires tfgov/tfgov.
func usesTfgov(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if regexp.MustCompile(`source\s*=\s*"tfgov/tfgov"`).Match(mustRead(t, f)) {
			return true
		}
	}
	return false
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testAccClientAtToken(t *testing.T, address, token string) *tfe.Client {
	t.Helper()
	c, err := tfe.NewClient(&tfe.Config{Address: address, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// organizationObjects counts org's policies and the team access of its
// workspaces: what a teardown of adopted objects would delete.
func organizationObjects(t *testing.T, c *tfe.Client, org string) string {
	t.Helper()
	ctx := context.Background()
	pols, err := c.Policies.List(ctx, org, &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	if err != nil {
		t.Fatal(err)
	}
	wss, err := c.Workspaces.List(ctx, org, &tfe.WorkspaceListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	if err != nil {
		t.Fatal(err)
	}
	grants := 0
	for _, ws := range wss.Items {
		tas, err := c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID})
		if err != nil {
			t.Fatal(err)
		}
		grants += len(tas.Items)
	}
	return fmt.Sprintf("%d policies, %d team access", len(pols.Items), grants)
}
