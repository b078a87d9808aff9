package provider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// The chaos acceptance test (issue 12): 224 resources of six types applied
// through the sandbox's chaos mode at 20% faults, 5% of each kind (429 and
// 503 before processing, lost answers, slow answers), with a fixed seed.
// The apply must succeed; the service must then hold exactly the objects
// in state (no orphans, duplicates or missing ones, counted through the
// API with go-tfe), except agent tokens that lost creates may have made,
// which are never revoked and each of which a warning names; the plan
// that follows must be empty (plugin-testing checks it). A second
// configuration shares the pool (and the shared tokens' description), the
// workspaces, the module and the organization, and keeps making tokens
// while the apply runs: nothing it holds may be revoked, adopted or
// changed (issue 18).
// The same configuration applied with no faults gives the wall time to
// compare with. No timing is asserted.
const (
	chaosSharedTokens = 30 // agent tokens with one description: count siblings
	chaosOwnTokens    = 30 // agent tokens with a description each
	chaosPolicies     = 40 // policies, each with an upload
	chaosTeams        = 10 // teams × chaosWorkspaces team access grants
	chaosWorkspaces   = 4
	chaosVariables    = 40 // module test variables
	chaosTestRuns     = 4  // module test runs, each uploading its configuration
)

var chaosFaults = sandbox.Chaos{
	Seed:           12,
	RateLimited:    0.05,
	Unavailable:    0.05,
	LostAnswer:     0.05,
	Slow:           0.05,
	SlowDelay:      200 * time.Millisecond,
	RateLimitReset: 50 * time.Millisecond,
}

func TestAccChaos(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	if testAccSandbox() == nil {
		t.Skip("chaos mode needs the sandbox")
	}
	calm := runChaosApply(t, sandbox.Chaos{})
	chaos := runChaosApply(t, chaosFaults)
	t.Logf("chaos: %d resources; plan+apply took %s with no faults and %s at 20%% faults (%.1fx)",
		chaos.resources, calm.wall.Round(time.Millisecond), chaos.wall.Round(time.Millisecond), chaos.wall.Seconds()/calm.wall.Seconds())
	t.Logf("chaos: faults injected by kind: %v; requests %d (no faults: %d)", chaos.faults, chaos.requests, calm.requests)
	t.Logf("chaos: retries %d (no faults: %d); reconciliations by kind: %v", chaos.retries, calm.retries, chaos.reconciled)
	t.Logf("chaos: orphans %d, duplicates %d, missing %d (no faults: %d, %d, %d)", chaos.orphans, chaos.duplicates, chaos.missing, calm.orphans, calm.duplicates, calm.missing)
	t.Logf("chaos: agent tokens left by lost creates and named in warnings: %d (no faults: %d); the other configuration's tokens its failed creates may have made: %d",
		chaos.left, calm.left, chaos.otherLost)
	t.Logf("chaos: destroy under the same chaos: faults injected by kind: %v; objects left: %d", chaos.destroyFaults, chaos.leftAfterDestroy)
	if n := chaos.faults[sandbox.ChaosLostAnswer503] + chaos.faults[sandbox.ChaosLostAnswerDropped]; n == 0 {
		t.Errorf("no lost answers were injected: the test proves nothing about them")
	}
}

type chaosResult struct {
	resources                    int
	wall                         time.Duration
	faults                       map[string]int
	requests                     int
	retries                      int64
	reconciled                   map[string]int
	orphans, duplicates, missing int
	// left: agent tokens a lost create may have made, left alone and
	// named in a warning; otherLost: tokens the second configuration's
	// failed creates may have made.
	left, otherLost  int
	destroyFaults    map[string]int
	leftAfterDestroy int
}

// runChaosApply applies the configuration to a sandbox of its own, with
// the given chaos during plan and apply, and counts what the service holds
// against the state.
func runChaosApply(t *testing.T, chaos sandbox.Chaos) *chaosResult {
	t.Helper()
	ctx := context.Background()
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-chaos")
	org := sb.organization
	pool, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String("chaos")})
	if err != nil {
		t.Fatal(err)
	}
	var teams, workspaces []string
	for i := range chaosTeams {
		tm, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("chaos-%d", i)), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatal(err)
		}
		teams = append(teams, tm.ID)
	}
	for i := range chaosWorkspaces {
		ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("chaos-%d", i))})
		if err != nil {
			t.Fatal(err)
		}
		workspaces = append(workspaces, ws.ID)
	}
	m, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("chaos"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry})
	if err != nil {
		t.Fatal(err)
	}
	mod := moduleRef{Organization: org, Name: m.Name, Provider: m.Provider}
	// A second configuration sharing the pool (and the shared tokens'
	// description), the workspaces, the module and the organization,
	// which keeps making tokens during the apply.
	other, err := newOtherConfiguration(ctx, c, org, pool.ID, "chaos", workspaces, mod, testModuleDir(t, "pass"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.stopApplying)

	config := fmt.Sprintf(`
provider "tfgov" {
  address      = %[1]q
  token        = %[2]q
  organization = %[3]q
}

locals {
  teams      = %[4]s
  workspaces = %[5]s
}

resource "tfgov_agent_token" "shared" {
  count         = %[6]d
  agent_pool_id = %[7]q
  description   = "chaos"
}

resource "tfgov_agent_token" "own" {
  count         = %[8]d
  agent_pool_id = %[7]q
  description   = "chaos-${count.index}"
}

resource "tfgov_policy" "p" {
  count       = %[9]d
  name        = "chaos-${count.index}"
  description = "policy ${count.index}"
}

resource "tfgov_policy_upload" "p" {
  count     = %[9]d
  policy_id = tfgov_policy.p[count.index].id
  content   = "main = rule { ${count.index} >= 0 }\n"
}

resource "tfgov_team_access" "t" {
  count        = %[10]d
  team_id      = local.teams[count.index %% length(local.teams)]
  workspace_id = local.workspaces[floor(count.index / length(local.teams))]
  access       = "read"
}

resource "tfgov_module_test_variable" "v" {
  count           = %[11]d
  module_name     = %[12]q
  module_provider = %[13]q
  key             = "CHAOS_${count.index}"
  value           = "value-${count.index}"
}

resource "tfgov_module_test_run" "r" {
  count           = %[14]d
  module_name     = %[12]q
  module_provider = %[13]q
  source          = %[15]q
  triggers        = { n = count.index }
}
`, sb.address, sb.token, org, hclList(teams), hclList(workspaces), chaosSharedTokens, pool.ID, chaosOwnTokens,
		chaosPolicies, chaosTeams*chaosWorkspaces, chaosVariables, mod.Name, mod.Provider, chaosTestRuns, testModuleDir(t, "pass"))

	res := &chaosResult{resources: chaosSharedTokens + chaosOwnTokens + 2*chaosPolicies + chaosTeams*chaosWorkspaces + chaosVariables + chaosTestRuns}
	var start time.Time
	var retries0 int64
	var reconciled0 map[string]int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				sb.srv.ResetStats()
				if err := sb.srv.SetChaos(chaos); err != nil {
					t.Fatal(err)
				}
				retries0, reconciled0 = retriesMade.Load(), reconciliations()
				other.applyMeanwhile(100 * time.Millisecond)
				start = time.Now()
			},
			Config: config,
			Check: func(s *terraform.State) error {
				res.wall = time.Since(start)
				other.stopApplying()
				if err := sb.srv.SetChaos(sandbox.Chaos{}); err != nil {
					return err
				}
				res.faults = sb.srv.ChaosStats()
				for _, n := range sb.srv.Stats() {
					res.requests += n
				}
				res.retries = retriesMade.Load() - retries0
				res.reconciled = map[string]int{}
				for k, v := range reconciliations() {
					if d := v - reconciled0[k]; d != 0 {
						res.reconciled[k] = d
					}
				}
				if err := other.unchanged(ctx, org, workspaces, mod); err != nil {
					return err
				}
				return res.count(ctx, c, s, pool.ID, org, workspaces, mod, other)
			},
		}, {
			// Destroy under the same chaos: a DELETE whose answer was lost
			// is retried and answered 404, which is success.
			PreConfig: func() {
				sb.srv.ResetStats()
				if err := sb.srv.SetChaos(chaos); err != nil {
					t.Fatal(err)
				}
			},
			Config:  config,
			Destroy: true,
			// plugin-testing hands a destroy step's Check the state from
			// before the destroy: after it, the service must hold nothing.
			Check: func(*terraform.State) error {
				if err := sb.srv.SetChaos(sandbox.Chaos{}); err != nil {
					return err
				}
				res.destroyFaults = sb.srv.ChaosStats()
				if err := other.unchanged(ctx, org, workspaces, mod); err != nil {
					return err
				}
				left := &chaosResult{}
				err := left.count(ctx, c, nil, pool.ID, org, workspaces, mod, other)
				res.leftAfterDestroy = left.orphans
				return err
			},
		}},
	})
	return res
}

// count compares what the service holds with the state, kind by kind, and
// fails on any orphan, duplicate or missing object. It lists through
// go-tfe, paging to the end (second_config_test.go). The second
// configuration's objects are not this configuration's: they are skipped.
// Agent tokens that a lost create may have made are never revoked: a token
// that a warning named is counted as left (res.left); a token with the
// shared description that nobody named may be one that a create of the
// second configuration made and never heard of (res.otherLost), up to the
// number of its creates that failed.
func (res *chaosResult) count(ctx context.Context, c *tfe.Client, s *terraform.State, poolID, org string, workspaces []string, mod moduleRef, other *otherConfiguration) error {
	inState := map[string]map[string]bool{}
	var resources map[string]*terraform.ResourceState
	if s != nil && s.RootModule() != nil {
		resources = s.RootModule().Resources
	}
	for _, r := range resources {
		if inState[r.Type] == nil {
			inState[r.Type] = map[string]bool{}
		}
		inState[r.Type][r.Primary.ID] = true
	}
	var problems []string
	compare := func(typ string, onService map[string]int) {
		for id, n := range onService {
			if n > 1 {
				res.duplicates += n - 1
				problems = append(problems, fmt.Sprintf("%s %s: %d copies", typ, id, n))
			}
			if !inState[typ][id] {
				res.orphans++
				problems = append(problems, fmt.Sprintf("%s %s: on the service, not in state", typ, id))
			}
		}
		for id := range inState[typ] {
			if onService[id] == 0 {
				res.missing++
				problems = append(problems, fmt.Sprintf("%s %s: in state, not on the service", typ, id))
			}
			if other.holds(id) {
				problems = append(problems, fmt.Sprintf("%s %s: the other configuration's, adopted", typ, id))
			}
		}
	}

	tokens := map[string]int{}
	ownDescriptions := map[string]int{}
	allTokens, err := serviceAgentTokens(ctx, c, poolID)
	if err != nil {
		return err
	}
	otherUnknown := 0
	for _, tok := range allTokens {
		switch {
		case inState["tfgov_agent_token"][tok.ID]:
		case other.holds(tok.ID):
			continue
		case isOrphanCandidate(tok.ID):
			res.left++
			continue
		case tok.Description == "chaos" && other != nil && otherUnknown < other.failedCreates:
			otherUnknown++
			res.otherLost++
			continue
		}
		tokens[tok.ID]++
		if tok.Description != "chaos" {
			ownDescriptions[tok.Description]++
		}
	}
	compare("tfgov_agent_token", tokens)
	for d, n := range ownDescriptions {
		if n > 1 {
			res.duplicates += n - 1
			problems = append(problems, fmt.Sprintf("agent token %q: %d tokens", d, n))
		}
	}

	policies := map[string]int{}
	pols, err := servicePolicies(ctx, c, org)
	if err != nil {
		return err
	}
	for _, p := range pols {
		if !other.holds(p.ID) {
			policies[p.ID]++
		}
	}
	compare("tfgov_policy", policies)
	// Every upload in state: its policy holds the code.
	uploads := map[string]int{}
	for id := range inState["tfgov_policy_upload"] {
		if code, err := c.Policies.Download(ctx, id); err == nil && strings.HasPrefix(string(code), "main = rule") {
			uploads[id]++
		}
	}
	compare("tfgov_policy_upload", uploads)

	grants := map[string]int{}
	for _, ws := range workspaces {
		l, err := serviceTeamAccess(ctx, c, ws)
		if err != nil {
			return err
		}
		for _, g := range l {
			if !other.holds(g.ID) {
				grants[g.ID]++
			}
		}
	}
	compare("tfgov_team_access", grants)

	vars := map[string]int{}
	vl, err := serviceTestVariables(ctx, c, mod)
	if err != nil {
		return err
	}
	for _, v := range vl {
		if !other.holds(v.ID) {
			vars[v.ID]++
		}
	}
	compare("tfgov_module_test_variable", vars)

	// Runs cannot be deleted: after a destroy they stay on the service.
	if s != nil {
		runs := map[string]int{}
		l, err := serviceTestRuns(ctx, c, mod)
		if err != nil {
			return err
		}
		for _, r := range l {
			if !other.holds(r.ID) {
				runs[r.ID]++
			}
		}
		compare("tfgov_module_test_run", runs)
	}

	if len(problems) > 0 {
		slices.Sort(problems)
		return fmt.Errorf("the service does not hold exactly the objects in state:\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

func hclList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
