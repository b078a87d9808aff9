package provider

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// The plan/apply scenario machine (DESIGN.md, "The scenario machine"):
// random histories of configuration edits, writes outside Terraform,
// permission changes, faults and terraform commands, run with the real
// terraform binary against a sandbox of its own, and judged only by what a
// user sees: exit codes, plans, diagnostics, the state and the service.

// TestScenarios runs the machine: a few short histories in make test (a
// seed that changes daily), longer ones with make scenarios STEPS=N
// SEED=S. A failure is shrunk by rapid and printed as its steps, each with
// the configuration or API call it made.
func TestScenarios(t *testing.T) {
	testCLIConfig(t)
	// TFGOV_SCENARIO_STEPS steps in all (make scenarios STEPS=N), in
	// histories of at most 30.
	total := 90
	if n, err := strconv.Atoi(os.Getenv("TFGOV_SCENARIO_STEPS")); err == nil && n > 0 {
		total = n
	}
	checks := (total + 29) / 30
	per := (total + checks - 1) / checks
	setRapidDefault("rapid.checks", "TFGOV_SCENARIO_CHECKS", strconv.Itoa(checks))
	setRapidDefault("rapid.steps", "", strconv.Itoa(per))
	setRapidDefault("rapid.seed", "TFGOV_SCENARIO_SEED", time.Now().UTC().Format("20060102"))
	setRapidDefault("rapid.shrinktime", "TFGOV_SCENARIO_SHRINKTIME", "2m")
	setRapidDefault("rapid.nofailfile", "", "true")
	t.Logf("scenario machine: seed %s, %s histories of about %s steps (make scenarios SEED=%[1]s reruns it)",
		flag.Lookup("rapid.seed").Value, flag.Lookup("rapid.checks").Value, flag.Lookup("rapid.steps").Value)
	rapid.Check(t, func(rt *rapid.T) {
		m := newScenario(t, rt)
		defer m.close()
		rt.Repeat(m.actions())
	})
	logScenarioCounts(t)
}

// setRapidDefault sets rapid's flag name from env, or to def, unless the
// command line set it.
func setRapidDefault(name, env, def string) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	if set {
		return
	}
	if v := os.Getenv(env); env != "" && v != "" {
		def = v
	}
	_ = flag.Set(name, def)
}

var firstFailure sync.Once

const (
	scenPolicies   = 4
	scenTeams      = 3
	scenWorkspaces = 2
	scenTokens     = 3
)

// scenPolicy is a policy of the configuration.
type scenPolicy struct {
	route   string // content, content_wo, source, upload
	level   string
	version int    // of its code
	file    string // source: the file's name
}

func (p scenPolicy) code(name string) string {
	return fmt.Sprintf("# %s v%d\nmain = rule { true }\n", name, p.version)
}

// scenario is one history: the sandbox, the fixtures, the configuration
// model, and what the commands so far have shown.
type scenario struct {
	t     *testing.T
	ctx   context.Context
	sb    *sandboxOrganization
	owner *tfe.Client
	org   string
	rc    string
	dir   string
	token string // the provider's: the token of team "ops"

	ops        *tfe.Team
	opsGrant   []string // ops's grant on each workspace
	teams      []*tfe.Team
	workspaces []*tfe.Workspace
	pool       *tfe.AgentPool

	policies  map[int]scenPolicy
	grants    map[[2]int]string // (team, workspace) -> access
	tokens    map[int]bool
	exclusive bool // on workspace 1
	// named teams: team_ids names them by ID, with no tfgov_team_access
	// (the schema allows a team that holds nothing).
	exclusiveTeams map[int]bool
	imports        map[string]string // import blocks: address -> ID
	forgotten      map[string]bool   // IDs the user removed from state and did not import back

	lowered map[string]bool
	// named holds every object ID a diagnostic has named: an object left
	// out of state must be named (invariant 3).
	named map[string]bool
	// uncertain is set after a command that failed or was faulted: the
	// service may hold what the state does not until an apply succeeds.
	uncertain bool
	// history is every step so far, as logged.
	history []string
	// hidden holds the policies whose code was uploaded outside Terraform
	// while uploads did not move updated-at: a proof may hide it until the
	// rotating recheck (DESIGN.md, "Policy code proofs"), so invariant 4
	// does not judge their code until the configuration's code changes.
	hidden    map[int]bool
	updatedAt sandbox.PolicyUpdatedAt

	ownersToken string // the owners team's: module tests need it
	vars        map[int]scenVar
	deps        map[int]scenDep
	// foreign holds the IDs of objects made outside that this instance
	// does not hold: a create must not take them over (invariant 7).
	foreign map[string]bool

	fleetTeam     *tfe.Team
	fleetTeamName string
	fleetIDs      []string // workspaces f0, f1 (made again: a new ID)
	lookup        string   // the tfgov_workspaces filter (scenLookups); "" for none
	allowEmpty    bool
	run           scenRun
	runGen        map[string]int // a test run's ID -> the triggers' generation it was made for

	prj       scenProjects  // suite_scenario_projects_test.go
	pset      scenPolicySet // suite_scenario_policy_sets_test.go
	planDiags []string      // the last plan's diagnostics

	net           scenNetwork    // suite_scenario_interrupt_test.go
	interruptNext *scenInterrupt // armed for the next terraform command
	lastInterrupt *scenInterrupt
	refs          scenRefs // suite_scenario_refs_test.go
	orgs          scenOrgs // suite_scenario_orgs_test.go
}

func newScenario(t *testing.T, rt *rapid.T) *scenario {
	ctx := context.Background()
	sb, err := newSandboxOrganization(sandbox.Options{}, "scen")
	if err != nil {
		rt.Fatal(err)
	}
	c, err := tfe.NewClient(&tfe.Config{Address: sb.address, Token: sb.token})
	if err != nil {
		sb.stop()
		rt.Fatal(err)
	}
	m := &scenario{t: t, ctx: ctx, sb: sb, owner: c, org: sb.organization, rc: testCLIConfig(t),
		policies: map[int]scenPolicy{}, grants: map[[2]int]string{}, tokens: map[int]bool{},
		lowered: map[string]bool{}, named: map[string]bool{}, imports: map[string]string{}, hidden: map[int]bool{}, forgotten: map[string]bool{}, exclusiveTeams: map[int]bool{},
		vars: map[int]scenVar{}, deps: map[int]scenDep{}, foreign: map[string]bool{}, runGen: map[string]int{}}
	dir, err := os.MkdirTemp("", "tfgov-scenario-") //nolint:usetesting // one per history, removed by close
	if err != nil {
		m.close()
		rt.Fatal(err)
	}
	m.dir = dir
	m.ops, err = c.Teams.Create(ctx, m.org, tfe.TeamCreateOptions{Name: tfe.String("ops"), Visibility: tfe.String("organization"),
		OrganizationAccess: &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true), ManageAgentPools: tfe.Bool(true), ManageModules: tfe.Bool(true)}})
	m.must(rt, err)
	tt, err := c.TeamTokens.Create(ctx, m.ops.ID)
	m.must(rt, err)
	m.token = tt.Token
	owners, err := c.Teams.List(ctx, m.org, &tfe.TeamListOptions{Names: []string{"owners"}})
	m.must(rt, err)
	ot, err := c.TeamTokens.Create(ctx, owners.Items[0].ID)
	m.must(rt, err)
	m.ownersToken = ot.Token
	_, err = c.RegistryModules.Create(ctx, m.org, tfe.RegistryModuleCreateOptions{Name: tfe.String("mod"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry})
	m.must(rt, err)
	for _, v := range scenVersions {
		_, err := c.RegistryModules.CreateVersion(ctx, m.modID(), tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(v)})
		m.must(rt, err)
	}
	// ops is a member's team: the owner adds itself, so that the team token acts as a member.
	for i := range scenWorkspaces {
		ws, err := c.Workspaces.Create(ctx, m.org, tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("w%d", i))})
		m.must(rt, err)
		m.workspaces = append(m.workspaces, ws)
		g, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessAdmin), Team: m.ops, Workspace: ws})
		m.must(rt, err)
		m.opsGrant = append(m.opsGrant, g.ID)
	}
	for i := range scenTeams {
		tm, err := c.Teams.Create(ctx, m.org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("t%d", i)), Visibility: tfe.String("organization")})
		m.must(rt, err)
		m.teams = append(m.teams, tm)
	}
	m.fleetTeam, err = c.Teams.Create(ctx, m.org, tfe.TeamCreateOptions{Name: tfe.String("fleet"), Visibility: tfe.String("organization")})
	m.must(rt, err)
	m.fleetTeamName = "fleet"
	for i := range scenFleet {
		opts := tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("f%d", i))}
		if i == 0 {
			opts.Tags = []*tfe.Tag{{Name: "fleet"}}
		}
		ws, err := c.Workspaces.Create(ctx, m.org, opts)
		m.must(rt, err)
		_, err = c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessAdmin), Team: m.ops, Workspace: ws})
		m.must(rt, err)
		m.fleetIDs = append(m.fleetIDs, ws.ID)
	}
	m.pool, err = c.AgentPools.Create(ctx, m.org, tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	m.must(rt, err)
	m.setupProjects(rt)
	m.drawRefs(rt)
	m.setupOrgs(rt)
	m.writeConfig(rt)
	return m
}

func (m *scenario) close() {
	if m.dir != "" {
		_ = os.RemoveAll(m.dir)
	}
	m.sb.stop()
}

// fail ends the history with what, which names no random ID (rapid
// shrinks only while a rerun fails with the same message), after logging
// the details and the configuration the history reached.
func (m *scenario) fail(rt *rapid.T, what, format string, args ...any) {
	rt.Helper()
	// TFGOV_SCENARIO_IGNORE, a regular expression, lets a hunt for one edge
	// go on past another already known.
	if re := os.Getenv("TFGOV_SCENARIO_IGNORE"); re != "" && regexp.MustCompile(re).MatchString(what) {
		m.logf(rt, "ignored (TFGOV_SCENARIO_IGNORE): %s", what)
		return
	}
	rt.Logf(format+"\n--- main.tf ---\n%s", append(args, m.config(rt))...)
	// rapid prints only its last rerun's log: keep the first failure's
	// details, which a failure that does not recur (a flaky one) would lose.
	firstFailure.Do(func() {
		m.t.Logf("the first failure, before shrinking: %s\nits history:\n%s\n"+format+"\n--- main.tf ---\n%s",
			append(append([]any{what, strings.Join(m.history, "\n")}, args...), m.config(rt))...)
	})
	rt.Fatal(what)
}

// logf logs a step of the history, and keeps it for the first failure.
func (m *scenario) logf(rt *rapid.T, format string, args ...any) {
	rt.Helper()
	m.history = append(m.history, fmt.Sprintf(format, args...))
	rt.Logf(format, args...)
}

func (m *scenario) must(rt *rapid.T, err error) {
	rt.Helper()
	if err != nil {
		rt.Fatal(err)
	}
}

// actions is the machine's alphabet (DESIGN.md lists it);
// TFGOV_SCENARIO_ACTIONS, a comma-separated list of its names, narrows it
// to hunt one class of edge.
func (m *scenario) actions() map[string]func(*rapid.T) {
	all := map[string]func(*rapid.T){
		"EditPolicy":        m.editPolicy,
		"EditGrant":         m.editGrant,
		"EditToken":         m.editToken,
		"ToggleExclusive":   m.toggleExclusive,
		"EditVariable":      m.editVariable,
		"EditDeprecation":   m.editDeprecation,
		"EditLookup":        m.editLookup,
		"Adopt":             m.adopt,
		"EditRun":           m.editRun,
		"EditProjectAccess": m.editProjectAccess,
		"EditProjectGrant":  m.editProjectGrant,
		"EditPolicySet":     m.editPolicySet,
		"EditParameter":     m.editParameter,
		"Outside":           m.outside,
		"Permission":        m.permission,
		"Fault":             m.fault,
		"Plan":              m.plan,
		"Apply":             m.apply,
		"SavedPlanApply":    m.savedPlanApply,
		// A permission change between a saved plan and its apply.
		"SavedPlanPermission": m.savedPlanPermission,
		"RefreshOnly":         m.refreshOnly,
		"Reimport":            m.reimport,
		"Service":             m.service,
		"CtrlC":               m.interrupt, // early in the sorted alphabet: rapid draws early names more often
		"Network":             m.network,
		"Generate":            m.generate, // suite_scenario_generate_test.go
		"Token":               m.switchToken,
		"SavedPlanToken":      m.savedPlanToken,
		"EditOrgPolicy":       m.editOrgPolicy,
		"OutsideOrg":          m.outsideOrg,
		"AdoptOrg":            m.adoptOrg,
	}
	only := os.Getenv("TFGOV_SCENARIO_ACTIONS")
	if only == "" {
		return all
	}
	out := map[string]func(*rapid.T){}
	for _, name := range strings.Split(only, ",") {
		if a, ok := all[strings.TrimSpace(name)]; ok {
			out[strings.TrimSpace(name)] = a
		} else {
			m.t.Fatalf("TFGOV_SCENARIO_ACTIONS: no action %q", name)
		}
	}
	return out
}
