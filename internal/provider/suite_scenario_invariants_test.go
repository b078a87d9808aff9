package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): invariants.

// checkPlanCreates: no plan proposes creating an object the state held
// that the service still has (5, 6).
func (m *scenario) checkPlanCreates(rt *rapid.T, state map[string]string, changes map[string]planChange, svc scenService) {
	for addr, ch := range changes {
		id, held := state[addr]
		// A replace (delete, then create) destroys the object first.
		if ch.creates() && !slices.Contains(ch.actions, "delete") && held && svc.ids[id] {
			m.fail(rt, "invariant 6: the plan creates "+addr+", which exists", "invariant 6: the plan creates %s, whose object %s the state held and the service still has (permissions lowered: %v)", addr, id, m.lowered)
		}
	}
}

// checkKept: every object the state held is still in state, gone from
// the service, or named by a diagnostic (3).
func (m *scenario) checkKept(rt *rapid.T, before, after map[string]string, svc scenService, r tfRun) {
	// An object an import moved to another address is still in state.
	held := map[string]bool{}
	for _, id := range after {
		held[id] = true
	}
	for addr, id := range before {
		if after[addr] == id || held[id] || !svc.ids[id] || m.named[id] || strings.HasPrefix(addr, "tfgov_workspace_team_access_exclusive.") {
			continue
		}
		// Destroying a test run only forgets it (the API cannot delete runs), also as the first
		// half of a replace for new triggers that a stop or failure cut short.
		if addr == "tfgov_module_test_run.r" && (!m.run.on || after[addr] != "" || m.runGen[id] != m.run.gen) {
			continue
		}
		// Destroying an upload leaves its policy's code on the service.
		if strings.HasPrefix(addr, "tfgov_policy_upload.") && !strings.Contains(m.config(rt), "\"tfgov_policy_upload\" \""+strings.TrimPrefix(addr, "tfgov_policy_upload.")+"\"") {
			continue
		}
		m.fail(rt, "invariant 3: "+addr+" left the state unnamed", "invariant 3: %s (%s) left the state, is still on the service, and no diagnostic named it (permissions lowered: %v)\n%s",
			addr, id, m.lowered, strings.Join(r.diags, "\n"))
	}
}

// checkNoTwins: no object of the configuration exists twice (2): two live
// tokens of one description, unless a diagnostic named the other.
func (m *scenario) checkNoTwins(rt *rapid.T, svc scenService, state map[string]string) {
	inState := map[string]bool{}
	for _, id := range state {
		inState[id] = true
	}
	seen := map[string][]string{}
	for id, desc := range svc.tokens {
		if (!m.named[id] && !m.forgotten[id]) || inState[id] {
			seen[desc] = append(seen[desc], id)
		}
	}
	for desc, ids := range seen {
		if len(ids) > 1 {
			m.fail(rt, "invariant 2: two tokens "+desc, "invariant 2: tokens %v share description %q, none named by a diagnostic", ids, desc)
		}
	}
}

// checkHolds: after an apply that succeeded, the service holds what the
// configuration says (4).
func (m *scenario) checkHolds(rt *rapid.T, svc scenService) {
	for i, p := range m.policies {
		name := fmt.Sprintf("p%d", i)
		got, ok := svc.policies[name]
		switch {
		case !ok:
			m.fail(rt, "invariant 4: policy "+name+" missing", "invariant 4: the apply succeeded, but policy %s is not on the service", name)
		case got.level != p.level:
			m.fail(rt, "invariant 4: policy "+name+"'s level", "invariant 4: policy %s is %s on the service, %s in the configuration", name, got.level, p.level)
		case got.code != p.code(name) && !m.hidden[i]:
			m.fail(rt, "invariant 4: policy "+name+"'s code", "invariant 4: policy %s's code on the service is %q, the configuration's %q (route %s)", name, got.code, p.code(name), p.route)
		}
	}
	for k, access := range m.grants {
		g, ok := svc.grants[[2]string{m.teams[k[0]].ID, m.workspaces[k[1]].ID}]
		if !ok || g.access != access {
			m.fail(rt, fmt.Sprintf("invariant 4: grant t%d on w%d", k[0], k[1]), "invariant 4: team t%d should have %s access to w%d; the service has %+v", k[0], access, k[1], g)
		}
	}
	for i := range m.tokens {
		found := false
		for _, d := range svc.tokens {
			found = found || d == fmt.Sprintf("k%d", i)
		}
		if !found {
			m.fail(rt, fmt.Sprintf("invariant 4: token k%d missing", i), "invariant 4: token k%d is not on the service", i)
		}
	}
	m.checkModulesHold(rt, svc)
	m.checkFleetHolds(rt, svc)
	if m.exclusive {
		allowed := map[string]bool{m.ops.ID: true}
		for k := range m.grants {
			if k[1] == 1 {
				allowed[m.teams[k[0]].ID] = true
			}
		}
		for i := range m.exclusiveTeams {
			allowed[m.teams[i].ID] = true
		}
		for k, g := range svc.grants {
			if k[1] == m.workspaces[1].ID && !allowed[k[0]] {
				m.fail(rt, "invariant 4: w1 not exclusive", "invariant 4: w1 is exclusive, but team %s holds %s access (%s)", k[0], g.access, g.id)
			}
		}
	}
}

// checkOnlyPlanned: between pre and post (the apply of a saved plan) the
// service changed only objects the plan named, and removed no object
// made after the plan (1).
func (m *scenario) checkOnlyPlanned(rt *rapid.T, changes map[string]planChange, atPlan, pre, post scenService) {
	changed := func(addr string) bool { c, ok := changes[addr]; return ok && !c.noop() }
	policyAddr := func(name string) bool {
		return changed("tfgov_policy."+name) || changed("tfgov_policy_upload."+name)
	}
	for name, p := range pre.policies {
		q, ok := post.policies[name]
		if (!ok || q != p) && !policyAddr(name) {
			m.fail(rt, "invariant 1: policy "+name+" changed unplanned", "invariant 1: policy %s changed in the apply (%+v -> %+v), which its plan did not show", name, p, q)
		}
	}
	for name := range post.policies {
		if _, ok := pre.policies[name]; !ok && !policyAddr(name) {
			m.fail(rt, "invariant 1: policy "+name+" created unplanned", "invariant 1: the apply created policy %s, which its plan did not show", name)
		}
	}
	// A plan shows a grant's removal only if it saw that grant (the same
	// ID in the snapshot taken at plan) and showed its team losing access:
	// its tfgov_team_access destroyed, or the team leaving w1's exclusive
	// team_ids. Whatever the plan showed of a team, a grant made after it
	// was not shown.
	leaving := m.exclusiveLeaving(changes)
	for k, g := range pre.grants {
		h, ok := post.grants[k]
		if ok && h == g {
			continue
		}
		addr := m.grantAddr(k, changes)
		if ok {
			if !changed(addr) {
				m.fail(rt, "invariant 1: a grant changed unplanned", "invariant 1: grant %s of team %s on %s changed in the apply (%+v -> %+v), which its plan did not show", g.id, k[0], k[1], g, h)
			}
			continue
		}
		seen, held := atPlan.grants[k]
		if held && seen.id == g.id {
			if c, ok := changes[addr]; (ok && slices.Contains(c.actions, "delete")) || (k[1] == m.workspaces[1].ID && leaving[k[0]]) {
				continue
			}
			m.fail(rt, "invariant 1: a grant removed unplanned", "invariant 1: the apply removed grant %s of team %s on %s, which its plan did not show leaving", g.id, k[0], k[1])
			continue
		}
		// Two messages, so that a hunt for one (TFGOV_SCENARIO_IGNORE)
		// shrinks past the other.
		if held {
			m.fail(rt, "invariant 1: a grant made after the plan removed (its team's grant replaced)", "invariant 1: the apply removed grant %s of team %s on %s, made after the plan (the plan saw grant %s)", g.id, k[0], k[1], seen.id)
			continue
		}
		m.fail(rt, "invariant 1: a grant made after the plan removed (its team held none at plan)", "invariant 1: the apply removed grant %s of team %s on %s, made after the plan (the team held no grant there when planned)", g.id, k[0], k[1])
	}
	for id, desc := range pre.tokens {
		if _, ok := post.tokens[id]; !ok && !changed("tfgov_agent_token."+desc) {
			m.fail(rt, "invariant 1: token "+desc+" revoked unplanned", "invariant 1: the apply revoked token %s (%s), which its plan did not show", id, desc)
		}
	}
	m.checkModulesOnlyPlanned(rt, changed, pre, post)
	m.checkProjectsOnlyPlanned(rt, changes, atPlan, pre, post)
	m.checkPolicySetsApplied(rt, changes, atPlan, pre, post)
	m.checkOrgsOnlyPlanned(rt, changed, pre, post)
}

// grantAddr is the address of the configuration's grant for key k, or
// "": a fleet grant's is the plan's instance on its workspace (keyed by
// the name the workspace had when the instance was made).
func (m *scenario) grantAddr(k [2]string, changes map[string]planChange) string {
	if k[0] == m.fleetTeam.ID {
		for _, addr := range slices.Sorted(maps.Keys(changes)) {
			if c := changes[addr]; strings.HasPrefix(addr, "tfgov_team_access.fleet[") && (c.before["workspace_id"] == k[1] || c.after["workspace_id"] == k[1]) {
				return addr
			}
		}
		return ""
	}
	for i, tm := range m.teams {
		for j, ws := range m.workspaces {
			if tm.ID == k[0] && ws.ID == k[1] {
				return fmt.Sprintf("tfgov_team_access.g_%d_%d", i, j)
			}
		}
	}
	return ""
}

// exclusiveLeaving is the set of teams the plan shows losing their access
// to w1: leaving team_ids, or named in a new resource's removed_team_ids.
func (m *scenario) exclusiveLeaving(changes map[string]planChange) map[string]bool {
	out := map[string]bool{}
	c, ok := changes["tfgov_workspace_team_access_exclusive.w1"]
	// Destroying the resource removes no access: only an update or a
	// create shows teams leaving.
	if !ok || !slices.Contains(c.actions, "update") && !slices.Contains(c.actions, "create") {
		return out
	}
	after := map[string]bool{}
	if ids, ok := c.after["team_ids"].([]any); ok {
		for _, id := range ids {
			after[fmt.Sprint(id)] = true
		}
	}
	// A new exclusive resource shows what it removes in removed_team_ids.
	if ids, ok := c.after["removed_team_ids"].([]any); ok {
		for _, id := range ids {
			out[fmt.Sprint(id)] = true
		}
	}
	if ids, ok := c.before["team_ids"].([]any); ok {
		for _, id := range ids {
			if !after[fmt.Sprint(id)] {
				out[fmt.Sprint(id)] = true
			}
		}
	}
	return out
}
