package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): look-ups feeding
// for_each. Team "fleet", found by name (tfgov_teams), is granted read on
// every workspace a tfgov_workspaces filter finds (for_each over
// ids_by_name); the fleet's workspaces f0 and f1 are renamed, re-tagged,
// deleted and made again outside, and the team renamed, so that a filter
// comes to match other workspaces, or none.

const scenFleet = 2

// scenLookups are the filters of tfgov_workspaces the machine draws, by
// name: each an HCL argument, and what it keeps.
var scenLookups = map[string]struct {
	arg  string
	keep func(scenWorkspace) bool
}{
	"tag":    {`tag_names = ["fleet"]`, func(w scenWorkspace) bool { return w.tags["fleet"] }},
	"prefix": {`name_prefix = "f"`, func(w scenWorkspace) bool { return strings.HasPrefix(w.name, "f") }},
	"search": {`search = "F1"`, func(w scenWorkspace) bool { return strings.Contains(strings.ToLower(w.name), "f1") }},
}

type scenWorkspace struct {
	name string
	tags map[string]bool
}

// editLookup sets the filter (or none: the look-ups leave the
// configuration), or turns allow_empty on or off.
func (m *scenario) editLookup(rt *rapid.T) {
	if rapid.IntRange(0, 2).Draw(rt, "fleet or ref") == 0 { // suite_scenario_refs_test.go
		m.editRef(rt)
		return
	}
	if m.lookup != "" && rapid.Bool().Draw(rt, "allow_empty") {
		m.allowEmpty = !m.allowEmpty
		m.logf(rt, "edit: fleet look-up allow_empty = %v", m.allowEmpty)
	} else {
		m.lookup = rapid.SampledFrom([]string{"tag", "prefix", "search", ""}).Draw(rt, "filter")
		m.logf(rt, "edit: fleet look-up filter %q", m.lookup)
	}
	m.writeConfig(rt)
}

func (m *scenario) writeLookups(b *strings.Builder) {
	if m.lookup == "" {
		return
	}
	fmt.Fprintf(b, `data "tfgov_teams" "fleet" {
  names = ["fleet"]
}
data "tfgov_workspaces" "fleet" {
  %s
  allow_empty = %v
}
resource "tfgov_team_access" "fleet" {
  for_each     = data.tfgov_workspaces.fleet.ids_by_name
  team_id      = data.tfgov_teams.fleet.ids_by_name["fleet"]
  workspace_id = each.value
  access       = "read"
}
`, scenLookups[m.lookup].arg, m.allowEmpty)
}

// outsideFleet renames (f<i> to g<i> and back), re-tags, deletes or makes
// again a fleet workspace, or renames team fleet (and back).
func (m *scenario) outsideFleet(rt *rapid.T, svc scenService, kind string) {
	ctx := m.ctx
	if kind == "rename team" {
		name := map[string]string{"fleet": "fleet-renamed", "fleet-renamed": "fleet"}[m.fleetTeamName]
		_, err := m.owner.Teams.Update(ctx, m.fleetTeam.ID, tfe.TeamUpdateOptions{Name: tfe.String(name)})
		m.must(rt, err)
		m.fleetTeamName = name
		m.logf(rt, "outside: rename team fleet to %s", name)
		return
	}
	i := rapid.IntRange(0, scenFleet-1).Draw(rt, "fleet workspace")
	id := m.fleetIDs[i]
	ws, exists := svc.workspaces[id]
	switch kind {
	case "create workspace":
		if exists {
			rt.Skip("the workspace exists")
		}
		w, err := m.owner.Workspaces.Create(ctx, m.org, tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("f%d", i))})
		m.must(rt, err)
		_, err = m.owner.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessAdmin), Team: m.ops, Workspace: w})
		m.must(rt, err)
		m.fleetIDs[i] = w.ID
		m.logf(rt, "outside: create workspace f%d again (%s)", i, w.ID)
		return
	case "rename workspace", "retag workspace", "delete workspace":
		if !exists {
			rt.Skip("no such workspace")
		}
	}
	switch kind {
	case "rename workspace":
		name := map[bool]string{true: fmt.Sprintf("g%d", i), false: fmt.Sprintf("f%d", i)}[strings.HasPrefix(ws.name, "f")]
		_, err := m.owner.Workspaces.UpdateByID(ctx, id, tfe.WorkspaceUpdateOptions{Name: tfe.String(name)})
		m.must(rt, err)
		m.logf(rt, "outside: rename workspace %s to %s (%s)", ws.name, name, id)
	case "retag workspace":
		tags := []*tfe.Tag{{Name: "fleet"}}
		if ws.tags["fleet"] {
			m.must(rt, m.owner.Workspaces.RemoveTags(ctx, id, tfe.WorkspaceRemoveTagsOptions{Tags: tags}))
		} else {
			m.must(rt, m.owner.Workspaces.AddTags(ctx, id, tfe.WorkspaceAddTagsOptions{Tags: tags}))
		}
		m.logf(rt, "outside: workspace %s tagged fleet: %v (%s)", ws.name, !ws.tags["fleet"], id)
	case "delete workspace":
		m.must(rt, m.owner.Workspaces.DeleteByID(ctx, id))
		m.logf(rt, "outside: delete workspace %s (%s)", ws.name, id)
	}
}

var scenFleetOutside = []string{"rename workspace", "retag workspace", "delete workspace", "create workspace", "rename team"}

// fleetExpected is the set of workspace IDs the filter keeps on svc.
func (m *scenario) fleetExpected(svc scenService) map[string]bool {
	out := map[string]bool{}
	if m.lookup == "" {
		return out
	}
	for id, ws := range svc.workspaces {
		if scenLookups[m.lookup].keep(ws) {
			out[id] = true
		}
	}
	return out
}

// checkFleetHolds is invariant 4 for the look-ups: after an apply that
// succeeded, team fleet holds read access to exactly the workspaces the
// filter finds (nothing when the look-ups are off or find none).
func (m *scenario) checkFleetHolds(rt *rapid.T, svc scenService) {
	want := m.fleetExpected(svc)
	if len(want) == 0 && m.lookup != "" && !m.allowEmpty {
		return // the plan failed, or the look-up changed since
	}
	for _, id := range slices.Sorted(maps.Keys(svc.workspaces)) {
		g, held := svc.grants[[2]string{m.fleetTeam.ID, id}]
		// Out of state by the user's hand (Reimport), or made outside where the filter finds nothing: not Terraform's.
		if m.forgotten[g.id] || m.foreign[g.id] && !want[id] {
			continue
		}
		if held != want[id] {
			m.fail(rt, "invariant 4: the fleet's grants", "invariant 4: the filter %q finds %v; team fleet holds %+v on %s (%s)", m.lookup, slices.Sorted(maps.Keys(want)), g, svc.workspaces[id].name, id)
		}
	}
}

// checkFleetShows is invariant 5 for the look-ups: a workspace the filter
// finds without the grant, or a grant on one it no longer finds, shows in
// the plan.
func (m *scenario) checkFleetShows(rt *rapid.T, changes map[string]planChange, svc scenService) {
	if m.lookup == "" {
		return
	}
	want := m.fleetExpected(svc)
	for _, id := range slices.Sorted(maps.Keys(svc.workspaces)) {
		g, held := svc.grants[[2]string{m.fleetTeam.ID, id}]
		if held == want[id] || m.forgotten[g.id] || m.foreign[g.id] && !want[id] {
			continue
		}
		shown := false
		for addr, c := range changes {
			shown = shown || strings.HasPrefix(addr, "tfgov_team_access.fleet[") && !c.noop() && (c.after["workspace_id"] == id || c.before["workspace_id"] == id)
		}
		if !shown {
			m.fail(rt, "invariant 5: the plan does not show a fleet grant", "invariant 5: the filter %q finds %s: %v, team fleet holds a grant there: %v, and the plan shows no change of it", m.lookup, svc.workspaces[id].name, want[id], held)
		}
	}
}
