package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// workspaceTeamAccessExclusiveKit is
// tfgov_workspace_team_access_exclusive's part of the cross-type suites
// (kit_test.go).
type workspaceTeamAccessExclusiveKit struct{}

func (workspaceTeamAccessExclusiveKit) kitType() resourceType {
	return workspaceTeamAccessExclusiveType
}

// idPrefix: none; its objects are named by their parents'.
func (workspaceTeamAccessExclusiveKit) idPrefix() string { return "" }

func (workspaceTeamAccessExclusiveKit) parents() []*parentKind {
	return []*parentKind{parentWorkspace, parentTeam}
}

// tfe: hashicorp/tfe has no such resource.
func (workspaceTeamAccessExclusiveKit) tfe() string { return "" }

func (workspaceTeamAccessExclusiveKit) sandboxArea() string { return "team_access.go" }

// stateBudgetExclusive is the stated budget (hashicorp/tfe has no such
// type) with one team, without the identity, with the refresh's record of
// the grant it saw (grantRecord: an update's apply removes only the grants
// its plan's refresh saw, issue 43 row 6; Terraform's re-plan at apply sees
// only the state's private data, so the record lives there; about 100
// bytes for one grant), and removed_grant_ids, empty after a refresh (+23:
// the grants a new resource's plan saw, which stop its apply when made
// again since), and project_team_ids, empty here (+22: the teams that
// reach the workspace through its project, issue 58).
const stateBudgetExclusive = 307

// stateBudget: teamAccessKit's grant's team, alone.
func (workspaceTeamAccessExclusiveKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(workspaceTeamAccessExclusiveType, "this",
				arg("workspace_id", hclString(e.id(parentWorkspace))),
				arg("team_ids", "[tfgov_team_access.this.team_id]"))
		},
		cases: func(stateBudgets, map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_workspace_team_access_exclusive.this", "stated", func(statesize.Instance) int { return stateBudgetExclusive }}}
		},
	})
}

// The request budget of tfgov_workspace_team_access_exclusive
// (TestAccRequestBudgets): N workspaces, each with a read grant of team
// "keep" and an admin grant of team "extra", one resource per workspace
// declaring keep. A refresh is one read and one list per workspace (the
// read: its can-update, since only a token that sees every grant may say
// which teams hold access; a new resource's plan reads
// it too, as its plan shows what it removes from the list alone); the
// plan of a removal adds
// the lock-out check: the organization's team list, once per walk (the
// caller is the owner, so one list proves it: no workspace read); each
// removed grant is one DELETE.
func (workspaceTeamAccessExclusiveKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{"workspace_team_access_exclusive": {
		row: "`tfgov_workspace_team_access_exclusive` (one per workspace)",
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
			var wss []string
			for i := range n {
				ws, err := e.client.Workspaces.Create(ctx, e.org, tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprintf("budget-%d", i))})
				if err != nil {
					e.t.Fatal(err)
				}
				for team, access := range map[string]tfe.AccessType{e.vars["keep"]: tfe.AccessRead, e.vars["extra"]: tfe.AccessAdmin} {
					if _, err := e.client.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(access), Team: &tfe.Team{ID: team}, Workspace: &tfe.Workspace{ID: ws.ID}}); err != nil {
						e.t.Fatal(err)
					}
				}
				wss = append(wss, fmt.Sprintf("%q", ws.ID))
			}
			e.vars["workspaces"] = "[" + strings.Join(wss, ", ") + "]"
		},
		config: func(e *budgetEnv, _, v int) string {
			// The update adds a team without a grant: nothing to remove.
			teams := map[int]string{1: fmt.Sprintf("%q", e.vars["keep"]), 2: fmt.Sprintf("%q, %q", e.vars["keep"], e.vars["more"])}[v]
			return fmt.Sprintf(`locals { workspaces = %s }
resource "tfgov_workspace_team_access_exclusive" "r" {
  for_each     = { for i, w in local.workspaces : tostring(i) => w }
  workspace_id = each.value
  team_ids     = [%s]
}
output "ids" { value = { for k, r in tfgov_workspace_team_access_exclusive.r : k => r.workspace_id } }
`, e.vars["workspaces"], teams)
		},
		imports: `import {
  for_each = local.ids
  to       = tfgov_workspace_team_access_exclusive.r[each.key]
  id       = each.value
}
`,
		// Someone gives team extra admin access to workspace "0" again.
		outside: func(e *budgetEnv) {
			if _, err := e.client.TeamAccess.Add(context.Background(), tfe.TeamAccessAddOptions{
				Access: tfe.Access(tfe.AccessAdmin), Team: &tfe.Team{ID: e.vars["extra"]}, Workspace: &tfe.Workspace{ID: e.ids["0"]},
			}); err != nil {
				e.t.Fatal(err)
			}
		},
		// The repair: the apply walk's list of workspace "0" and its
		// lock-out check, then one DELETE.
		repair: 3,
		// Each workspace's grants listed by every refresh, imports included.
		reads: refreshReads(routeTeamAccess, true, true, func(op budgetOp, _, _ int) map[string]int {
			return map[string]int{routeProjectAccess: 1} // the workspaces' one project, every walk
		}),
		budget: func(op budgetOp, n, _ int) int {
			return starts(op) + map[budgetOp]int{
				opCreate:  4*n + 2 + n + 4, // each walk: a read and a list per workspace, one team list (lock-out check), the project's read and grant list; a DELETE per workspace
				opPlan:    2*n + 2,         // the refresh: a read and a list per workspace; the project's read and grant list (project_team_ids)
				opDrift:   2*n + 1 + 2,     // the refresh; the team list (lock-out check of workspace "0")
				opUpdate:  2*n + 1 + 2,     // the refresh; the plan's lock-out check (the repair's); nothing else: teams only added
				opImport:  2*n + 2,         // the refresh: a read and a list per workspace, the project's read and list
				opDestroy: 2*n + 2,         // the refresh; nothing is removed
			}[op]
		},
	}})
}

func (workspaceTeamAccessExclusiveKit) chaos() covered[fleetKit] {
	return exempted[fleetKit](exemptCreatesNothing)
}

func (workspaceTeamAccessExclusiveKit) crash() covered[fleetKit] {
	return exempted[fleetKit](exemptCreatesNothing)
}

func (workspaceTeamAccessExclusiveKit) identityNoPrior(*identityFixtures) covered[identityNoPriorCase] {
	return exempted[identityNoPriorCase](exemptNoListResource)
}

func (workspaceTeamAccessExclusiveKit) identityUpdate(*identityFixtures) covered[identityUpdateCase] {
	return exempted[identityUpdateCase](exemptNoListResource)
}

func (workspaceTeamAccessExclusiveKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			ws, err := f.c.Workspaces.Create(f.ctx, f.org, tfe.WorkspaceCreateOptions{Name: tfe.String("there-exclusive")})
			f.must(err)
			return []string{ws.ID}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{{"exclusive access", "ws-typo000000000001", "Workspace ws-typo000000000001 was not found"}}
		},
	})
}

func (workspaceTeamAccessExclusiveKit) generateConfig() covered[adoptionKit] {
	return exempted[adoptionKit](exemptNoListResource)
}
