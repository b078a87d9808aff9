package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/go-version"
	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

var (
	standInOnce sync.Once
	standInDir  string
	errStandIn  error
)

// testTFEStandInConfig builds the test-only hashicorp/tfe stand-in
// (internal/tfestandin) next to the provider testCLIConfig builds, and
// returns a CLI configuration whose dev_overrides serve both: tfgov/tfgov
// and, at registry.terraform.io/hashicorp/tfe, the stand-in.
func testTFEStandInConfig(t *testing.T) string {
	t.Helper()
	tfgovDir := filepath.Dir(testCLIConfig(t))
	standInOnce.Do(func() {
		standInDir = filepath.Join(tfgovDir, "hashicorp-tfe")
		// The stand-in is a Go module of its own (SDKv2 and mux stay out
		// of the provider's go.mod): go build -C runs in its directory.
		cmd := exec.Command("go", "build", "-C", filepath.Join(repoRoot(), "internal", "tfestandin"), "-o", filepath.Join(standInDir, "terraform-provider-tfe"), "./cmd/terraform-provider-tfe") //nolint:noctx // fixed arguments
		cmd.Dir = repoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			errStandIn = fmt.Errorf("go build the hashicorp/tfe stand-in: %w\n%s", err, out)
			return
		}
		rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"tfgov/tfgov\" = %q\n    \"hashicorp/tfe\" = %q\n  }\n  direct {}\n}\n", tfgovDir, standInDir)
		errStandIn = os.WriteFile(filepath.Join(standInDir, "terraformrc"), []byte(rc), 0o600)
	})
	if errStandIn != nil {
		t.Fatal(errStandIn)
	}
	return filepath.Join(standInDir, "terraformrc")
}

// TestAccMoveFromTFE follows the guide "Migrating from hashicorp/tfe"
// (templates/guides/migrating-from-hashicorp-tfe.md.tmpl) with its own
// example files: objects made with hashicorp/tfe (the stand-in, which
// writes v0.79.0's state) move to tfgov with `moved` blocks. The plan
// shows only moves, the plan and the apply send no write to the service
// (the sandbox's request counter), the agent token keeps its secret, the
// plan after is empty, and so is the plan once hashicorp/tfe is removed.
// One team access is turned into a schema version 0 state (workspace_id as
// <organization>/<workspace name>, no permissions), as hashicorp/tfe's
// first releases wrote it.
func TestAccMoveFromTFE(t *testing.T) {
	rc := testTFEStandInConfig(t)
	if testAccSandbox() == nil {
		t.Skip("counts the requests with the in-process sandbox's counter; runs only against the sandbox")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-move")
	ctx := context.Background()
	org := sb.organization
	ws, pool, env := moveFixtures(t, sb, c, rc)
	mod, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("network"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry})
	if err != nil {
		t.Fatal(err)
	}
	env = append(env, "TF_VAR_organization="+org, "TF_VAR_module_name="+mod.Name, "TF_VAR_module_provider="+mod.Provider, "TF_VAR_api_token=hunter2")
	g := newGuideRun(t, sb, env, "move-from-tfe")
	dir, tf, step := g.dir, g.tf, g.step

	// Step 1: the objects, made with hashicorp/tfe.
	step("1-tfe")
	tf(0, "apply", "-auto-approve")
	tf(0, "plan", "-detailed-exitcode") // the stand-in itself plans clean
	before := readState(t, dir)
	secret := before.attr(t, "tfe_agent_token", "ci", "token")
	if !strings.Contains(secret, ".atlasv1.") {
		t.Fatalf("agent token secret in the tfe state: %q", secret)
	}
	// Terraform 1.12 and later keep tfe_policy's resource identity, which
	// the move ignores; the stand-in writes it as v0.79.0 does.
	ver := terraformVersion(t)
	id := before.identity(t, "tfe_policy", "require_tags")
	switch {
	case ver.LessThan(version.Must(version.NewVersion("1.12.0"))): // no resource identities
	case id == nil:
		t.Errorf("Terraform %s kept no identity for tfe_policy", ver)
	case id["id"] != before.attr(t, "tfe_policy", "require_tags", "id") || id["organization"] != org || id["hostname"] == "":
		t.Errorf("tfe_policy identity: %v", id)
	}
	// A state the move cannot map fails the plan, naming the attribute, and
	// leaves the state as it was: the agent token without its secret.
	step("2-move")
	saved, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	before.rewrite(t, dir, "tfe_agent_token", "ci", 0, func(a map[string]any) { delete(a, "token") })
	edited, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	out := tf(1, "plan")
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, `Attribute "token" of the tfe_agent_token state (schema version 0) is missing`) {
		t.Errorf("plan of a tfe_agent_token without its secret:\n%s", out)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); !bytes.Equal(now, edited) {
		t.Error("a failed move changed the state file")
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), saved, 0o600); err != nil {
		t.Fatal(err)
	}
	before = readState(t, dir)

	// The developers' grant as schema version 0 wrote it.
	before.rewrite(t, dir, "tfe_team_access", "developers", 0, func(a map[string]any) {
		a["workspace_id"] = org + "/" + ws.Name
		delete(a, "permissions")
	})

	// Step 2: both providers, moved blocks. The plan shows seven moves and
	// nothing else (exit code 2: a move is a change of the state, which
	// only an apply makes); neither the plan nor the apply writes.
	step("2-move")
	after := g.move(
		"tfe_policy.require_tags has moved to tfgov_policy.require_tags",
		"tfe_team_access.developers has moved to tfgov_team_access.developers",
		"tfe_team_access.platform has moved to tfgov_team_access.platform",
		"tfe_agent_token.ci has moved to tfgov_agent_token.ci",
		"tfe_test_variable.region has moved to tfgov_module_test_variable.region",
		"tfe_test_variable.log_level has moved to tfgov_module_test_variable.log_level",
		"tfe_test_variable.api_token has moved to tfgov_module_test_variable.api_token",
	)
	if got := after.attr(t, "tfgov_agent_token", "ci", "token"); got != secret {
		t.Errorf("agent token secret after the move: %q, want %q", got, secret)
	}
	if got := after.attr(t, "tfgov_team_access", "developers", "workspace_id"); got != ws.ID {
		t.Errorf("workspace_id of the grant moved from schema version 0: %q, want %s", got, ws.ID)
	}

	// Step 3: hashicorp/tfe removed, and the sensitive variable moved to
	// value_wo: validate gives no warning (no secret kept in state), the
	// plan changes only that variable, in place, and the apply leaves its
	// value out of state.
	// The policy's code moves to source: the apply uploads nothing.
	step("3-tfgov")
	if out := tf(0, "validate"); strings.Contains(out, "Secret kept in state") {
		t.Errorf("terraform validate of the guide's final example warns of a secret kept in state:\n%s", out)
	}
	out = tf(2, "plan", "-detailed-exitcode")
	for _, w := range []string{"tfgov_module_test_variable.log_level will be updated in-place", "tfgov_policy.require_tags will be updated in-place", "Plan: 0 to add, 2 to change, 0 to destroy."} {
		if !strings.Contains(out, w) {
			t.Errorf("plan without hashicorp/tfe, LOG_LEVEL write-only, the policy's code from source, lacks %q:\n%s", w, out)
		}
	}
	policyID, _ := readState(t, dir).attrRaw(t, "tfgov_policy", "require_tags", "id")
	uploads := sb.srv.RequestsTo("PUT", fmt.Sprintf("/api/v2/policies/%s/upload", policyID))
	tf(0, "apply", "-auto-approve")
	if v, ok := readState(t, dir).attrRaw(t, "tfgov_module_test_variable", "log_level", "value"); !ok || v != nil {
		t.Errorf("LOG_LEVEL's value in state after the move to value_wo: %v, want null", v)
	}
	if v, ok := readState(t, dir).attrRaw(t, "tfgov_policy", "require_tags", "content"); !ok || v != nil {
		t.Errorf("the policy's content in state after the move to source: %v, want null", v)
	}
	if n := sb.srv.RequestsTo("PUT", fmt.Sprintf("/api/v2/policies/%s/upload", policyID)) - uploads; n != 0 {
		t.Errorf("the move from content to source uploaded the policy's code %d times, want 0", n)
	}
	if out := tf(0, "plan", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("plan after the move to value_wo:\n%s", out)
	}
	// tfgov manages what moved: destroy removes it from the service.
	tf(0, "destroy", "-auto-approve")
	if l, err := c.AgentTokens.List(ctx, pool.ID); err != nil || len(l.Items) != 0 {
		t.Errorf("agent tokens after destroy: %v, %v", l, err)
	}
	if l, err := c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{WorkspaceID: ws.ID}); err != nil || len(l.Items) != 0 {
		t.Errorf("team access after destroy: %v, %v", l, err)
	}
}

// moveFixtures makes what the migration guide's examples refer to in sb's
// organization (the workspace app, the teams developers and platform, the
// agent pool ci) and returns the workspace, the pool and the environment
// that runs terraform there with those IDs as TF_VAR_ variables.
func moveFixtures(t *testing.T, sb *sandboxOrganization, c *tfe.Client, rc string) (*tfe.Workspace, *tfe.AgentPool, []string) {
	t.Helper()
	ctx := context.Background()
	org := sb.organization
	ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	var teams []string
	for _, n := range []string{"developers", "platform"} {
		tm, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(n), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatal(err)
		}
		teams = append(teams, tm.ID)
	}
	pool, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String("ci")})
	if err != nil {
		t.Fatal(err)
	}
	return ws, pool, []string{
		"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + org, "TFE_HOSTNAME=",
		"TF_VAR_workspace_id=" + ws.ID, "TF_VAR_developers_team_id=" + teams[0], "TF_VAR_platform_team_id=" + teams[1], "TF_VAR_agent_pool_id=" + pool.ID,
	}
}

// TestAccMoveFromTFE_instances follows the guide's section on count and
// for_each with its example (examples/guides/move-from-tfe-instances): a
// for_each resource moves with one moved block, keys kept; a count
// resource moves to for_each with one moved block per instance. The plan
// shows four moves and nothing else, the apply writes nothing, every
// agent token keeps its secret, and the plan after is empty.
func TestAccMoveFromTFE_instances(t *testing.T) {
	rc := testTFEStandInConfig(t)
	if testAccSandbox() == nil {
		t.Skip("counts the requests with the in-process sandbox's counter; runs only against the sandbox")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-move-instances")
	_, _, env := moveFixtures(t, sb, c, rc)
	g := newGuideRun(t, sb, env, "move-from-tfe-instances")
	dir, tf, step := g.dir, g.tf, g.step

	step("1-tfe")
	tf(0, "apply", "-auto-approve")
	before := readState(t, dir)
	secrets := map[string]string{}
	for _, r := range before.Resources {
		if r.Type != "tfe_agent_token" {
			continue
		}
		for _, in := range r.Instances {
			secrets[in.Attributes["description"].(string)], _ = in.Attributes["token"].(string)
		}
	}
	if len(secrets) != 2 {
		t.Fatalf("agent tokens in the tfe state: %v", secrets)
	}

	step("2-move")
	after := g.move(
		`tfe_team_access.readers["developers"] has moved to tfgov_team_access.readers["developers"]`,
		`tfe_team_access.readers["platform"] has moved to tfgov_team_access.readers["platform"]`,
		`tfe_agent_token.ci[0] has moved to tfgov_agent_token.ci["ci-0"]`,
		`tfe_agent_token.ci[1] has moved to tfgov_agent_token.ci["ci-1"]`,
	)
	for _, r := range after.Resources {
		if r.Type != "tfgov_agent_token" {
			continue
		}
		for _, in := range r.Instances {
			if d, _ := in.Attributes["description"].(string); in.Attributes["token"] != secrets[d] {
				t.Errorf("agent token %q lost its secret in the move", d)
			}
		}
	}
}

// TestAccMoveFromTFE_policySets follows the guide's section "Policy sets and their attachments"
// with its example (examples/guides/move-from-tfe-policy-sets): a tfe_policy_set attached to two
// workspaces by tfe_workspace_policy_set becomes one tfgov_policy_set whose scope names both. The
// plan shows the move, the two attachments forgotten and 0 to add, change or destroy; neither the
// plan nor the apply writes; the set still governs both workspaces and the plan after is empty.
func TestAccMoveFromTFE_policySets(t *testing.T) {
	rc := testTFEStandInConfig(t)
	if testAccSandbox() == nil {
		t.Skip("counts the requests with the in-process sandbox's counter; runs only against the sandbox")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-move-sets")
	ctx := context.Background()
	var wsIDs []string
	for _, n := range []string{"app", "web"} {
		ws, err := c.Workspaces.Create(ctx, sb.organization, tfe.WorkspaceCreateOptions{Name: tfe.String(n)})
		if err != nil {
			t.Fatal(err)
		}
		wsIDs = append(wsIDs, ws.ID)
	}
	pol, err := c.Policies.Create(ctx, sb.organization, tfe.PolicyCreateOptions{Name: tfe.String("tags"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization, "TFE_HOSTNAME=",
		"TF_VAR_policy_id=" + pol.ID, "TF_VAR_app_workspace_id=" + wsIDs[0], "TF_VAR_web_workspace_id=" + wsIDs[1]}
	g := newGuideRun(t, sb, env, "move-from-tfe-policy-sets")
	dir, tf, step := g.dir, g.tf, g.step
	governed := func(typ string) {
		t.Helper()
		id := readState(t, dir).attr(t, typ, "baseline", "id")
		ps, err := c.PolicySets.ReadWithOptions(ctx, id, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetWorkspaces}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range ps.Workspaces {
			got = append(got, w.ID)
		}
		want := append([]string(nil), wsIDs...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s.baseline is attached to %v, want %v", typ, got, want)
		}
	}

	step("1-tfe")
	tf(0, "apply", "-auto-approve")
	tf(0, "plan", "-detailed-exitcode") // the stand-in reads the attachments back
	governed("tfe_policy_set")

	step("2-move")
	g.move(
		"tfe_policy_set.baseline has moved to tfgov_policy_set.baseline",
		"tfe_workspace_policy_set.app will no longer be managed by Terraform",
		"tfe_workspace_policy_set.web will no longer be managed by Terraform",
	)
	governed("tfgov_policy_set")
}

// guideRun runs a guide's example steps (examples/guides/<guide>/<step>) in one directory, as its
// reader would.
type guideRun struct {
	t     *testing.T
	sb    *sandboxOrganization
	dir   string
	env   []string
	guide string
}

func newGuideRun(t *testing.T, sb *sandboxOrganization, env []string, guide string) *guideRun {
	return &guideRun{t: t, sb: sb, dir: t.TempDir(), env: env, guide: guide}
}

// tf runs terraform and fails the test unless it exits with wantCode.
func (g *guideRun) tf(wantCode int, args ...string) string {
	g.t.Helper()
	out, code := runTerraformEnv(g.t, g.dir, g.env, append(args, "-no-color")...)
	if code != wantCode {
		g.t.Fatalf("terraform %s: exit code %d, want %d\n%s", strings.Join(args, " "), code, wantCode, out)
	}
	return out
}

// step copies the step's example files into the directory, over the last step's.
func (g *guideRun) step(name string) {
	g.t.Helper()
	src := filepath.Join(repoRoot(), "examples", "guides", g.guide, name)
	files, _ := filepath.Glob(filepath.Join(src, "*"))
	if len(files) == 0 {
		g.t.Fatalf("no example files in %s", src)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			g.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(g.dir, filepath.Base(f)), b, 0o600); err != nil {
			g.t.Fatal(err)
		}
	}
}

// move plans and applies a step of moved (and removed) blocks: the plan shows each of the moves and
// nothing else (exit code 2: a move changes the state, which only an apply makes), neither the plan
// nor the apply writes to the service, the state after holds only tfgov's resources, and the
// plan after is empty. It returns that state.
func (g *guideRun) move(moves ...string) *tfState {
	t := g.t
	t.Helper()
	g.sb.srv.ResetStats()
	out := g.tf(2, "plan", "-detailed-exitcode")
	for _, m := range append(moves, "Plan: 0 to add, 0 to change, 0 to destroy.") {
		if !strings.Contains(out, m) {
			t.Errorf("plan lacks %q:\n%s", m, out)
		}
	}
	for _, not := range []string{"will be created", "will be updated", "must be replaced", "will be destroyed", "changed outside of Terraform"} {
		if strings.Contains(out, not) {
			t.Errorf("plan with the moved blocks shows %q:\n%s", not, out)
		}
	}
	checkReadsOnly(t, "plan", g.sb.srv.Stats())
	g.sb.srv.ResetStats()
	g.tf(0, "apply", "-auto-approve")
	checkReadsOnly(t, "apply", g.sb.srv.Stats())
	after := readState(t, g.dir)
	for _, r := range after.Resources {
		if strings.HasPrefix(r.Type, "tfe_") || !strings.Contains(r.Provider, "tfgov/tfgov") {
			t.Errorf("state still holds %s.%s of %s", r.Type, r.Name, r.Provider)
		}
	}
	g.sb.srv.ResetStats()
	if out := g.tf(0, "plan", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("plan after the move:\n%s", out)
	}
	logStats(t, "plan after the move", g.sb.srv.Stats())
	return after
}

// checkReadsOnly fails on any request but a GET, and logs the counts.
func checkReadsOnly(t *testing.T, what string, stats map[string]int) {
	t.Helper()
	logStats(t, what, stats)
	for route, n := range stats {
		if !strings.HasPrefix(route, "GET ") {
			t.Errorf("%s sent %d %s: a move must not write", what, n, route)
		}
	}
}

func logStats(t *testing.T, what string, stats map[string]int) {
	t.Helper()
	routes := make([]string, 0, len(stats))
	total := 0
	for r, n := range stats {
		routes = append(routes, fmt.Sprintf("%d %s", n, r))
		total += n
	}
	sort.Strings(routes)
	t.Logf("%s: %d requests:\n  %s", what, total, strings.Join(routes, "\n  "))
}

// tfState is the part of a local state file the test reads.
type tfState struct {
	raw       map[string]any
	Resources []struct {
		Type, Name, Provider string
		Instances            []struct {
			SchemaVersion int            `json:"schema_version"`
			Attributes    map[string]any `json:"attributes"`
			Identity      map[string]any `json:"identity"`
		}
	}
}

func readState(t *testing.T, dir string) *tfState {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var s tfState
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s.raw); err != nil {
		t.Fatal(err)
	}
	return &s
}

func (s *tfState) attr(t *testing.T, typ, name, attr string) string {
	t.Helper()
	for _, r := range s.Resources {
		if r.Type == typ && r.Name == name && len(r.Instances) == 1 {
			v, _ := r.Instances[0].Attributes[attr].(string)
			return v
		}
	}
	t.Fatalf("no %s.%s in state", typ, name)
	return ""
}

// attrRaw is attribute attr of typ.name in state as decoded (nil for
// null), and whether the state has it.
func (s *tfState) attrRaw(t *testing.T, typ, name, attr string) (any, bool) {
	t.Helper()
	for _, r := range s.Resources {
		if r.Type == typ && r.Name == name && len(r.Instances) == 1 {
			v, ok := r.Instances[0].Attributes[attr]
			return v, ok
		}
	}
	t.Fatalf("no %s.%s in state", typ, name)
	return nil, false
}

// identity is the resource identity of typ.name in state, nil without one.
func (s *tfState) identity(t *testing.T, typ, name string) map[string]any {
	t.Helper()
	for _, r := range s.Resources {
		if r.Type == typ && r.Name == name && len(r.Instances) == 1 {
			return r.Instances[0].Identity
		}
	}
	t.Fatalf("no %s.%s in state", typ, name)
	return nil
}

// rewrite edits one resource instance of the state file in dir, setting
// its schema version, and bumps the serial as Terraform would.
func (s *tfState) rewrite(t *testing.T, dir, typ, name string, version int, edit func(map[string]any)) {
	t.Helper()
	found := false
	for _, r := range s.raw["resources"].([]any) {
		r := r.(map[string]any)
		if r["type"] != typ || r["name"] != name {
			continue
		}
		inst := r["instances"].([]any)[0].(map[string]any)
		inst["schema_version"] = version
		edit(inst["attributes"].(map[string]any))
		found = true
	}
	if !found {
		t.Fatalf("no %s.%s in state", typ, name)
	}
	s.raw["serial"] = s.raw["serial"].(float64) + 1
	b, err := json.MarshalIndent(s.raw, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}
