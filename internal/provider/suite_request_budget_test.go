package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// Request budgets: for every resource type and operation, the most API
// requests the operation may make with N resources under one parent, for
// N = 1, 2 and 101 (101 crosses a page of 100). Each case runs the
// terraform binary on its own sandbox, whose counter (Server.Stats) then
// sees nothing but the case's own requests, so the cases run in parallel.
//
// Every terraform command configures the provider once per graph walk:
// go-tfe's start-up ping and the token check at configure, 2 requests for a
// plan, 4 for an apply (a plan walk, then an apply walk) and 6 for a
// destroy.
//
// The operations, in order:
//
//	create   terraform apply of N new resources
//	plan     terraform plan right after the apply (empty)
//	drift    terraform plan after one record was changed outside Terraform (one change planned)
//	update   terraform apply of a metadata change of every resource
//	         (the description, access, value or reason), which also repairs the drift (repair)
//	replan   terraform plan right after the update (budget: plan's)
//	import   terraform apply of import blocks for every resource, after terraform state rm
//	destroy  terraform destroy
type budgetOp string

const (
	opCreate  budgetOp = "create"
	opPlan    budgetOp = "plan"
	opDrift   budgetOp = "drift"
	opUpdate  budgetOp = "update"
	opReplan  budgetOp = "replan"
	opImport  budgetOp = "import"
	opDestroy budgetOp = "destroy"
)

// multiPage is 1 when a list has more than one page: a record missing from
// such a list is read by ID before it leaves state (offset paging can hide
// a record when another is deleted meanwhile).
func multiPage(p int) int {
	if p > 1 {
		return 1
	}
	return 0
}

var budgetOps = []budgetOp{opCreate, opPlan, opDrift, opUpdate, opReplan, opImport, opDestroy}

// budgetEnv is what a case's configuration and its outside change need.
type budgetEnv struct {
	t      *testing.T
	client *tfe.Client
	org    string
	// vars are the case's fixtures, for the configuration.
	vars map[string]string
	// ids are the resources' IDs by key, from the state (output "ids").
	ids map[string]string
}

type budgetCase struct {
	// fixtures makes the parent(s) for n resources.
	fixtures func(e *budgetEnv, n int)
	// config is the configuration of n resources, at version v (1, then 2:
	// the update). It declares output "ids" (import ID by key, of the main
	// resource).
	config func(e *budgetEnv, n, v int) string
	// imports are the import blocks for the resources, with local.ids
	// holding the import IDs by key.
	imports string
	// outside changes the record of key "0" outside Terraform, so that the
	// next plan plans one change.
	outside func(e *budgetEnv)
	// repair is the cost of repairing the drift, which the update does
	// too: 1 (one write) unless set; changed code is downloaded again by
	// the update's refresh (the drift plan was not saved), then uploaded.
	repair int
	// budget is the most requests of op with n resources; p is the number
	// of list pages, ceil(n/100). opReplan's is opPlan's unless given.
	budget func(op budgetOp, n, p int) int
	// movedBy is the sandbox's policy updated-at behaviour ("": default).
	// Its variants run at N = 1 and 2 only: they differ from their base
	// case in the downloads of each resource, and 101 adds only the second
	// list page, which the base case checks.
	movedBy sandbox.PolicyUpdatedAt
	// proofRecheck: the resources' refreshes recheck proven policy code
	// (recheckAllowance), which the budget leaves out.
	proofRecheck bool
	// reads are the fewest requests by route (Server.Stats's names) op must make: the reads
	// without which it cannot be right, so that one skipped fails as surely as one too many.
	reads func(op budgetOp, n, p int) map[string]int
	// row is the first cell of the rows of PERFORMANCE.md's "Request
	// budgets" that state the budgets at N = 1 and 101
	// (TestRegistry_performanceFigures); "" only for a movedBy variant.
	row string
}

// The routes of the reads that budgets require (budgetCase.reads).
const (
	routePolicies      = "GET /api/v2/organizations/{org}/policies"
	routePolicyCode    = "GET /api/v2/policies/{id}/download"
	routeAgentTokens   = "GET /api/v2/agent-pools/{id}/authentication-tokens"
	routeAgentToken    = "GET /api/v2/authentication-tokens/{id}"
	routeTeamAccess    = "GET /api/v2/team-workspaces"
	routeProjectAccess = "GET /api/v2/team-projects"
	routeTestVariables = "GET /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars"
	routeModule        = "GET /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}"
	routeModuleVersion = routeModule + "/version"
)

// refreshReads: every refresh (each operation but a create) reads lists of route, a list per
// page, or per resource where perResource (no list spans them); imports too where imported
// (else the import reads another way); plus extra.
func refreshReads(route string, perResource, imported bool, extra func(op budgetOp, n, p int) map[string]int) func(op budgetOp, n, p int) map[string]int {
	return func(op budgetOp, n, p int) map[string]int {
		m := map[string]int{}
		if op != opCreate && (op != opImport || imported) {
			m[route] = p
			if perResource {
				m[route] = n
			}
		}
		if extra != nil {
			for k, v := range extra(op, n, p) {
				m[k] += v
			}
		}
		return m
	}
}

// driftedCode: the drift's plan downloads the code changed outside, and so does the update's
// refresh (the drift plan was not saved).
func driftedCode(op budgetOp, _, _ int) map[string]int {
	if op == opDrift || op == opUpdate {
		return map[string]int{routePolicyCode: 1}
	}
	return nil
}

// recheckAllowance is the most downloads the rotating recheck of proven
// policy code (policy_code_proof.go) makes in a command run from start to end with
// the policies of ids: those whose group falls on an hour of the run (its
// Date header's clock: a few seconds of slack).
func recheckAllowance(ids map[string]string, start, end time.Time) int {
	due := 0
	for _, id := range ids {
		if recheckedIn(id, start, end) {
			due++
		}
	}
	return due
}

// recheckedIn reports whether the rotating recheck may download proven
// policy id's code in a refresh made between start and end.
func recheckedIn(id string, start, end time.Time) bool {
	for h := start.Add(-5*time.Second).Unix() / 3600; h <= end.Add(5*time.Second).Unix()/3600; h++ {
		if recheckDue(id, h) {
			return true
		}
	}
	return false
}

const budgetProviderBlock = `terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}
`

// starts is the start-up cost of a command: 2 for a plan, 4 for an apply,
// 6 for a destroy (its refresh, its plan, its apply).
func starts(op budgetOp) int {
	switch op {
	case opPlan, opDrift, opReplan:
		return 2
	case opDestroy:
		return 6
	}
	return 4
}

// budgetCases are the kits' cases (kit_test.go), by case name.
var budgetCases = kitBudgetCases()

func kitBudgetCases() map[string]budgetCase {
	cases := map[string]budgetCase{}
	for _, k := range kits {
		for name, c := range k.requestBudgets().c {
			cases[name] = c
		}
	}
	return cases
}

// Policy code under each behaviour of the service's updated-at
// (policy_code_proof.go). Where uploads are seen to move it ("upload+patch", the
// default, and "upload"), a create reads the policy and its code once after
// the upload, and plans download only the rotating recheck's few
// (recheckAllowance, on top of the budget); where they are not ("patch",
// "none"), nothing proves the code unchanged, and every refresh downloads
// every policy's code, as hashicorp/tfe does. A PATCH that moves
// updated-at costs a download where uploads move it too: the PATCH's
// answer cannot tell the PATCH's own move from an outside upload's before
// it. After an import nothing is proven until the provider's own upload, so
// the destroy's refresh downloads.
func uploadsMove(movedBy sandbox.PolicyUpdatedAt) bool {
	return movedBy == "" || movedBy == sandbox.PolicyUpdatedByUploadAndPatch || movedBy == sandbox.PolicyUpdatedByUpload
}

// inlinePolicyCase is N Sentinel policies named budget-<prefix>-<key>
// with one line of code in attr (content or content_wo).
func inlinePolicyCase(prefix, attr, row string) budgetCase {
	return budgetCase{
		row: row,
		config: func(_ *budgetEnv, n, v int) string {
			return fmt.Sprintf(`resource "tfgov_policy" "r" {
  for_each    = toset([for i in range(%d) : tostring(i)])
  name        = "budget-%s-${each.key}"
  description = "policy ${each.key} v%d"
  %s = "main = rule { true }\n"
}
output "ids" { value = { for k, r in tfgov_policy.r : k => r.id } }
`, n, prefix, v, attr)
		},
		imports: `import {
  for_each = local.ids
  to       = tfgov_policy.r[each.key]
  id       = each.value
}
`,
		outside: func(e *budgetEnv) { outsidePolicyCode(e) },
		repair:  inlineRepair(""),
		reads:   refreshReads(routePolicies, false, true, driftedCode),
		budget: func(op budgetOp, n, p int) int {
			if op == opImport && attr == "content_wo" {
				return inlineBudget("")(op, n, p) - n // the import plans no change: nothing to confirm at apply
			}
			return inlineBudget("")(op, n, p)
		},
		proofRecheck: true,
	}
}

// inlineBudget is the budget of tfgov_policy with inline code.
func inlineBudget(movedBy sandbox.PolicyUpdatedAt) func(op budgetOp, n, p int) int {
	return func(op budgetOp, n, p int) int {
		b := map[budgetOp]int{ // proven: uploads move updated-at
			opCreate:  4 * n,   // POST, PUT (nothing is listed before a create); the policy and its code once (the proof)
			opPlan:    p,       // the list
			opDrift:   p + 1,   // the list, the changed policy's code
			opUpdate:  p + 2*n, // the list, PATCH; the code once where the PATCH moved updated-at
			opReplan:  p,
			opImport:  p + 2*n, // the list, each policy's code (compared: no upload); the code again at the apply of content's state-only update, which uploads nothing only if the service still has it
			opDestroy: p + 2*n, // the list, the code (no proof after an import), DELETE
		}
		if movedBy == sandbox.PolicyUpdatedByUpload {
			b[opUpdate] = p + n // a PATCH leaves updated-at: no download
		}
		if !uploadsMove(movedBy) {
			b = map[budgetOp]int{
				opCreate:  3 * n, // POST, PUT, the policy (the upload did not move updated-at: no proof)
				opPlan:    p + n, // the list, every policy's code
				opDrift:   p + n,
				opUpdate:  p + 2*n, // the list, every code, PATCH
				opReplan:  p + n,
				opImport:  p + 2*n,
				opDestroy: p + 2*n,
			}
		}
		return starts(op) + b[op]
	}
}

// inlineRepair is the repair of the drifted policy on top of the update:
// its code downloaded again by the update's refresh (proven only), PUT,
// the policy read after it, its code (proven only; the PATCH's download is
// then spared).
func inlineRepair(movedBy sandbox.PolicyUpdatedAt) int {
	switch {
	case movedBy == sandbox.PolicyUpdatedByUpload:
		return 4
	case uploadsMove(movedBy):
		return 3
	}
	return 2
}

// uploadBudget is the budget of tfgov_policy and tfgov_policy_upload.
func uploadBudget(movedBy sandbox.PolicyUpdatedAt) func(op budgetOp, n, p int) int {
	return func(op budgetOp, n, p int) int {
		b := map[budgetOp]int{
			opCreate:  5 * n,   // POST; the policy right before the upload (never another resource's answer), PUT; the policy and its code once (the proof)
			opPlan:    p,       // the list, for both resources
			opDrift:   p + 1,   // the list, the changed policy's code
			opUpdate:  p + n,   // the list, PATCH
			opReplan:  p + n,   // the list; the code where the PATCH moved updated-at (the upload cannot tell whose move it was)
			opImport:  p + 2*n, // the list, for both resources; the code once for each (the policy's import cannot know the configuration has none)
			opDestroy: p + 3*n, // the list, the code for both resources (no proof after an import; the policy keeps the digest its import found, so that its plan is clean), DELETE
		}
		if movedBy == sandbox.PolicyUpdatedByUpload {
			b[opReplan] = p
		}
		if !uploadsMove(movedBy) {
			b = map[budgetOp]int{
				opCreate:  4 * n, // POST, the policy, PUT, the policy
				opPlan:    p + n, // the list, every code
				opDrift:   p + n,
				opUpdate:  p + 2*n,
				opReplan:  p + n,
				opImport:  p + 2*n,
				opDestroy: p + 3*n,
			}
		}
		return starts(op) + b[op]
	}
}

func uploadRepair(movedBy sandbox.PolicyUpdatedAt) int {
	if uploadsMove(movedBy) {
		return 4 // the code again at the update's refresh, PUT, the policy, the code
	}
	return 3 // the policy right before the upload, PUT, the policy
}

// requestBudgetTypes are the types TestAccRequestBudgets covers: those its
// cases' configurations declare (registry_test.go).
func requestBudgetTypes() map[string]bool {
	types := map[string]bool{}
	for _, c := range budgetCases {
		e := &budgetEnv{vars: map[string]string{}, ids: map[string]string{}}
		for typ := range configTypes(c.config(e, 1, 1)) {
			types[typ] = true
		}
	}
	return types
}

func init() {
	for _, movedBy := range []sandbox.PolicyUpdatedAt{sandbox.PolicyUpdatedByUpload, sandbox.PolicyUpdatedByPatch, sandbox.PolicyUpdatedByNeither} {
		for _, name := range []string{"policy_inline", "policy_upload"} {
			c := budgetCases[name]
			c.movedBy, c.proofRecheck, c.row = movedBy, uploadsMove(movedBy), ""
			if name == "policy_inline" {
				c.budget, c.repair = inlineBudget(movedBy), inlineRepair(movedBy)
			} else {
				c.budget, c.repair = uploadBudget(movedBy), uploadRepair(movedBy)
			}
			budgetCases[name+"@"+string(movedBy)] = c
		}
	}
}

func budgetModule(e *budgetEnv) {
	m, err := e.client.RegistryModules.Create(context.Background(), e.org, tfe.RegistryModuleCreateOptions{
		Name: tfe.String("budget"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	e.vars["module"] = m.Name
}

// outsidePolicyDescription changes the description of policy "0".
func outsidePolicyDescription(e *budgetEnv) {
	if _, err := e.client.Policies.Update(context.Background(), e.ids["0"], tfe.PolicyUpdateOptions{Description: tfe.String("changed outside")}); err != nil {
		e.t.Fatal(err)
	}
}

// outsidePolicyCode uploads other code to policy "0", right after the
// apply (no wait: nothing rests on the time).
func outsidePolicyCode(e *budgetEnv) {
	if err := e.client.Policies.Upload(context.Background(), e.ids["0"], []byte("main = rule { false }\n")); err != nil {
		e.t.Fatal(err)
	}
}

// TestAccRequestBudgets runs every operation of every case at N = 1, 2 and
// 101 (a movedBy variant at 1 and 2) and fails when one makes more requests than its budget. It logs the
// requests by route of each, the table of the README's "Performance".
func TestAccRequestBudgets(t *testing.T) {
	testCLIConfig(t)
	if testAccSandbox() == nil {
		t.Skip("request counting needs the sandbox")
	}
	var mu sync.Mutex
	table := map[string]map[budgetOp]string{}
	names := make([]string, 0, len(budgetCases))
	for name := range budgetCases {
		names = append(names, name)
	}
	sort.Strings(names)
	t.Cleanup(func() {
		var b strings.Builder
		fmt.Fprintf(&b, "\n| type | N | %s |\n|---|---|%s\n", strings.Join(opNames(), " | "), strings.Repeat("---|", len(budgetOps)))
		rows := make([]string, 0, len(table))
		for k := range table {
			rows = append(rows, k)
		}
		sort.Strings(rows)
		for _, k := range rows {
			cells := make([]string, len(budgetOps))
			for i, op := range budgetOps {
				cells[i] = table[k][op]
			}
			fmt.Fprintf(&b, "| %s | %s |\n", strings.Replace(k, " ", " | ", 1), strings.Join(cells, " | "))
		}
		t.Log(b.String())
	})
	// Actions (Terraform 1.14+): their own rows, logged, not in the table.
	t.Run("actions", budgetAgentTokenPrune)
	// Data sources that find objects by name: their own rows, logged.
	t.Run("data_sources", budgetNameDataSources)
	// A plan that moves policies to another organization: its own row.
	t.Run("organization_move", budgetOrganizationMove)
	for _, name := range names {
		for _, n := range []int{1, 2, 101} {
			if n == 101 && budgetCases[name].movedBy != "" {
				continue
			}
			t.Run(fmt.Sprintf("%s/N=%d", name, n), func(t *testing.T) {
				t.Parallel()
				got := runBudgetCase(t, budgetCases[name], n)
				mu.Lock()
				defer mu.Unlock()
				row := map[budgetOp]string{}
				for op, c := range got {
					row[op] = fmt.Sprintf("%d (≤ %d)", c[0], c[1])
				}
				table[fmt.Sprintf("%s %d", name, n)] = row
			})
		}
	}
}

// opBudget is the budget of op with n resources in p list pages and the
// proof recheck's allowance: the case's budget, a replan's the plan's unless
// given, an update's with the drift's repair. With no allowance it is what
// PERFORMANCE.md's "Request budgets" states (TestRegistry_performanceFigures).
func (c budgetCase) opBudget(op budgetOp, n, p, allowance int) int {
	budget := c.budget(op, n, p) + allowance
	if op == opReplan && budget == starts(op) {
		budget = c.budget(opPlan, n, p)
	}
	if op == opUpdate {
		budget += max(c.repair, 1)
	}
	return budget
}

func opNames() []string {
	s := make([]string, len(budgetOps))
	for i, op := range budgetOps {
		s[i] = string(op)
	}
	return s
}

// runBudgetCase runs the operations of c with n resources on a sandbox of
// its own, checking each against its budget; it returns, by operation, the
// requests made and the budget.
func runBudgetCase(t *testing.T, c budgetCase, n int) map[budgetOp][2]int {
	sb, client := ownSandbox(t, sandbox.Options{PolicyUpdatedAt: c.movedBy}, "budget-"+randomSuffix())
	e := &budgetEnv{t: t, client: client, org: sb.organization, vars: map[string]string{}}
	if c.fixtures != nil {
		c.fixtures(e, n)
	}
	dir := t.TempDir()
	env := []string{"TF_CLI_CONFIG_FILE=" + testCLIConfig(t), "TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization}
	write := func(file, text string) {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tf := func(wantExit int, args ...string) string {
		t.Helper()
		out, code := runTerraformEnv(t, dir, env, append(args, "-no-color")...)
		if code != wantExit {
			t.Fatalf("terraform %s: exit %d, want %d\n%s", strings.Join(args, " "), code, wantExit, out)
		}
		return out
	}
	pages := (n + bulkPageSize - 1) / bulkPageSize
	results := map[budgetOp][2]int{}
	measure := func(op budgetOp, run func()) {
		t.Helper()
		before, start := sb.srv.Stats(), time.Now()
		run()
		got, total := statsSince(sb.srv.Stats(), before)
		allowance := 0
		if c.proofRecheck && op != opCreate && op != opImport {
			allowance = recheckAllowance(e.ids, start, time.Now())
		}
		budget := c.opBudget(op, n, pages, allowance)
		results[op] = [2]int{total, budget}
		t.Logf("%s: %d requests (budget %d) %v", op, total, budget, got)
		if total > budget {
			t.Errorf("%s of %d resources made %d requests, over its budget of %d: %v", op, n, total, budget, got)
		}
		if c.reads == nil {
			t.Fatal("the case states no reads its operations must make")
		}
		for route, least := range c.reads(op, n, pages) {
			if got[route] < least {
				t.Errorf("%s of %d resources made %d requests %s, fewer than the %d it must make (a read skipped): %v", op, n, got[route], route, least, got)
			}
		}
	}
	write("main.tf", budgetProviderBlock+c.config(e, n, 1))
	measure(opCreate, func() { tf(0, "apply", "-auto-approve") })
	readIDs := func() {
		e.ids = nil
		if err := json.Unmarshal([]byte(tf(0, "output", "-json", "ids")), &e.ids); err != nil {
			t.Fatal(err)
		}
	}
	readIDs()
	measure(opPlan, func() { tf(0, "plan", "-detailed-exitcode") })
	c.outside(e)
	measure(opDrift, func() { tf(2, "plan", "-detailed-exitcode") })
	// The update also repairs the drift: one request more (budgetDrift).
	write("main.tf", budgetProviderBlock+c.config(e, n, 2))
	measure(opUpdate, func() { tf(0, "apply", "-auto-approve") })
	// A plan right after the update costs what a plan right after the
	// create does: nothing the update wrote is read again.
	measure(opReplan, func() { tf(0, "plan", "-detailed-exitcode") })
	if fi, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Logf("state after the update: %d bytes, %d per resource", fi.Size(), fi.Size()/int64(n))
	}
	readIDs()
	// Import: forget every resource, then import them all.
	tf(0, append([]string{"state", "rm"}, strings.Fields(tf(0, "state", "list"))...)...)
	idsJSON, _ := json.Marshal(e.ids)
	write("imports.tf", fmt.Sprintf("locals {\n  ids = jsondecode(%q)\n}\n", idsJSON)+c.imports)
	measure(opImport, func() { tf(0, "apply", "-auto-approve") })
	if err := os.Remove(filepath.Join(dir, "imports.tf")); err != nil {
		t.Fatal(err)
	}
	measure(opDestroy, func() { tf(0, "destroy", "-auto-approve") })
	return results
}

// budgetOrganizationMove: a plan that moves N policies to another
// organization (the provider's organization changed) costs a plan's
// requests plus one: the target organization's policy list (page size 1),
// read once per plan walk whatever N (issue 55).
func budgetOrganizationMove(t *testing.T) {
	t.Parallel()
	const n = 3
	sb, client := ownSandbox(t, sandbox.Options{}, "budget-"+randomSuffix())
	target := sb.organization + "-moved"
	if _, err := client.Organizations.Create(context.Background(), tfe.OrganizationCreateOptions{Name: tfe.String(target), Email: tfe.String("owner@example.com")}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := []string{"TF_CLI_CONFIG_FILE=" + testCLIConfig(t), "TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(budgetProviderBlock+budgetCases["policy"].config(nil, n, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, code := runTerraformEnv(t, dir, env, "apply", "-auto-approve", "-no-color"); code != 0 {
		t.Fatalf("apply: exit %d\n%s", code, out)
	}
	before := sb.srv.Stats()
	out, code := runTerraformEnv(t, dir, append(env, "TFE_ORGANIZATION="+target), "plan", "-detailed-exitcode", "-no-color")
	if code != 2 || !strings.Contains(out, fmt.Sprintf("Plan: %d to add, 0 to change, %d to destroy", n, n)) {
		t.Fatalf("the plan moving %d policies to %s: exit %d\n%s", n, target, code, out)
	}
	got, total := statsSince(sb.srv.Stats(), before)
	budget := budgetCases["policy"].budget(opPlan, n, 1) + 1
	t.Logf("plan moving %d policies to another organization: %d requests (budget %d) %v", n, total, budget, got)
	if total > budget {
		t.Errorf("the plan moving %d policies made %d requests, over its budget of %d: %v", n, total, budget, got)
	}
	if k := "GET /api/v2/organizations/{org}/policies"; got[k] < 2 {
		t.Errorf("the plan made %d policy lists, want 2: the policies' organization's (refresh) and the target's (the check): %v", got[k], got)
	}
}
