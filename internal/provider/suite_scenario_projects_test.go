package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): project "prj", which holds
// w1 (and the workspaces made in it outside), its team access granted,
// changed, revoked and made again outside Terraform, and
// tfgov_project_team_access_exclusive on it. Team ops holds a custom grant
// on prj that manages its teams (so that its token sees every grant) and
// reads its workspaces (so that lowering ops's grant on w1 still lowers it).

// scenProjects is the model's part for prj.
type scenProjects struct {
	project   *tfe.Project
	opsGrant  string       // ops's grant on prj
	exclusive bool         // tfgov_project_team_access_exclusive.prj in the configuration
	named     map[int]bool // the teams tN its team_ids names besides ops
	// grants: tfgov_team_project_access.pg_N (team tN -> access); while
	// exclusive, team_ids names each by reference, so the two never disagree.
	grants map[int]string
	made   []string // IDs of workspaces made in prj outside ("pw<n>")
}

const scenPrjExclusiveAddr = "tfgov_project_team_access_exclusive.prj"

// setupProjects makes project prj, moves w1 into it and grants ops its custom access.
func (m *scenario) setupProjects(rt *rapid.T) {
	ctx := m.ctx
	prj, err := m.owner.Projects.Create(ctx, m.org, tfe.ProjectCreateOptions{Name: "prj"})
	m.must(rt, err)
	m.prj = scenProjects{project: prj, named: map[int]bool{}, grants: map[int]string{}}
	_, err = m.owner.Workspaces.UpdateByID(ctx, m.workspaces[1].ID, tfe.WorkspaceUpdateOptions{Project: prj})
	m.must(rt, err)
	manage, read := tfe.ProjectTeamsPermissionType("manage"), tfe.ProjectSettingsPermissionType("read")
	g, err := m.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessCustom, Team: m.ops, Project: prj,
		ProjectAccess: &tfe.TeamProjectAccessProjectPermissionsOptions{Settings: &read, Teams: &manage}})
	m.must(rt, err)
	m.prj.opsGrant = g.ID
}

// editProjectAccess turns prj's exclusive team access on or off, or (while
// on) names a team in its team_ids, or stops naming one.
func (m *scenario) editProjectAccess(rt *rapid.T) {
	op := "toggle"
	if m.prj.exclusive {
		op = rapid.SampledFrom([]string{"toggle", "name", "unname"}).Draw(rt, "project exclusive op")
	}
	switch op {
	case "toggle":
		m.prj.exclusive = !m.prj.exclusive
		clear(m.prj.named)
		if m.prj.exclusive {
			for i := range scenTeams {
				if rapid.Bool().Draw(rt, fmt.Sprintf("prj names t%d", i)) {
					m.prj.named[i] = true
				}
			}
		}
		m.logf(rt, "edit: exclusive team access on prj: %v (names %v)", m.prj.exclusive, slices.Sorted(maps.Keys(m.prj.named)))
	case "name":
		i := rapid.IntRange(0, scenTeams-1).Draw(rt, "team")
		m.prj.named[i] = true
		m.logf(rt, "edit: prj's team_ids names t%d", i)
	default:
		i := rapid.IntRange(0, scenTeams-1).Draw(rt, "team")
		delete(m.prj.named, i)
		m.logf(rt, "edit: prj's team_ids no longer names t%d", i)
	}
	m.writeConfig(rt)
}

// editProjectGrant adds tfgov_team_project_access.pg_N (team tN on prj),
// changes its level, or removes it.
func (m *scenario) editProjectGrant(rt *rapid.T) {
	i := rapid.IntRange(0, scenTeams-1).Draw(rt, "team")
	if _, ok := m.prj.grants[i]; ok && rapid.Bool().Draw(rt, "remove") {
		delete(m.prj.grants, i)
		m.logf(rt, "edit: remove project grant of t%d on prj", i)
	} else {
		m.prj.grants[i] = rapid.SampledFrom([]string{"read", "write", "maintain", "admin"}).Draw(rt, "project access")
		m.logf(rt, "edit: grant t%d %s on prj", i, m.prj.grants[i])
	}
	m.writeConfig(rt)
}

func (m *scenario) writeProjects(b *strings.Builder) {
	for _, i := range slices.Sorted(maps.Keys(m.prj.grants)) {
		fmt.Fprintf(b, "resource \"tfgov_team_project_access\" \"pg_%d\" {\n  team_id = %q\n  project_id = %q\n  access = %q\n}\n", i, m.teams[i].ID, m.prj.project.ID, m.prj.grants[i])
	}
	if !m.prj.exclusive {
		return
	}
	ids := []string{fmt.Sprintf("%q", m.ops.ID)}
	for _, i := range slices.Sorted(maps.Keys(m.prj.grants)) {
		ids = append(ids, fmt.Sprintf("tfgov_team_project_access.pg_%d.team_id", i))
	}
	for _, i := range slices.Sorted(maps.Keys(m.prj.named)) {
		if _, granted := m.prj.grants[i]; !granted {
			ids = append(ids, fmt.Sprintf("%q", m.teams[i].ID))
		}
	}
	fmt.Fprintf(b, "resource \"tfgov_project_team_access_exclusive\" \"prj\" {\n  project_id = %q\n  team_ids = [%s]\n}\n", m.prj.project.ID, strings.Join(ids, ", "))
}

// outsideProject grants a team access to prj, changes its level, revokes
// it, or revokes and makes it again (a new ID); or makes a workspace in
// prj, or deletes one made so.
func (m *scenario) outsideProject(rt *rapid.T, svc scenService, kind string) {
	ctx := m.ctx
	switch kind {
	case "create project workspace":
		ws, err := m.owner.Workspaces.Create(ctx, m.org, tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("pw%d", len(m.prj.made))), Project: m.prj.project})
		m.must(rt, err)
		m.prj.made = append(m.prj.made, ws.ID)
		m.logf(rt, "outside: create workspace %s in prj (%s)", ws.Name, ws.ID)
		return
	case "delete project workspace":
		var live []string
		for _, id := range m.prj.made {
			if _, ok := svc.workspaces[id]; ok {
				live = append(live, id)
			}
		}
		if len(live) == 0 {
			rt.Skip("no workspace made in prj")
		}
		id := rapid.SampledFrom(live).Draw(rt, "project workspace")
		m.must(rt, m.owner.Workspaces.DeleteByID(ctx, id))
		m.logf(rt, "outside: delete workspace %s of prj (%s)", svc.workspaces[id].name, id)
		return
	}
	i := rapid.IntRange(0, scenTeams-1).Draw(rt, "team")
	tm := m.teams[i]
	g, held := svc.projectGrants[tm.ID]
	switch kind {
	case "grant project":
		if held {
			rt.Skip("the team holds access to prj")
		}
		n, err := m.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: tm, Project: m.prj.project})
		m.must(rt, err)
		m.foreign[n.ID] = true
		m.logf(rt, "outside: grant t%d read on prj (%s)", i, n.ID)
	case "change project grant":
		if !held {
			rt.Skip("the team holds no access to prj")
		}
		_, err := m.owner.TeamProjectAccess.Update(ctx, g.id, tfe.TeamProjectAccessUpdateOptions{Access: tfe.ProjectAccess(tfe.TeamProjectAccessWrite)})
		m.must(rt, err)
		m.logf(rt, "outside: change t%d's access to prj to write (%s)", i, g.id)
	case "revoke project grant", "grant project again":
		if !held {
			rt.Skip("the team holds no access to prj")
		}
		m.must(rt, m.owner.TeamProjectAccess.Remove(ctx, g.id))
		if kind == "revoke project grant" {
			m.logf(rt, "outside: revoke t%d's access to prj (%s)", i, g.id)
			return
		}
		n, err := m.owner.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: tm, Project: m.prj.project})
		m.must(rt, err)
		m.foreign[n.ID] = true
		m.logf(rt, "outside: revoke t%d's access to prj (%s) and grant it again (%s)", i, g.id, n.ID)
	}
}

var scenProjectOutside = []string{"grant project", "change project grant", "revoke project grant", "grant project again", "create project workspace", "delete project workspace"}

// snapshotProjects reads prj's team access.
func (m *scenario) snapshotProjects(rt *rapid.T, s *scenService) {
	s.projectGrants = map[string]scenGrant{}
	l, err := m.owner.TeamProjectAccess.List(m.ctx, tfe.TeamProjectAccessListOptions{ProjectID: m.prj.project.ID, ListOptions: tfe.ListOptions{PageSize: 100}})
	m.must(rt, err)
	for _, g := range l.Items {
		s.projectGrants[g.Team.ID] = scenGrant{id: g.ID, access: string(g.Access)}
		s.ids[g.ID] = true
	}
}

// projectAllowed is the set of teams prj's exclusive team_ids names.
func (m *scenario) projectAllowed() map[string]bool {
	out := map[string]bool{m.ops.ID: true}
	for i := range m.prj.named {
		out[m.teams[i].ID] = true
	}
	for i := range m.prj.grants {
		out[m.teams[i].ID] = true
	}
	return out
}

// checkProjectsHold is invariant 4 for prj: while its exclusive access is
// configured, only the teams it names hold access.
func (m *scenario) checkProjectsHold(rt *rapid.T, svc scenService) {
	for _, i := range slices.Sorted(maps.Keys(m.prj.grants)) {
		if g := svc.projectGrants[m.teams[i].ID]; g.access != m.prj.grants[i] {
			m.fail(rt, fmt.Sprintf("invariant 4: project grant of t%d", i), "invariant 4: team t%d should have %s access to prj; the service has %+v", i, m.prj.grants[i], g)
		}
	}
	if !m.prj.exclusive {
		return
	}
	allowed := m.projectAllowed()
	for _, team := range slices.Sorted(maps.Keys(svc.projectGrants)) {
		if !allowed[team] {
			m.fail(rt, "invariant 4: prj not exclusive", "invariant 4: prj is exclusive, but team %s holds %s access (%s)", m.nameOf(team), svc.projectGrants[team].access, svc.projectGrants[team].id)
		}
	}
}

// checkProjectsShow is invariant 5 for prj (a team it does not name holds
// access: the plan shows its exclusive resource changing) and the truth of
// w1's exclusive resource about prj: its planned project_team_ids are the
// teams holding access to prj, and the plan warns naming, by name, each
// that w1's team_ids leaves out.
func (m *scenario) checkProjectsShow(rt *rapid.T, changes map[string]planChange, svc scenService) {
	for _, i := range slices.Sorted(maps.Keys(m.prj.grants)) {
		addr := fmt.Sprintf("tfgov_team_project_access.pg_%d", i)
		if g, ok := svc.projectGrants[m.teams[i].ID]; (!ok || g.access != m.prj.grants[i]) && (changes[addr].actions == nil || changes[addr].noop()) {
			m.fail(rt, "invariant 5: the plan does not show a project grant", "invariant 5: team t%d should have %s access to prj, the service has %+v, and the plan shows no change of %s", i, m.prj.grants[i], g, addr)
		}
	}
	if m.prj.exclusive {
		allowed := m.projectAllowed()
		for _, team := range slices.Sorted(maps.Keys(svc.projectGrants)) {
			if c, ok := changes[scenPrjExclusiveAddr]; !allowed[team] && (!ok || c.noop()) {
				m.fail(rt, "invariant 5: the plan does not show "+scenPrjExclusiveAddr, "invariant 5: team %s holds access to prj, which prj's team_ids leaves out, and the plan shows no change of %s", m.nameOf(team), scenPrjExclusiveAddr)
			}
		}
	}
	c, ok := changes["tfgov_workspace_team_access_exclusive.w1"]
	if !ok || slices.Contains(c.actions, "delete") {
		return
	}
	holders := slices.Sorted(maps.Keys(svc.projectGrants))
	if got, known := c.after["project_team_ids"].([]any); known {
		ids := []string{}
		for _, id := range got {
			ids = append(ids, fmt.Sprint(id))
		}
		if slices.Sort(ids); !slices.Equal(ids, holders) {
			m.fail(rt, "w1's project_team_ids are not prj's teams", "w1's planned project_team_ids are %v; the teams holding access to prj are %v", ids, holders)
		}
	}
	keep, known := c.after["team_ids"].([]any)
	if !known {
		return // the warning waits for team_ids
	}
	kept := map[string]bool{}
	for _, id := range keep {
		kept[fmt.Sprint(id)] = true
	}
	warning := ""
	for _, d := range m.planDiags {
		if strings.HasPrefix(d, "Teams reach the workspace through its project:") {
			warning = d
		}
	}
	for _, team := range holders {
		if !kept[team] && !strings.Contains(warning, fmt.Sprintf("%q", m.nameOf(team))) {
			m.fail(rt, "w1's plan does not warn of a project team", "team %s holds access to prj, which holds w1, and w1's team_ids leaves it out, but the plan's warning does not name it (%q)", m.nameOf(team), warning)
		}
	}
}

// checkProjectsOnlyPlanned is invariant 1 for prj's grants: the apply of a
// saved plan changes none and removes only a grant the plan saw (the same
// ID) of a team it showed leaving prj's team_ids.
func (m *scenario) checkProjectsOnlyPlanned(rt *rapid.T, changes map[string]planChange, atPlan, pre, post scenService) {
	leaving := map[string]bool{}
	if c, ok := changes[scenPrjExclusiveAddr]; ok && (slices.Contains(c.actions, "update") || slices.Contains(c.actions, "create")) {
		after := map[string]bool{}
		for _, id := range anyList(c.after["team_ids"]) {
			after[id] = true
		}
		for _, id := range anyList(c.after["removed_team_ids"]) {
			leaving[id] = true
		}
		for _, id := range anyList(c.before["team_ids"]) {
			if !after[id] {
				leaving[id] = true
			}
		}
	}
	// A team's tfgov_team_project_access the plan changes or destroys.
	grantAddr := map[string]string{}
	for i, tm := range m.teams {
		grantAddr[tm.ID] = fmt.Sprintf("tfgov_team_project_access.pg_%d", i)
	}
	planned := func(team, action string) bool {
		c, ok := changes[grantAddr[team]]
		return ok && slices.Contains(c.actions, action)
	}
	for team, g := range pre.projectGrants {
		h, ok := post.projectGrants[team]
		switch {
		case ok && h == g:
		case ok && h.id == g.id && planned(team, "update"):
		case ok:
			m.fail(rt, "invariant 1: a project grant changed unplanned", "invariant 1: team %s's access to prj changed in the apply (%+v -> %+v)", m.nameOf(team), g, h)
		case atPlan.projectGrants[team].id != g.id:
			m.fail(rt, "invariant 1: a project grant made after the plan removed", "invariant 1: the apply removed team %s's access to prj (%s), made after the plan (the plan saw %+v)", m.nameOf(team), g.id, atPlan.projectGrants[team])
		case !leaving[team] && !planned(team, "delete"):
			m.fail(rt, "invariant 1: a project grant removed unplanned", "invariant 1: the apply removed team %s's access to prj (%s), which its plan did not show leaving", m.nameOf(team), g.id)
		}
	}
}

// projectMeanwhile is, half the time where a saved plan removes a team's
// access to prj, that grant revoked and made again (a new ID) before the
// apply, which must leave the new one alone; it reports whether it did.
func (m *scenario) projectMeanwhile(rt *rapid.T, changes map[string]planChange, atPlan scenService) bool {
	c, ok := changes[scenPrjExclusiveAddr]
	if !ok || c.noop() {
		return false
	}
	var teams []string
	for _, id := range slices.Sorted(maps.Keys(atPlan.projectGrants)) {
		if id != m.ops.ID && !slices.Contains(anyList(c.after["team_ids"]), id) {
			teams = append(teams, id)
		}
	}
	if len(teams) == 0 || !rapid.Bool().Draw(rt, "make again a project grant the plan removes") {
		return false
	}
	team := rapid.SampledFrom(teams).Draw(rt, "project grant made again")
	defer m.setFaultsAside(rt)()
	old := atPlan.projectGrants[team].id
	m.must(rt, m.owner.TeamProjectAccess.Remove(m.ctx, old))
	n, err := m.owner.TeamProjectAccess.Add(m.ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: &tfe.Team{ID: team}, Project: m.prj.project})
	m.must(rt, err)
	m.foreign[n.ID] = true
	m.logf(rt, "outside: revoke %s, %s's access to prj that the plan removes, and grant it again (%s)", old, m.nameOf(team), n.ID)
	return true
}

// documentedProjectStop is documentedStop for prj's exclusive resource, which documents the same
// stop of a new one whose grants to remove changed between its plan and its apply.
func documentedProjectStop(detail string, inState bool) bool {
	return !inState && strings.Contains(detail, scenPrjExclusiveAddr) &&
		(strings.Contains(detail, ".removed_team_ids") || strings.Contains(detail, ".removed_grant_ids"))
}

// anyList is a plan's list of strings (nil when unknown or null).
func anyList(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		out = append(out, fmt.Sprint(e))
	}
	return out
}

// adoptProjectGrants adds to adopt's choices each grant on prj of a team
// whose tfgov_team_project_access the state lacks: the import block its
// create's refusal advises (invariant 7).
func (m *scenario) adoptProjectGrants(state map[string]string, svc scenService, found map[string]string) {
	for i := range m.prj.grants {
		addr := fmt.Sprintf("tfgov_team_project_access.pg_%d", i)
		if g, ok := svc.projectGrants[m.teams[i].ID]; ok && state[addr] == "" {
			found[addr] = g.id
		}
	}
}
