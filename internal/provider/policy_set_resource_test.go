package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const policySetAddr = "tfgov_policy_set.test"

// policySetFixtures: project prj holding workspaces a and b; c in the default project carrying a
// tag of this test's own; d alone; a Sentinel policy.
type policySetFixtures struct {
	prj             *tfe.Project
	a, b, c, d      *tfe.Workspace
	tag, policy, nm string
}

func testAccPolicySetFixtures(t *testing.T) policySetFixtures {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	org := testAccOrganization()
	f := policySetFixtures{tag: testAccName("gov"), nm: testAccName("set")}
	prj, err := c.Projects.Create(ctx, org, tfe.ProjectCreateOptions{Name: testAccName("prj")})
	if err != nil {
		t.Fatalf("project: %v", err)
	}
	f.prj = prj
	ws := func(name string, opts tfe.WorkspaceCreateOptions) *tfe.Workspace {
		opts.Name = tfe.String(testAccName(name))
		w, err := c.Workspaces.Create(ctx, org, opts)
		if err != nil {
			t.Fatalf("workspace: %v", err)
		}
		t.Cleanup(func() { _ = c.Workspaces.DeleteByID(context.Background(), w.ID) })
		return w
	}
	f.a = ws("a", tfe.WorkspaceCreateOptions{Project: prj})
	f.b = ws("b", tfe.WorkspaceCreateOptions{Project: prj})
	f.c = ws("c", tfe.WorkspaceCreateOptions{Tags: []*tfe.Tag{{Name: f.tag}}})
	f.d = ws("d", tfe.WorkspaceCreateOptions{})
	t.Cleanup(func() { _ = c.Projects.Delete(context.Background(), prj.ID) })
	pol, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String(testAccName("pol")), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	t.Cleanup(func() { _ = c.Policies.Delete(context.Background(), pol.ID) })
	f.policy = pol.ID
	return f
}

func (f policySetFixtures) config(description, scope string) string {
	return fmt.Sprintf(`
resource "tfgov_policy_set" "test" {
  name        = %[1]q
  description = %[2]q
  policy_ids  = [%[3]q]
  scope = {
%[4]s
  }
}
`, f.nm, description, f.policy, scope)
}

// governed checks governed_workspaces in state against the names wanted and, on the sandbox,
// against its own scope function.
func (f policySetFixtures) governed(wss ...*tfe.Workspace) statecheck.StateCheck {
	want := map[string]knownvalue.Check{}
	var ids []string
	for _, ws := range wss {
		want[ws.Name] = knownvalue.StringExact(ws.ID)
		ids = append(ids, ws.ID)
	}
	slices.Sort(ids)
	return stateCheckFunc(func(ctx context.Context, state *tfjson.State) error {
		if err := knownvalue.MapExact(want).CheckValue(policySetAttr(state, "governed_workspaces")); err != nil {
			return fmt.Errorf("governed_workspaces: %w", err)
		}
		if sb := testAccSandbox(); sb != nil {
			id, err := stateID(state, policySetAddr)
			if err != nil {
				return err
			}
			if got, _ := sb.GovernedWorkspaces(id); !slices.Equal(got, ids) {
				return fmt.Errorf("the sandbox's scope function governs %v, want %v", got, ids)
			}
		}
		return nil
	})
}

// TestAccPolicySetResource_scope: create, import by ID and by name, update, a workspace made later in
// a governed project, an attachment added outside (it leaves), invalid scopes and a kind change at
// plan, a plan with a token not proven to see every workspace, and a set deleted outside.
func TestAccPolicySetResource_scope(t *testing.T) {
	f := testAccPolicySetFixtures(t)
	ctx := context.Background()
	c := testAccClient(t)
	org := testAccOrganization()
	first := fmt.Sprintf("    project_ids = [%q]\n    excluded_workspace_ids = [%q]\n    tags = [{ key = %q }]", f.prj.ID, f.b.ID, f.tag)
	second := fmt.Sprintf("    project_ids = [%q]\n    workspace_ids = [%q]", f.prj.ID, f.d.ID)
	var later *tfe.Workspace
	team := testAccTeam(t, &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true)})
	limited := testAccTeamTokenProvider(t, team)
	accParallelTest(t, resource.TestCase{
		CheckDestroy: func(s *terraform.State) error {
			if _, err := c.PolicySets.Read(ctx, s.RootModule().Resources[policySetAddr].Primary.ID); !isNotFound(err) {
				return fmt.Errorf("policy set still there after destroy: %w", err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: f.config("first", first),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^polset-`))),
					statecheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("agent_enabled"), knownvalue.Bool(false)),
					f.governed(f.a, f.c),
				},
			},
			{ResourceName: policySetAddr, ImportState: true, ImportStateVerify: true},
			{
				ResourceName: policySetAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
				ImportStateIdFunc: func(*terraform.State) (string, error) { return org + "/" + f.nm, nil },
				ImportPlanChecks:  resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionNoop)}},
			},
			// Invalid combinations and a kind change fail at plan, naming the attributes.
			{
				Config: f.config("first", fmt.Sprintf("    global = true\n    workspace_ids = [%q]", f.d.ID)), PlanOnly: true,
				ExpectError: wrappedRE(`A global policy set takes no workspace_ids`),
			},
			{
				Config: f.config("first", fmt.Sprintf("    project_ids = [%q]\n    excluded_project_ids = [%q]", f.prj.ID, f.prj.ID)), PlanOnly: true,
				ExpectError: wrappedRE(`is in both scope.project_ids and scope.excluded_project_ids`),
			},
			{
				Config:      fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name = %q\n  kind = \"opa\"\n}\n", f.nm),
				PlanOnly:    true,
				ExpectError: wrappedRE(`A policy set's kind cannot change`),
			},
			{
				Config: f.config("second", second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("governed_workspaces"), knownvalue.MapSizeExact(3)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{f.governed(f.a, f.b, f.d)},
			},
			// Outside: a workspace made in the governed project, and c attached directly. The plan
			// governs the new workspace and shows c leaving.
			{
				PreConfig: func() {
					ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String(testAccName("later")), Project: f.prj})
					if err != nil {
						t.Fatal(err)
					}
					later = ws
					t.Cleanup(func() { _ = c.Workspaces.DeleteByID(context.Background(), ws.ID) })
					sets, err := c.PolicySets.List(ctx, org, &tfe.PolicySetListOptions{Search: f.nm})
					if err != nil || len(sets.Items) != 1 {
						t.Fatalf("finding the set: %v", err)
					}
					if err := c.PolicySets.AddWorkspaces(ctx, sets.Items[0].ID, tfe.PolicySetAddWorkspacesOptions{Workspaces: []*tfe.Workspace{f.c}}); err != nil {
						t.Fatal(err)
					}
				},
				Config: f.config("second", second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("scope").AtMapKey("workspace_ids"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(f.d.ID)})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(ctx context.Context, state *tfjson.State) error {
					var resp statecheck.CheckStateResponse
					f.governed(f.a, f.b, f.d, later).CheckState(ctx, statecheck.CheckStateRequest{State: state}, &resp)
					return resp.Error
				})},
			},
			// A team token (here with "Manage policies") names no user whose teams prove it sees every
			// workspace: a plan that changes the scope fails naming the permission rather than show a
			// partial governed_workspaces (DESIGN.md "Governed workspaces").
			{Config: limited + f.config("second", first), PlanOnly: true, ExpectError: wrappedRE(`Policy set needs "View all workspaces"`)},
			// Deleted outside: the next plan creates it again.
			{
				PreConfig: func() {
					sets, err := c.PolicySets.List(ctx, org, &tfe.PolicySetListOptions{Search: f.nm})
					if err != nil || len(sets.Items) != 1 {
						t.Fatalf("finding the set: %v", err)
					}
					if err := c.PolicySets.Delete(ctx, sets.Items[0].ID); err != nil {
						t.Fatal(err)
					}
				},
				Config: f.config("second", second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// TestAccPolicySetResource_savedPlanWorkspaceMade: a saved plan that updates a set without changing
// its scope applies after a workspace was made in a governed project: governed_workspaces comes from
// the plan's refresh, which the apply plans again the same. It stopped with "Provider produced
// inconsistent final plan" (element vanished or appeared) when each walk listed the workspaces anew:
// the scenario machine found it (make scenarios STEPS=900 SEED=31, its saved plan's apply after an
// outside delete of a governed workspace).
func TestAccPolicySetResource_savedPlanWorkspaceMade(t *testing.T) {
	f := testAccPolicySetFixtures(t)
	ctx, c := context.Background(), testAccClient(t)
	scope := fmt.Sprintf("    project_ids = [%q]", f.prj.ID)
	dir := newCLIDir(t, f.config("first", scope))
	dir.must("apply", "-auto-approve")
	dir.write("main.tf", requiredProvidersShim+f.config("second", scope))
	dir.must("plan", "-out=tfplan")
	ws, err := c.Workspaces.Create(ctx, testAccOrganization(), tfe.WorkspaceCreateOptions{Name: tfe.String(testAccName("made")), Project: f.prj})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Workspaces.DeleteByID(context.Background(), ws.ID) })
	if out, err := runTerraform(t, dir.dir, "apply", "-no-color", "tfplan"); err != nil {
		t.Fatalf("the saved plan's apply failed: %v\n%s", err, out)
	}
	// The next plan plans nothing; a refresh governs the new workspace.
	if out := dir.must("plan", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("the next plan should plan nothing:\n%s", out)
	}
	dir.must("apply", "-refresh-only", "-auto-approve")
	if out := dir.must("state", "show", "-no-color", policySetAddr); !strings.Contains(out, ws.Name) {
		t.Errorf("the refreshed governed_workspaces should hold %s:\n%s", ws.Name, out)
	}
}

// writePolicySetSource writes an OPA set's directory: policies.hcl (broken: invalid HCL), a policy,
// and a test that passes or fails.
func writePolicySetSource(t *testing.T, dir string, testPasses, broken bool) {
	t.Helper()
	hcl := "policy \"tags\" {\n  query             = \"data.terraform.policies.tags.deny\"\n  enforcement_level = \"advisory\"\n}\n"
	if broken {
		hcl = "policy \"tags\" {\n  query = \n"
	}
	want := "set()"
	if !testPasses {
		want = `{"untagged"}`
	}
	files := map[string]string{
		"policies.hcl": hcl,
		"tags.rego":    "package terraform.policies.tags\n\nimport rego.v1\n\ndeny contains \"untagged\" if { input.plan.untagged }\n",
		"tags_test.rego": "package terraform.policies.tags_test\n\nimport rego.v1\n\nimport data.terraform.policies.tags\n\n" +
			"test_tagged if { tags.deny == " + want + " with input as {\"plan\": {\"untagged\": false}} }\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAccPolicySetResource_source: a new set whose version errors is deleted again; an OPA set
// uploaded from a directory is ready before the apply ends and re-plans empty; a failing Rego test fails the plan and makes no version; an errored
// version fails the apply with the service's message.
func TestAccPolicySetResource_source(t *testing.T) {
	dir := t.TempDir()
	writePolicySetSource(t, dir, true, true)
	name := testAccName("opa-set")
	ctx := context.Background()
	c := testAccClient(t)
	config := fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name   = %q\n  kind   = \"opa\"\n  source = %q\n}\n", name, dir)
	var newest string
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// A new set whose version errors is deleted again: nothing is half-made.
			{Config: config, ExpectError: wrappedRE(`errored:.*policies.hcl.*was deleted again: nothing was made`)},
			{
				PreConfig: func() {
					if l, err := c.PolicySets.List(ctx, testAccOrganization(), &tfe.PolicySetListOptions{Search: name}); err != nil || len(l.Items) != 0 {
						t.Fatalf("after the errored create: %v, %d sets named %s", err, len(l.Items), name)
					}
					writePolicySetSource(t, dir, true, false)
				},
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("source_sha256"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))),
					statecheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("agent_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("governed_workspaces"), knownvalue.MapSizeExact(0)),
					stateCheckFunc(func(ctx context.Context, state *tfjson.State) error {
						id, err := stateID(state, policySetAddr)
						if err != nil {
							return err
						}
						ps, err := c.PolicySets.ReadWithOptions(ctx, id, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetCurrentVersion}})
						if err != nil || ps.CurrentVersion == nil || ps.NewestVersion == nil || ps.CurrentVersion.ID != ps.NewestVersion.ID {
							return fmt.Errorf("the set's version is not ready: %w", err)
						}
						newest = ps.NewestVersion.ID
						return knownvalue.StringExact(newest).CheckValue(policySetAttr(state, "version_id"))
					}),
				},
			},
			{
				PreConfig:   func() { writePolicySetSource(t, dir, false, false) },
				Config:      config,
				ExpectError: wrappedRE(`Policy test failed.*test_tagged`),
			},
			{
				PreConfig: func() { writePolicySetSource(t, dir, true, true) },
				Config:    config,
				Check: func(s *terraform.State) error {
					ps, err := c.PolicySets.Read(ctx, s.RootModule().Resources[policySetAddr].Primary.ID)
					if err != nil || ps.NewestVersion == nil || ps.NewestVersion.ID != newest {
						return fmt.Errorf("a failing test made a version: %w", err)
					}
					return nil
				},
				ExpectError: wrappedRE(`errored:.*policies.hcl`),
			},
			{PreConfig: func() { writePolicySetSource(t, dir, true, false) }, Config: config},
			{Config: config, PlanOnly: true},
		},
	})
}

// policySetAttr is attribute attr of the set in state, as JSON decodes it.
func policySetAttr(state *tfjson.State, attr string) any {
	if state == nil || state.Values == nil || state.Values.RootModule == nil {
		return nil
	}
	for _, r := range state.Values.RootModule.Resources {
		if r.Address == policySetAddr {
			return r.AttributeValues[attr]
		}
	}
	return nil
}

// TestAccPolicySetResource_movedFromTFE: a tfe_policy_set with policy_ids and workspace_ids (made
// by the hashicorp/tfe stand-in, v0.79.0's state) moves to a tfgov_policy_set whose scope names
// the same workspaces: the plan shows the move and 0 changes, no write is sent, the plan after is empty.
func TestAccPolicySetResource_movedFromTFE(t *testing.T) {
	rc := testTFEStandInConfig(t)
	if testAccSandbox() == nil {
		t.Skip("counts the requests with the in-process sandbox's counter; runs only against the sandbox")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-move-set")
	ctx := context.Background()
	ws, err := c.Workspaces.Create(ctx, sb.organization, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := c.Policies.Create(ctx, sb.organization, tfe.PolicyCreateOptions{Name: tfe.String("tags"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization, "TFE_HOSTNAME="}
	dir := t.TempDir()
	const providers = `terraform {
  required_providers {
    tfe   = { source = "hashicorp/tfe" }
    tfgov = { source = "tfgov/tfgov" }
  }
}
`
	tf := func(wantCode int, config string, args ...string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(providers+config), 0o600); err != nil {
			t.Fatal(err)
		}
		out, code := runTerraformEnv(t, dir, env, append(args, "-no-color")...)
		if code != wantCode {
			t.Fatalf("terraform %v: exit code %d, want %d\n%s", args, code, wantCode, out)
		}
		return out
	}
	tf(0, fmt.Sprintf(`resource "tfe_policy_set" "baseline" {
  name          = "baseline"
  description   = "moved"
  policy_ids    = [%q]
  workspace_ids = [%q]
}
`, pol.ID, ws.ID), "apply", "-auto-approve")
	moved := fmt.Sprintf(`resource "tfgov_policy_set" "baseline" {
  name        = "baseline"
  description = "moved"
  policy_ids  = [%q]
  scope = {
    workspace_ids = [%q]
  }
}

moved {
  from = tfe_policy_set.baseline
  to   = tfgov_policy_set.baseline
}
`, pol.ID, ws.ID)
	sb.srv.ResetStats()
	out := tf(2, moved, "plan", "-detailed-exitcode")
	for _, want := range []string{"tfe_policy_set.baseline has moved to tfgov_policy_set.baseline", "Plan: 0 to add, 0 to change, 0 to destroy."} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	checkReadsOnly(t, "plan", sb.srv.Stats())
	sb.srv.ResetStats()
	tf(0, moved, "apply", "-auto-approve")
	checkReadsOnly(t, "apply", sb.srv.Stats())
	if out := tf(0, moved, "plan", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("plan after the move:\n%s", out)
	}
}

// TestAccPolicySetResource_lostCreate: a create refused before the service acted is sent again and
// makes one set; a create the service made whose answer was lost finds the set by name and, with
// nothing proving it this create's, fails as a taken name does, with its import block (DESIGN.md
// "Lost creates"). Serial: its faults are on the organization's create route.
func TestAccPolicySetResource_lostCreate(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("lost answers are injected by the sandbox")
	}
	ctx := context.Background()
	c := testAccClient(t)
	org := testAccOrganization()
	post := "/api/v2/organizations/" + org + "/policy-sets"
	inject := func(after bool) {
		if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: post, Status: 503, After: after, Count: 1}); err != nil {
			t.Fatal(err)
		}
	}
	count := func(name string) int {
		l, err := c.PolicySets.List(ctx, org, &tfe.PolicySetListOptions{Search: name})
		if err != nil {
			t.Fatal(err)
		}
		return len(l.Items)
	}
	again, lost := testAccName("again"), testAccName("lost")
	t.Cleanup(func() {
		if ps, err := (&providerData{client: c}).findPolicySetByName(context.Background(), org, lost); err == nil {
			_ = c.PolicySets.Delete(context.Background(), ps.ID)
		}
	})
	config := func(name string) string {
		return fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name = %q\n}\n", name)
	}
	accTest(t, resource.TestCase{Steps: []resource.TestStep{{
		PreConfig: func() { inject(false) },
		Config:    config(again),
		Check: func(*terraform.State) error {
			if n := count(again); n != 1 {
				return fmt.Errorf("%d sets named %s, want 1", n, again)
			}
			return nil
		},
	}}})
	accTest(t, resource.TestCase{Steps: []resource.TestStep{{
		PreConfig:   func() { inject(true) },
		Config:      config(lost),
		ExpectError: wrappedRE(`already has a policy set named "` + lost + `" \(polset-\w+\).*import\s+\{\s+to\s+=\s+tfgov_policy_set\.<name>`),
	}}})
	if n := count(lost); n != 1 {
		t.Errorf("%d sets named %s after the lost answer, want the one the create made", n, lost)
	}
}

// TestAccPolicySetResource_example applies the resource's example (a global set with exclusions, a
// set scoped by projects and tags, an uploaded OPA set) in an organization of its own: it plans,
// applies and re-plans empty, each set governs what the sandbox's scope function says, and a workspace
// made later in a governed project appears in the next plan's governed_workspaces.
func TestAccPolicySetResource_example(t *testing.T) {
	rc := testCLIConfig(t)
	if testAccSandbox() == nil {
		t.Skip("compares with the sandbox's scope function")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-set-example")
	ctx := context.Background()
	org := sb.organization
	prj := func(name string) *tfe.Project {
		p, err := c.Projects.Create(ctx, org, tfe.ProjectCreateOptions{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	payments, platform, experiments := prj("payments"), prj("platform"), prj("experiments")
	for _, ws := range []tfe.WorkspaceCreateOptions{
		{Name: tfe.String("sandbox-alice")}, {Name: tfe.String("sandbox-bob")},
		{Name: tfe.String("pay-api"), Project: payments}, {Name: tfe.String("pay-legacy"), Project: payments, Tags: []*tfe.Tag{{Name: "legacy"}}},
		{Name: tfe.String("platform-net"), Project: platform}, {Name: tfe.String("lab"), Project: experiments, Tags: []*tfe.Tag{{Name: "experiment"}}},
		{Name: tfe.String("shop-prod"), TagBindings: []*tfe.TagBinding{{Key: "env", Value: "prod"}}},
	} {
		if _, err := c.Workspaces.Create(ctx, org, ws); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	src := filepath.Join(repoRoot(), "examples", "resources", "tfgov_policy_set")
	for _, f := range []string{"resource.tf", "vcs.tf", "required-tags.sentinel", "policies/policies.hcl", "policies/tags.rego", "policies/tags_test.rego"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		_ = os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o700)
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "providers.tf"), []byte("terraform {\n  required_providers {\n    tfgov = { source = \"tfgov/tfgov\" }\n  }\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token,
		"TFE_ORGANIZATION=" + org, "TFE_HOSTNAME=", "TF_VAR_payments_project_id=" + payments.ID, "TF_VAR_platform_project_id=" + platform.ID, "TF_VAR_oauth_token_id=" + oauthToken(t, c, org)}
	tf := func(wantCode int, args ...string) string {
		t.Helper()
		out, code := runTerraformEnv(t, dir, env, append(args, "-no-color")...)
		if code != wantCode {
			t.Fatalf("terraform %v: exit code %d, want %d\n%s", args, code, wantCode, out)
		}
		return out
	}
	out := tf(0, "apply", "-auto-approve")
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, `Policy set "production": 3 workspace(s) start and 0 stop being governed`) ||
		!strings.Contains(flat, "Starts governing (3): pay-api, platform-net, shop-prod.") {
		t.Errorf("the plan's warning does not name the production set's workspaces:\n%s", out)
	}
	check := func(want map[string][]string) {
		t.Helper()
		state := readState(t, dir)
		for name, names := range want {
			id := state.attr(t, "tfgov_policy_set", name, "id")
			got, _ := sb.srv.GovernedWorkspaces(id)
			raw, _ := state.attrRaw(t, "tfgov_policy_set", name, "governed_workspaces")
			gov, _ := raw.(map[string]any)
			var ids, gotNames []string
			for n, v := range gov {
				gotNames = append(gotNames, n)
				ids = append(ids, fmt.Sprint(v))
			}
			slices.Sort(ids)
			slices.Sort(gotNames)
			if !slices.Equal(gotNames, names) || !slices.Equal(ids, got) {
				t.Errorf("%s governs %v (%v); want %v, and the sandbox's %v", name, gotNames, ids, names, got)
			}
		}
	}
	check(map[string][]string{
		"baseline":   {"pay-api", "pay-legacy", "platform-net", "shop-prod"},
		"production": {"pay-api", "platform-net", "shop-prod"},
		"uploaded":   {"pay-api", "pay-legacy"},
		"from_vcs":   {"platform-net"},
	})
	tf(0, "plan", "-detailed-exitcode")
	if _, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("pay-batch"), Project: payments}); err != nil {
		t.Fatal(err)
	}
	tf(0, "apply", "-auto-approve", "-refresh-only")
	check(map[string][]string{
		"baseline":   {"pay-api", "pay-batch", "pay-legacy", "platform-net", "shop-prod"},
		"production": {"pay-api", "pay-batch", "platform-net", "shop-prod"},
		"uploaded":   {"pay-api", "pay-batch", "pay-legacy"},
	})
	tf(0, "plan", "-detailed-exitcode")
	tf(0, "destroy", "-auto-approve")
}

// TestAccPolicySetResource_sourceToPolicyIDs: a set that has taken a version (source) cannot take
// individual policies, as the service refuses them on a versioned set: the plan that moves it to
// policy_ids fails naming policy_ids, and nothing is written.
func TestAccPolicySetResource_sourceToPolicyIDs(t *testing.T) {
	dir := sentinelSetSource(t)
	name := testAccName("route-set")
	pol := fmt.Sprintf("resource \"tfgov_policy\" \"p\" {\n  name = %q\n  enforcement_level = \"advisory\"\n  content = \"main = rule { true }\\n\"\n}\n", name+"-p")
	set := func(content string) string {
		return pol + fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name = %q\n  description = \"d\"\n  %s\n}\n", name, content)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: set(fmt.Sprintf("source = %q", dir))},
			{Config: set("policy_ids = [tfgov_policy.p.id]"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)policy_ids.*versioned`)},
			{Config: set("policy_ids = []"), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionUpdate)}}},
		},
	})
}

// TestAccPolicySetResource_outsideVersionToPolicyIDs: a set with no content of the configuration's
// that took a version outside Terraform is versioned all the same: the plan reads the set and
// refuses policy_ids.
func TestAccPolicySetResource_outsideVersionToPolicyIDs(t *testing.T) {
	dir := sentinelSetSource(t)
	name := testAccName("route-set")
	pol := fmt.Sprintf("resource \"tfgov_policy\" \"p\" {\n  name = %q\n  enforcement_level = \"advisory\"\n  content = \"main = rule { true }\\n\"\n}\n", name+"-p")
	set := func(content string) string {
		return pol + fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name = %q\n  %s\n}\n", name, content)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: set("")},
			{
				PreConfig: func() {
					ctx, c := context.Background(), testAccClient(t)
					ps, err := c.PolicySets.List(ctx, testAccOrganization(), &tfe.PolicySetListOptions{Search: name})
					if err != nil || len(ps.Items) != 1 {
						t.Fatalf("listing set %s: %v", name, err)
					}
					v, err := c.PolicySetVersions.Create(ctx, ps.Items[0].ID)
					if err != nil {
						t.Fatal(err)
					}
					if err := c.PolicySetVersions.Upload(ctx, *v, dir); err != nil {
						t.Fatal(err)
					}
				},
				Config: set("policy_ids = [tfgov_policy.p.id]"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)policy_ids.*versioned`),
			},
		},
	})
}

// sentinelSetSource is a directory of a Sentinel set's source: sentinel.hcl and one policy.
func sentinelSetSource(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	hcl := "policy \"a\" {\n  source = \"./a.sentinel\"\n  enforcement_level = \"advisory\"\n}\n"
	for name, body := range map[string]string{"sentinel.hcl": hcl, "a.sentinel": "main = rule { true }\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
