package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/go-version"
)

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

// queryAdoptionFixtures makes, outside Terraform, objects of every managed
// type for a query to find: two policies (one with code, one OPA), team
// access of a workspace (a fixed level and custom), two agent tokens, a
// plain and a sensitive test variable, a finished test run and a
// deprecated module version. It returns the list blocks that find exactly
// them, and how many objects they are.
func queryAdoptionFixtures(t *testing.T) (string, int) {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	org := testAccOrganization()
	prefix := testAccName("query")
	for _, p := range []struct {
		kind  tfe.PolicyKind
		query *string
		code  string
	}{
		{tfe.Sentinel, nil, sentinelCode},
		{tfe.OPA, tfe.String("data.terraform.policies.tags.deny"), ""},
	} {
		pol, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String(prefix + "-" + string(p.kind)), Kind: p.kind, Query: p.query, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory), Description: tfe.String("made outside Terraform")})
		if err != nil {
			t.Fatalf("policy: %v", err)
		}
		t.Cleanup(func() { _ = c.Policies.Delete(context.Background(), pol.ID) })
		if p.code != "" {
			if err := c.Policies.Upload(ctx, pol.ID, []byte(p.code)); err != nil {
				t.Fatalf("policy code: %v", err)
			}
		}
	}
	ws := testAccWorkspace(t)
	for _, g := range []tfe.TeamAccessAddOptions{
		{Access: tfe.Access(tfe.AccessWrite), Team: testAccTeam(t, nil), Workspace: ws},
		{Access: tfe.Access(tfe.AccessCustom), Team: testAccTeam(t, nil), Workspace: ws, Runs: tfe.RunsPermission(tfe.RunsPermissionPlan), Variables: tfe.VariablesPermission(tfe.VariablesPermissionRead)},
	} {
		if _, err := c.TeamAccess.Add(ctx, g); err != nil {
			t.Fatalf("team access: %v", err)
		}
	}
	pool := testAccAgentPool(t)
	for _, d := range []string{"first", "second"} {
		if _, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(d)}); err != nil {
			t.Fatalf("agent token: %v", err)
		}
	}
	m := testAccRegistryModule(t, "1.0.0", "1.1.0")
	mod := moduleRef{Organization: org, Name: m.Name, Provider: m.Provider}
	for _, v := range []tfe.VariableCreateOptions{
		{Key: tfe.String("AWS_REGION"), Value: tfe.String("eu-west-1"), Description: tfe.String("Region"), Category: tfe.Category(tfe.CategoryEnv)},
		{Key: tfe.String("API_TOKEN"), Value: tfe.String("hush"), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(true)},
	} {
		if _, err := c.TestVariables.Create(ctx, mod.id(), v); err != nil {
			t.Fatalf("test variable: %v", err)
		}
	}
	if _, err := deprecateModuleVersion(ctx, c, testAccModuleVersion(m, "1.0.0"), tfe.String("Use 1.1.0."), tfe.String("https://example.com/upgrade")); err != nil {
		t.Fatalf("deprecation: %v", err)
	}
	run := testAccTestRun(t, mod, testAccTestConfiguration(t, mod, "pass"))
	if _, err := (testRunClient{c}).waitFor(ctx, mod, run.ID, func(r *testRunRecord) bool { return r.final() }); err != nil {
		t.Fatalf("waiting for run %s: %v", run.ID, err)
	}
	modCfg := fmt.Sprintf("module_name = %q\n    module_provider = %q", mod.Name, mod.Provider)
	blocks := []struct{ typ, cfg string }{
		{"tfgov_policy", fmt.Sprintf("search = %q", prefix)},
		{"tfgov_policy_upload", fmt.Sprintf("search = %q", prefix)},
		{"tfgov_team_access", fmt.Sprintf("workspace_id = %q", ws.ID)},
		{"tfgov_agent_token", fmt.Sprintf("agent_pool_id = %q", pool.ID)},
		{"tfgov_module_test_variable", modCfg},
		{"tfgov_module_test_run", modCfg},
		{"tfgov_module_version_deprecation", modCfg},
	}
	var b strings.Builder
	for _, bl := range blocks {
		fmt.Fprintf(&b, "list %q \"found\" {\n  provider         = tfgov\n  include_resource = true\n  limit            = 1000\n  config {\n    %s\n  }\n}\n\n", bl.typ, bl.cfg)
	}
	// 2 policies, 1 upload, 2 grants, 2 tokens, 2 variables, 1 run, 1 deprecation.
	return b.String(), 11
}

// TestAccListResources_generateConfig: `terraform query
// -generate-config-out` finds objects of every type made outside
// Terraform and writes configuration whose plan only imports them; after
// the apply the plan is empty.
func TestAccListResources_generateConfig(t *testing.T) {
	testCLIConfig(t)
	testAccPreCheck(t)
	skipTerraformBelow(t, "1.14.0")
	query, n := queryAdoptionFixtures(t)
	dir := t.TempDir()
	for name, content := range map[string]string{
		"main.tf":          "terraform {\n  required_providers {\n    tfgov = { source = \"tfgov/tfgov\" }\n  }\n}\n\nprovider \"tfgov\" {}\n",
		"find.tfquery.hcl": query,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tf := func(args ...string) string {
		t.Helper()
		out, err := runTerraform(t, dir, append(args, "-no-color")...)
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	out := tf("query", "-generate-config-out=generated.tf")
	gen, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
	if err != nil {
		t.Fatalf("no generated.tf: %v\n%s", err, out)
	}
	t.Logf("terraform query:\n%s\ngenerated.tf:\n%s", out, gen)
	plan := tf("plan")
	want := regexp.MustCompile(`Plan: (\d+) to import, 0 to add, 0 to change, 0 to destroy`)
	if m := want.FindStringSubmatch(plan); m == nil || m[1] != strconv.Itoa(n) {
		t.Fatalf("plan of the generated configuration: want %d imports and nothing else:\n%s", n, plan)
	}
	tf("apply", "-auto-approve")
	if out := tf("plan", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after adopting is not empty:\n%s", out)
	}
}
