package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// teamProjectAccessKit is tfgov_team_project_access's part of the cross-type suites (kit_test.go).
type teamProjectAccessKit struct{}

// budgetGrantsPerProject spreads the request budget's grants over projects: N = 101 is 101 grants
// over 11 projects, so a plan's refresh must list each project once (issue 58).
const budgetGrantsPerProject = 10

const routeTeamProjectAccess = "GET /api/v2/team-projects"

func (teamProjectAccessKit) kitType() resourceType { return teamProjectAccessType }

func (teamProjectAccessKit) idPrefix() string { return "tprj" }

func (teamProjectAccessKit) parents() []*parentKind { return []*parentKind{parentProject, parentTeam} }

func (teamProjectAccessKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(teamProjectAccessType, "this",
				arg("team_id", hclString(e.id(parentTeam))),
				arg("project_id", hclString(e.id(parentProject))),
				arg("access", hclString("read")))
		},
		cases: func(b stateBudgets, _ map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_team_project_access.this", "tfe_team_project_access + identity", func(i statesize.Instance) int { return tfeTeamProjectAccessBytes(b, i) }}}
		},
	})
}

func (teamProjectAccessKit) tfe() string { return "tfe_team_project_access" }

func (teamProjectAccessKit) sandboxArea() string { return "team_project_access.go" }

func (teamProjectAccessKit) requestBudgets() covered[map[string]budgetCase] {
	projects := func(n int) int { return (n + budgetGrantsPerProject - 1) / budgetGrantsPerProject }
	return cover(map[string]budgetCase{
		"team_project_access": {
			row: "`tfgov_team_project_access` (10 a project)",
			fixtures: func(e *budgetEnv, n int) {
				ctx := context.Background()
				var prjs, teams []string
				for i := range projects(n) {
					p, err := e.client.Projects.Create(ctx, e.org, tfe.ProjectCreateOptions{Name: fmt.Sprintf("budget-%d", i)})
					if err != nil {
						e.t.Fatal(err)
					}
					prjs = append(prjs, fmt.Sprintf("%q", p.ID))
				}
				for i := range n {
					tm, err := e.client.Teams.Create(ctx, e.org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("budget-%d", i)), Visibility: tfe.String("organization")})
					if err != nil {
						e.t.Fatal(err)
					}
					teams = append(teams, fmt.Sprintf("%q", tm.ID))
				}
				e.vars["projects"] = "[" + strings.Join(prjs, ", ") + "]"
				e.vars["teams"] = "[" + strings.Join(teams, ", ") + "]"
			},
			config: func(e *budgetEnv, _, v int) string {
				access := map[int]string{1: "read", 2: "write"}[v]
				return fmt.Sprintf(`locals {
  teams    = %s
  projects = %s
}
resource "tfgov_team_project_access" "r" {
  for_each   = { for i, t in local.teams : tostring(i) => { team = t, project = local.projects[floor(i / %d)] } }
  team_id    = each.value.team
  project_id = each.value.project
  access     = %q
}
output "ids" { value = { for k, r in tfgov_team_project_access.r : k => r.id } }
`, e.vars["teams"], e.vars["projects"], budgetGrantsPerProject, access)
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_team_project_access.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) {
				access := tfe.TeamProjectAccessMaintain
				if _, err := e.client.TeamProjectAccess.Update(context.Background(), e.ids["0"], tfe.TeamProjectAccessUpdateOptions{Access: &access}); err != nil {
					e.t.Fatal(err)
				}
			},
			reads: func(op budgetOp, n, _ int) map[string]int {
				if op == opCreate || op == opImport {
					return nil
				}
				return map[string]int{routeTeamProjectAccess: projects(n)}
			},
			budget: func(op budgetOp, n, p int) int {
				q := projects(n)
				return starts(op) + map[budgetOp]int{
					// The organization's team list (p pages: N teams and owners) names the teams: a create's plan in each walk.
					opCreate:  n + 2*p,
					opPlan:    q, // one list per project: the grants' team names come with it (include=team)
					opDrift:   q,
					opUpdate:  q + n,
					opImport:  n + p, // a read by ID, and the team list for the names
					opDestroy: q + n,
				}[op]
			},
		},
	})
}

// chaos: a grant of each team on each project.
func (teamProjectAccessKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count:   chaosTeams * chaosWorkspaces,
		parents: map[*parentKind]int{parentTeam: chaosTeams, parentProject: chaosWorkspaces},
		config: func(e fleetEnv) string {
			return fmt.Sprintf("\nlocals {\n  grant_teams    = %s\n  grant_projects = %s\n}\n", hclList(e.all(parentTeam)), hclList(e.all(parentProject))) +
				hclResource(teamProjectAccessType, "t",
					arg("count", fmt.Sprint(chaosTeams*chaosWorkspaces)),
					arg("team_id", "local.grant_teams[count.index % length(local.grant_teams)]"),
					arg("project_id", "local.grant_projects[floor(count.index / length(local.grant_teams))]"),
					arg("access", hclString("read")))
		},
		objects: serviceProjectGrantObjects,
	})
}

// crash: a grant of each team on the one project.
func (teamProjectAccessKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count:   5,
		parents: map[*parentKind]int{parentTeam: 5},
		config: func(e fleetEnv) string {
			return hclResource(teamProjectAccessType, "t",
				arg("count", "5"),
				arg("team_id", hclList(e.all(parentTeam))+"[count.index]"),
				arg("project_id", hclString(e.id(parentProject))),
				arg("access", hclString("read")))
		},
		objects: serviceProjectGrantObjects,
	})
}

// serviceProjectGrantObjects are the grants of the fleet's projects.
func serviceProjectGrantObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	var out []serviceObject
	for _, prj := range e.all(parentProject) {
		l, err := listTeamProjectAccess(ctx, c, prj)
		if err != nil {
			return nil, err
		}
		for _, g := range l {
			out = append(out, serviceObject{id: g.ID})
		}
	}
	return out, nil
}

func (teamProjectAccessKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make:   func() error { return identityProjectGrant(f) },
		cfg:    func() map[string]string { return map[string]string{"project_id": f.id(parentProject)} },
		remove: func() error { return f.c.TeamProjectAccess.Remove(f.ctx, f.made[teamProjectAccessType]) },
	})
}

func (teamProjectAccessKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make:   func() error { return identityProjectGrant(f) },
		cfg:    func() map[string]string { return map[string]string{"project_id": f.id(parentProject)} },
		change: map[string]tftypes.Value{"access": tftypes.NewValue(tftypes.String, "write")},
	})
}

// identityProjectGrant is the identity tests' read grant of the team on the project.
func identityProjectGrant(f *identityFixtures) error {
	g, err := f.c.TeamProjectAccess.Add(f.ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: &tfe.Team{ID: f.id(parentTeam)}, Project: &tfe.Project{ID: f.id(parentProject)}})
	if err == nil {
		f.keep(teamProjectAccessType, g.ID)
	}
	return err
}

func (teamProjectAccessKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			prj, err := f.c.Projects.Create(f.ctx, f.org, tfe.ProjectCreateOptions{Name: "there"})
			f.must(err)
			team, err := f.c.Teams.Create(f.ctx, f.org, tfe.TeamCreateOptions{Name: tfe.String("there-prj"), Visibility: tfe.String("organization")})
			f.must(err)
			grant, err := f.c.TeamProjectAccess.Add(f.ctx, tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: team, Project: prj})
			f.must(err)
			return []string{grant.ID, f.org + "/there/there-prj"}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{{"team project access", "tprj-typo00000000001", "Team project access tprj-typo00000000001 was not found"}}
		},
	})
}

// generateConfig: a fixed level and a custom grant of one project.
func (teamProjectAccessKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		prj := testAccGrantProject(e.t)
		runs := tfe.WorkspaceRunsPermissionPlan
		for _, g := range []tfe.TeamProjectAccessAddOptions{
			{Access: tfe.TeamProjectAccessMaintain, Team: testAccTeam(e.t, nil), Project: prj},
			{Access: tfe.TeamProjectAccessCustom, Team: testAccTeam(e.t, nil), Project: prj,
				WorkspaceAccess: &tfe.TeamProjectAccessWorkspacePermissionsOptions{Runs: &runs, Create: tfe.Bool(true)}},
		} {
			if _, err := e.c.TeamProjectAccess.Add(e.ctx, g); err != nil {
				e.t.Fatalf("team project access: %v", err)
			}
		}
		return fmt.Sprintf("project_id = %q", prj.ID), 2
	}})
}

// tfeTeamProjectAccessBytes: tfe_team_project_access (schema version 1; project_access and
// workspace_access lists of one block) and identity: tfgov's objects, without the lists' brackets,
// hold team_name too (a plan names the team).
func tfeTeamProjectAccessBytes(b stateBudgets, i statesize.Instance) int {
	a := b.attrs(i)
	return b.tfe(1, map[string]json.RawMessage{
		"access": a["access"], "id": a["id"], "project_access": b.raw([]json.RawMessage{a["project_access"]}), "project_id": a["project_id"],
		"team_id": a["team_id"], "workspace_access": b.raw([]json.RawMessage{a["workspace_access"]}),
	}, "[]", "eyJzY2hlbWFfdmVyc2lvbiI6IjEifQ==", nil) + identityAllowance(i)
}

// parentProject is a project: the parent of project grants (this kit's and the exclusive's).
var parentProject = &parentKind{
	name: "project", prefix: "prj",
	make: func(ctx context.Context, c *tfe.Client, org, name string) (string, error) {
		p, err := c.Projects.Create(ctx, org, tfe.ProjectCreateOptions{Name: name})
		return idOf(p, err, func(p *tfe.Project) string { return p.ID })
	},
	remove: func(ctx context.Context, c *tfe.Client, _, id string) error { return c.Projects.Delete(ctx, id) },
}
