package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): the private module "mod"
// (provider aws, versions scenVersions), its test variables (managed with
// the owners team's token, as module tests require) and its versions'
// deprecations (with the provider's token, which "Manage private registry"
// lets deprecate).

const (
	scenVars = 3
	scenDeps = 2
)

var scenVersions = []string{"1.0.0", "1.1.0", "1.2.0"}

// scenVar is a test variable V<i> of the configuration.
type scenVar struct {
	route     string // value, value_wo, none (both left out: the service's value is kept)
	version   int    // of its value
	woVersion int    // value_wo_version
	sensitive string // "true", "false", "" (left out)
}

func (v scenVar) value(i int) string { return fmt.Sprintf("v%d-%d", i, v.version) }

// scenDep is a deprecation d<i> of the configuration.
type scenDep struct {
	version int // index in scenVersions
	reason  int // 0: no reason
	link    bool
}

func (d scenDep) reasonText() string {
	if d.reason == 0 {
		return ""
	}
	return fmt.Sprintf("r%d", d.reason)
}

func (d scenDep) linkText() string {
	if d.link {
		return "https://example.com/upgrade"
	}
	return ""
}

func (m *scenario) modID() tfe.RegistryModuleID {
	return moduleRef{Organization: m.org, Name: "mod", Provider: "aws"}.id()
}

func (m *scenario) versionRef(j int) moduleVersionRef {
	return moduleVersionRef{Organization: m.org, Name: "mod", Provider: "aws", Version: scenVersions[j]}
}

// editVariable adds, removes or changes test variable V<i>: its value, the
// route of its value (value, value_wo with value_wo_version, or neither),
// value_wo_version alone, or sensitive (true, false, or left out).
func (m *scenario) editVariable(rt *rapid.T) {
	i := rapid.IntRange(0, scenVars-1).Draw(rt, "variable")
	v, ok := m.vars[i]
	v, op := drawVarEdit(rt, v, ok)
	if op != "remove" {
		m.vars[i] = v
	} else {
		delete(m.vars, i)
	}
	m.logf(rt, "edit: test variable V%d %s -> %+v", i, op, v)
	m.writeConfig(rt)
}

// drawVarEdit draws an edit of a variable (ok: it is configured), as
// editVariable and editParameter make them; op "remove" removes it.
func drawVarEdit(rt *rapid.T, v scenVar, ok bool) (scenVar, string) {
	op := "add"
	if ok {
		op = rapid.SampledFrom([]string{"remove", "value", "route", "wo version", "sensitive"}).Draw(rt, "variable op")
	}
	sensitive := func() string { return rapid.SampledFrom([]string{"true", "false", ""}).Draw(rt, "sensitive") }
	switch op {
	case "add":
		v = scenVar{route: rapid.SampledFrom([]string{"value", "value_wo"}).Draw(rt, "route"), sensitive: sensitive(), woVersion: 1}
	case "value":
		v.version++
		if v.route == "value_wo" {
			v.woVersion++
		}
	case "route":
		v.route = rapid.SampledFrom([]string{"value", "value_wo", "none"}).Draw(rt, "route")
		if v.route == "value_wo" {
			v.woVersion++
		}
	case "wo version": // a new version sends the same value again
		v.woVersion++
	case "sensitive":
		v.sensitive = sensitive()
	}
	return v, op
}

// write writes the variable's value arguments and sensitive.
func (v scenVar) write(b *strings.Builder, value string) {
	switch v.route {
	case "value":
		fmt.Fprintf(b, "  value = %q\n", value)
	case "value_wo":
		fmt.Fprintf(b, "  value_wo = %q\n  value_wo_version = %d\n", value, v.woVersion)
	}
	if v.sensitive != "" {
		fmt.Fprintf(b, "  sensitive = %s\n", v.sensitive)
	}
}

// differs says how the service's variable (ok: it exists) differs from
// the configuration's, in what the service returns ("" when it does not).
func (v scenVar) differs(got scenVariableOnService, ok bool, value string) string {
	switch {
	case !ok:
		return "it is not on the service"
	case got.sensitive != (v.sensitive == "true"):
		return fmt.Sprintf("it is sensitive=%v on the service, %q in the configuration", got.sensitive, v.sensitive)
	case !got.sensitive && v.route != "none" && got.value != value:
		return fmt.Sprintf("its value on the service is %q, the configuration's %q (route %s)", got.value, value, v.route)
	}
	return ""
}

// editDeprecation adds, removes or changes deprecation d<i>: its reason,
// link, or version (to one no other deprecation names).
func (m *scenario) editDeprecation(rt *rapid.T) {
	i := rapid.IntRange(0, scenDeps-1).Draw(rt, "deprecation")
	d, ok := m.deps[i]
	free := []int{}
	for j := range scenVersions {
		taken := false
		for k, o := range m.deps {
			taken = taken || (k != i && o.version == j)
		}
		if !taken {
			free = append(free, j)
		}
	}
	op := "add"
	if ok {
		op = rapid.SampledFrom([]string{"remove", "reason", "link", "version"}).Draw(rt, "deprecation op")
	}
	switch op {
	case "remove":
		delete(m.deps, i)
	case "add":
		d = scenDep{version: rapid.SampledFrom(free).Draw(rt, "version"), reason: rapid.IntRange(0, 1).Draw(rt, "reason"), link: rapid.Bool().Draw(rt, "link")}
	case "reason":
		d.reason = (d.reason + 1) % 3
	case "link":
		d.link = !d.link
	case "version":
		d.version = rapid.SampledFrom(free).Draw(rt, "version")
	}
	if op != "remove" {
		m.deps[i] = d
	}
	m.logf(rt, "edit: deprecation d%d %s -> %+v", i, op, d)
	m.writeConfig(rt)
}

// writeModules writes the test variables and deprecations of the model.
func (m *scenario) writeModules(b *strings.Builder) {
	// Always: a resource removed from the configuration is destroyed with its provider's.
	fmt.Fprintf(b, "provider \"tfgov\" {\n  alias = \"owners\"\n  token = %q\n}\n", m.ownersToken)
	for _, i := range slices.Sorted(maps.Keys(m.vars)) {
		v := m.vars[i]
		fmt.Fprintf(b, "resource \"tfgov_module_test_variable\" \"v%d\" {\n  provider = tfgov.owners\n  %s  key = \"V%d\"\n", i, m.moduleArgs(), i)
		v.write(b, v.value(i))
		b.WriteString("}\n")
	}
	for _, i := range slices.Sorted(maps.Keys(m.deps)) {
		d := m.deps[i]
		fmt.Fprintf(b, "resource \"tfgov_module_version_deprecation\" \"d%d\" {\n  module_name = \"mod\"\n  module_provider = \"aws\"\n  module_version = %s\n", i, m.versionRefExpr(i))
		if d.reason != 0 {
			fmt.Fprintf(b, "  reason = %q\n", d.reasonText())
		}
		if d.link {
			fmt.Fprintf(b, "  link = %q\n", d.linkText())
		}
		b.WriteString("}\n")
	}
}

// outsideModule is an outside write on the module: a test variable
// changed, deleted or made (again), a version deprecated (by someone
// else, or anew), its deprecation reverted, or the version deleted or
// published again.
func (m *scenario) outsideModule(rt *rapid.T, svc scenService, kind string) {
	ctx := m.ctx
	switch kind {
	case "change variable", "delete variable":
		keys := slices.Sorted(maps.Keys(svc.vars))
		if len(keys) == 0 {
			rt.Skip("no test variable on the service")
		}
		key := rapid.SampledFrom(keys).Draw(rt, "variable")
		v := svc.vars[key]
		if kind == "delete variable" {
			m.must(rt, m.owner.TestVariables.Delete(ctx, m.modID(), v.id))
		} else {
			_, err := m.owner.TestVariables.Update(ctx, m.modID(), v.id, tfe.VariableUpdateOptions{Value: tfe.String("outside")})
			m.must(rt, err)
		}
		m.logf(rt, "outside: %s %s (%s)", kind, key, v.id)
	case "create variable":
		i := rapid.IntRange(0, scenVars-1).Draw(rt, "variable")
		key := fmt.Sprintf("V%d", i)
		if _, ok := svc.vars[key]; ok {
			rt.Skip("the variable exists")
		}
		v, err := m.owner.TestVariables.Create(ctx, m.modID(), tfe.VariableCreateOptions{Key: tfe.String(key), Value: tfe.String("outside"), Category: tfe.Category(tfe.CategoryEnv)})
		m.must(rt, err)
		if _, held := m.readState(rt)[fmt.Sprintf("tfgov_module_test_variable.v%d", i)]; !held {
			m.foreign[v.ID] = true
		}
		m.logf(rt, "outside: create variable %s (%s)", key, v.ID)
	default:
		j := rapid.IntRange(0, len(scenVersions)-1).Draw(rt, "version")
		ref := m.versionRef(j)
		dep, exists := svc.deps[scenVersions[j]]
		switch kind {
		case "deprecate":
			if !exists {
				rt.Skip("no such version")
			}
			_, err := deprecateModuleVersion(ctx, m.owner, ref, tfe.String("outside"), nil)
			m.must(rt, err)
			// A deprecation this instance does not hold is someone else's:
			// a create must not take it over (invariant 7).
			if !dep.deprecated && !m.heldDeprecation(rt, ref.String()) {
				m.foreign[ref.String()] = true
			}
		case "undeprecate":
			if !exists || !dep.deprecated {
				rt.Skip("no deprecation")
			}
			m.must(rt, undeprecateModuleVersion(ctx, m.owner, ref))
			delete(m.foreign, ref.String())
		case "delete version":
			if !exists {
				rt.Skip("no such version")
			}
			m.must(rt, m.owner.RegistryModules.DeleteVersion(ctx, m.modID(), scenVersions[j]))
			delete(m.foreign, ref.String())
		case "publish version":
			if exists {
				rt.Skip("the version exists")
			}
			_, err := m.owner.RegistryModules.CreateVersion(ctx, m.modID(), tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(scenVersions[j])})
			m.must(rt, err)
		}
		m.logf(rt, "outside: %s %s", kind, scenVersions[j])
	}
}

var scenModuleOutside = []string{"change variable", "delete variable", "create variable", "deprecate", "undeprecate", "delete version", "publish version"}

// deprecateMeanwhile is, half the time where a saved plan creates a
// deprecation of a version no one had deprecated at plan, someone else
// deprecating that version before the apply; it reports whether it did.
func (m *scenario) deprecateMeanwhile(rt *rapid.T, changes map[string]planChange, atPlan scenService) bool {
	var versions []string
	for _, i := range slices.Sorted(maps.Keys(m.deps)) {
		v := scenVersions[m.deps[i].version]
		if c, ok := changes[fmt.Sprintf("tfgov_module_version_deprecation.d%d", i)]; ok && c.creates() && !atPlan.deps[v].deprecated {
			if _, exists := atPlan.deps[v]; exists {
				versions = append(versions, v)
			}
		}
	}
	if len(versions) == 0 || !rapid.Bool().Draw(rt, "deprecate a version the plan deprecates") {
		return false
	}
	v := rapid.SampledFrom(versions).Draw(rt, "version deprecated meanwhile")
	defer m.setFaultsAside(rt)()
	ref := m.versionRef(slices.Index(scenVersions, v))
	_, err := deprecateModuleVersion(m.ctx, m.owner, ref, tfe.String("outside"), nil)
	m.must(rt, err)
	m.foreign[ref.String()] = true
	m.logf(rt, "outside: deprecate %s, which the plan deprecates, before its apply", v)
	return true
}

func (m *scenario) heldDeprecation(rt *rapid.T, id string) bool {
	for addr, held := range m.readState(rt) {
		if strings.HasPrefix(addr, "tfgov_module_version_deprecation.") && held == id {
			return true
		}
	}
	return false
}

// scenVariableOnService and scenDepOnService are the module's objects as
// the owner reads them.
type scenVariableOnService struct {
	id, value string
	sensitive bool
}

type scenDepOnService struct {
	deprecated   bool
	reason, link string
}

// snapshotModule reads the module's test variables and each version's
// deprecation.
func (m *scenario) snapshotModule(rt *rapid.T, s *scenService) {
	vars, err := m.owner.TestVariables.List(m.ctx, m.modID(), &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	m.must(rt, err)
	for _, v := range vars.Items {
		s.vars[v.Key] = scenVariableOnService{id: v.ID, value: v.Value, sensitive: v.Sensitive}
		s.ids[v.ID] = true
	}
	for j := range scenVersions {
		ref := m.versionRef(j)
		info, err := readModuleVersion(m.ctx, m.owner, ref)
		if isNotFound(err) {
			continue
		}
		m.must(rt, err)
		d := scenDepOnService{deprecated: info.Deprecated}
		if info.Reason != nil {
			d.reason = *info.Reason
		}
		if info.Link != nil {
			d.link = *info.Link
		}
		s.deps[ref.Version] = d
		if d.deprecated {
			s.ids[ref.String()] = true
		}
	}
}

// checkModulesHold is invariant 4 for the module's objects: each variable
// of the configuration exists, sensitive as configured, with its value
// where the service returns it (not sensitive, and set by value or
// value_wo); each deprecation with its reason and link.
func (m *scenario) checkModulesHold(rt *rapid.T, svc scenService) {
	for i, v := range m.vars {
		key := fmt.Sprintf("V%d", i)
		got, ok := svc.vars[key]
		if d := v.differs(got, ok, v.value(i)); d != "" {
			m.fail(rt, "invariant 4: variable "+key, "invariant 4: after an apply that succeeded, test variable %s: %s", key, d)
		}
	}
	for i, d := range m.deps {
		got := svc.deps[scenVersions[d.version]]
		if !got.deprecated || got.reason != d.reasonText() || got.link != d.linkText() {
			m.fail(rt, fmt.Sprintf("invariant 4: deprecation d%d", i), "invariant 4: version %s should be deprecated with reason %q and link %q; the service has %+v", scenVersions[d.version], d.reasonText(), d.linkText(), got)
		}
	}
}

// checkModulesOnlyPlanned is invariant 1 for the module's objects.
func (m *scenario) checkModulesOnlyPlanned(rt *rapid.T, changed func(string) bool, pre, post scenService) {
	addrOf := func(key string) string { return "tfgov_module_test_variable.v" + strings.TrimPrefix(key, "V") }
	for key, v := range pre.vars {
		if w, ok := post.vars[key]; (!ok || w != v) && !changed(addrOf(key)) {
			m.fail(rt, "invariant 1: variable "+key+" changed unplanned", "invariant 1: test variable %s changed in the apply (%+v -> %+v), which its plan did not show", key, v, post.vars[key])
		}
	}
	for key := range post.vars {
		if _, ok := pre.vars[key]; !ok && !changed(addrOf(key)) {
			m.fail(rt, "invariant 1: variable "+key+" created unplanned", "invariant 1: the apply created test variable %s, which its plan did not show", key)
		}
	}
	depChanged := func() bool {
		for i := range scenDeps {
			if changed(fmt.Sprintf("tfgov_module_version_deprecation.d%d", i)) {
				return true
			}
		}
		return false
	}
	for version, d := range pre.deps {
		if e := post.deps[version]; e != d && !depChanged() {
			m.fail(rt, "invariant 1: deprecation changed unplanned", "invariant 1: version %s's deprecation changed in the apply (%+v -> %+v), which its plan did not show", version, d, e)
		}
	}
}

// checkShows is invariant 5 judged directly: where the service differs
// from the configuration in a managed attribute it returns, the plan shows
// a change of that object.
func (m *scenario) checkShows(rt *rapid.T, changes map[string]planChange, svc scenService) {
	m.checkFleetShows(rt, changes, svc)
	m.checkProjectsShow(rt, changes, svc)
	m.checkPolicySetsShow(rt, changes, svc)
	m.checkOrgsShow(rt, changes, svc)
	shows := func(addr string) bool { c, ok := changes[addr]; return ok && !c.noop() }
	must := func(addr, what string, args ...any) {
		if !shows(addr) {
			m.fail(rt, "invariant 5: the plan does not show "+addr, "invariant 5: the plan shows no change of %s, but %s", addr, fmt.Sprintf(what, args...))
		}
	}
	for i, p := range m.policies {
		name := fmt.Sprintf("p%d", i)
		got, ok := svc.policies[name]
		switch {
		case !ok:
			must("tfgov_policy."+name, "policy %s is not on the service", name)
		case got.level != p.level:
			must("tfgov_policy."+name, "its level on the service is %s, %s in the configuration", got.level, p.level)
		case p.route != "upload" && !m.hidden[i] && got.code != p.code(name):
			must("tfgov_policy."+name, "its code on the service is %q, the configuration's %q (route %s)", got.code, p.code(name), p.route)
		}
	}
	for k, access := range m.grants {
		addr := fmt.Sprintf("tfgov_team_access.g_%d_%d", k[0], k[1])
		if g, ok := svc.grants[[2]string{m.teams[k[0]].ID, m.workspaces[k[1]].ID}]; !ok || g.access != access {
			must(addr, "the service has %+v, the configuration %s", g, access)
		}
	}
	for i, v := range m.vars {
		key, addr := fmt.Sprintf("V%d", i), fmt.Sprintf("tfgov_module_test_variable.v%d", i)
		got, ok := svc.vars[key]
		if d := v.differs(got, ok, v.value(i)); d != "" {
			must(addr, "test variable %s: %s", key, d)
		}
	}
	for i, d := range m.deps {
		addr := fmt.Sprintf("tfgov_module_version_deprecation.d%d", i)
		if got, ok := svc.deps[scenVersions[d.version]]; ok && (!got.deprecated || got.reason != d.reasonText() || got.link != d.linkText()) {
			must(addr, "version %s's deprecation on the service is %+v, the configuration's reason %q link %q", scenVersions[d.version], got, d.reasonText(), d.linkText())
		}
	}
}

// checkNoTakeover is invariant 7: an apply's create never takes over an
// object that existed before it and that this instance did not make (a
// test variable or a deprecation made outside); an import block may.
func (m *scenario) checkNoTakeover(rt *rapid.T, before, after map[string]string, imported map[string]string) {
	for addr, id := range after {
		if _, held := before[addr]; held {
			continue
		}
		if _, ok := imported[addr]; ok {
			delete(m.foreign, id)
			continue
		}
		if m.foreign[id] {
			m.fail(rt, "invariant 7: "+strings.SplitN(addr, ".", 2)[0]+" took over an object made outside", "invariant 7: the apply's create of %s took over %s, which existed before it and which this configuration did not make", addr, id)
		}
	}
}

// adopt writes an import block for an object made outside that the
// configuration names and the state lacks (a test variable of its key, by
// ID or by key; a deprecation of its version): the route by which a user
// takes over what a create refuses.
func (m *scenario) adopt(rt *rapid.T) {
	state, svc := m.readState(rt), m.snapshot(rt)
	found := map[string]string{}
	for i := range m.vars {
		addr := fmt.Sprintf("tfgov_module_test_variable.v%d", i)
		if v, ok := svc.vars[fmt.Sprintf("V%d", i)]; ok && state[addr] == "" {
			found[addr] = m.org + "/mod/aws/" + rapid.SampledFrom([]string{v.id, fmt.Sprintf("V%d", i)}).Draw(rt, "import by")
		}
	}
	for i, d := range m.deps {
		addr := fmt.Sprintf("tfgov_module_version_deprecation.d%d", i)
		if svc.deps[scenVersions[d.version]].deprecated && state[addr] == "" {
			found[addr] = m.versionRef(d.version).String()
		}
	}
	m.adoptProjectGrants(state, svc, found)
	m.adoptPolicySets(rt, state, svc, found)
	if len(found) == 0 {
		rt.Skip("nothing made outside to import")
	}
	addr := rapid.SampledFrom(slices.Sorted(maps.Keys(found))).Draw(rt, "adopt")
	m.imports[addr] = found[addr]
	m.writeConfig(rt)
	m.logf(rt, "adopt: import %s (%s)", addr, found[addr])
}
