package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// A type is a kit: everything the cross-type suites need of a resource
// type, in its own <type>_kit_test.go, as values the compiler checks. Each
// suite loops over kits; a kit that lacks a method does not compile, and
// a registered type without a kit fails TestRegistry_kits naming it.
// CONTRIBUTING.md "The cross-type suites" says what each part is for.
type typeKit interface {
	kitType() resourceType
	// idPrefix is the prefix of the IDs of the type's objects ("tprj"),
	// which objectIDRE finds in Terraform's output ("" for none: its
	// objects are named by their parents').
	idPrefix() string
	// parents are the kinds of parent its cases refer to (parentKind):
	// each suite makes one of each kind its kits ask for, or the count a
	// fleet asks for, through go-tfe.
	parents() []*parentKind
	// tfe is hashicorp/tfe's resource for the same object ("" for none):
	// the registry's tfeMove moves it, and the state budget is its bytes.
	tfe() string
	// sandboxArea is the internal/sandbox file that serves the type's
	// objects, which the sandbox README's "Where things are" links.
	sandboxArea() string
	// stateBudget: TestAccStateBudget's instances and their budgets.
	stateBudget() covered[stateKit]
	// requestBudgets: TestAccRequestBudgets' cases, by case name.
	requestBudgets() covered[map[string]budgetCase]
	// chaos and crash: the objects TestAccChaos and
	// TestAccCrashConvergence apply, and how to read them back.
	chaos() covered[fleetKit]
	crash() covered[fleetKit]
	// identityNoPrior and identityUpdate: the protocol identity tests'
	// cases, reading the fixtures those tests make.
	identityNoPrior(f *identityFixtures) covered[identityNoPriorCase]
	identityUpdate(f *identityFixtures) covered[identityUpdateCase]
	// importMissing: an existing object to import first, and the missing
	// ones whose errors TestImportMissing checks.
	importMissing() covered[importKit]
	// generateConfig: objects made outside Terraform for
	// TestAccListResources_generateConfig's query to adopt.
	generateConfig() covered[adoptionKit]
}

// Cross-type test suites, each claiming to cover every resource type:
// each type's kit gives its case of each, or why not (an exemption).
const (
	suiteStateBudget     = "TestAccStateBudget"
	suiteRequestBudgets  = "TestAccRequestBudgets"
	suiteChaos           = "TestAccChaos"
	suiteCrash           = "TestAccCrashConvergence"
	suiteIdentityNoPrior = "TestIdentity_protocolNoPriorIdentity"
	suiteIdentityUpdate  = "TestIdentity_protocolUpdateEveryType"
	suiteImportMissing   = "TestImportMissing"
	suiteGenerateConfig  = "TestAccListResources_generateConfig"
)

// exemption is why a type is not in a cross-type suite: a reason of
// exemptionText, and for exemptOwnTest the test that covers it instead.
type exemption struct {
	why  exemptReason
	test string
}

// exemptReason is one of the reasons a type may be left out of a suite.
type exemptReason int

const (
	_ exemptReason = iota
	exemptCreatesNothing
	exemptNoListResource
	exemptCannotDelete
	exemptOwnTest
)

// exemptionText is each reason as a reviewer reads it.
var exemptionText = map[exemptReason]string{
	exemptCreatesNothing: "it creates nothing (an apply only changes or removes records): no orphan, duplicate or half-made object to count or converge",
	exemptNoListResource: "it has no list resource, which the suite finds or reads objects through",
	exemptCannotDelete:   "its objects cannot be deleted (only their parent), so an exact count of the service's objects against the state cannot hold",
	exemptOwnTest:        "a test of its own covers what the suite checks, in a way the suite's shared table cannot",
}

// kits is every resource type's kit. The order is the suites' order: the
// identity test's module goes last with the test run.
var kits = []typeKit{
	policyKit{},
	policyUploadKit{},
	teamAccessKit{},
	agentTokenKit{},
	moduleTestVariableKit{},
	moduleVersionDeprecationKit{},
	moduleTestRunKit{},
	workspaceTeamAccessExclusiveKit{},
	projectTeamAccessExclusiveKit{},
	teamProjectAccessKit{},
	policySetParameterKit{},
	policySetKit{},
}

// covered is a kit's part for one suite: the suite's case, or an
// exemption a reviewer can read (exemptionText). The zero value is
// neither, and fails TestRegistry_crossTypeSuites naming the kit and
// suite.
type covered[T any] struct {
	c      T
	ok     bool
	exempt exemption
}

func cover[T any](c T) covered[T] { return covered[T]{c: c, ok: true} }

// exempted is a typed exemption; exemptedFor names the test of its own
// that covers the type instead (exemptOwnTest).
func exempted[T any](why exemptReason) covered[T] { return covered[T]{exempt: exemption{why: why}} }

func exemptedFor[T any](test string) covered[T] {
	return covered[T]{exempt: exemption{why: exemptOwnTest, test: test}}
}

// kitName is the kit's type as Terraform names it.
func kitName(k typeKit) string { return k.kitType().typeName("tfgov") }

// kitPart is one suite's part of a kit, without the case: whether the
// kit covers the suite, and its exemption otherwise.
type kitPart struct {
	ok     bool
	exempt exemption
}

func part[T any](c covered[T]) kitPart { return kitPart{c.ok, c.exempt} }

// kitParts is each suite's part of k (suites' names as registry.go's
// constants).
func kitParts(k typeKit) map[string]kitPart {
	f := &identityFixtures{}
	return map[string]kitPart{
		suiteStateBudget:     part(k.stateBudget()),
		suiteRequestBudgets:  part(k.requestBudgets()),
		suiteChaos:           part(k.chaos()),
		suiteCrash:           part(k.crash()),
		suiteIdentityNoPrior: part(k.identityNoPrior(f)),
		suiteIdentityUpdate:  part(k.identityUpdate(f)),
		suiteImportMissing:   part(k.importMissing()),
		suiteGenerateConfig:  part(k.generateConfig()),
	}
}

// stateKit is a type's part of TestAccStateBudget: its resources in the
// one configuration, and each instance's budget.
type stateKit struct {
	config func(e stateEnv) string
	cases  func(b stateBudgets, codes map[string]string) []stateBudgetCase
}

// stateEnv is what TestAccStateBudget's configuration refers to: the
// parents' IDs, and the policy code's files by size label.
type stateEnv struct {
	parentIDs
	name, moduleDir string
	files           map[string]string
}

// stateLabels are the policy code sizes of TestAccStateBudget.
var stateLabels = []string{"median", "p99"}

// fleetKit is a type's part of TestAccChaos or TestAccCrashConvergence:
// count resources in the configuration, and how to read what the service
// holds back.
type fleetKit struct {
	count  int
	config func(e fleetEnv) string
	// objects lists what the service holds of the type under the fleet's
	// parents, through go-tfe, paging to the end.
	objects func(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error)
	// unprovable: a create whose answer was lost leaves an object the
	// provider cannot prove its own (DESIGN.md "Lost creates"): left on
	// the service and named in a warning, so not an orphan; duplicates
	// are counted by key instead, but for objects of sharedKey.
	unprovable bool
	sharedKey  string
	// outlivesDestroy: its objects cannot be deleted, only their parent,
	// so the count after a destroy leaves them out.
	outlivesDestroy bool
	// parents: how many of a kind of the kit's parents the fleet refers
	// to (e.all), where more than one.
	parents map[*parentKind]int
}

// fleetEnv is what the fleet's configuration and read-back refer to.
type fleetEnv struct {
	parentIDs
	moduleDir string
}

// serviceObject is an object the service holds: its ID and the key that
// names it uniquely in the configuration (unprovable types).
type serviceObject struct{ id, key string }

// fleetParents is how many parents of each kind a suite's fleet needs:
// one of each its kits declare, or what a fleet asks for, and the suite's
// own (own: the second configuration's).
func fleetParents(pick func(typeKit) covered[fleetKit], own map[*parentKind]int) map[*parentKind]int {
	need := map[*parentKind]int{}
	for k, n := range own {
		need[k] = n
	}
	for _, k := range kits {
		f := pick(k)
		if !f.ok {
			continue
		}
		for _, p := range k.parents() {
			need[p] = max(need[p], 1, f.c.parents[p])
		}
	}
	return need
}

// fleetConfig is the configuration of every kit's fleet part of a suite,
// after the provider block.
func fleetConfig(head string, e fleetEnv, pick func(typeKit) covered[fleetKit]) (config string, resources int) {
	var b strings.Builder
	b.WriteString(head)
	for _, k := range kits {
		if f := pick(k); f.ok {
			b.WriteString(f.c.config(e))
			resources += f.c.count
		}
	}
	return b.String(), resources
}

// importKit is a type's part of TestImportMissing.
type importKit struct {
	// existing makes one object through go-tfe and returns its import ID
	// in each form ImportState takes, the canonical (the identity's) first.
	existing func(f importFixtures) []string
	// missing are the imports of missing objects and what each error names.
	missing func(org, poolID string) []importMissingCase
}

// importFixtures are TestImportMissing's organization, agent pool and
// module (net/aws).
type importFixtures struct {
	t      *testing.T
	ctx    context.Context
	c      *tfe.Client
	org    string
	poolID string
	mod    moduleRef
}

func (f importFixtures) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// adoptionKit is a type's part of TestAccListResources_generateConfig.
type adoptionKit struct {
	// make makes the type's objects outside Terraform and returns the
	// list block's config arguments that find exactly them, and how many
	// objects it finds.
	make func(e *adoptionEnv) (cfg string, objects int)
}

// adoptionEnv is the query's shared parents, made when first asked for.
type adoptionEnv struct {
	t      *testing.T
	ctx    context.Context
	c      *tfe.Client
	org    string
	prefix string
	ws     *tfe.Workspace
	pool   *tfe.AgentPool
	module *moduleRef
}

func (e *adoptionEnv) workspace() *tfe.Workspace {
	if e.ws == nil {
		e.ws = testAccWorkspace(e.t)
	}
	return e.ws
}

func (e *adoptionEnv) agentPool() *tfe.AgentPool {
	if e.pool == nil {
		e.pool = testAccAgentPool(e.t)
	}
	return e.pool
}

// mod is a module with versions 1.0.0 and 1.1.0.
func (e *adoptionEnv) mod() moduleRef {
	if e.module == nil {
		m := testAccRegistryModule(e.t, "1.0.0", "1.1.0")
		e.module = &moduleRef{Organization: e.org, Name: m.Name, Provider: m.Provider}
	}
	return *e.module
}

func (e *adoptionEnv) modCfg() string {
	m := e.mod()
	return fmt.Sprintf("module_name = %q\n    module_provider = %q", m.Name, m.Provider)
}

// hclResource writes a resource block of the type, its arguments in order
// (values are HCL expressions: hclString quotes a string).
func hclResource(typ resourceType, name string, args ...hclArg) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nresource %q %q {\n", typ.typeName("tfgov"), name)
	for _, a := range args {
		fmt.Fprintf(&b, "  %s = %s\n", a.name, a.expr)
	}
	b.WriteString("}\n")
	return b.String()
}

// hclArg is an argument of a block: its name and HCL expression.
type hclArg struct{ name, expr string }

func arg(name, expr string) hclArg { return hclArg{name, expr} }

// hclString is s as an HCL string (Go's quoting is HCL's for the
// characters the tests use; "${" stays a template).
func hclString(s string) string { return fmt.Sprintf("%q", s) }

// parentKind is a kind of object a kit's cases hang under (a workspace, a
// team, a pool): how one is made, through go-tfe so that the suites hold
// against a live organization too. A kit declares the kinds it needs
// (parents), and each suite makes only those; a new kind is a value of
// its own beside the first kit that needs it (parentProject), not an edit
// of the suites (CONTRIBUTING.md "The kit: the cross-type suites").
type parentKind struct {
	// name is the kind as messages say it; prefix names its objects on a
	// live organization (testAccName) and in the identity tests.
	name, prefix string
	// make makes one named name and returns its ID.
	make func(ctx context.Context, c *tfe.Client, org, name string) (string, error)
	// remove deletes it (a live organization's cleanup); a 404 is done.
	remove func(ctx context.Context, c *tfe.Client, org, id string) error
}

// The parents most kits share; a kind fewer need stands beside its kit.
var (
	parentWorkspace = &parentKind{
		name: "workspace", prefix: "ws",
		make: func(ctx context.Context, c *tfe.Client, org, name string) (string, error) {
			ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String(name)})
			return idOf(ws, err, func(w *tfe.Workspace) string { return w.ID })
		},
		remove: func(ctx context.Context, c *tfe.Client, _, id string) error { return c.Workspaces.DeleteByID(ctx, id) },
	}
	parentTeam = &parentKind{
		name: "team", prefix: "team",
		make: func(ctx context.Context, c *tfe.Client, org, name string) (string, error) {
			tm, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(name), Visibility: tfe.String("organization")})
			return idOf(tm, err, func(t *tfe.Team) string { return t.ID })
		},
		remove: func(ctx context.Context, c *tfe.Client, _, id string) error { return c.Teams.Delete(ctx, id) },
	}
	parentPool = &parentKind{
		name: "agent pool", prefix: "pool",
		make: func(ctx context.Context, c *tfe.Client, org, name string) (string, error) {
			p, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String(name)})
			return idOf(p, err, func(p *tfe.AgentPool) string { return p.ID })
		},
		remove: func(ctx context.Context, c *tfe.Client, _, id string) error { return c.AgentPools.Delete(ctx, id) },
	}
	// parentModule is a private module of provider "aws" with version
	// 1.0.0 (created, not uploaded: pending); its "ID" is its name.
	parentModule = &parentKind{
		name: "registry module", prefix: "mod",
		make: func(ctx context.Context, c *tfe.Client, org, name string) (string, error) {
			if _, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String(name), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry}); err != nil {
				return "", err
			}
			m := moduleRef{Organization: org, Name: name, Provider: "aws"}
			_, err := c.RegistryModules.CreateVersion(ctx, m.id(), tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")})
			return name, err
		},
		remove: func(ctx context.Context, c *tfe.Client, org, name string) error {
			return c.RegistryModules.DeleteProvider(ctx, moduleRef{Organization: org, Name: name, Provider: "aws"}.id())
		},
	}
)

func idOf[T any](v *T, err error, id func(*T) string) (string, error) {
	if err != nil {
		return "", err
	}
	return id(v), nil
}

// parentIDs are the parents a suite made, by kind. Reading a kind the
// suite did not make (a kit that does not declare it) records it in
// undeclared, and reading every one of a kind in many, which
// TestRegistry_kitParents reports.
type parentIDs struct {
	org              string
	ids              map[*parentKind][]string
	undeclared, many map[*parentKind]bool
}

// id is the first parent of kind k; all is every one the suite made (a
// fleet says how many: fleetKit.parents).
func (p parentIDs) id(k *parentKind) string {
	if l := p.get(k); len(l) > 0 {
		return l[0]
	}
	return ""
}

func (p parentIDs) all(k *parentKind) []string {
	if p.many != nil {
		p.many[k] = true
	}
	return p.get(k)
}

func (p parentIDs) get(k *parentKind) []string {
	l, ok := p.ids[k]
	if !ok && p.undeclared != nil {
		p.undeclared[k] = true
	}
	return l
}

// mod is the module parent as the provider names it.
func (p parentIDs) mod() moduleRef {
	return moduleRef{Organization: p.org, Name: p.id(parentModule), Provider: "aws"}
}

// parentMaker makes a suite's parents: in its own sandbox (cleanup not
// needed), or on the shared organization (live, cleaned up).
type parentMaker struct {
	t       *testing.T
	ctx     context.Context
	c       *tfe.Client
	org     string
	name    func(k *parentKind, i int) string
	cleanup bool
}

// make makes need[k] parents of each kind k.
func (m parentMaker) make(need map[*parentKind]int) parentIDs {
	m.t.Helper()
	p := parentIDs{org: m.org, ids: map[*parentKind][]string{}}
	for k, n := range need {
		for i := range n {
			id, err := k.make(m.ctx, m.c, m.org, m.name(k, i))
			if err != nil {
				m.t.Fatalf("making a %s: %v", k.name, err)
			}
			if m.cleanup {
				m.t.Cleanup(func() {
					if err := k.remove(context.Background(), m.c, m.org, id); err != nil && !isNotFound(err) {
						m.t.Errorf("deleting %s %s: %v", k.name, id, err)
					}
				})
			}
			p.ids[k] = append(p.ids[k], id)
		}
	}
	return p
}

// kitsParents is one parent of each kind the kits covering a suite
// declare (ok says which cover it).
func kitsParents(ok func(typeKit) bool) map[*parentKind]int {
	need := map[*parentKind]int{}
	for _, k := range kits {
		if ok(k) {
			for _, p := range k.parents() {
				need[p] = 1
			}
		}
	}
	return need
}

// fakeParents are n parents of every kind the kits declare, with IDs
// that name the kind, for listing types without a suite's fixtures.
func fakeParents(n int) parentIDs {
	p := parentIDs{org: "org", ids: map[*parentKind][]string{}}
	for k := range kitsParents(func(typeKit) bool { return true }) {
		for i := range n {
			p.ids[k] = append(p.ids[k], fmt.Sprintf("%s-%d", k.prefix, i))
		}
	}
	return p
}

// objectIDRE finds the IDs of the objects the kits' types make in
// Terraform's output: each kit's idPrefix.
var objectIDRE = func() *regexp.Regexp {
	var prefixes []string
	for _, k := range kits {
		if p := k.idPrefix(); p != "" && !slices.Contains(prefixes, p) {
			prefixes = append(prefixes, p)
		}
	}
	slices.Sort(prefixes)
	return regexp.MustCompile(`\b(?:` + strings.Join(prefixes, "|") + `)-[A-Za-z0-9]+\b`)
}()
