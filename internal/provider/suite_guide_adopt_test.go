package provider

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestAccGuideAdoptingAnOrganization follows the guide "Adopting an existing
// organization" (templates/guides/adopting-an-organization.md.tmpl) with
// its own example files and the terraform binary: an organization with
// team access (a fixed level and custom), policies of both kinds with
// code, and plain and sensitive module test variables, made outside
// Terraform, is adopted both ways the guide shows; each ends in an empty
// plan.
func TestAccGuideAdoptingAnOrganization(t *testing.T) {
	testCLIConfig(t)
	testAccPreCheck(t)
	ctx := context.Background()
	c := testAccClient(t)

	ws := testAccWorkspace(t)
	for _, g := range []tfe.TeamAccessAddOptions{
		{Access: tfe.Access(tfe.AccessAdmin), Team: testAccTeam(t, nil), Workspace: ws},
		{Access: tfe.Access(tfe.AccessCustom), Team: testAccTeam(t, nil), Workspace: ws, Runs: tfe.RunsPermission(tfe.RunsPermissionPlan), Variables: tfe.VariablesPermission(tfe.VariablesPermissionRead)},
	} {
		if _, err := c.TeamAccess.Add(ctx, g); err != nil {
			t.Fatalf("team access: %v", err)
		}
	}
	prefix := testAccName("adopt")
	for _, p := range []struct {
		kind       tfe.PolicyKind
		query      *string
		code, name string
	}{
		{tfe.Sentinel, nil, sentinelCode, prefix + "-sentinel"},
		{tfe.OPA, tfe.String("data.terraform.policies.tags.deny"), regoCode, prefix + "-opa"},
		// A name that cannot start a Terraform name: discover.tf prefixes "_".
		{tfe.Sentinel, nil, sentinelCode, "2024-" + prefix + "-legacy"},
	} {
		pol, err := c.Policies.Create(ctx, testAccOrganization(), tfe.PolicyCreateOptions{Name: tfe.String(p.name), Kind: p.kind, Query: p.query, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
		if err != nil {
			t.Fatalf("policy: %v", err)
		}
		t.Cleanup(func() { cleanupErr(t, "policy "+pol.ID, c.Policies.Delete(context.Background(), pol.ID)) })
		if err := c.Policies.Upload(ctx, pol.ID, []byte(p.code)); err != nil {
			t.Fatalf("policy code: %v", err)
		}
	}
	mod := testAccModule(t)
	for _, v := range []tfe.VariableCreateOptions{
		{Key: tfe.String("AWS_REGION"), Value: tfe.String("eu-west-1"), Description: tfe.String("Region"), Category: tfe.Category(tfe.CategoryEnv)},
		{Key: tfe.String("API_TOKEN"), Value: tfe.String("hush"), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(true)},
	} {
		if _, err := c.TestVariables.Create(ctx, mod.id(), v); err != nil {
			t.Fatalf("test variable: %v", err)
		}
	}
	vars := []string{"-var", "workspace_name=" + ws.Name, "-var", "module_name=" + mod.Name, "-var", "module_provider=" + mod.Provider}
	tf := func(dir string, args ...string) string {
		t.Helper()
		out, err := runTerraform(t, dir, append(args, "-no-color")...)
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	copyExample := func(name string) string {
		dir := t.TempDir()
		files, _ := filepath.Glob(filepath.Join(repoRoot(), "examples", "guides", name, "*.tf"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if len(files) == 0 {
			t.Fatalf("no example files in examples/guides/%s", name)
		}
		return dir
	}
	onlyImports := func(out string, n int) {
		t.Helper()
		if want := regexp.MustCompile(`Plan: (\d+) to import, 0 to add, 0 to change, 0 to destroy`); !want.MatchString(out) || want.FindStringSubmatch(out)[1] != strconv.Itoa(n) {
			t.Errorf("plan: want %d imports and nothing else:\n%s", n, out)
		}
	}
	emptyPlan := func(dir string, vars []string) {
		t.Helper()
		if out := tf(dir, append([]string{"plan", "-detailed-exitcode"}, vars...)...); !strings.Contains(out, "No changes.") {
			t.Errorf("the plan after adopting is not empty:\n%s", out)
		}
	}

	t.Run("generated configuration", func(t *testing.T) {
		dir := copyExample("adopt-generate")
		v := append(append([]string(nil), vars...), "-var", "policy_search="+prefix)
		tf(dir, append([]string{"apply", "-auto-approve"}, v...)...)
		blocks := tf(dir, "output", "-raw", "import_blocks")
		if err := os.WriteFile(filepath.Join(dir, "imports.tf"), []byte(blocks), 0o600); err != nil {
			t.Fatal(err)
		}
		if want := "tfgov_policy._2024-" + prefix + "-legacy"; !strings.Contains(blocks, "to = "+want+"\n") {
			t.Errorf("import_blocks lacks %s:\n%s", want, blocks)
		}
		// 2 team access, 3 policies, 3 uploads, 2 test variables.
		onlyImports(tf(dir, append([]string{"plan", "-generate-config-out=generated.tf"}, v...)...), 10)
		gen, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`value            = null # sensitive`, `access = "admin"`, `access = "custom"`, `content        = "main = rule { true }\n"`} {
			if !strings.Contains(string(gen), want) {
				t.Errorf("generated.tf lacks %q:\n%s", want, gen)
			}
		}
		tf(dir, append([]string{"apply", "-auto-approve"}, v...)...)
		emptyPlan(dir, v)
	})
	t.Run("terraform query", func(t *testing.T) {
		skipTerraformBelow(t, "1.14.0")
		dir := copyExample("adopt-query")
		q, err := os.ReadFile(filepath.Join(repoRoot(), "examples", "guides", "adopt-query", "find.tfquery.hcl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "find.tfquery.hcl"), q, 0o600); err != nil {
			t.Fatal(err)
		}
		v := append(append([]string(nil), vars...), "-var", "policy_search="+prefix)
		found := tf(dir, append([]string{"query", "-generate-config-out=generated.tf"}, v...)...)
		gen, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
		if err != nil {
			t.Fatalf("no generated.tf: %v\n%s", err, found)
		}
		for _, want := range []string{`description      = "Region"`, `value            = null # sensitive`, `access   = "admin"`, `access   = "custom"`, `content        = "main = rule { true }\n"`, "identity = {"} {
			if !strings.Contains(string(gen), want) {
				t.Errorf("generated.tf lacks %q:\n%s", want, gen)
			}
		}
		// The plan needs no variable: the query's are in its own file.
		// 2 team access, 3 policies, 3 uploads, 2 test variables.
		onlyImports(tf(dir, "plan"), 10)
		tf(dir, "apply", "-auto-approve")
		emptyPlan(dir, nil)
	})
	t.Run("for_each", func(t *testing.T) {
		dir := copyExample("adopt-for-each")
		// 2 team access, 2 test variables.
		onlyImports(tf(dir, append([]string{"plan"}, vars...)...), 4)
		tf(dir, append([]string{"apply", "-auto-approve"}, vars...)...)
		emptyPlan(dir, vars)
	})
}
