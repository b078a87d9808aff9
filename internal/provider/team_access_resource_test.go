package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
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
)

const teamAccessAddr = "tfgov_team_access.test"

// taPerms is a set of permissions as the tests expect them.
type taPerms struct {
	runs, variables, stateVersions, sentinelMocks string
	workspaceLocking, runTasks, policyOverrides   bool
}

// The permissions each fixed level implies, and a custom grant's defaults.
var (
	taRead     = taPerms{"read", "read", "read", "none", false, false, false}
	taPlan     = taPerms{"plan", "read", "read", "none", false, false, false}
	taWrite    = taPerms{"apply", "write", "write", "read", true, false, false}
	taAdmin    = taPerms{"apply", "write", "write", "read", true, true, false}
	taDefaults = taPerms{"read", "none", "none", "none", false, false, false}
)

func (p taPerms) check() knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"runs":              knownvalue.StringExact(p.runs),
		"variables":         knownvalue.StringExact(p.variables),
		"state_versions":    knownvalue.StringExact(p.stateVersions),
		"sentinel_mocks":    knownvalue.StringExact(p.sentinelMocks),
		"workspace_locking": knownvalue.Bool(p.workspaceLocking),
		"run_tasks":         knownvalue.Bool(p.runTasks),
		"policy_overrides":  knownvalue.Bool(p.policyOverrides),
	})
}

// hcl renders p as a permissions attribute.
func (p taPerms) hcl() string {
	return fmt.Sprintf(`{
    runs              = %q
    variables         = %q
    state_versions    = %q
    sentinel_mocks    = %q
    workspace_locking = %t
    run_tasks         = %t
    policy_overrides  = %t
  }`, p.runs, p.variables, p.stateVersions, p.sentinelMocks, p.workspaceLocking, p.runTasks, p.policyOverrides)
}

func taPermsOfGrant(ta *tfe.TeamAccess) taPerms {
	return taPerms{string(ta.Runs), string(ta.Variables), string(ta.StateVersions), string(ta.SentinelMocks), ta.WorkspaceLocking, ta.RunTasks, ta.PolicyOverrides}
}

// testAccTeamAccessConfig is one grant; permissions is HCL for the
// permissions attribute, or "" to leave it out.
func testAccTeamAccessConfig(teamID, wsID, access, permissions string) string {
	perms := ""
	if permissions != "" {
		perms = "permissions = " + permissions
	}
	return fmt.Sprintf(`
resource "tfgov_team_access" "test" {
  team_id      = %[1]q
  workspace_id = %[2]q
  access       = %[3]q
  %[4]s
}
`, teamID, wsID, access, perms)
}

// testAccTeamAccessChecks checks the state and, through go-tfe, the server.
func testAccTeamAccessChecks(t *testing.T, access string, want taPerms) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("access"), knownvalue.StringExact(access)),
		statecheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("permissions"), want.check()),
		stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
			id, err := stateID(s, teamAccessAddr)
			if err != nil {
				return err
			}
			ta, err := testAccClient(t).TeamAccess.Read(ctx, id)
			if err != nil {
				return fmt.Errorf("reading %s: %w", id, err)
			}
			if string(ta.Access) != access || taPermsOfGrant(ta) != want {
				return fmt.Errorf("on the server %s is %s %+v, want %s %+v", id, ta.Access, taPermsOfGrant(ta), access, want)
			}
			return nil
		}),
	}
}

// testAccTeamAccessOf returns the team's grant on the workspace, or nil.
func testAccTeamAccessOf(t *testing.T, teamID, wsID string) (*tfe.TeamAccess, error) {
	l, err := testAccClient(t).TeamAccess.List(context.Background(), &tfe.TeamAccessListOptions{WorkspaceID: wsID})
	if err != nil {
		return nil, err
	}
	for _, ta := range l.Items {
		if ta.Team != nil && ta.Team.ID == teamID {
			return ta, nil
		}
	}
	return nil, nil
}

func testAccCheckTeamAccessDestroyed(t *testing.T, teamID, wsID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ta, err := testAccTeamAccessOf(t, teamID, wsID)
		if err != nil {
			return err
		}
		if ta != nil {
			return fmt.Errorf("team %s still has %s access to workspace %s after destroy", teamID, ta.Access, wsID)
		}
		return nil
	}
}

func taExpectAction(action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(teamAccessAddr, action)}}
}

// TestAccTeamAccessResource_basic: create, import in both forms, every fixed
// level, fixed -> custom -> fixed switches (admin -> custom with admin's
// permissions is a real update), drift of level, permissions and existence.
func TestAccTeamAccessResource_basic(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	cfg := func(access, perms string) string { return testAccTeamAccessConfig(team.ID, ws.ID, access, perms) }

	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckTeamAccessDestroyed(t, team.ID, ws.ID),
		Steps: []resource.TestStep{
			{
				Config: cfg("read", ""),
				ConfigStateChecks: append(testAccTeamAccessChecks(t, "read", taRead),
					statecheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^tws-[A-Za-z0-9]+$`))),
					statecheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("team_id"), knownvalue.StringExact(team.ID)),
					statecheck.ExpectKnownValue(teamAccessAddr, tfjsonpath.New("workspace_id"), knownvalue.StringExact(ws.ID)),
					sameID.AddStateValue(teamAccessAddr, tfjsonpath.New("id")),
				),
			},
			// Import by ID ...
			{ResourceName: teamAccessAddr, ImportState: true, ImportStateVerify: true},
			// ... and by names, through an import block.
			{
				ResourceName:    teamAccessAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   testAccOrganization() + "/" + ws.Name + "/" + team.Name,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(teamAccessAddr, plancheck.ResourceActionNoop),
				}},
			},
			// ... and with terraform plan -generate-config-out: the generated
			// configuration (permissions included) plans with no change.
			{ResourceName: teamAccessAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, GenerateConfig: true},
			{Config: cfg("plan", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "plan", taPlan)},
			{Config: cfg("write", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "write", taWrite)},
			{Config: cfg("admin", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "admin", taAdmin)},
			// admin -> custom with exactly admin's permissions: still an update.
			{
				Config:            cfg("custom", taAdmin.hcl()),
				ConfigPlanChecks:  taExpectAction(plancheck.ResourceActionUpdate),
				ConfigStateChecks: append(testAccTeamAccessChecks(t, "custom", taAdmin), sameID.AddStateValue(teamAccessAddr, tfjsonpath.New("id"))),
			},
			// ... and back.
			{Config: cfg("admin", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "admin", taAdmin)},
			// Custom with one permission: the others get the defaults.
			{
				Config:            cfg("custom", `{ runs = "apply" }`),
				ConfigPlanChecks:  taExpectAction(plancheck.ResourceActionUpdate),
				ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taPerms{"apply", "none", "none", "none", false, false, false}),
			},
			{ResourceName: teamAccessAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, GenerateConfig: true},
			// A fixed level may repeat exactly the permissions it implies.
			{Config: cfg("write", taWrite.hcl()), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "write", taWrite)},
			{Config: cfg("write", taWrite.hcl()), PlanOnly: true},
			{Config: cfg("write", ""), PlanOnly: true},
			{Config: cfg("custom", `{ runs = "apply" }`), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taPerms{"apply", "none", "none", "none", false, false, false})},
			// Drift: a permission changed outside Terraform is put back.
			{
				PreConfig: func() {
					testAccChangeTeamAccess(t, team.ID, ws.ID, tfe.TeamAccessUpdateOptions{Variables: tfe.VariablesPermission(tfe.VariablesPermissionWrite), RunTasks: tfe.Bool(true)})
				},
				Config:            cfg("custom", `{ runs = "apply" }`),
				ConfigPlanChecks:  taExpectAction(plancheck.ResourceActionUpdate),
				ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taPerms{"apply", "none", "none", "none", false, false, false}),
			},
			// Drift: the level changed outside Terraform is put back.
			{
				PreConfig: func() {
					testAccChangeTeamAccess(t, team.ID, ws.ID, tfe.TeamAccessUpdateOptions{Access: tfe.Access(tfe.AccessAdmin)})
				},
				Config:            cfg("custom", `{ runs = "apply" }`),
				ConfigPlanChecks:  taExpectAction(plancheck.ResourceActionUpdate),
				ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taPerms{"apply", "none", "none", "none", false, false, false}),
			},
			// custom -> plan.
			{Config: cfg("plan", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "plan", taPlan)},
			// Drift: removed outside Terraform, it is added again.
			{
				PreConfig: func() {
					ta, err := testAccTeamAccessOf(t, team.ID, ws.ID)
					if err != nil || ta == nil {
						t.Fatalf("finding the grant: %v", err)
					}
					if err := testAccClient(t).TeamAccess.Remove(context.Background(), ta.ID); err != nil {
						t.Fatalf("removing the grant outside Terraform: %v", err)
					}
				},
				Config:            cfg("plan", ""),
				ConfigPlanChecks:  taExpectAction(plancheck.ResourceActionCreate),
				ConfigStateChecks: testAccTeamAccessChecks(t, "plan", taPlan),
			},
		},
	})
}

// testAccChangeTeamAccess changes a grant outside Terraform.
func testAccChangeTeamAccess(t *testing.T, teamID, wsID string, opts tfe.TeamAccessUpdateOptions) {
	t.Helper()
	ta, err := testAccTeamAccessOf(t, teamID, wsID)
	if err != nil || ta == nil {
		t.Fatalf("finding the grant of %s on %s: %v", teamID, wsID, err)
	}
	if _, err := testAccClient(t).TeamAccess.Update(context.Background(), ta.ID, opts); err != nil {
		t.Fatalf("changing the grant outside Terraform: %v", err)
	}
}

// TestAccTeamAccessResource_custom sets every value of every permission,
// and switches between custom and fixed levels both ways.
func TestAccTeamAccessResource_custom(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	cfg := func(access, perms string) string { return testAccTeamAccessConfig(team.ID, ws.ID, access, perms) }
	least := taDefaults
	most := taPerms{"apply", "write", "write", "read", true, true, true}
	middle := taPerms{"plan", "read", "read-outputs", "read", true, false, true}
	readState := taPerms{"read", "write", "read", "none", false, true, false}

	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckTeamAccessDestroyed(t, team.ID, ws.ID),
		Steps: []resource.TestStep{
			// custom without permissions: the service's defaults.
			{Config: cfg("custom", ""), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taDefaults)},
			{Config: cfg("custom", most.hcl()), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", most)},
			{Config: cfg("custom", middle.hcl()), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", middle)},
			{Config: cfg("custom", least.hcl()), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", least)},
			{Config: cfg("custom", readState.hcl()), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", readState)},
			{Config: cfg("custom", `{ state_versions = "write" }`), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taPerms{"read", "none", "write", "none", false, false, false})},
			// Removing permissions from a custom grant plans the defaults.
			{Config: cfg("custom", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taDefaults)},
			// custom -> write -> custom with write's permissions -> read.
			{Config: cfg("write", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "write", taWrite)},
			{Config: cfg("custom", taWrite.hcl()), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "custom", taWrite)},
			{Config: cfg("read", ""), ConfigPlanChecks: taExpectAction(plancheck.ResourceActionUpdate), ConfigStateChecks: testAccTeamAccessChecks(t, "read", taRead)},
		},
	})
}

// TestAccTeamAccessResource_conflict: adding a grant that already exists
// fails with the import instructions, ID included, the team and the
// workspace named beside their IDs, and changes nothing: at apply when the
// plan did not list the workspace's grants, at plan when it did (another
// grant of the workspace refreshed first: no request of its own).
func TestAccTeamAccessResource_conflict(t *testing.T) {
	ws := testAccWorkspace(t)
	team, other := testAccTeam(t, nil), testAccTeam(t, nil)
	existing, err := testAccClient(t).TeamAccess.Add(context.Background(), tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: team, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	taken := fmt.Sprintf(`Team %q (%s) already has "read" access to workspace %q (%s) (team access %s)`, team.Name, team.ID, ws.Name, ws.ID, existing.ID)
	otherGrant := fmt.Sprintf("resource \"tfgov_team_access\" \"other\" {\n  team_id      = %q\n  workspace_id = %q\n  access       = \"read\"\n}\n", other.ID, ws.ID)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: testAccTeamAccessConfig(team.ID, ws.ID, "write", ""),
				// Terraform names the resource's address right above the
				// provider's detail, which refers to it instead of a placeholder.
				ExpectError: matchWrapped(`with `+teamAccessAddr+`,`, taken,
					"set `to` to this resource's address, shown in the \"with\" line above",
					`to = tfgov_team_access.<name>`, `id = "`+existing.ID+`"`, `terraform import 'tfgov_team_access.<name>' `+existing.ID),
			},
			{Config: otherGrant},
			// The refresh of "other" lists the workspace's grants before
			// "test" plans (depends_on): the plan refuses it.
			{
				Config: otherGrant + strings.Replace(testAccTeamAccessConfig(team.ID, ws.ID, "write", ""), "access       =", "depends_on   = [tfgov_team_access.other]\n  access       =", 1),
				// The first plan has no refresh (-refresh=false): the second
				// refreshes, and fails.
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ExpectError:        matchWrapped("Team access already exists", `with `+teamAccessAddr+`,`, taken, `id = "`+existing.ID+`"`, "Found at plan"),
			},
		},
	})
	if ta, err := testAccTeamAccessOf(t, team.ID, ws.ID); err != nil || ta == nil || ta.ID != existing.ID || ta.Access != tfe.AccessRead {
		t.Errorf("the existing grant changed: %+v, %v", ta, err)
	}
}

// TestAccTeamAccessResource_invalid rejects bad input at plan time.
func TestAccTeamAccessResource_invalid(t *testing.T) {
	tests := map[string]struct {
		team, ws, access, perms string
		want                    string
	}{
		"permissions with a fixed level": {"team-abc", "ws-abc", "admin", `{ runs = "plan" }`, `permissions can be chosen only when access is\s+"custom".*access = "admin".*these differ from them: runs = "plan"\s+\(admin\s+implies\s+"apply"\)\. Set`},
		"unknown level":                  {"team-abc", "ws-abc", "owner", "", `access.*value must be one of`},
		"unknown runs":                   {"team-abc", "ws-abc", "custom", `{ runs = "destroy" }`, `permissions.runs.*value must be one of`},
		"unknown state_versions":         {"team-abc", "ws-abc", "custom", `{ state_versions = "outputs" }`, `permissions.state_versions.*value must be one of`},
		"team id":                        {"ws-abc", "ws-abc", "read", "", `team_id.*must be an ID of the form team-<id>`},
		"workspace id":                   {"team-abc", "team-abc", "read", "", `workspace_id.*must be an ID of the form ws-<id>`},
		// A name where an ID belongs: the error names the data source that
		// finds the ID, so the user need not guess where IDs come from.
		"workspace name": {"team-abc", "payments-prod", "read", "", `workspace_id.*must be an ID of the form ws-<id>\s+\(a\s+name\s+is\s+no\s+ID:\s+data\.tfgov_workspace\s+finds\s+the\s+ID\s+from\s+the\s+name\)`},
		"team name":      {"platform", "ws-abc", "read", "", `team_id.*\(a\s+name\s+is\s+no\s+ID:\s+data\.tfgov_team\s+finds`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:      testAccTeamAccessConfig(tc.team, tc.ws, tc.access, tc.perms),
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// TestAccTeamAccessResource_importErrors names what was not found.
func TestAccTeamAccessResource_importErrors(t *testing.T) {
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	org := testAccOrganization()
	tests := map[string]struct{ id, want string }{
		"malformed":         {"just-a-name", `want tws-<id> or <organization>/<workspace_name>/<team_name>`},
		"missing workspace": {org + "/no-such-workspace/" + team.Name, `workspace "no-such-workspace" was not found`},
		"missing team":      {org + "/" + ws.Name + "/no-such-team", `team "no-such-team" was not found`},
		"no grant":          {org + "/" + ws.Name + "/" + team.Name, `has no access to workspace`},
		"missing id":        {"tws-doesnotexist0001", `Team access tws-doesnotexist0001 was not found`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:        testAccTeamAccessConfig(team.ID, ws.ID, "read", ""),
					ResourceName:  teamAccessAddr,
					ImportState:   true,
					ImportStateId: tc.id,
					ExpectError:   matchWrapped(tc.want),
				}},
			})
		})
	}
}

// TestAccTeamAccessResource_serverAddsPermissions: the service may return
// permissions this provider does not know, and a fixed level may come to
// imply more than it did. Neither may disturb existing configurations: a
// proxy in front of the sandbox starts adding both, and the plan stays
// empty.
func TestAccTeamAccessResource_serverAddsPermissions(t *testing.T) {
	if testAccSandbox() == nil {
		t.Skip("the proxy fronts the in-process sandbox")
	}
	ws := testAccWorkspace(t)
	fixed, custom := testAccTeam(t, nil), testAccTeam(t, nil)
	var extend atomic.Bool
	proxyURL := testAccTeamAccessProxy(t, func(doc map[string]any) {
		if extend.Load() {
			extendTeamAccessDocument(doc)
		}
	})

	config := fmt.Sprintf(`
provider "tfgov" {
  address = %[1]q
}

resource "tfgov_team_access" "fixed" {
  team_id      = %[2]q
  workspace_id = %[4]q
  access       = "admin"
}

resource "tfgov_team_access" "custom" {
  team_id      = %[3]q
  workspace_id = %[4]q
  access       = "custom"
  permissions  = { runs = "plan", variables = "read" }
}
`, proxyURL, fixed.ID, custom.ID, ws.ID)
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() { extend.Store(true) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					// The refreshed state shows what admin implies now.
					statecheck.ExpectKnownValue("tfgov_team_access.fixed", tfjsonpath.New("permissions").AtMapKey("policy_overrides"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("tfgov_team_access.custom", tfjsonpath.New("permissions"),
						taPerms{"plan", "read", "none", "none", false, false, false}.check()),
				},
			},
		},
	})
}

// testAccTeamAccessProxy starts a proxy in front of the sandbox that hands
// every successful team-workspaces response document to modify, and
// returns its address for the provider's `address`.
func testAccTeamAccessProxy(t *testing.T, modify func(doc map[string]any)) string {
	t.Helper()
	target, err := url.Parse(os.Getenv("TFE_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if !strings.HasPrefix(r.Request.URL.Path, "/api/v2/team-workspaces") || r.StatusCode != http.StatusOK {
			return nil
		}
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		_ = r.Body.Close()
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return err
		}
		modify(doc)
		if raw, err = json.Marshal(doc); err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		r.ContentLength = int64(len(raw))
		r.Header.Set("Content-Length", strconv.Itoa(len(raw)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL
}

// extendTeamAccessDocument adds permissions unknown to this provider to
// every team-workspaces resource, and makes admin imply policy-overrides.
func extendTeamAccessDocument(doc map[string]any) {
	items, ok := doc["data"].([]any)
	if !ok {
		items = []any{doc["data"]}
	}
	for _, it := range items {
		res, _ := it.(map[string]any)
		attrs, _ := res["attributes"].(map[string]any)
		if attrs == nil {
			continue
		}
		attrs["plan-outputs"] = "read"
		attrs["cost-estimates"] = "write"
		if attrs["access"] == "admin" {
			attrs["policy-overrides"] = true
		}
	}
}

// TestAccTeamAccessResource_requests counts the API requests of one grant's
// create, refresh, update and destroy on the sandbox. It does not run in
// parallel, so the counters see no other test's requests.
func TestAccTeamAccessResource_requests(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	ws := testAccWorkspace(t)
	team := testAccTeam(t, nil)
	var id string
	byID := func(method string) int { return sb.RequestsTo(method, "/api/v2/team-workspaces/"+id) }
	collection := func(method string) int { return sb.RequestsTo(method, "/api/v2/team-workspaces") }
	type snapshot struct{ post, list, get, patch, del int }
	snap := func() snapshot {
		return snapshot{collection("POST"), collection("GET"), byID("GET"), byID("PATCH"), byID("DELETE")}
	}
	var before, afterCreate, beforeRefresh, afterRefresh, afterUpdate snapshot
	before = snap()
	record := func(into *snapshot) []statecheck.StateCheck {
		return []statecheck.StateCheck{stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
			var err error
			id, err = stateID(s, teamAccessAddr)
			*into = snap()
			return err
		})}
	}
	accTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if n := byID("DELETE"); n != 1 {
				return fmt.Errorf("destroy made %d DELETE requests, want 1", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: testAccTeamAccessConfig(team.ID, ws.ID, "read", ""), ConfigStateChecks: record(&afterCreate)},
			// RefreshState steps take only legacy checks.
			{
				PreConfig:    func() { beforeRefresh = snap() },
				RefreshState: true,
				Check:        func(*terraform.State) error { afterRefresh = snap(); return nil },
			},
			{Config: testAccTeamAccessConfig(team.ID, ws.ID, "custom", `{ runs = "apply" }`), ConfigStateChecks: record(&afterUpdate)},
			// The workspace's list, team names included, without reading teams one by one.
			{
				Config: testAccTeamAccessConfig(team.ID, ws.ID, "custom", `{ runs = "apply" }`) + fmt.Sprintf(`
data "tfgov_workspace_team_access" "all" {
  workspace_id = %q
}
`, ws.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.tfgov_workspace_team_access.all", tfjsonpath.New("team_access").AtSliceIndex(0).AtMapKey("team_name"), knownvalue.StringExact(team.Name)),
					stateCheckFunc(func(context.Context, *tfjson.State) error {
						if n := sb.RequestsTo("GET", "/api/v2/teams/"+team.ID); n != 0 {
							return fmt.Errorf("the data source read the team %d times; its name comes with the list", n)
						}
						if collection("GET") == afterUpdate.list {
							return fmt.Errorf("the data source did not list team access")
						}
						return nil
					}),
				},
			},
		},
	})
	if n := afterCreate.post - before.post; n != 1 {
		t.Errorf("create made %d POST requests, want 1", n)
	}
	if n := afterRefresh.list - beforeRefresh.list; n != 1 {
		t.Errorf("the refresh step listed team access %d times, want 1", n)
	}
	if afterUpdate.get != 0 {
		t.Errorf("create, refresh and update read the grant by ID %d times, want 0 (refreshes use the workspace's list)", afterUpdate.get)
	}
	if n := afterUpdate.patch - afterRefresh.patch; n != 1 {
		t.Errorf("update made %d PATCH requests, want 1", n)
	}
	if afterCreate.patch != 0 || afterRefresh.patch != 0 {
		t.Errorf("create or refresh made PATCH requests")
	}
	t.Logf("requests: create POST=%d; lists: after create step %d, after refresh step %d (+%d), after update step %d; PATCH in update step %d",
		afterCreate.post-before.post, afterCreate.list-before.list, afterRefresh.list-before.list, afterRefresh.list-beforeRefresh.list, afterUpdate.list-before.list, afterUpdate.patch-afterRefresh.patch)
}
