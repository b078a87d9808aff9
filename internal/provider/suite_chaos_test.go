package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// The chaos acceptance test: 224 resources of six types applied
// through the sandbox's chaos mode at 20% faults, 5% of each kind (429 and
// 503 before processing, lost answers, slow answers), with a fixed seed,
// by the terraform binary (its output is what a user sees). A lost answer
// whose object the provider cannot prove its own (DESIGN.md "Lost creates") ends the apply
// with an "already exists" error naming that object's import; every error
// must name one, and no object may be left on the service that is neither
// in state nor named in the output: agent tokens that lost creates may
// have made are never revoked, and each is named in a warning. The test
// then follows the errors as a user would (an import block per error,
// with the address from its "with" line) and applies: the plan that
// follows must be empty, and the service must hold exactly the objects in
// state (no orphans, duplicates or missing ones, counted through the API
// with go-tfe), besides the tokens named. A second configuration shares
// the pool (and the shared tokens' description), the workspaces, the
// module and the organization, and keeps making tokens while the apply
// runs: nothing it holds may be revoked, adopted, named for import or
// changed (never touch what this instance did not make). The same configuration applied with no faults
// (which must succeed at once) gives the wall time to compare with. No
// timing is asserted.
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
	t.Logf("chaos: %d resources; apply took %s with no faults and %s at 20%% faults (%.1fx)",
		chaos.resources, calm.wall.Round(time.Millisecond), chaos.wall.Round(time.Millisecond), chaos.wall.Seconds()/calm.wall.Seconds())
	t.Logf("chaos: faults injected by kind: %v; requests %d (no faults: %d)", chaos.faults, chaos.requests, calm.requests)
	t.Logf("chaos: errors naming an object to import: %d (no faults: %d); imported, then converged to an empty plan", chaos.imports, calm.imports)
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
	imports                      int // errors naming an object to import
	orphans, duplicates, missing int
	// named: objects not in state that the apply's output names for
	// import; left: agent tokens a lost create may have made, left alone
	// and named in a warning; otherLost: tokens the second
	// configuration's failed creates may have made.
	named, left, otherLost int
	destroyFaults          map[string]int
	leftAfterDestroy       int
}

// runChaosApply applies the configuration to a sandbox of its own with the
// terraform binary, with the given chaos during the apply, counts what the
// service holds against the state and the output, follows the errors'
// import blocks with no faults to an empty plan, and destroys under the
// same chaos.
func runChaosApply(t *testing.T, chaos sandbox.Chaos) *chaosResult {
	t.Helper()
	ctx := context.Background()
	rc := testCLIConfig(t)
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-chaos")
	org := sb.organization
	// The parents the kits ask for, and the second configuration's: a
	// pool, the workspaces and a module.
	need := fleetParents(typeKit.chaos, map[*parentKind]int{parentPool: 1, parentWorkspace: chaosWorkspaces, parentModule: 1})
	m := parentMaker{t: t, ctx: ctx, c: c, org: org, name: func(k *parentKind, i int) string { return fmt.Sprintf("chaos-%s-%d", k.prefix, i) }}
	env := fleetEnv{parentIDs: m.make(need), moduleDir: testModuleDir(t, "pass")}
	// A second configuration sharing the pool (and the shared tokens'
	// description), the workspaces, the module and the organization,
	// which keeps making tokens during the apply.
	other, err := newOtherConfiguration(ctx, c, org, env.id(parentPool), "chaos", env.all(parentWorkspace), env.mod(), testModuleDir(t, "pass"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.stopApplying)

	config, resources := fleetConfig(fmt.Sprintf(chaosHead, sb.address, sb.token, org), env, typeKit.chaos)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := func(args ...string) (string, int) {
		return runTerraformEnv(t, dir, []string{"TF_CLI_CONFIG_FILE=" + rc}, append(args, "-no-color")...)
	}
	setChaos := func(ch sandbox.Chaos) {
		if err := sb.srv.SetChaos(ch); err != nil {
			t.Fatal(err)
		}
	}
	res := &chaosResult{resources: resources}

	// 1. The apply under chaos, while the other configuration makes tokens.
	sb.srv.ResetStats()
	setChaos(chaos)
	other.applyMeanwhile(100 * time.Millisecond)
	start := time.Now()
	out, code := tf("apply", "-auto-approve")
	res.wall = time.Since(start)
	other.stopApplying()
	setChaos(sandbox.Chaos{})
	res.faults = sb.srv.ChaosStats()
	for _, n := range sb.srv.Stats() {
		res.requests += n
	}
	imports, unnamed := importBlocksFromErrors(out)
	res.imports = strings.Count(imports, "import {")
	switch {
	case code != 0 && chaos == (sandbox.Chaos{}):
		t.Fatalf("the apply with no faults failed:\n%s", out)
	case code != 0 && (len(unnamed) > 0 || imports == ""):
		t.Fatalf("the apply under chaos failed with errors that name no object to import (%s):\n%s", strings.Join(unnamed, "; "), out)
	}
	named := map[string]bool{}
	for _, id := range objectIDRE.FindAllString(out, -1) {
		named[id] = true
	}
	for _, m := range importIDRE.FindAllStringSubmatch(imports, -1) {
		id := strings.Trim(m[1], `"`)
		if other.holds(id[strings.LastIndex(id, "/")+1:]) {
			t.Errorf("an error advised importing %s, which the other configuration holds", id)
		}
	}
	if err := other.unchanged(ctx, org, env.all(parentWorkspace), env.mod()); err != nil {
		t.Fatal(err)
	}
	// Nothing on the service that is neither in state nor named.
	if err := res.count(ctx, c, chaosState(t, tf), named, env, other); err != nil {
		t.Fatalf("after the apply: %v\n%s", err, out)
	}

	// 2. Follow the errors: an import block each, then an empty plan, and
	// the service holds exactly the state (and the tokens named).
	if imports != "" {
		if err := os.WriteFile(filepath.Join(dir, "imports.tf"), []byte(imports), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, code := tf("apply", "-auto-approve"); code != 0 {
			t.Fatalf("the apply with the import blocks the errors gave failed:\n%s\nimports.tf:\n%s", out, imports)
		}
	}
	if out, code := tf("plan", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after following the errors is not empty (exit %d):\n%s", code, out)
	}
	tokensNamed := map[string]bool{}
	for id := range named {
		if strings.HasPrefix(id, "at-") {
			tokensNamed[id] = true
		}
	}
	converged := &chaosResult{}
	if err := converged.count(ctx, c, chaosState(t, tf), tokensNamed, env, other); err != nil {
		t.Fatalf("after following the errors: %v", err)
	}
	res.orphans, res.duplicates, res.missing = converged.orphans, converged.duplicates, converged.missing

	// 3. Destroy under the same chaos: a DELETE whose answer was lost is
	// retried and answered 404, which is success. The service then holds
	// nothing of this configuration's but the tokens named.
	sb.srv.ResetStats()
	setChaos(chaos)
	out, code = tf("destroy", "-auto-approve")
	setChaos(sandbox.Chaos{})
	res.destroyFaults = sb.srv.ChaosStats()
	if code != 0 {
		t.Fatalf("the destroy under chaos failed:\n%s", out)
	}
	if err := other.unchanged(ctx, org, env.all(parentWorkspace), env.mod()); err != nil {
		t.Fatal(err)
	}
	left := &chaosResult{}
	if err := left.count(ctx, c, nil, tokensNamed, env, other); err != nil {
		t.Fatalf("after the destroy: %v", err)
	}
	res.leftAfterDestroy = left.orphans
	return res
}

// chaosState reads the state's IDs by resource type (terraform show).
func chaosState(t *testing.T, tf func(args ...string) (string, int)) map[string]map[string]bool {
	t.Helper()
	out, code := tf("show", "-json")
	if code != 0 {
		t.Fatalf("terraform show: %s", out)
	}
	var show struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type   string         `json:"type"`
					Values map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &show); err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, out)
	}
	state := map[string]map[string]bool{}
	for _, r := range show.Values.RootModule.Resources {
		if state[r.Type] == nil {
			state[r.Type] = map[string]bool{}
		}
		id, _ := r.Values["id"].(string)
		state[r.Type][id] = true
	}
	return state
}

// count compares what the service holds with the state (IDs by resource
// type; nil after a destroy), kind by kind, and fails on any orphan,
// duplicate or missing object. An object not in state that the output
// named (named) is not an orphan: an error gave its import block, or, for
// an agent token a lost create may have made, a warning named it (counted
// as left). It lists through go-tfe, paging to the end
// (acctest_service_count_test.go). The second configuration's objects are not
// this configuration's: they are skipped; a token with the shared
// description that nobody named may be one that a create of the second
// configuration made and never heard of (res.otherLost), up to the number
// of its creates that failed.
func (res *chaosResult) count(ctx context.Context, c *tfe.Client, inState map[string]map[string]bool, named map[string]bool, env fleetEnv, other *otherConfiguration) error {
	if inState == nil {
		inState = map[string]map[string]bool{}
	}
	var problems []string
	otherUnknown := 0
	for _, k := range kits {
		fk := k.chaos()
		if !fk.ok || (fk.c.outlivesDestroy && len(inState) == 0) {
			continue
		}
		typ := kitName(k)
		objects, err := fk.c.objects(ctx, c, env)
		if err != nil {
			return err
		}
		onService, keys := map[string]int{}, map[string]int{}
		for _, o := range objects {
			switch {
			case inState[typ][o.id]:
			case other.holds(o.id):
				continue
			case fk.c.unprovable && named[o.id]:
				res.left++
				continue
			case fk.c.unprovable && o.key == fk.c.sharedKey && other != nil && otherUnknown < other.failedCreates:
				otherUnknown++
				res.otherLost++
				continue
			}
			onService[o.id]++
			if fk.c.unprovable && o.key != fk.c.sharedKey {
				keys[o.key]++
			}
		}
		for id, n := range onService {
			if n > 1 {
				res.duplicates += n - 1
				problems = append(problems, fmt.Sprintf("%s %s: %d copies", typ, id, n))
			}
			switch {
			case inState[typ][id]:
			case named[id]:
				res.named++
			default:
				res.orphans++
				problems = append(problems, fmt.Sprintf("%s %s: on the service, neither in state nor named in the output", typ, id))
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
		for key, n := range keys {
			if n > 1 {
				res.duplicates += n - 1
				problems = append(problems, fmt.Sprintf("%s %q: %d objects", typ, key, n))
			}
		}
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

// chaosHead is TestAccChaos's configuration before the kits' resources
// (fmt verbs: the sandbox's address and token, the organization).
const chaosHead = `
terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}

provider "tfgov" {
  address      = %[1]q
  token        = %[2]q
  organization = %[3]q
}
`

// chaosTypes are the types TestAccChaos covers: those its kits'
// configurations declare (registry_test.go).
func chaosTypes() map[string]bool {
	config, _ := fleetConfig("", fleetEnv{parentIDs: fakeParents(chaosWorkspaces)}, typeKit.chaos)
	return configTypes(config)
}
