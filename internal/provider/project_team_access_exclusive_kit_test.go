package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// projectTeamAccessExclusiveKit is tfgov_project_team_access_exclusive's
// part of the cross-type suites (kit_test.go).
type projectTeamAccessExclusiveKit struct{}

func (projectTeamAccessExclusiveKit) kitType() resourceType { return projectTeamAccessExclusiveType }

// idPrefix: none; its objects are named by their parents'.
func (projectTeamAccessExclusiveKit) idPrefix() string { return "" }

func (projectTeamAccessExclusiveKit) parents() []*parentKind {
	return []*parentKind{parentProject, parentTeam}
}

// tfe: hashicorp/tfe has no such resource.
func (projectTeamAccessExclusiveKit) tfe() string { return "" }

func (projectTeamAccessExclusiveKit) sandboxArea() string { return "team_project_access.go" }

// stateBudgetProjectExclusive is the stated budget (hashicorp/tfe has no
// such type) with one team holding a grant (the state budget's
// tfgov_team_project_access): the workspace form's attributes without
// project_team_ids, and the refresh's record of the grant it saw
// (grantRecord, about 100 bytes).
const stateBudgetProjectExclusive = 285

// stateBudget: the state budget's project, with its team declared.
func (projectTeamAccessExclusiveKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(projectTeamAccessExclusiveType, "this",
				arg("project_id", hclString(e.id(parentProject))),
				arg("team_ids", "["+hclString(e.id(parentTeam))+"]"))
		},
		cases: func(stateBudgets, map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_project_team_access_exclusive.this", "stated", func(statesize.Instance) int { return stateBudgetProjectExclusive }}}
		},
	})
}

// The request budget of tfgov_project_team_access_exclusive: N projects,
// each with a read grant of team "keep" and an admin grant of team
// "extra", one resource per project declaring keep. A refresh is one read
// and one list per project (the read: its can-read-teams, since only a token
// that sees every grant may say which teams hold access); the plan of a
// removal adds the lock-out check (the organization's team list, once per
// walk); each removed grant is one DELETE. The workspace form's, on projects.
func (projectTeamAccessExclusiveKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{"project_team_access_exclusive": {
		row: "`tfgov_project_team_access_exclusive` (one per project)",
		fixtures: func(e *budgetEnv, n int) {
			ctx := context.Background()
			team := func(name string) string {
				tm, err := e.client.Teams.Create(ctx, e.org, tfe.TeamCreateOptions{Name: tfe.String(name), Visibility: tfe.String("organization")})
				if err != nil {
					e.t.Fatal(err)
				}
				return tm.ID
			}
			e.vars["keep"], e.vars["extra"], e.vars["more"] = team("keep"), team("extra"), team("more")
			var prjs []string
			for i := range n {
				p, err := e.client.Projects.Create(ctx, e.org, tfe.ProjectCreateOptions{Name: fmt.Sprintf("budget-%d", i)})
				if err != nil {
					e.t.Fatal(err)
				}
				for team, access := range map[string]tfe.TeamProjectAccessType{e.vars["keep"]: tfe.TeamProjectAccessRead, e.vars["extra"]: tfe.TeamProjectAccessAdmin} {
					if _, err := e.client.TeamProjectAccess.Add(ctx, tfe.TeamProjectAccessAddOptions{Access: access, Team: &tfe.Team{ID: team}, Project: &tfe.Project{ID: p.ID}}); err != nil {
						e.t.Fatal(err)
					}
				}
				prjs = append(prjs, fmt.Sprintf("%q", p.ID))
			}
			e.vars["projects"] = "[" + strings.Join(prjs, ", ") + "]"
		},
		config: func(e *budgetEnv, _, v int) string {
			// The update adds a team without a grant: nothing to remove.
			teams := map[int]string{1: fmt.Sprintf("%q", e.vars["keep"]), 2: fmt.Sprintf("%q, %q", e.vars["keep"], e.vars["more"])}[v]
			return fmt.Sprintf(`locals { projects = %s }
resource "tfgov_project_team_access_exclusive" "r" {
  for_each   = { for i, p in local.projects : tostring(i) => p }
  project_id = each.value
  team_ids   = [%s]
}
output "ids" { value = { for k, r in tfgov_project_team_access_exclusive.r : k => r.project_id } }
`, e.vars["projects"], teams)
		},
		imports: `import {
  for_each = local.ids
  to       = tfgov_project_team_access_exclusive.r[each.key]
  id       = each.value
}
`,
		// Someone gives team extra admin access to project "0" again.
		outside: func(e *budgetEnv) {
			if _, err := e.client.TeamProjectAccess.Add(context.Background(), tfe.TeamProjectAccessAddOptions{
				Access: tfe.TeamProjectAccessAdmin, Team: &tfe.Team{ID: e.vars["extra"]}, Project: &tfe.Project{ID: e.ids["0"]},
			}); err != nil {
				e.t.Fatal(err)
			}
		},
		// The repair: the apply walk's list of project "0" and its
		// lock-out check, then one DELETE.
		repair: 3,
		reads:  refreshReads(routeProjectAccess, true, true, nil),
		budget: func(op budgetOp, n, _ int) int {
			return starts(op) + map[budgetOp]int{
				opCreate:  4*n + 2 + n, // each walk: a read and a list per project, one team list (lock-out check); a DELETE per project
				opPlan:    2 * n,       // the refresh: a read and a list per project
				opDrift:   2*n + 1,     // the refresh; the team list (lock-out check of project "0")
				opUpdate:  2*n + 1,     // the refresh; the plan's lock-out check (the repair's)
				opImport:  2 * n,       // the refresh
				opDestroy: 2 * n,       // the refresh; nothing is removed
			}[op]
		},
	}})
}

func (projectTeamAccessExclusiveKit) chaos() covered[fleetKit] {
	return exempted[fleetKit](exemptCreatesNothing)
}

func (projectTeamAccessExclusiveKit) crash() covered[fleetKit] {
	return exempted[fleetKit](exemptCreatesNothing)
}

func (projectTeamAccessExclusiveKit) identityNoPrior(*identityFixtures) covered[identityNoPriorCase] {
	return exempted[identityNoPriorCase](exemptNoListResource)
}

func (projectTeamAccessExclusiveKit) identityUpdate(*identityFixtures) covered[identityUpdateCase] {
	return exempted[identityUpdateCase](exemptNoListResource)
}

func (projectTeamAccessExclusiveKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			p, err := f.c.Projects.Create(f.ctx, f.org, tfe.ProjectCreateOptions{Name: "there-exclusive"})
			f.must(err)
			return []string{p.ID}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{{"exclusive access", "prj-typo000000000001", "Project prj-typo000000000001 was not found"}}
		},
	})
}

func (projectTeamAccessExclusiveKit) generateConfig() covered[adoptionKit] {
	return exempted[adoptionKit](exemptNoListResource)
}
