package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const teamProjectAccessAddr = "tfgov_team_project_access.test"

// testAccGrantProject makes a project through go-tfe, deleted after the test.
func testAccGrantProject(t *testing.T) *tfe.Project {
	t.Helper()
	c := testAccClient(t)
	prj, err := c.Projects.Create(context.Background(), testAccOrganization(), tfe.ProjectCreateOptions{Name: testAccName("prj")})
	if err != nil {
		t.Fatalf("creating project: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Projects.Delete(context.Background(), prj.ID); err != nil && !isNotFound(err) {
			t.Errorf("deleting project %s: %v", prj.ID, err)
		}
	})
	return prj
}

// testAccTeamProjectAccessConfig is one grant; perms is HCL for the permission attributes, or "".
func testAccTeamProjectAccessConfig(teamID, prjID, access, perms string) string {
	return fmt.Sprintf(`
resource "tfgov_team_project_access" "test" {
  team_id    = %q
  project_id = %q
  access     = %q
  %s
}
`, teamID, prjID, access, perms)
}

// testAccProjectGrantOf returns the team's grant on the project, or nil.
func testAccProjectGrantOf(t *testing.T, teamID, prjID string) *tfe.TeamProjectAccess {
	t.Helper()
	l, err := listTeamProjectAccess(context.Background(), testAccClient(t), prjID)
	if err != nil {
		t.Fatalf("listing the grants of %s: %v", prjID, err)
	}
	for _, g := range l {
		if g.Team != nil && g.Team.ID == teamID {
			return g
		}
	}
	return nil
}

// tpaChecks checks the state's level and the server's grant: level, and the permissions named in want
// ("project_access.teams" → "manage").
func tpaChecks(t *testing.T, access string, want map[string]string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(teamProjectAccessAddr, tfjsonpath.New("access"), knownvalue.StringExact(access)),
		stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
			id, err := stateID(s, teamProjectAccessAddr)
			if err != nil {
				return err
			}
			g, err := testAccClient(t).TeamProjectAccess.Read(ctx, id)
			if err != nil {
				return fmt.Errorf("reading %s: %w", id, err)
			}
			if string(g.Access) != access {
				return fmt.Errorf("on the server %s is %s, want %s", id, g.Access, access)
			}
			po, wo := projectAccessObjects(g)
			for path, v := range want {
				group, name, _ := strings.Cut(path, ".")
				obj := po
				if group == "workspace_access" {
					obj = wo
				}
				if got := strings.Trim(obj.Attributes()[name].String(), `"`); got != v {
					return fmt.Errorf("on the server %s %s is %s, want %s", id, path, got, v)
				}
			}
			return nil
		}),
	}
}

func tpaExpect(action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(teamProjectAccessAddr, action)}}
}

// TestAccTeamProjectAccessResource_basic: create, import by ID, by names and with generated
// configuration, every fixed level and custom permissions (one set, the rest planned as defaults;
// then removed, planning the defaults), drift of level and of existence, destroy.
func TestAccTeamProjectAccessResource_basic(t *testing.T) {
	prj := testAccGrantProject(t)
	team := testAccTeam(t, nil)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(access, perms string) string {
		return testAccTeamProjectAccessConfig(team.ID, prj.ID, access, perms)
	}
	custom := `project_access = { teams = "read" }
  workspace_access = { runs = "plan", create = true }`
	accParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if g := testAccProjectGrantOf(t, team.ID, prj.ID); g != nil {
				return fmt.Errorf("team %s still has %s access to project %s after destroy", team.ID, g.Access, prj.ID)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("read", ""),
				ConfigStateChecks: append(tpaChecks(t, "read", map[string]string{"project_access.settings": "read", "workspace_access.runs": "read", "workspace_access.state_versions": "read"}),
					statecheck.ExpectKnownValue(teamProjectAccessAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^tprj-[A-Za-z0-9]+$`))),
					statecheck.ExpectKnownValue(teamProjectAccessAddr, tfjsonpath.New("team_name"), knownvalue.StringExact(team.Name)),
					statecheck.ExpectKnownValue(teamProjectAccessAddr, tfjsonpath.New("workspace_access").AtMapKey("create"), knownvalue.Bool(false)),
					sameID.AddStateValue(teamProjectAccessAddr, tfjsonpath.New("id")),
				),
			},
			{ResourceName: teamProjectAccessAddr, ImportState: true, ImportStateVerify: true},
			{
				ResourceName: teamProjectAccessAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:    testAccOrganization() + "/" + prj.Name + "/" + team.Name,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(teamProjectAccessAddr, plancheck.ResourceActionNoop)}},
			},
			{ResourceName: teamProjectAccessAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, GenerateConfig: true},
			{Config: cfg("write", ""), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionUpdate), ConfigStateChecks: tpaChecks(t, "write", map[string]string{"workspace_access.runs": "apply", "workspace_access.locking": "true"})},
			{Config: cfg("maintain", ""), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionUpdate), ConfigStateChecks: tpaChecks(t, "maintain", map[string]string{"workspace_access.create": "true", "workspace_access.move": "false"})},
			{Config: cfg("admin", ""), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionUpdate), ConfigStateChecks: tpaChecks(t, "admin", map[string]string{"project_access.teams": "manage", "workspace_access.move": "true"})},
			// Custom: what is set is sent, the rest planned and sent as the defaults.
			{
				Config: cfg("custom", custom), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(tpaChecks(t, "custom", map[string]string{"project_access.teams": "read", "project_access.settings": "read", "workspace_access.runs": "plan",
					"workspace_access.create": "true", "workspace_access.move": "false", "workspace_access.variables": "none"}), sameID.AddStateValue(teamProjectAccessAddr, tfjsonpath.New("id"))),
			},
			{ResourceName: teamProjectAccessAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, GenerateConfig: true},
			// Drift: the level changed outside Terraform is put back.
			{
				PreConfig: func() {
					access := tfe.TeamProjectAccessAdmin
					if _, err := testAccClient(t).TeamProjectAccess.Update(context.Background(), testAccProjectGrantOf(t, team.ID, prj.ID).ID, tfe.TeamProjectAccessUpdateOptions{Access: &access}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg("custom", custom), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionUpdate),
				ConfigStateChecks: tpaChecks(t, "custom", map[string]string{"project_access.teams": "read", "workspace_access.runs": "plan", "workspace_access.move": "false"}),
			},
			// Removing the permissions plans the defaults.
			{Config: cfg("custom", ""), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionUpdate), ConfigStateChecks: tpaChecks(t, "custom", map[string]string{"project_access.teams": "none", "workspace_access.runs": "read", "workspace_access.create": "false"})},
			// A fixed level may repeat exactly what it implies.
			{Config: cfg("read", `workspace_access = { runs = "read", create = false }`), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionUpdate), ConfigStateChecks: tpaChecks(t, "read", nil)},
			{Config: cfg("read", ""), PlanOnly: true},
			// Drift: removed outside Terraform, it is added again.
			{
				PreConfig: func() {
					if err := testAccClient(t).TeamProjectAccess.Remove(context.Background(), testAccProjectGrantOf(t, team.ID, prj.ID).ID); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg("read", ""), ConfigPlanChecks: tpaExpect(plancheck.ResourceActionCreate), ConfigStateChecks: tpaChecks(t, "read", nil),
			},
		},
	})
}

// TestAccTeamProjectAccessResource_refused: bad input fails at plan naming the attribute and the
// allowed values; a grant that exists already fails with its import block, at apply when the plan
// did not list the project's grants and at plan when it did; nothing changes on the service.
func TestAccTeamProjectAccessResource_refused(t *testing.T) {
	prj := testAccGrantProject(t)
	team, other := testAccTeam(t, nil), testAccTeam(t, nil)
	existing, err := testAccClient(t).TeamProjectAccess.Add(context.Background(), tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: team, Project: prj})
	if err != nil {
		t.Fatal(err)
	}
	taken := fmt.Sprintf(`Team %q (%s) already has "read" access to project %q (%s) (team project access %s)`, team.Name, team.ID, prj.Name, prj.ID, existing.ID)
	otherGrant := fmt.Sprintf("resource \"tfgov_team_project_access\" \"other\" {\n  team_id    = %q\n  project_id = %q\n  access     = \"read\"\n}\n", other.ID, prj.ID)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      testAccTeamProjectAccessConfig(other.ID, prj.ID, "write", `workspace_access = { create = true }`),
				PlanOnly:    true,
				ExpectError: matchWrapped("Permissions set with a fixed access level", `workspace_access can be chosen only when access is "custom"`, `"read", "write", "maintain", "admin", "custom"`, "create = true (write implies false)"),
			},
			{
				Config:      testAccTeamProjectAccessConfig(other.ID, prj.ID, "custom", `project_access = { teams = "all" }`),
				PlanOnly:    true,
				ExpectError: matchWrapped(`project_access.teams value must be one of: ["none" "read" "manage"], got: "all"`),
			},
			{
				Config:      testAccTeamProjectAccessConfig(team.ID, prj.ID, "write", ""),
				ExpectError: matchWrapped(`with `+teamProjectAccessAddr+`,`, taken, `to = tfgov_team_project_access.<name>`, `id = "`+existing.ID+`"`),
			},
			{Config: otherGrant},
			{
				Config:             otherGrant + strings.Replace(testAccTeamProjectAccessConfig(team.ID, prj.ID, "write", ""), "access     =", "depends_on = [tfgov_team_project_access.other]\n  access     =", 1),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ExpectError:        matchWrapped("Team project access already exists", taken, `id = "`+existing.ID+`"`, "Found at plan"),
			},
		},
	})
	if g := testAccProjectGrantOf(t, team.ID, prj.ID); g == nil || g.ID != existing.ID || g.Access != tfe.TeamProjectAccessRead {
		t.Errorf("the existing grant changed: %+v", g)
	}
}

// TestAccTeamProjectAccess_cannotSee: a team token sees only its own team's grants and the project
// shows it cannot read the other teams': the refresh fails naming the other grant, the project and
// the permission; a token that may not see the project fails too; a destroy with the limited token
// fails naming the permission; state keeps both grants throughout (the owner's plan after is empty).
func TestAccTeamProjectAccess_cannotSee(t *testing.T) {
	prj := testAccGrantProject(t)
	mine, other, stranger := testAccTeam(t, nil), testAccTeam(t, nil), testAccTeam(t, nil)
	limited := testAccTeamTokenProvider(t, mine)
	config := fmt.Sprintf(`
resource "tfgov_team_project_access" "mine" {
  team_id    = %[1]q
  project_id = %[3]q
  access     = "read"
}
resource "tfgov_team_project_access" "other" {
  team_id    = %[2]q
  project_id = %[3]q
  access     = "write"
}
`, mine.ID, other.ID, prj.ID)
	t.Run("refresh", func(t *testing.T) {
		accParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
			{Config: config},
			{
				Config: limited + config, PlanOnly: true,
				ExpectError: wrappedRE(fmt.Sprintf(`Team project access tprj-\S+ \(team %s\) cannot be refreshed: the API token may not see it. Project %s \(%q\) exists, but without %s`,
					other.ID, prj.ID, prj.Name, regexp.QuoteMeta(permProjectTeamAccess))),
			},
			// A token of a team with no grant on the project may not see it: not gone either.
			{
				Config: testAccTeamTokenProvider(t, stranger) + config, PlanOnly: true,
				ExpectError: wrappedRE(fmt.Sprintf(`Team project access tprj-\S+ \(team %s\) cannot be refreshed: project %s was not found. It was deleted, or the API token belongs to no team`, mine.ID, prj.ID)),
			},
			{Config: config, PlanOnly: true},
		}})
	})
	// A removal answered 404 is done only once the service confirms the grant gone: the limited
	// token still sees its own team's grant, which it may not remove.
	t.Run("destroy", func(t *testing.T) {
		own := fmt.Sprintf("resource \"tfgov_team_project_access\" \"mine\" {\n  team_id    = %q\n  project_id = %q\n  access     = \"read\"\n}\n", mine.ID, testAccGrantProject(t).ID)
		accParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
			{Config: own},
			{
				Config: limited + own, Destroy: true,
				ExpectError: matchWrapped("Cannot remove team project access", "answered 404", "exists: the service still lists it, so the API token may see it but not change it: it needs "+permProjectTeamAccess),
			},
			{Config: own, PlanOnly: true},
		}})
	})
}

// TestAccTeamProjectAccessResource_movedFromTFE: a fixed and a custom grant made by hashicorp/tfe
// (the stand-in, which writes v0.79.0's state) move to tfgov with `moved` blocks: the plan shows
// only the moves (0 to add, change or destroy), and the plan after the apply is empty.
func TestAccTeamProjectAccessResource_movedFromTFE(t *testing.T) {
	rc := testTFEStandInConfig(t)
	if testAccSandbox() == nil {
		t.Skip("the stand-in's moves are checked against the in-process sandbox")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-move-prj")
	ctx := context.Background()
	prj, err := c.Projects.Create(ctx, sb.organization, tfe.ProjectCreateOptions{Name: "platform"})
	if err != nil {
		t.Fatal(err)
	}
	var teams []string
	for _, n := range []string{"developers", "operators"} {
		tm, err := c.Teams.Create(ctx, sb.organization, tfe.TeamCreateOptions{Name: tfe.String(n), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatal(err)
		}
		teams = append(teams, tm.ID)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization, "TFE_HOSTNAME="}
	grants := func(typ string) string {
		return fmt.Sprintf(`
resource %[1]q "developers" {
  team_id    = %[2]q
  project_id = %[4]q
  access     = "maintain"
}
resource %[1]q "operators" {
  team_id    = %[3]q
  project_id = %[4]q
  access     = "custom"
  %[5]s
}
`, typ, teams[0], teams[1], prj.ID, map[string]string{
			"tfe_team_project_access":   "project_access {\n    teams = \"read\"\n  }\n  workspace_access {\n    runs   = \"plan\"\n    create = true\n  }",
			"tfgov_team_project_access": "project_access = { teams = \"read\" }\n  workspace_access = { runs = \"plan\", create = true }",
		}[typ])
	}
	dir := t.TempDir()
	write := func(cfg string) {
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tf := func(wantCode int, args ...string) string {
		t.Helper()
		out, code := runTerraformEnv(t, dir, env, append(args, "-no-color")...)
		if code != wantCode {
			t.Fatalf("terraform %s: exit code %d, want %d\n%s", strings.Join(args, " "), code, wantCode, out)
		}
		return out
	}
	providers := "terraform {\n  required_providers {\n    tfe = { source = \"hashicorp/tfe\" }\n    tfgov = { source = \"tfgov/tfgov\" }\n  }\n}\n"
	write(providers + grants("tfe_team_project_access"))
	tf(0, "apply", "-auto-approve")
	moved := "moved {\n  from = tfe_team_project_access.developers\n  to   = tfgov_team_project_access.developers\n}\n" +
		"moved {\n  from = tfe_team_project_access.operators\n  to   = tfgov_team_project_access.operators\n}\n"
	write(providers + grants("tfgov_team_project_access") + moved)
	out := tf(2, "plan", "-detailed-exitcode")
	for _, want := range []string{
		"tfe_team_project_access.developers has moved to tfgov_team_project_access.developers",
		"tfe_team_project_access.operators has moved to tfgov_team_project_access.operators",
		"Plan: 0 to add, 0 to change, 0 to destroy.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	tf(0, "apply", "-auto-approve")
	tf(0, "plan", "-detailed-exitcode")
}

// TestAccTeamProjectAccessResource_lostAnswer: an add whose answer is lost after the service made
// the grant fails as an existing grant does (nothing proves it is this add's), with its import block,
// and leaves one grant; one lost before the service acted is sent again and makes one grant.
func TestAccTeamProjectAccessResource_lostAnswer(t *testing.T) {
	sb, c, provider := failingSandbox(t)
	ctx := context.Background()
	prj, err := c.Projects.Create(ctx, sb.organization, tfe.ProjectCreateOptions{Name: "lost"})
	if err != nil {
		t.Fatal(err)
	}
	team, err := c.Teams.Create(ctx, sb.organization, tfe.TeamCreateOptions{Name: tfe.String("lost"), Visibility: tfe.String("organization")})
	if err != nil {
		t.Fatal(err)
	}
	grants := func() []*tfe.TeamProjectAccess {
		l, err := listTeamProjectAccess(ctx, c, prj.ID)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	config := provider + testAccTeamProjectAccessConfig(team.ID, prj.ID, "read", "")
	lose := func(after bool) func() {
		return injectFaults(t, sb, sandbox.Fault{Method: "POST", Path: "/api/v2/team-projects", Status: 503, After: after, Count: 1})
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				PreConfig: lose(true), Config: config,
				ExpectError: matchWrapped(`already has "read" access to project`, `to = tfgov_team_project_access.<name>`, `id = "tprj-`, "ended without a definite answer"),
			},
			{
				PreConfig: func() {
					l := grants()
					if len(l) != 1 {
						t.Fatalf("%d grants after the lost add, want 1", len(l))
					}
					if err := c.TeamProjectAccess.Remove(ctx, l[0].ID); err != nil {
						t.Fatal(err)
					}
					lose(false)()
				},
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
					id, err := stateID(s, teamProjectAccessAddr)
					if l := grants(); err != nil || len(l) != 1 || l[0].ID != id {
						return fmt.Errorf("state %s (%w), service %d grants", id, err, len(l))
					}
					return nil
				})},
			},
		},
	})
}
