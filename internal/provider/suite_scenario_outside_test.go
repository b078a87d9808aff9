package provider

import (
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// The scenario machine (suite_scenario_test.go): the world outside Terraform.

// outside makes one write on the service with the owner's token, as
// another person would.
func (m *scenario) outside(rt *rapid.T) {
	defer m.setFaultsAside(rt)()
	svc := m.snapshot(rt)
	kinds := append([]string{"delete policy", "upload policy", "patch policy", "grant", "revoke grant", "change grant", "revoke token"}, scenModuleOutside...)
	kinds = append(append(append(kinds, scenFleetOutside...), scenRunOutside...), append(scenProjectOutside, scenPolicySetOutside...)...)
	kinds = append(kinds, scenRefOutside...)
	// TFGOV_SCENARIO_OUTSIDE (a comma-separated list of kinds) narrows a hunt's outside writes.
	if only := os.Getenv("TFGOV_SCENARIO_OUTSIDE"); only != "" {
		kinds = slices.DeleteFunc(kinds, func(k string) bool { return !slices.Contains(strings.Split(only, ","), k) })
	}
	kind := rapid.SampledFrom(kinds).Draw(rt, "outside")
	ctx := m.ctx
	if slices.Contains(scenFleetOutside, kind) {
		m.outsideFleet(rt, svc, kind)
		return
	}
	if slices.Contains(scenRefOutside, kind) {
		m.outsidePool(rt, kind)
		return
	}
	if slices.Contains(scenRunOutside, kind) {
		m.outsideRun(rt, svc, kind)
		return
	}
	if slices.Contains(scenProjectOutside, kind) {
		m.outsideProject(rt, svc, kind)
		return
	}
	if slices.Contains(scenPolicySetOutside, kind) {
		m.outsidePolicySet(rt, svc, kind)
		return
	}
	switch kind {
	case "change variable", "delete variable", "create variable", "deprecate", "undeprecate", "delete version", "publish version":
		m.outsideModule(rt, svc, kind)
	case "delete policy", "upload policy", "patch policy":
		names := svc.policyNames()
		if len(names) == 0 {
			rt.Skip("no policy on the service")
		}
		name := rapid.SampledFrom(names).Draw(rt, "policy")
		pol := svc.policies[name]
		m.writePolicyOutside(rt, strings.TrimSuffix(kind, " policy"), name, pol.id, m.hidden,
			tfe.PolicyUpdateOptions{EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementSoft), Description: tfe.String("outside")})
		m.logf(rt, "outside: %s %s (%s)", kind, name, pol.id)
	case "grant":
		tm := rapid.IntRange(0, scenTeams-1).Draw(rt, "team")
		ws := rapid.IntRange(0, scenWorkspaces-1).Draw(rt, "workspace")
		if _, ok := svc.grants[[2]string{m.teams[tm].ID, m.workspaces[ws].ID}]; ok {
			rt.Skip("the team already has access")
		}
		g, err := m.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: m.teams[tm], Workspace: m.workspaces[ws]})
		m.must(rt, err)
		m.foreign[g.ID] = true
		m.logf(rt, "outside: grant t%d read on w%d (%s)", tm, ws, g.ID)
	case "revoke grant", "change grant":
		keys := svc.grantKeys(m.ops.ID)
		if len(keys) == 0 {
			rt.Skip("no grant on the service")
		}
		k := rapid.SampledFrom(keys).Draw(rt, "grant")
		g := svc.grants[k]
		if kind == "revoke grant" {
			m.must(rt, m.owner.TeamAccess.Remove(ctx, g.id))
		} else {
			_, err := m.owner.TeamAccess.Update(ctx, g.id, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessAdmin)})
			m.must(rt, err)
		}
		m.logf(rt, "outside: %s %s", kind, g.id)
	case "revoke token":
		ids := svc.tokenIDs()
		if len(ids) == 0 {
			rt.Skip("no token on the service")
		}
		id := rapid.SampledFrom(ids).Draw(rt, "token")
		m.must(rt, m.owner.AgentTokens.Delete(ctx, id))
		m.logf(rt, "outside: revoke token %s", id)
	}
}

// setFaultsAside clears the armed faults, which are for Terraform's next
// write and not an outsider's, and returns what arms them again.
func (m *scenario) setFaultsAside(rt *rapid.T) func() {
	pending := m.sb.srv.Faults()
	m.sb.srv.ClearFaults()
	return func() {
		for _, f := range pending {
			m.must(rt, m.sb.srv.InjectFault(f))
		}
	}
}

// outsideMeanwhile is an outside write between a saved plan and its
// apply: at random, or (half the time, where there is one) on a grant the
// plan touches, as a team does that works on what it is locking down: a
// grant to w1 for a team the plan shows leaving team_ids that holds none,
// or a grant the plan removes revoked and made again (a new ID). Either is
// a grant made after the plan, which the apply must leave alone.
func (m *scenario) outsideMeanwhile(rt *rapid.T, changes map[string]planChange, atPlan scenService) {
	type touch struct {
		team, ws string
		old      string // the grant the plan saw, to revoke first; "" for none
	}
	var touched []touch
	leaving := m.exclusiveLeaving(changes)
	for _, id := range slices.Sorted(maps.Keys(leaving)) {
		if id == m.ops.ID { // the token's own grant: Permission's business
			continue
		}
		k := [2]string{id, m.workspaces[1].ID}
		touched = append(touched, touch{team: id, ws: k[1], old: atPlan.grants[k].id})
	}
	for _, k := range atPlan.grantKeys(m.ops.ID) {
		if c, ok := changes[m.grantAddr(k, changes)]; ok && slices.Contains(c.actions, "delete") && (k[1] != m.workspaces[1].ID || !leaving[k[0]]) {
			touched = append(touched, touch{team: k[0], ws: k[1], old: atPlan.grants[k].id})
		}
	}
	if m.deprecateMeanwhile(rt, changes, atPlan) || m.projectMeanwhile(rt, changes, atPlan) {
		return
	}
	if len(touched) == 0 || !rapid.Bool().Draw(rt, "touch what the plan touches") {
		m.outside(rt)
		return
	}
	tc := rapid.SampledFrom(touched).Draw(rt, "touched grant")
	defer m.setFaultsAside(rt)()
	if tc.old != "" {
		m.must(rt, m.owner.TeamAccess.Remove(m.ctx, tc.old))
	}
	g, err := m.owner.TeamAccess.Add(m.ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: &tfe.Team{ID: tc.team}, Workspace: &tfe.Workspace{ID: tc.ws}})
	m.must(rt, err)
	m.foreign[g.ID] = true
	if tc.old != "" {
		m.logf(rt, "outside: revoke %s, a grant the plan removes, and grant %s read on %s again (%s)", tc.old, m.nameOf(tc.team), m.nameOf(tc.ws), g.ID)
		return
	}
	m.logf(rt, "outside: grant %s (leaving w1's team_ids, holding nothing) read on w1 (%s)", m.nameOf(tc.team), g.ID)
}

// nameOf is a team's or workspace's name in the logs, for its ID.
func (m *scenario) nameOf(id string) string {
	for _, tm := range append([]*tfe.Team{m.ops}, m.teams...) {
		if tm.ID == id {
			return tm.Name
		}
	}
	for _, ws := range m.workspaces {
		if ws.ID == id {
			return ws.Name
		}
	}
	return id
}

// permission lowers or restores one permission of the provider's token:
// the team's organization access to policies or agent pools, or its
// grant on a workspace (admin or read).
func (m *scenario) permission(rt *rapid.T) {
	what := rapid.SampledFrom([]string{"policies", "pools", "w0", "w1", "registry"}).Draw(rt, "permission")
	lower := !m.lowered[what]
	ctx := m.ctx
	switch what {
	case "policies", "pools", "registry":
		has := func(p string) bool { return p != what && !m.lowered[p] || p == what && !lower }
		oa := &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(has("policies")), ManageAgentPools: tfe.Bool(has("pools")), ManageModules: tfe.Bool(has("registry"))}
		_, err := m.owner.Teams.Update(ctx, m.ops.ID, tfe.TeamUpdateOptions{OrganizationAccess: oa})
		m.must(rt, err)
	default:
		i, _ := strconv.Atoi(what[1:])
		level := tfe.AccessAdmin
		if lower {
			level = tfe.AccessRead
		}
		_, err := m.owner.TeamAccess.Update(ctx, m.opsGrant[i], tfe.TeamAccessUpdateOptions{Access: tfe.Access(level)})
		m.must(rt, err)
	}
	m.lowered[what] = lower
	m.logf(rt, "permission: %s lowered: %v", what, lower)
}

// service changes how the service behaves where the reference is silent:
// which writes move a policy's updated-at, and its clock.
func (m *scenario) service(rt *rapid.T) {
	if rapid.Bool().Draw(rt, "updated-at") {
		b := rapid.SampledFrom(sandbox.PolicyUpdatedAtValues).Draw(rt, "moves updated-at")
		m.must(rt, m.sb.srv.SetPolicyUpdatedAt(b))
		m.updatedAt = b
		m.logf(rt, "service: writes that move a policy's updated-at: %s", b)
		return
	}
	d := time.Duration(rapid.IntRange(-30, 30).Draw(rt, "clock hours")) * time.Hour
	m.sb.srv.SetClockOffset(d)
	m.logf(rt, "service: clock offset %s", d)
}

// reimport forgets an object (terraform state rm) and imports it back
// with an import block, which stays until an apply succeeds.
func (m *scenario) reimport(rt *rapid.T) {
	state := m.readState(rt)
	var addrs []string
	for addr := range state {
		if !strings.HasPrefix(addr, "tfgov_policy_upload.") {
			addrs = append(addrs, addr)
		}
	}
	if len(addrs) == 0 {
		rt.Skip("nothing in state")
	}
	sort.Strings(addrs)
	addr := rapid.SampledFrom(addrs).Draw(rt, "address")
	id := state[addr]
	if strings.HasPrefix(addr, "tfgov_agent_token.") {
		pool, _ := m.stateAttribute(rt, addr, "agent_pool_id").(string)
		id = pool + "/" + id // the pool may have been made again
	}
	if strings.HasPrefix(addr, "tfgov_module_test_variable.") || strings.HasPrefix(addr, "tfgov_module_test_run.") {
		id = m.org + "/mod/aws/" + id
	}
	if r := m.terraform(rt, "state", "rm", addr); r.code != 0 {
		rt.Fatalf("terraform state rm %s: %s", addr, r.out)
	}
	m.imports[addr] = id
	m.writeConfig(rt)
	m.logf(rt, "reimport: %s (%s)", addr, id)
}

// fault arms a fault on the next write of one kind: its answer lost
// (processed, then dropped or answered 503), or refused with 503 or 429.
func (m *scenario) fault(rt *rapid.T) {
	routes := []string{
		"POST /api/v2/organizations/{org}/policies",
		"PUT /api/v2/policies/{id}/upload",
		"PATCH /api/v2/policies/{id}",
		"POST /api/v2/team-workspaces",
		"POST /api/v2/agent-pools/{id}/authentication-tokens",
		"POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars",
		"PATCH /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars/{id}",
		"PATCH /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}",
		"POST /api/v2/organizations/{org}/policy-sets",
		"PATCH /api/v2/policy-sets/{id}",
		"DELETE /api/v2/team-projects/{id}",
		"POST /api/v2/policy-sets/{id}/parameters",
		"PATCH /api/v2/policy-sets/{id}/parameters/{param}",
		"POST /api/v2/policy-sets/{id}/versions",
	}
	route := rapid.SampledFrom(routes).Draw(rt, "route")
	f := sandbox.Fault{Route: route, Count: 1}
	switch rapid.SampledFrom([]string{"lost", "lost-503", "503", "429"}).Draw(rt, "fault") {
	case "lost":
		f.Drop = true
	case "lost-503":
		f.After, f.Status = true, 503
	case "503":
		f.Status = 503
	case "429":
		f.Status = 429
	}
	if err := m.sb.srv.InjectFault(f); err != nil {
		rt.Fatalf("fault %+v: %v (route names drifted from the sandbox's?)", f, err)
	}
	m.logf(rt, "fault: %+v", f)
}

// writePolicyOutside deletes, uploads code to, or patches policy name (id) as someone else would.
// An upload whose updated-at the service does not move hides the code from plans' proofs (hidden).
func (m *scenario) writePolicyOutside(rt *rapid.T, verb, name, id string, hidden map[int]bool, patch tfe.PolicyUpdateOptions) {
	switch verb {
	case "delete":
		m.must(rt, m.owner.Policies.Delete(m.ctx, id))
	case "upload":
		m.must(rt, m.owner.Policies.Upload(m.ctx, id, []byte("# outside\nmain = rule { false }\n")))
		if m.updatedAt == sandbox.PolicyUpdatedByPatch || m.updatedAt == sandbox.PolicyUpdatedByNeither {
			if i, err := strconv.Atoi(strings.TrimPrefix(name, "p")); err == nil {
				hidden[i] = true
			}
		}
	default:
		_, err := m.owner.Policies.Update(m.ctx, id, patch)
		m.must(rt, err)
	}
}
