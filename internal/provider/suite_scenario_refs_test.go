package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): how the configuration
// names the pool, the module and its versions. Each is a direct value (the
// pool's ID, "mod", "1.1.0") or a singular look-up (tfgov_agent_pool by
// name feeding the tokens' agent_pool_id, tfgov_registry_module feeding the
// test variables' and run's module, tfgov_module_version feeding each
// deprecation's version); outside, the pool is renamed (to a name that
// differs only in case, too), versions deleted. A singular look-up that
// matches nothing fails the plan naming the closest names.

// scenRefs is the model's part for look-ups of the pool and the module.
type scenRefs struct {
	pool, module, version bool // named by look-up
	poolName              string
	poolGone              bool // deleted outside, not made again yet
	apart                 bool // terraform runs in Generate's directory
}

// scenPoolNames are the names an outside rename moves the pool through.
var scenPoolNames = []string{"pool", "pool-renamed", "Pool"}

// editRef turns a look-up of the pool, the module or the deprecations'
// versions on or off.
func (m *scenario) editRef(rt *rapid.T) {
	switch rapid.SampledFrom([]string{"pool", "module", "version"}).Draw(rt, "look-up of") {
	case "pool":
		m.refs.pool = !m.refs.pool
		m.logf(rt, "edit: the tokens' pool by look-up: %v", m.refs.pool)
	case "module":
		m.refs.module = !m.refs.module
		m.logf(rt, "edit: the module by look-up: %v", m.refs.module)
	default:
		m.refs.version = !m.refs.version
		m.logf(rt, "edit: the deprecations' versions by look-up: %v", m.refs.version)
	}
	m.writeConfig(rt)
}

// drawRefs chooses, per history, which of the pool, the module and the
// versions the configuration names by look-up (EditLookup turns them later).
func (m *scenario) drawRefs(rt *rapid.T) {
	m.refs.pool = rapid.Bool().Draw(rt, "pool by look-up")
	m.refs.module = rapid.Bool().Draw(rt, "module by look-up")
	m.refs.version = rapid.Bool().Draw(rt, "versions by look-up")
}

// poolRef is the tokens' agent_pool_id expression.
func (m *scenario) poolRef() string {
	if m.refs.pool {
		return "data.tfgov_agent_pool.pool.id"
	}
	return fmt.Sprintf("%q", m.pool.ID)
}

// moduleArgs are module_name and module_provider of a test variable or run.
func (m *scenario) moduleArgs() string {
	if m.refs.module {
		return "module_name = data.tfgov_registry_module.mod.module_name\n  module_provider = data.tfgov_registry_module.mod.module_provider\n"
	}
	return "module_name = \"mod\"\n  module_provider = \"aws\"\n"
}

// versionRefExpr is deprecation d<i>'s module_version expression.
func (m *scenario) versionRefExpr(i int) string {
	if m.refs.version {
		return fmt.Sprintf("data.tfgov_module_version.d%d.module_version", i)
	}
	return fmt.Sprintf("%q", scenVersions[m.deps[i].version])
}

// writeRefs writes the look-ups the configuration uses.
func (m *scenario) writeRefs(b *strings.Builder) {
	if m.refs.pool && len(m.tokens) > 0 {
		b.WriteString("data \"tfgov_agent_pool\" \"pool\" {\n  name = \"pool\"\n}\n")
	}
	if m.refs.module && (len(m.vars) > 0 || m.run.on) {
		b.WriteString("data \"tfgov_registry_module\" \"mod\" {\n  module_name = \"mod\"\n  module_provider = \"aws\"\n}\n")
	}
	if m.refs.version {
		for _, i := range slices.Sorted(maps.Keys(m.deps)) {
			fmt.Fprintf(b, "data \"tfgov_module_version\" \"d%d\" {\n  module_name = \"mod\"\n  module_provider = \"aws\"\n  module_version = %q\n}\n", i, scenVersions[m.deps[i].version])
		}
	}
}

// outsidePool renames the pool (the configuration's look-up names
// "pool"), deletes it (its tokens with it), or makes it again (a new ID).
func (m *scenario) outsidePool(rt *rapid.T, kind string) {
	switch {
	case kind == "create pool again" && m.refs.poolGone:
		p, err := m.owner.AgentPools.Create(m.ctx, m.org, tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
		m.must(rt, err)
		m.pool, m.refs.poolGone, m.refs.poolName = p, false, "pool"
		m.logf(rt, "outside: create pool again (%s)", p.ID)
		return
	case kind == "create pool again" || m.refs.poolGone:
		rt.Skip("the pool exists, or is gone")
	case kind == "delete pool":
		m.must(rt, m.owner.AgentPools.Delete(m.ctx, m.pool.ID))
		m.refs.poolGone = true
		m.logf(rt, "outside: delete pool %s", m.pool.ID)
		return
	}
	name := rapid.SampledFrom(slices.DeleteFunc(slices.Clone(scenPoolNames), func(n string) bool { return n == m.poolName() })).Draw(rt, "pool name")
	_, err := m.owner.AgentPools.Update(m.ctx, m.pool.ID, tfe.AgentPoolUpdateOptions{Name: tfe.String(name)})
	m.must(rt, err)
	m.refs.poolName = name
	m.logf(rt, "outside: rename pool %s to %s", m.pool.ID, name)
}

func (m *scenario) poolName() string {
	if m.refs.poolName == "" {
		return "pool"
	}
	return m.refs.poolName
}

var scenRefOutside = []string{"rename pool", "delete pool", "create pool again"}

// checkRefLookups judges a plan's (or an unsaved apply's) singular
// look-ups: one that matches nothing fails the command, naming the
// closest names; one that matches does not fail as not found.
func (m *scenario) checkRefLookups(rt *rapid.T, args []string, r tfRun) {
	if m.refs.apart || args[0] != "plan" && args[0] != "apply" || args[len(args)-1] == "tfplan" {
		return
	}
	diag := func(prefix string) string {
		for _, d := range r.diags {
			if strings.HasPrefix(d, prefix) {
				return d
			}
		}
		return ""
	}
	if m.refs.pool && len(m.tokens) > 0 {
		d := diag("Agent pool not found")
		switch {
		case m.refs.poolGone && r.code == 0:
			m.fail(rt, "look-up: a deleted pool's look-up did not fail", "look-up: the pool is gone, and terraform %s succeeded", args[0])
		case m.refs.poolGone:
		case m.poolName() != "pool" && r.code == 0:
			m.fail(rt, "look-up: a pool that matches nothing did not fail", "look-up: the pool is named %q, the configuration looks up \"pool\", and terraform %s succeeded", m.poolName(), args[0])
		case m.poolName() != "pool" && d != "" && !strings.Contains(d, fmt.Sprintf("%q", m.poolName())):
			m.fail(rt, "look-up: a pool not found without the closest name", "look-up: the pool is named %q; the diagnostic does not name it: %s", m.poolName(), d)
		case m.poolName() == "pool" && d != "" && !m.lowered["pools"]:
			m.fail(rt, "look-up: the pool not found by its name", "look-up: the pool is named \"pool\", and terraform %s says: %s", args[0], d)
		}
	}
	if !m.refs.version || len(m.deps) == 0 {
		return
	}
	svc := m.snapshot(rt)
	for _, i := range slices.Sorted(maps.Keys(m.deps)) {
		v := scenVersions[m.deps[i].version]
		if _, ok := svc.deps[v]; ok {
			continue
		}
		if r.code == 0 {
			m.fail(rt, "look-up: a deleted version's look-up did not fail", "look-up: version %s is gone, and terraform %s with data.tfgov_module_version.d%d succeeded", v, args[0], i)
		}
		d := diag("Error reading module version")
		if d != "" && !m.lowered["registry"] && !strings.Contains(d, "its versions are") && !strings.Contains(d, "has no versions yet") {
			m.fail(rt, "look-up: a deleted version not found without the versions", "look-up: version %s is gone; the diagnostic does not name the module's versions: %s", v, d)
		}
	}
}

// dropMissingImportTargets: an import block to a for_each instance whose
// key the look-up no longer yields (its workspace renamed or gone since
// the state rm) fails the command, as Terraform says; the user then drops
// the block, and the object, out of state, is theirs (forgotten).
func (m *scenario) dropMissingImportTargets(rt *rapid.T, r tfRun) {
	dropped := false
	if m.refs.apart {
		return
	}
	for addr, id := range m.imports {
		if !strings.Contains(addr, "[") {
			continue
		}
		for _, d := range r.diags {
			if strings.HasPrefix(d, "Configuration for import target does not exist") && strings.Contains(d, addr) {
				delete(m.imports, addr)
				m.forgotten[id[strings.LastIndex(id, "/")+1:]] = true
				dropped = true
				m.logf(rt, "reimport: %s has no configuration now; the import block goes, %s is forgotten", addr, id)
			}
		}
	}
	if dropped {
		m.writeConfig(rt)
	}
}
