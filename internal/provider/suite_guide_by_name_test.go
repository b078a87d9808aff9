package provider

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestAccNamesByName applies examples/guides/by-name, a configuration that
// names every workspace, team, agent pool and module only by name, against
// a sandbox seeded from the example's seed file: the plan adds what the
// names resolve to (a grant per production workspace but the legacy one,
// the developers' grant, an agent token, a test variable, a deprecation of
// each published version but the latest), and the second plan is empty.
// The sandbox is the test's own, as the seed file's organization is the
// example's, in the live path too.
func TestAccNamesByName(t *testing.T) {
	rc := testCLIConfig(t)
	testAccPreCheck(t)
	example := filepath.Join(repoRoot(), "examples", "guides", "by-name")
	seed, err := os.ReadFile(filepath.Join(example, "seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	vars, err := srv.SeedFile("seed.json", seed)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "TFE_ADDRESS=" + ts.URL, "TFE_HOSTNAME="}
	for _, v := range vars {
		env = append(env, v.Env+"="+v.Value)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(example)); err != nil {
		t.Fatal(err)
	}
	tf := func(want int, args ...string) string {
		t.Helper()
		out, code := runTerraformEnv(t, dir, env, append(args, "-no-color")...)
		if code != want {
			t.Fatalf("terraform %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
		}
		return out
	}
	out := tf(0, "apply", "-auto-approve")
	// sre: payments-prod and web-prod (web-legacy excluded); developers;
	// the token; the variable; 1.0.0 and 1.1.0 deprecated (2.0.0 latest).
	if !strings.Contains(out, "Apply complete! Resources: 7 added, 0 changed, 0 destroyed.") {
		t.Errorf("apply:\n%s", out)
	}
	for _, want := range []string{
		`tfgov_team_access.sre["payments-prod"]`, `tfgov_team_access.sre["web-prod"]`,
		`tfgov_module_version_deprecation.old["1.0.0"]`, `tfgov_module_version_deprecation.old["1.1.0"]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("apply lacks %s:\n%s", want, out)
		}
	}
	if regexp.MustCompile(`web-legacy|old\["2\.0\.0"\]`).MatchString(out) {
		t.Errorf("apply made a grant to the excluded workspace or deprecated the latest version:\n%s", out)
	}
	if out := tf(0, "plan", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("the second plan is not empty:\n%s", out)
	}
	tf(0, "destroy", "-auto-approve")
}

// budgetNameDataSources is TestAccRequestBudgets' rows for the data sources
// that find objects by name: a terraform plan reading each with N objects
// of its kind in the organization (N = 1, 2 and 150; 150 crosses a page of
// 100), so each costs the plan's start-up (2) and its own requests:
//
//	workspace           1: the read by name
//	workspaces (names)  p: the list's pages (at most the names' count after the first)
//	workspaces (tags)   p: the list filtered by tag
//	team, teams         p: the list filtered by names (teams: every team, with the owners team)
//	agent_pool          p: the pools whose name contains it
//	agent_pools         p: every pool (by names) or those whose name contains the search
//	registry_module     1: the module's read
//
// and a name that matches nothing, or a filter of tfgov_workspaces, costs
// the list of the organization's names (workspaces: with their tags) once
// more.
func budgetNameDataSources(t *testing.T) {
	for _, n := range []int{1, 2, 150} {
		t.Run(fmt.Sprintf("names/N=%d", n), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			sb, client := ownSandbox(t, sandbox.Options{}, "budget-"+randomSuffix())
			org := sb.organization
			for i := range n {
				name := fmt.Sprintf("obj-%03d", i)
				if _, err := client.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String(name), Tags: []*tfe.Tag{{Name: "fleet"}}}); err != nil {
					t.Fatal(err)
				}
				if _, err := client.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(name)}); err != nil {
					t.Fatal(err)
				}
				if _, err := client.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String(name)}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := client.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("network"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry}); err != nil {
				t.Fatal(err)
			}
			p := (n + bulkPageSize - 1) / bulkPageSize
			pTeams := (n + 1 + bulkPageSize - 1) / bulkPageSize // the owners team too
			last := fmt.Sprintf("obj-%03d", n-1)
			env := []string{"TF_CLI_CONFIG_FILE=" + testCLIConfig(t), "TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization}
			for _, c := range []struct {
				name, config string
				budget       int
				wantExit     int
			}{
				{"workspace", fmt.Sprintf(`data "tfgov_workspace" "x" { name = %q }`, last), 1, 0},
				{"workspaces by names", fmt.Sprintf(`data "tfgov_workspaces" "x" { names = ["obj-000", %q] }`, last), min(p, 3), 0},
				{"workspaces by tag", `data "tfgov_workspaces" "x" { tag_names = ["fleet"] }`, p, 0},
				{"team", fmt.Sprintf(`data "tfgov_team" "x" { name = %q }`, last), 1, 0},
				{"teams", `data "tfgov_teams" "x" {}`, pTeams, 0},
				{"agent_pool", fmt.Sprintf(`data "tfgov_agent_pool" "x" { name = %q }`, last), 1, 0},
				{"agent_pools by names", fmt.Sprintf(`data "tfgov_agent_pools" "x" { names = ["obj-000", %q] }`, last), p, 0},
				{"agent_pools by search", `data "tfgov_agent_pools" "x" { search = "obj-" }`, p, 0},
				{"agent_pools search typo", `data "tfgov_agent_pools" "x" { search = "obj-typo" }`, 1 + p, 1},
				{"registry_module", `data "tfgov_registry_module" "x" {` + "\n" + `module_name = "network"` + "\n" + `module_provider = "aws"` + "\n}", 1, 0},
				{"workspace not found", `data "tfgov_workspace" "x" { name = "obj-typo" }`, 1 + p, 1},
				{"team not found", `data "tfgov_team" "x" { name = "obj-typo" }`, 1 + pTeams, 1},
				{"workspaces tag typo", `data "tfgov_workspaces" "x" { tag_names = ["flet"] }`, 1 + p, 1},
			} {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(budgetProviderBlock+c.config+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				before := sb.srv.Stats()
				out, code := runTerraformEnv(t, dir, env, "plan", "-no-color")
				if code != c.wantExit {
					t.Fatalf("%s: terraform plan exit %d, want %d\n%s", c.name, code, c.wantExit, out)
				}
				got, total := statsSince(sb.srv.Stats(), before)
				budget := starts(opPlan) + c.budget
				t.Logf("%s: %d requests (budget %d) %v", c.name, total, budget, got)
				if total > budget {
					t.Errorf("%s with %d objects made %d requests, over its budget of %d: %v", c.name, n, total, budget, got)
				}
			}
		})
	}
}
