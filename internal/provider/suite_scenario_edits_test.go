package provider

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): configuration edits.

func (m *scenario) editPolicy(rt *rapid.T) {
	i := rapid.IntRange(0, scenPolicies-1).Draw(rt, "policy")
	p, ok := m.policies[i]
	op := "add"
	if ok {
		op = rapid.SampledFrom([]string{"remove", "level", "code", "route", "move"}).Draw(rt, "op")
	}
	switch op {
	case "remove":
		delete(m.policies, i)
	case "add":
		p = scenPolicy{route: rapid.SampledFrom([]string{"content", "content_wo", "source", "upload"}).Draw(rt, "route"),
			level: rapid.SampledFrom([]string{"advisory", "soft-mandatory", "hard-mandatory"}).Draw(rt, "level"), file: "a"}
	case "level":
		p.level = rapid.SampledFrom([]string{"advisory", "soft-mandatory", "hard-mandatory"}).Draw(rt, "level")
	case "code":
		p.version++
		delete(m.hidden, i)
	case "route":
		p.route = rapid.SampledFrom([]string{"content", "content_wo", "source", "upload"}).Draw(rt, "route")
	case "move": // a source file moves, with the same code or new
		p.file = map[string]string{"a": "b", "b": "a"}[p.file]
		if rapid.Bool().Draw(rt, "new code") {
			p.version++
		}
	}
	if op != "remove" {
		m.policies[i] = p
	}
	m.logf(rt, "edit: policy p%d %s -> %+v", i, op, p)
	m.writeConfig(rt)
}

func (m *scenario) editGrant(rt *rapid.T) {
	k := [2]int{rapid.IntRange(0, scenTeams-1).Draw(rt, "team"), rapid.IntRange(0, scenWorkspaces-1).Draw(rt, "workspace")}
	if keys := sortedGrantKeys(m.grants); len(keys) > 0 && rapid.Bool().Draw(rt, "a configured grant") {
		k = rapid.SampledFrom(keys).Draw(rt, "grant") // removals as likely as additions
	}
	if _, ok := m.grants[k]; ok && rapid.Bool().Draw(rt, "remove") {
		delete(m.grants, k)
		m.logf(rt, "edit: remove grant of t%d on w%d", k[0], k[1])
	} else {
		m.grants[k] = rapid.SampledFrom([]string{"read", "plan", "write"}).Draw(rt, "access")
		m.logf(rt, "edit: grant t%d %s on w%d", k[0], m.grants[k], k[1])
	}
	m.writeConfig(rt)
}

func (m *scenario) editToken(rt *rapid.T) {
	i := rapid.IntRange(0, scenTokens-1).Draw(rt, "token")
	if m.tokens[i] {
		delete(m.tokens, i)
	} else {
		m.tokens[i] = true
	}
	m.logf(rt, "edit: token k%d in configuration: %v", i, m.tokens[i])
	m.writeConfig(rt)
}

// toggleExclusive turns w1's exclusive access on or off, or (while on)
// names a team in its team_ids by ID, without a grant resource, or drops
// one it named: a team in team_ids that may hold nothing, which the schema
// allows. Its name is kept from when it only toggled: the alphabet's
// order, and so the action each draw picks, stays as it was.
func (m *scenario) toggleExclusive(rt *rapid.T) {
	op := "toggle"
	if m.exclusive {
		ops := []string{"toggle", "name"}
		if len(m.exclusiveTeams) > 0 {
			ops = append(ops, "unname")
		}
		op = rapid.SampledFrom(ops).Draw(rt, "exclusive op")
	}
	switch op {
	case "toggle":
		m.exclusive = !m.exclusive
		if m.exclusive { // a lock-down often names teams that hold nothing yet
			clear(m.exclusiveTeams)
			for i := range scenTeams {
				if rapid.Bool().Draw(rt, fmt.Sprintf("names t%d", i)) {
					m.exclusiveTeams[i] = true
				}
			}
		}
		m.logf(rt, "edit: exclusive team access on w1: %v (names %v)", m.exclusive, slices.Sorted(maps.Keys(m.exclusiveTeams)))
	case "name":
		i := rapid.IntRange(0, scenTeams-1).Draw(rt, "team")
		m.exclusiveTeams[i] = true
		m.logf(rt, "edit: w1's team_ids names t%d", i)
	default:
		i := rapid.SampledFrom(slices.Sorted(maps.Keys(m.exclusiveTeams))).Draw(rt, "team")
		delete(m.exclusiveTeams, i)
		m.logf(rt, "edit: w1's team_ids no longer names t%d", i)
	}
	m.writeConfig(rt)
}

// writeConfig writes main.tf (and the source files) from the model.
func (m *scenario) writeConfig(rt *rapid.T) {
	var b strings.Builder
	b.WriteString(requiredProvidersShim)
	for _, i := range slices.Sorted(maps.Keys(m.policies)) {
		p := m.policies[i]
		name := fmt.Sprintf("p%d", i)
		code := p.code(name)
		fmt.Fprintf(&b, "resource \"tfgov_policy\" %q {\n  name = %q\n  enforcement_level = %q\n", name, name, p.level)
		switch p.route {
		case "content":
			fmt.Fprintf(&b, "  content = %q\n", code)
		case "content_wo":
			fmt.Fprintf(&b, "  content_wo = %q\n", code)
		case "source":
			file := name + "-" + p.file + ".sentinel"
			m.writeFile(rt, file, code)
			fmt.Fprintf(&b, "  source = \"${path.module}/%s\"\n", file)
		}
		b.WriteString("}\n")
		if p.route == "upload" {
			// The documented use of content_sha256: a file another resource
			// writes during the apply, and that writer's digest.
			fmt.Fprintf(&b, `resource "terraform_data" "w_%[1]s" {
  input = %[2]q
  provisioner "local-exec" {
    command     = "printf '%%s' \"$CODE\" > %[1]s-up.sentinel"
    environment = { CODE = self.input }
  }
}
resource "tfgov_policy_upload" %[1]q {
  policy_id      = tfgov_policy.%[1]s.id
  source         = "${path.module}/%[1]s-up.sentinel"
  content_sha256 = sha256(terraform_data.w_%[1]s.output)
}
`, name, code)
		}
	}
	for _, k := range sortedGrantKeys(m.grants) {
		fmt.Fprintf(&b, "resource \"tfgov_team_access\" \"g_%d_%d\" {\n  team_id = %q\n  workspace_id = %q\n  access = %q\n}\n",
			k[0], k[1], m.teams[k[0]].ID, m.workspaces[k[1]].ID, m.grants[k])
	}
	for _, i := range slices.Sorted(maps.Keys(m.tokens)) {
		fmt.Fprintf(&b, "resource \"tfgov_agent_token\" \"k%d\" {\n  agent_pool_id = %s\n  description = \"k%d\"\n}\n", i, m.poolRef(), i)
	}
	if m.exclusive {
		ids := []string{fmt.Sprintf("%q", m.ops.ID)}
		for _, k := range sortedGrantKeys(m.grants) {
			if k[1] == 1 {
				ids = append(ids, fmt.Sprintf("tfgov_team_access.g_%d_1.team_id", k[0]))
			}
		}
		for _, i := range slices.Sorted(maps.Keys(m.exclusiveTeams)) {
			if _, granted := m.grants[[2]int{i, 1}]; !granted {
				ids = append(ids, fmt.Sprintf("%q", m.teams[i].ID))
			}
		}
		fmt.Fprintf(&b, "resource \"tfgov_workspace_team_access_exclusive\" \"w1\" {\n  workspace_id = %q\n  team_ids = [%s]\n}\n",
			m.workspaces[1].ID, strings.Join(ids, ", "))
	}
	m.writeModules(&b)
	m.writeRefs(&b)
	m.writeLookups(&b)
	m.writeRun(&b)
	m.writeProjects(&b)
	m.writePolicySets(rt, &b)
	m.writeOrgs(&b)
	// An import block stays while its address is in the configuration; an
	// object whose address leaves first was forgotten by the user (state
	// rm), and is theirs now: no invariant counts it.
	for _, addr := range slices.Sorted(maps.Keys(m.imports)) {
		id := m.imports[addr][strings.LastIndex(m.imports[addr], "/")+1:]
		if strings.Contains(b.String(), fmt.Sprintf("%q %q {", strings.SplitN(addr, ".", 2)[0], strings.SplitN(strings.SplitN(addr, ".", 2)[1], "[", 2)[0])) {
			fmt.Fprintf(&b, "import {\n  to = %s\n  id = %q\n}\n", addr, m.imports[addr])
		} else {
			m.forgotten[id] = true
			delete(m.imports, addr)
		}
	}
	m.writeFile(rt, "main.tf", b.String())
}

// config is main.tf as the model last wrote it.
func (m *scenario) config(rt *rapid.T) string {
	b, err := os.ReadFile(filepath.Join(m.dir, "main.tf"))
	m.must(rt, err)
	return string(b)
}

func (m *scenario) writeFile(rt *rapid.T, name, content string) {
	if err := os.WriteFile(filepath.Join(m.dir, name), []byte(content), 0o600); err != nil {
		rt.Fatal(err)
	}
}

func sortedGrantKeys(mp map[[2]int]string) [][2]int {
	ks := make([][2]int, 0, len(mp))
	for k := range mp {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(a, b int) bool { return ks[a][0]*10+ks[a][1] < ks[b][0]*10+ks[b][1] })
	return ks
}
