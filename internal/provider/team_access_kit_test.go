package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// teamAccessKit is tfgov_team_access's part of the cross-type suites
// (kit_test.go).
type teamAccessKit struct{}

func (teamAccessKit) kitType() resourceType { return teamAccessType }

func (teamAccessKit) idPrefix() string { return "tws" }

func (teamAccessKit) parents() []*parentKind { return []*parentKind{parentWorkspace, parentTeam} }

func (teamAccessKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(teamAccessType, "this",
				arg("team_id", hclString(e.id(parentTeam))),
				arg("workspace_id", hclString(e.id(parentWorkspace))),
				arg("access", hclString("read")))
		},
		cases: func(b stateBudgets, _ map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_team_access.this", "tfe_team_access + identity", b.tfeTeamAccess}}
		},
	})
}

func (teamAccessKit) tfe() string { return "tfe_team_access" }

func (teamAccessKit) sandboxArea() string { return "team_access.go" }

func (teamAccessKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{
		"team_access": {
			row: "`tfgov_team_access`",
			fixtures: func(e *budgetEnv, n int) {
				ctx := context.Background()
				ws, err := e.client.Workspaces.Create(ctx, e.org, tfe.WorkspaceCreateOptions{Name: tfe.String("budget")})
				if err != nil {
					e.t.Fatal(err)
				}
				e.vars["workspace"] = ws.ID
				var teams []string
				for i := range n {
					tm, err := e.client.Teams.Create(ctx, e.org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("budget-%d", i)), Visibility: tfe.String("organization")})
					if err != nil {
						e.t.Fatal(err)
					}
					teams = append(teams, fmt.Sprintf("%q", tm.ID))
				}
				e.vars["teams"] = "[" + strings.Join(teams, ", ") + "]"
			},
			config: func(e *budgetEnv, _, v int) string {
				access := map[int]string{1: "read", 2: "write"}[v]
				return fmt.Sprintf(`locals { teams = %s }
resource "tfgov_team_access" "r" {
  for_each     = { for i, t in local.teams : tostring(i) => t }
  team_id      = each.value
  workspace_id = %q
  access       = %q
}
output "ids" { value = { for k, r in tfgov_team_access.r : k => r.id } }
`, e.vars["teams"], e.vars["workspace"], access)
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_team_access.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) {
				if _, err := e.client.TeamAccess.Update(context.Background(), e.ids["0"], tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessPlan)}); err != nil {
					e.t.Fatal(err)
				}
			},
			reads: refreshReads(routeTeamAccess, false, false, nil),
			budget: func(op budgetOp, n, p int) int {
				return starts(op) + map[budgetOp]int{
					// The organization's team list (p pages here: N teams and owners) names the teams (team_name, issue 55
					// row 7): a create's plan in each walk of the apply, an import's read by ID once.
					opCreate:  n + 2*p, // POST; nothing is listed before a create (a look-up proves nothing)
					opPlan:    p,
					opDrift:   p,
					opUpdate:  p + n,
					opImport:  n + p, // a read by ID
					opDestroy: p + n,
				}[op]
			},
		},
	})
}

// chaos: a grant of each team on each workspace.
func (teamAccessKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count:   chaosTeams * chaosWorkspaces,
		parents: map[*parentKind]int{parentTeam: chaosTeams, parentWorkspace: chaosWorkspaces},
		config: func(e fleetEnv) string {
			return fmt.Sprintf("\nlocals {\n  teams      = %s\n  workspaces = %s\n}\n", hclList(e.all(parentTeam)), hclList(e.all(parentWorkspace))) +
				hclResource(teamAccessType, "t",
					arg("count", fmt.Sprint(chaosTeams*chaosWorkspaces)),
					arg("team_id", "local.teams[count.index % length(local.teams)]"),
					arg("workspace_id", "local.workspaces[floor(count.index / length(local.teams))]"),
					arg("access", hclString("read")))
		},
		objects: serviceGrantObjects,
	})
}

// crash: a grant of each team on the one workspace.
func (teamAccessKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count:   5,
		parents: map[*parentKind]int{parentTeam: 5},
		config: func(e fleetEnv) string {
			return hclResource(teamAccessType, "t",
				arg("count", "5"),
				arg("team_id", hclList(e.all(parentTeam))+"[count.index]"),
				arg("workspace_id", hclString(e.id(parentWorkspace))),
				arg("access", hclString("read")))
		},
		objects: serviceGrantObjects,
	})
}

// serviceGrantObjects are the grants of the fleet's workspaces.
func serviceGrantObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	var out []serviceObject
	for _, ws := range e.all(parentWorkspace) {
		l, err := serviceTeamAccess(ctx, c, ws)
		if err != nil {
			return nil, err
		}
		for _, g := range l {
			out = append(out, serviceObject{id: g.ID})
		}
	}
	return out, nil
}

func (teamAccessKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make:   func() error { return identityTeamAccess(f) },
		cfg:    func() map[string]string { return map[string]string{"workspace_id": f.id(parentWorkspace)} },
		remove: func() error { return f.c.TeamAccess.Remove(f.ctx, f.made[teamAccessType]) },
	})
}

func (teamAccessKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make:   func() error { return identityTeamAccess(f) },
		cfg:    func() map[string]string { return map[string]string{"workspace_id": f.id(parentWorkspace)} },
		change: map[string]tftypes.Value{"access": tftypes.NewValue(tftypes.String, "write")},
	})
}

// identityTeamAccess is the identity tests' read grant of the team on the workspace.
func identityTeamAccess(f *identityFixtures) error {
	ta, err := f.c.TeamAccess.Add(f.ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: &tfe.Team{ID: f.id(parentTeam)}, Workspace: &tfe.Workspace{ID: f.id(parentWorkspace)}})
	if err == nil {
		f.keep(teamAccessType, ta.ID)
	}
	return err
}

func (teamAccessKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			ws, err := f.c.Workspaces.Create(f.ctx, f.org, tfe.WorkspaceCreateOptions{Name: tfe.String("there")})
			f.must(err)
			team, err := f.c.Teams.Create(f.ctx, f.org, tfe.TeamCreateOptions{Name: tfe.String("there"), Visibility: tfe.String("organization")})
			f.must(err)
			grant, err := f.c.TeamAccess.Add(f.ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: team, Workspace: ws})
			f.must(err)
			return []string{grant.ID, f.org + "/there/there"}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{{"team access", "tws-typo00000000001", "Team access tws-typo00000000001 was not found"}}
		},
	})
}

// generateConfig: a fixed level and a custom grant of one workspace.
func (teamAccessKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		ws := e.workspace()
		for _, g := range []tfe.TeamAccessAddOptions{
			{Access: tfe.Access(tfe.AccessWrite), Team: testAccTeam(e.t, nil), Workspace: ws},
			{Access: tfe.Access(tfe.AccessCustom), Team: testAccTeam(e.t, nil), Workspace: ws, Runs: tfe.RunsPermission(tfe.RunsPermissionPlan), Variables: tfe.VariablesPermission(tfe.VariablesPermissionRead)},
		} {
			if _, err := e.c.TeamAccess.Add(e.ctx, g); err != nil {
				e.t.Fatalf("team access: %v", err)
			}
		}
		return fmt.Sprintf("workspace_id = %q", ws.ID), 2
	}})
}
