package provider

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): terraform plan
// -generate-config-out for an object on the service that the state does
// not hold (made outside, or forgotten by state rm), of every type the
// machine makes that Terraform can generate. An import block without a
// resource block, a plan that writes generated.tf (exit 0, and the file
// parses), then a plan with it shows only the import. A grant of a team
// tN on a workspace wM, or a test variable, then joins the model (its
// import block stays until an apply); any other is left foreign.

// scenGenerated is one object the Generate action may write configuration for.
type scenGenerated struct {
	typ, id  string
	provider string // "" or "tfgov.owners"
	keep     func() // makes the object the model's, or nil
	keepAddr string // the model's address when kept
}

func (m *scenario) generateCandidates(state map[string]string, svc scenService) map[string]scenGenerated {
	held := map[string]bool{}
	for _, id := range state {
		held[id] = true
	}
	for _, id := range m.imports {
		held[id[strings.LastIndex(id, "/")+1:]] = true
	}
	out := map[string]scenGenerated{}
	for name, p := range svc.policies {
		if !held[p.id] {
			out["policy "+name] = scenGenerated{typ: "tfgov_policy", id: p.id}
		}
	}
	for k, g := range svc.grants {
		if held[g.id] || k[0] == m.ops.ID { // ops's own grants are the fixture's
			continue
		}
		c := scenGenerated{typ: "tfgov_team_access", id: g.id}
		for i, tm := range m.teams {
			for j, ws := range m.workspaces {
				key := [2]int{i, j}
				addr := fmt.Sprintf("tfgov_team_access.g_%d_%d", i, j)
				if _, configured := m.grants[key]; tm.ID == k[0] && ws.ID == k[1] && !configured && state[addr] == "" {
					c.keepAddr = addr
					c.keep = func() { m.grants[key] = g.access }
				}
			}
		}
		out["grant "+g.id] = c
	}
	for id := range svc.tokens {
		if !held[id] {
			out["token "+id] = scenGenerated{typ: "tfgov_agent_token", id: m.pool.ID + "/" + id}
		}
	}
	for key, v := range svc.vars {
		if held[v.id] {
			continue
		}
		c := scenGenerated{typ: "tfgov_module_test_variable", id: m.org + "/mod/aws/" + v.id, provider: "tfgov.owners"}
		i, err := strconv.Atoi(strings.TrimPrefix(key, "V"))
		addr := fmt.Sprintf("tfgov_module_test_variable.v%d", i)
		if _, configured := m.vars[i]; err == nil && i < scenVars && !configured && state[addr] == "" {
			c.keepAddr = addr
			c.keep = func() { m.vars[i] = scenVar{route: "none", sensitive: strconv.FormatBool(v.sensitive)} }
		}
		out["variable "+key] = c
	}
	for j, version := range scenVersions {
		ref := m.versionRef(j).String()
		if d, ok := svc.deps[version]; ok && d.deprecated && !held[ref] {
			out["deprecation "+version] = scenGenerated{typ: "tfgov_module_version_deprecation", id: ref}
		}
	}
	for id := range svc.runs {
		if !held[id] {
			out["run "+id] = scenGenerated{typ: "tfgov_module_test_run", id: m.org + "/mod/aws/" + id, provider: "tfgov.owners"}
		}
	}
	for team, g := range svc.projectGrants {
		if !held[g.id] && team != m.ops.ID {
			out["project grant "+g.id] = scenGenerated{typ: "tfgov_team_project_access", id: g.id}
		}
	}
	return out
}

// generate writes configuration for an object the state does not hold
// with terraform plan -generate-config-out, and judges it.
func (m *scenario) generate(rt *rapid.T) {
	state, svc := m.readState(rt), m.snapshot(rt)
	cands := m.generateCandidates(state, svc)
	if len(cands) == 0 {
		rt.Skip("nothing on the service outside the state")
	}
	// A type first, then one of its objects: every type as likely.
	byType := map[string][]string{}
	for k, c := range cands {
		byType[c.typ] = append(byType[c.typ], k)
	}
	typ := rapid.SampledFrom(slices.Sorted(maps.Keys(byType))).Draw(rt, "generate a")
	c := cands[rapid.SampledFrom(slices.Sorted(slices.Values(byType[typ]))).Draw(rt, "generate for")]
	addr := c.typ + ".gen"
	// In a directory of its own, as a user adopting an object starts: the
	// rest of the configuration (a look-up that matches nothing, a refused
	// create) cannot stop it.
	gen := filepath.Join(m.dir, "gen")
	m.must(rt, os.MkdirAll(gen, 0o700))
	defer func() { _ = os.RemoveAll(gen) }()
	block := fmt.Sprintf("%sprovider \"tfgov\" {\n  alias = \"owners\"\n  token = %q\n}\nimport {\n  to = %s\n  id = %q\n", requiredProvidersShim, m.ownersToken, addr, c.id)
	if c.provider != "" {
		block += "  provider = " + c.provider + "\n"
	}
	m.writeFile(rt, "gen/main.tf", block+"}\n")
	m.logf(rt, "generate: %s (%s)", addr, c.id)
	r := m.terraformIn(rt, gen, "plan", "-generate-config-out=generated.tf", "-json", "-input=false")
	text, _ := os.ReadFile(filepath.Join(gen, "generated.tf"))
	// Only a permission lowered may stop the import's read (no read is faulted).
	lowered := slices.Contains(slices.Collect(maps.Values(m.lowered)), true)
	if r.code != 0 {
		if !lowered {
			m.fail(rt, "generate: the plan of "+c.typ+" failed", "generate: terraform plan -generate-config-out for %s failed:\n%s\n%s\n--- generated.tf ---\n%s", addr, strings.Join(r.diags, "\n"), r.out, text)
		}
		return
	}
	if len(text) == 0 {
		m.fail(rt, "generate: no configuration for "+c.typ, "generate: terraform plan -generate-config-out exited 0 and wrote no generated.tf for %s", addr)
	}
	m.logf(rt, "generated.tf:\n%s", text)
	r = m.terraformIn(rt, gen, "plan", "-out=tfplan", "-json", "-input=false")
	if r.code != 0 {
		if !lowered {
			m.fail(rt, "generate: the generated "+c.typ+" does not plan", "generate: the plan with generated.tf fails:\n%s\n--- generated.tf ---\n%s", strings.Join(r.diags, "\n"), text)
		}
		return
	}
	ch, ok := m.showGenPlan(rt, gen)[addr]
	if !ok || !ch.noop() {
		m.fail(rt, "generate: the generated "+c.typ+" plans a change", "generate: the plan with generated.tf shows %s as %+v, not only its import\n--- generated.tf ---\n%s", addr, ch, text)
	}
	if c.keep == nil || !rapid.Bool().Draw(rt, "keep it") {
		m.logf(rt, "generate: %s left foreign", c.id)
		return
	}
	c.keep()
	m.imports[c.keepAddr] = c.id
	delete(m.forgotten, c.id[strings.LastIndex(c.id, "/")+1:])
	m.writeConfig(rt)
	m.logf(rt, "generate: %s kept as %s", c.id, c.keepAddr)
}

// terraformIn runs terraform in dir, a configuration apart from the
// model's: the model's checks of a command stay off.
func (m *scenario) terraformIn(rt *rapid.T, dir string, args ...string) tfRun {
	saved, uncertain := m.dir, m.uncertain
	m.dir, m.refs.apart = dir, true
	defer func() { m.dir, m.refs.apart, m.uncertain = saved, false, uncertain }()
	return m.terraform(rt, args...)
}

// showGenPlan is the saved plan of the Generate directory, by address.
func (m *scenario) showGenPlan(rt *rapid.T, gen string) map[string]planChange {
	return m.planChanges(rt, m.terraformIn(rt, gen, "show", "-json", "tfplan"))
}
