package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): a second organization,
// made by the same owner, with policies of the same names as the first's
// (tfgov_policy o2_pN, organization set, while the provider's default is the
// first), lookups by name in each, and the provider's token of each kind:
// ops's team token, the user token of dev (a member of ops and of viewers,
// which holds "View all workspaces", in the first, and of the second's ops),
// the first organization's token, and the owners team's token. Nothing in
// one organization may be read, adopted, changed or deleted for the other,
// and a plan fails only where the token's kind may not see or do.

const scenOrg2Policies = 2

var scenTokenKinds = []string{"team", "user", "organization", "owners"}

// scenOrgPolicy is a policy of the second organization's configuration.
type scenOrgPolicy struct {
	level   string
	version int
}

func (p scenOrgPolicy) code(name string) string {
	return fmt.Sprintf("# %s v%d (second organization)\nmain = rule { true }\n", name, p.version)
}

// scenOrgs is the model's part for the second organization and the tokens.
type scenOrgs struct {
	name     string            // the second organization
	tokens   map[string]string // the provider's token of each kind
	kind     string            // the provider token's kind now
	policies map[int]scenOrgPolicy
	hidden   map[int]bool // code uploaded outside behind a proof, as scenario.hidden
	lookup   int          // -1: none; else data sources of policy pN by name in each organization
	set      bool         // tfgov_policy_set o2_s0, named s0 as the first's, global
}

// setupOrgs makes the second organization, user dev and the tokens, all
// through the public API; dev's user token through the route the
// sandbox's bootstrap uses (a site admin's POST /users/{id}/authentication-tokens),
// where on the live service dev would make it.
func (m *scenario) setupOrgs(rt *rapid.T) {
	ctx := m.ctx
	o := scenOrgs{name: m.org + "2", tokens: map[string]string{"team": m.token, "owners": m.ownersToken}, kind: "team",
		policies: map[int]scenOrgPolicy{}, hidden: map[int]bool{}, lookup: -1}
	_, err := m.owner.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(o.name), Email: tfe.String("acc-owner@" + o.name + ".invalid")})
	m.must(rt, err)
	ops2, err := m.owner.Teams.Create(ctx, o.name, tfe.TeamCreateOptions{Name: tfe.String("ops"), Visibility: tfe.String("organization"),
		OrganizationAccess: &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true), ReadWorkspaces: tfe.Bool(true)}})
	m.must(rt, err)
	viewers, err := m.owner.Teams.Create(ctx, m.org, tfe.TeamCreateOptions{Name: tfe.String("viewers"), Visibility: tfe.String("organization"),
		OrganizationAccess: &tfe.OrganizationAccessOptions{ReadWorkspaces: tfe.Bool(true)}})
	m.must(rt, err)
	email := "dev@" + m.org + ".invalid"
	mem, err := m.owner.OrganizationMemberships.Create(ctx, m.org, tfe.OrganizationMembershipCreateOptions{Email: tfe.String(email), Teams: []*tfe.Team{m.ops, viewers}})
	m.must(rt, err)
	_, err = m.owner.OrganizationMemberships.Create(ctx, o.name, tfe.OrganizationMembershipCreateOptions{Email: tfe.String(email), Teams: []*tfe.Team{ops2}})
	m.must(rt, err)
	admin, err := tfe.NewClient(&tfe.Config{Address: m.sb.address, Token: m.sb.srv.AdminToken()})
	m.must(rt, err)
	ut, err := admin.UserTokens.Create(ctx, mem.User.ID, tfe.UserTokenCreateOptions{Description: "dev"})
	m.must(rt, err)
	o.tokens["user"] = ut.Token
	ot, err := m.owner.OrganizationTokens.Create(ctx, m.org)
	m.must(rt, err)
	o.tokens["organization"] = ot.Token
	m.orgs = o
}

// seesSecond reports whether the provider's token may see the second
// organization: only dev's user token; the others are bound to the first.
func (m *scenario) seesSecond() bool { return m.orgs.kind == "user" }

// actsAsOwner reports whether the provider's token holds every permission
// of the first organization, whatever Permission lowered on ops.
func (m *scenario) actsAsOwner() bool {
	return m.orgs.kind == "organization" || m.orgs.kind == "owners"
}

// switchToken makes the provider's token one of another kind.
func (m *scenario) switchToken(rt *rapid.T) {
	kind := rapid.SampledFrom(scenTokenKinds).Draw(rt, "token kind")
	m.orgs.kind, m.token = kind, m.orgs.tokens[kind]
	m.logf(rt, "token: the provider's is now the %s token", kind)
}

// savedPlanToken plans to a file, switches the provider's token, then
// applies the saved plan.
func (m *scenario) savedPlanToken(rt *rapid.T) {
	m.savedPlan(rt, func(map[string]planChange, scenService) bool {
		m.switchToken(rt)
		return true
	})
}

// editOrgPolicy adds, removes or changes a policy of the second
// organization, or the lookups by name.
func (m *scenario) editOrgPolicy(rt *rapid.T) {
	switch rapid.IntRange(0, 5).Draw(rt, "what") {
	case 0:
		m.orgs.set = !m.orgs.set
		m.logf(rt, "edit: the second organization's policy set o2_s0 (s0, global): %v", m.orgs.set)
		m.writeConfig(rt)
		return
	case 1:
		m.orgs.lookup = rapid.IntRange(-1, scenOrg2Policies-1).Draw(rt, "lookup")
		m.logf(rt, "edit: lookups by name of p%d in each organization (-1: none)", m.orgs.lookup)
		m.writeConfig(rt)
		return
	}
	i := rapid.IntRange(0, scenOrg2Policies-1).Draw(rt, "second's policy")
	p, ok := m.orgs.policies[i]
	op := "add"
	if ok {
		op = rapid.SampledFrom([]string{"remove", "level", "code"}).Draw(rt, "op")
	}
	switch op {
	case "remove":
		delete(m.orgs.policies, i)
	case "add", "level":
		p.level = rapid.SampledFrom([]string{"advisory", "soft-mandatory", "hard-mandatory"}).Draw(rt, "level")
	case "code":
		p.version++
		delete(m.orgs.hidden, i)
	}
	if op != "remove" {
		m.orgs.policies[i] = p
	}
	m.logf(rt, "edit: second organization's policy o2_p%d %s -> %+v", i, op, p)
	m.writeConfig(rt)
}

func (m *scenario) writeOrgs(b *strings.Builder) {
	for _, i := range slices.Sorted(maps.Keys(m.orgs.policies)) {
		p, name := m.orgs.policies[i], fmt.Sprintf("p%d", i)
		fmt.Fprintf(b, "resource \"tfgov_policy\" \"o2_%s\" {\n  organization = %q\n  name = %q\n  enforcement_level = %q\n  content = %q\n}\n",
			name, m.orgs.name, name, p.level, p.code(name))
	}
	if m.orgs.set {
		fmt.Fprintf(b, "resource \"tfgov_policy_set\" \"o2_s0\" {\n  organization = %q\n  name = \"s0\"\n  scope = { global = true }\n}\n", m.orgs.name)
	}
	if i := m.orgs.lookup; i >= 0 {
		name := fmt.Sprintf("p%d", i)
		dep := func(addr string) string {
			if _, ok := m.policies[i]; ok && addr == "tfgov_policy."+name {
				return "\n  depends_on = [" + addr + "]"
			}
			if _, ok := m.orgs.policies[i]; ok && addr == "tfgov_policy.o2_"+name {
				return "\n  depends_on = [" + addr + "]"
			}
			return ""
		}
		fmt.Fprintf(b, "data \"tfgov_policy\" \"first\" {\n  name = %q%s\n}\noutput \"first\" { value = data.tfgov_policy.first.id }\n", name, dep("tfgov_policy."+name))
		fmt.Fprintf(b, "data \"tfgov_policy\" \"second\" {\n  organization = %q\n  name = %q%s\n}\noutput \"second\" { value = data.tfgov_policy.second.id }\n",
			m.orgs.name, name, dep("tfgov_policy.o2_"+name))
	}
}

func (m *scenario) snapshotOrgs(rt *rapid.T, s *scenService) {
	s.org2 = map[string]scenPolicyOnService{}
	pols, err := servicePolicies(m.ctx, m.owner, m.orgs.name)
	m.must(rt, err)
	for _, p := range pols {
		code, err := downloadCode(m.ctx, m.owner, p.ID)
		m.must(rt, err)
		s.org2[p.Name] = scenPolicyOnService{id: p.ID, level: string(p.EnforcementLevel), code: code}
		s.ids[p.ID] = true
	}
	s.org2Sets = map[string]string{}
	l, err := m.owner.PolicySets.List(m.ctx, m.orgs.name, &tfe.PolicySetListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	m.must(rt, err)
	for _, ps := range l.Items {
		s.org2Sets[ps.Name] = ps.ID
		s.ids[ps.ID] = true
	}
}

// outsideOrg writes with the owner's token in the second organization, or
// makes in the first a policy of a name only the second's configuration
// holds: a same-named object that a create must not take over (7).
func (m *scenario) outsideOrg(rt *rapid.T) {
	defer m.setFaultsAside(rt)()
	svc := m.snapshot(rt)
	ctx := m.ctx
	kind := rapid.SampledFrom([]string{"create", "create in first", "delete", "patch", "upload", "delete set"}).Draw(rt, "outside in second")
	if kind == "delete set" {
		id, ok := svc.org2Sets["s0"]
		if !ok {
			rt.Skip("no policy set in the second organization")
		}
		m.must(rt, m.owner.PolicySets.Delete(ctx, id))
		m.logf(rt, "outside: delete policy set s0 of the second organization (%s)", id)
		return
	}
	if kind == "create" || kind == "create in first" {
		org, have := m.orgs.name, svc.org2
		if kind == "create in first" {
			org, have = m.org, svc.policies
		}
		name := fmt.Sprintf("p%d", rapid.IntRange(0, scenPolicies-1).Draw(rt, "name"))
		if _, ok := have[name]; ok {
			rt.Skip("a policy of that name exists")
		}
		p, err := m.owner.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String(name), Kind: tfe.Sentinel,
			EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
		m.must(rt, err)
		m.must(rt, m.owner.Policies.Upload(ctx, p.ID, []byte("# outside\nmain = rule { false }\n")))
		m.foreign[p.ID] = true
		m.logf(rt, "outside: make policy %s in %s (%s)", name, org, p.ID)
		return
	}
	names := slices.Sorted(maps.Keys(svc.org2))
	if len(names) == 0 {
		rt.Skip("no policy in the second organization")
	}
	name := rapid.SampledFrom(names).Draw(rt, "policy")
	pol := svc.org2[name]
	m.writePolicyOutside(rt, kind, name, pol.id, m.orgs.hidden, tfe.PolicyUpdateOptions{EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementSoft)})
	m.logf(rt, "outside: %s policy %s of the second organization (%s)", kind, name, pol.id)
}

// adoptOrg imports a configured policy the state lacks that its
// organization has, or forgets one (state rm) and imports it back, by
// <organization>/<name>: the import must find that organization's.
func (m *scenario) adoptOrg(rt *rapid.T) {
	state, svc := m.readState(rt), m.snapshot(rt)
	found := map[string]string{}
	for i := range m.policies {
		addr, name := fmt.Sprintf("tfgov_policy.p%d", i), fmt.Sprintf("p%d", i)
		if _, ok := svc.policies[name]; ok {
			found[addr] = m.org + "/" + name
		}
	}
	for i := range m.orgs.policies {
		addr, name := fmt.Sprintf("tfgov_policy.o2_p%d", i), fmt.Sprintf("p%d", i)
		if _, ok := svc.org2[name]; ok {
			found[addr] = m.orgs.name + "/" + name
		}
	}
	if len(found) == 0 {
		rt.Skip("no policy to import")
	}
	addr := rapid.SampledFrom(slices.Sorted(maps.Keys(found))).Draw(rt, "address")
	if state[addr] != "" {
		if r := m.terraform(rt, "state", "rm", addr); r.code != 0 {
			rt.Fatalf("terraform state rm %s: %s", addr, r.out)
		}
	}
	m.imports[addr] = found[addr]
	m.writeConfig(rt)
	m.logf(rt, "import: %s by %s (was in state: %v)", addr, found[addr], state[addr] != "")
}

// checkOrgs: after an apply, each policy address holds its own
// organization's object (never the other's of the same name), and, after
// one that succeeded, the second's policies and the lookups are as
// configured (4).
func (m *scenario) checkOrgs(rt *rapid.T, state map[string]string, svc scenService, holds bool) {
	for addr, id := range state {
		if strings.HasPrefix(addr, "tfgov_policy_set.") {
			m.checkSetOrg(rt, addr, id, svc, holds)
			continue
		}
		name, second := strings.CutPrefix(strings.TrimPrefix(addr, "tfgov_policy."), "o2_")
		if !strings.HasPrefix(addr, "tfgov_policy.") {
			continue
		}
		own, other := svc.policies, svc.org2
		if second {
			own, other = svc.org2, svc.policies
		}
		for n, p := range other {
			if p.id == id {
				m.fail(rt, "organizations: a policy address holds the other organization's policy", "organizations: %s holds %s, policy %s of the other organization", addr, id, n)
			}
		}
		if p, ok := own[name]; ok && p.id != id && holds {
			m.fail(rt, "organizations: a policy address holds another object than its name's", "organizations: %s holds %s, but its organization's policy %s is %s", addr, id, name, p.id)
		}
	}
	if !holds {
		return
	}
	for i, p := range m.orgs.policies {
		name := fmt.Sprintf("p%d", i)
		got, ok := svc.org2[name]
		switch {
		case !ok:
			m.fail(rt, "invariant 4: the second organization's "+name+" missing", "invariant 4: the apply succeeded, but the second organization has no policy %s", name)
		case got.level != p.level:
			m.fail(rt, "invariant 4: the second organization's "+name+"'s level", "invariant 4: the second organization's %s is %s, %s in the configuration", name, got.level, p.level)
		case got.code != p.code(name) && !m.orgs.hidden[i]:
			m.fail(rt, "invariant 4: the second organization's "+name+"'s code", "invariant 4: the second organization's %s's code is %q, the configuration's %q", name, got.code, p.code(name))
		}
	}
	if _, ok := svc.org2Sets["s0"]; m.orgs.set && !ok {
		m.fail(rt, "invariant 4: the second organization's s0 missing", "invariant 4: the apply succeeded, but the second organization has no policy set s0")
	}
	if i := m.orgs.lookup; i >= 0 {
		name := fmt.Sprintf("p%d", i)
		outs := m.readOutputs(rt)
		if outs["first"] != svc.policies[name].id || outs["second"] != svc.org2[name].id {
			m.fail(rt, "organizations: a lookup by name found another organization's policy", "organizations: the lookups of %s found %q (first) and %q (second); the service's are %q and %q",
				name, outs["first"], outs["second"], svc.policies[name].id, svc.org2[name].id)
		}
	}
}

// checkSetOrg: a policy set's address holds its own organization's set,
// never the other's of the same name (8).
func (m *scenario) checkSetOrg(rt *rapid.T, addr, id string, svc scenService, holds bool) {
	own, other := map[string]string{}, svc.org2Sets
	for name, set := range svc.sets {
		own[name] = set.id
	}
	if addr == "tfgov_policy_set.o2_s0" {
		own, other = other, own
	}
	if slices.Contains(slices.Collect(maps.Values(other)), id) {
		m.fail(rt, "organizations: a policy set address holds the other organization's set", "organizations: %s holds %s, a set of the other organization", addr, id)
	}
	if got, ok := own["s0"]; ok && holds && got != id {
		m.fail(rt, "organizations: a policy set address holds another set than its name's", "organizations: %s holds %s, but its organization's s0 is %s", addr, id, got)
	}
}

func (m *scenario) readOutputs(rt *rapid.T) map[string]string {
	raw, err := os.ReadFile(filepath.Join(m.dir, "terraform.tfstate"))
	m.must(rt, err)
	var st struct {
		Outputs map[string]struct {
			Value any `json:"value"`
		} `json:"outputs"`
	}
	m.must(rt, json.Unmarshal(raw, &st))
	out := map[string]string{}
	for k, v := range st.Outputs {
		out[k] = fmt.Sprint(v.Value)
	}
	return out
}

// checkOrgsOnlyPlanned: the apply of a saved plan changed a policy of the
// second organization only where its plan showed that address changing (1).
func (m *scenario) checkOrgsOnlyPlanned(rt *rapid.T, changed func(string) bool, pre, post scenService) {
	for name, p := range pre.org2 {
		if q, ok := post.org2[name]; (!ok || q != p) && !changed("tfgov_policy.o2_"+name) {
			m.fail(rt, "invariant 1: the second organization's "+name+" changed unplanned", "invariant 1: the second organization's policy %s changed in the apply (%+v -> %+v), which its plan did not show", name, p, q)
		}
	}
	if pre.org2Sets["s0"] != post.org2Sets["s0"] && !changed("tfgov_policy_set.o2_s0") {
		m.fail(rt, "invariant 1: the second organization's s0 changed unplanned", "invariant 1: the second organization's policy set s0 went from %q to %q in the apply, which its plan did not show", pre.org2Sets["s0"], post.org2Sets["s0"])
	}
	for name := range post.org2 {
		if _, ok := pre.org2[name]; !ok && !changed("tfgov_policy.o2_"+name) {
			m.fail(rt, "invariant 1: the second organization's "+name+" created unplanned", "invariant 1: the apply created the second organization's policy %s, which its plan did not show", name)
		}
	}
}

// checkOrgsShow: a change made outside to a policy of the second
// organization is shown by the next plan (5).
func (m *scenario) checkOrgsShow(rt *rapid.T, changes map[string]planChange, svc scenService) {
	if c, ok := changes["tfgov_policy_set.o2_s0"]; m.orgs.set && svc.org2Sets["s0"] == "" && (!ok || c.noop()) {
		m.fail(rt, "invariant 5: the plan does not show tfgov_policy_set.o2_s0", "invariant 5: the second organization has no policy set s0, and the plan shows no change of tfgov_policy_set.o2_s0")
	}
	for i, p := range m.orgs.policies {
		name := fmt.Sprintf("p%d", i)
		addr := "tfgov_policy.o2_" + name
		if c, ok := changes[addr]; ok && !c.noop() {
			continue
		}
		got, ok := svc.org2[name]
		if !ok || got.level != p.level || (got.code != p.code(name) && !m.orgs.hidden[i]) {
			m.fail(rt, "invariant 5: the plan does not show "+addr, "invariant 5: the plan shows no change of %s, but the service has %+v (configured %+v)", addr, got, p)
		}
	}
}

// permissionDiag matches a diagnostic that says the token may not see or do something.
var permissionDiag = regexp.MustCompile(`(?i)permission|may not|cannot see|cannot be refreshed|not visible|needs "|belongs to no team`)

// checkTokenModel judges a plan by what the token's kind may see and do:
// one that fails naming a permission must be one the kind lacks (the
// second organization for a token of the first; "View all workspaces",
// which only dev's teams prove; whatever Permission lowered on ops, for
// ops's and dev's tokens), and a refresh of the second organization's
// objects by a token that cannot see it must fail, not pass.
func (m *scenario) checkTokenModel(rt *rapid.T, args []string, r tfRun, before map[string]string) {
	if args[0] != "plan" {
		return
	}
	held := false
	for addr := range before {
		held = held || strings.Contains(addr, ".o2_")
	}
	if r.code == 0 {
		if held && !m.seesSecond() {
			m.fail(rt, "token model: a refresh by a token that cannot see the second organization passed", "token model: the %s token cannot see %s, whose policies the state holds, yet the plan succeeded", m.orgs.kind, m.orgs.name)
		}
		return
	}
	if d, what := m.refusals(rt, r.errs, held); what != "" {
		m.fail(rt, "token model: "+what, "token model: the %s token (lowered on ops: %v): %s: %s", m.orgs.kind, m.lowered, what, d)
	}
}

// refusals judges errors by the token model: the first one that refuses
// a permission the token holds, and what is wrong with it, or "" for both.
func (m *scenario) refusals(rt *rapid.T, errs []string, held bool) (string, string) {
	lowered := false
	for _, v := range m.lowered {
		lowered = lowered || v
	}
	var svc *scenService
	for _, d := range errs { // a warning refuses nothing
		if objectIDRE.MatchString(d) {
			if svc == nil {
				s := m.snapshot(rt)
				svc = &s
			}
			if namesOnlyGone(d, svc.ids) {
				continue
			}
		}
		if what := m.unexpectedRefusal(d, held, lowered); what != "" {
			return d, what
		}
	}
	return "", ""
}

// onlyRefusals: every error is a refusal (permissionDiag) that the token model expects of the
// token's kind, so a quiet service refuses the same.
func (m *scenario) onlyRefusals(rt *rapid.T, errs []string) bool {
	for _, d := range errs {
		if !permissionDiag.MatchString(d) {
			return false
		}
	}
	_, what := m.refusals(rt, errs, false)
	return len(errs) > 0 && what == ""
}

// namesOnlyGone: every object d names is gone from the service (an import of an ID deleted
// outside, a token whose pool was deleted): "not found, or the token may not …" is then the truth,
// as nothing the token may list proves where the object was.
func namesOnlyGone(d string, ids map[string]bool) bool {
	named := objectIDRE.FindAllString(d, -1)
	for _, id := range named {
		if ids[id] {
			return false
		}
	}
	return len(named) > 0
}

// unexpectedRefusal is "" when a plan's diagnostic d names no permission
// or one the token's kind lacks, else what is wrong.
func (m *scenario) unexpectedRefusal(d string, held, lowered bool) string {
	if !permissionDiag.MatchString(d) {
		return ""
	}
	switch {
	case strings.Contains(d, m.orgs.name):
		if m.seesSecond() {
			return "a user of both organizations refused in the second"
		}
	case strings.Contains(d, `View all workspaces`) && m.orgs.kind != "user":
	case lowered && !m.actsAsOwner():
	case !held && !m.seesSecond() && len(m.orgs.policies) > 0:
		// A create in the second organization, refused by a token of the first.
	default:
		return "a plan refused a permission the token holds"
	}
	return ""
}

// TestScenario_tokenModel: the machine's token model takes a refusal for
// expected only where the token's kind lacks the permission.
func TestScenario_tokenModel(t *testing.T) {
	const (
		second  = `Cannot refresh policy: Policy pol-1 cannot be refreshed: organization scen2 was not found. It was deleted, or the API token belongs to no team of its organization`
		view    = `Policy set needs "View all workspaces": Policy set "s0": the API token is not proven to see every workspace`
		manage  = `Cannot refresh policy: organization scen exists, but the API token may not list its policies: it needs the organization's "Manage policies" permission`
		lookup  = `Error reading policy: Organization scen2 has no policy named "p2": its policies, which the API token may list, do not include it.`
		create2 = `Error creating policy: Organization scen2 was not found, or the API token belongs to no team of it.`
	)
	for _, tc := range []struct {
		kind, diag    string
		held, lowered bool
		want          bool // unexpected
	}{
		{"team", second, true, false, false},
		{"organization", second, true, false, false},
		{"user", second, true, false, true},
		{"user", lookup, true, false, false},
		{"team", view, false, false, false},
		{"owners", view, false, false, false},
		{"user", view, false, false, true},
		{"team", manage, false, true, false},
		{"user", manage, false, true, false},
		{"team", manage, false, false, true},
		// A create in the second organization by a token of the first (STEPS=5000 SEED=5412, the repair after 429s).
		{"team", create2, false, false, false},
		{"user", create2, false, false, true},
		// An apply's create refused once Permission lowered ops's pools (STEPS=5000 SEED=5412).
		{"user", `Error creating agent token: Agent pool apool-RXKPQZhPRmV4nztv ("pool") exists, but the API token may not manage its tokens: it needs the organization's "Manage agent pools" permission, or to be an owner.`, false, true, false},
		{"owners", manage, false, true, true},
		{"organization", manage, false, true, true},
	} {
		m := &scenario{orgs: scenOrgs{name: "scen2", kind: tc.kind}}
		if got := m.unexpectedRefusal(tc.diag, tc.held, tc.lowered) != ""; got != tc.want {
			t.Errorf("%s token, held %v, lowered %v: unexpected(%q) = %v, want %v", tc.kind, tc.held, tc.lowered, tc.diag, got, tc.want)
		}
	}
	// An import by the ID of an object deleted outside (STEPS=5000 SEED=5411) refuses nothing the token holds.
	imp := `Cannot import policy: Policy pol-XM29QFIy9v3qzEco not found, or the token may not manage policies`
	for _, tc := range []struct {
		d    string
		ids  map[string]bool
		gone bool
	}{
		{imp, map[string]bool{}, true},
		{imp, map[string]bool{"pol-XM29QFIy9v3qzEco": true}, false},
		{`Cannot import policy: the token may not manage policies`, map[string]bool{}, false},
		// A token whose pool was deleted outside (STEPS=5000 SEED=5412).
		{`Cannot refresh agent token: Agent token at-Ew8IV3wpiKvBvYGm cannot be refreshed: agent pool apool-YXrbXvjkLw31nVkq was not found`, map[string]bool{}, true},
	} {
		if got := namesOnlyGone(tc.d, tc.ids); got != tc.gone {
			t.Errorf("namesOnlyGone(%q, %v) = %v, want %v", tc.d, tc.ids, got, tc.gone)
		}
	}
}
