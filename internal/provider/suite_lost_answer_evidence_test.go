package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// Prove it before you trust it: what counts as proof that a lost create made an
// object (DESIGN.md "What counts as proof").

// frontedSandbox starts a sandbox of the test's own (organization org)
// behind a front that hands every request, with its body, to intercept
// first: intercept answers it itself (it may pass it to next, the sandbox,
// on the way) and returns true, or returns false and the sandbox serves
// it. It returns a go-tfe client of the organization's owner (through the
// front) and the provider block for it.
func frontedSandbox(t *testing.T, org string, intercept func(c *tfe.Client, next http.Handler, w http.ResponseWriter, r *http.Request, body []byte) bool) (*tfe.Client, string) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var c *tfe.Client
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if c != nil && intercept(c, srv, w, r, body) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	token, err := bootstrapOrganization(ts.URL, srv.AdminToken(), org, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = tfe.NewClient(&tfe.Config{Address: ts.URL, Token: token}); err != nil {
		t.Fatal(err)
	}
	return c, fmt.Sprintf("provider \"tfgov\" {\n  address      = %q\n  token        = %q\n  organization = %q\n}\n", ts.URL, token, org)
}

// unavailable answers a 503, as a service that did not process the request.
func unavailable(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write([]byte(`{"errors":[{"status":"503","title":"service unavailable"}]}`))
}

// TestAccLostAnswerMadeMeanwhile (row 2): an apply creates several objects
// under one parent; meanwhile a person creates one that the configuration
// also declares, and the configuration's create of it gets a 503 that was
// not processed. The person's object is not adopted: the create fails with
// "already exists" and its import block, and the person's object outlives
// the destroy that ends the test.
func TestAccLostAnswerMadeMeanwhile(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	if testAccSandbox() == nil {
		t.Skip("the answer is lost by a sandbox of the test's own")
	}
	ctx := context.Background()
	t.Run("policy", func(t *testing.T) {
		const org = "tfgov-meanwhile-pol"
		var done atomic.Bool
		var theirs atomic.Value
		c, provider := frontedSandbox(t, org, func(c *tfe.Client, _ http.Handler, w http.ResponseWriter, r *http.Request, body []byte) bool {
			if r.Method != "POST" || r.URL.Path != "/api/v2/organizations/"+org+"/policies" || !bytes.Contains(body, []byte(`"name":"b"`)) || !done.CompareAndSwap(false, true) {
				return false
			}
			pol, err := policyClient{c}.create(r.Context(), org, &tfe.PolicyCreateOptions{Name: tfe.String("b"), Kind: tfe.Sentinel, Description: tfe.String("same")})
			if err != nil {
				t.Errorf("the person's create: %v", err)
			} else {
				theirs.Store(pol.ID)
			}
			unavailable(w)
			return true
		})
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config: provider + `
resource "tfgov_policy" "p" {
  count       = 3
  name        = ["a", "b", "c"][count.index]
  description = "same"
}
`,
				ExpectError: wrappedRE(`Policy\s+already\s+exists.*already\s+has\s+a\s+policy\s+named\s+"b"\s+\(pol-.*import\s+\{\s+to\s+=\s+tfgov_policy\.<name>\s+id\s+=\s+"pol-`),
			}},
		})
		id, _ := theirs.Load().(string)
		if id == "" {
			t.Fatal("the person's policy was never made")
		}
		if _, err := c.Policies.Read(ctx, id); err != nil {
			t.Errorf("the person's policy %s after the destroy: %v", id, err)
		}
	})
	t.Run("team access", func(t *testing.T) {
		const org = "tfgov-meanwhile-ta"
		var done atomic.Bool
		var theirs atomic.Value
		var person *tfe.Team
		var ws *tfe.Workspace
		c, provider := frontedSandbox(t, org, func(c *tfe.Client, _ http.Handler, w http.ResponseWriter, r *http.Request, body []byte) bool {
			if r.Method != "POST" || r.URL.Path != "/api/v2/team-workspaces" || person == nil || !bytes.Contains(body, []byte(person.ID)) || !done.CompareAndSwap(false, true) {
				return false
			}
			g, err := c.TeamAccess.Add(r.Context(), tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: person, Workspace: ws})
			if err != nil {
				t.Errorf("the person's grant: %v", err)
			} else {
				theirs.Store(g.ID)
			}
			unavailable(w)
			return true
		})
		var teams []string
		for i := range 3 {
			tm, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("t-%d", i)), Visibility: tfe.String("organization")})
			if err != nil {
				t.Fatal(err)
			}
			teams = append(teams, tm.ID)
			if i == 1 {
				person = tm
			}
		}
		var err error
		if ws, err = c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("w")}); err != nil {
			t.Fatal(err)
		}
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config: provider + fmt.Sprintf(`
resource "tfgov_team_access" "t" {
  count        = 3
  team_id      = %s[count.index]
  workspace_id = %q
  access       = "read"
}
`, hclList(teams), ws.ID),
				ExpectError: wrappedRE(`already\s+has\s+"read"\s+access\s+to\s+workspace.*import\s+\{\s+to\s+=\s+tfgov_team_access\.<name>\s+id\s+=\s+"tws-`),
			}},
		})
		id, _ := theirs.Load().(string)
		if id == "" {
			t.Fatal("the person's grant was never made")
		}
		if _, err := c.TeamAccess.Read(ctx, id); err != nil {
			t.Errorf("the person's grant %s after the destroy: %v", id, err)
		}
	})
	t.Run("module test variable", func(t *testing.T) {
		const org = "tfgov-meanwhile-var"
		mod := moduleRef{Organization: org, Name: "m", Provider: "aws"}
		var done atomic.Bool
		var theirs atomic.Value
		c, provider := frontedSandbox(t, org, func(c *tfe.Client, _ http.Handler, w http.ResponseWriter, r *http.Request, body []byte) bool {
			if r.Method != "POST" || r.URL.Path != mod.varsPath() || !bytes.Contains(body, []byte(`"key":"B"`)) || !done.CompareAndSwap(false, true) {
				return false
			}
			v, err := c.TestVariables.Create(r.Context(), mod.id(), tfe.VariableCreateOptions{Key: tfe.String("B"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)})
			if err != nil {
				t.Errorf("the person's variable: %v", err)
			} else {
				theirs.Store(v.ID)
			}
			unavailable(w)
			return true
		})
		if _, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String(mod.Name), Provider: tfe.String(mod.Provider), RegistryName: tfe.PrivateRegistry}); err != nil {
			t.Fatal(err)
		}
		accTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config: provider + fmt.Sprintf(`
resource "tfgov_module_test_variable" "v" {
  count           = 3
  module_name     = %q
  module_provider = %q
  key             = ["A", "B", "C"][count.index]
  value           = "v"
}
`, mod.Name, mod.Provider),
				ExpectError: wrappedRE(`Module\s+test\s+variable\s+already\s+exists.*with\s+key\s+"B"\s+\(var-.*id\s+=\s+"` + regexp.QuoteMeta(mod.String()+"/var-")),
			}},
		})
		id, _ := theirs.Load().(string)
		if id == "" {
			t.Fatal("the person's variable was never made")
		}
		if _, err := c.TestVariables.Read(ctx, mod.id(), id); err != nil {
			t.Errorf("the person's variable %s after the destroy: %v", id, err)
		}
	})
}

// TestAccLostAnswerOneObjectOneInstance (row 3): `for_each` of two
// tfgov_policy with the same name, both creates' answers lost (the first
// made the policy, the second was refused by the service, and both
// answers became 503s). The one policy on the service is adopted by
// neither instance: each fails naming it in an import block.
func TestAccLostAnswerOneObjectOneInstance(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	if testAccSandbox() == nil {
		t.Skip("lost answers are injected by the sandbox")
	}
	sb, c := ownSandbox(t, sandbox.Options{}, "tfgov-one-instance")
	if err := sb.srv.InjectFault(sandbox.Fault{Method: "POST", Path: "/api/v2/organizations/" + sb.organization + "/policies", Status: 503, After: true, Count: 2}); err != nil {
		t.Fatal(err)
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "tfgov" {
  address      = %q
  token        = %q
  organization = %q
}

resource "tfgov_policy" "dup" {
  for_each    = toset(["one", "two"])
  name        = "same"
  description = "d"
}
`, sb.address, sb.token, sb.organization),
			ExpectError: wrappedRE(`(already\s+has\s+a\s+policy\s+named\s+"same"\s+\(pol-.*id\s+=\s+"pol-.*){2}`),
		}},
	})
	pols, err := servicePolicies(context.Background(), c, sb.organization)
	if err != nil {
		t.Fatal(err)
	}
	if len(pols) != 1 {
		t.Errorf("%d policies on the service after the destroy, want 1 (in no state, named in both errors)", len(pols))
	}
}

// TestAccTestVariablesLaterPageFails (row 7): a module's test variables
// span two pages, and page 2 answers 404 once during a refresh. The
// refresh fails (the module is not taken for gone), no variable leaves
// state, and the next plan is empty.
func TestAccTestVariablesLaterPageFails(t *testing.T) {
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance tests need %s=1", resource.EnvTfAcc)
	}
	if testAccSandbox() == nil {
		t.Skip("the page is lost by a sandbox of the test's own")
	}
	const org = "tfgov-page-404"
	mod := moduleRef{Organization: org, Name: "m", Provider: "aws"}
	var armed atomic.Bool
	c, provider := frontedSandbox(t, org, func(_ *tfe.Client, _ http.Handler, w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if r.Method != "GET" || r.URL.Path != mod.varsPath() || r.URL.Query().Get("page[number]") != "2" || !armed.CompareAndSwap(true, false) {
			return false
		}
		w.Header().Set("Content-Type", "application/vnd.api+json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"errors":[{"status":"404","title":"not found"}]}`))
		return true
	})
	if _, err := c.RegistryModules.Create(context.Background(), org, tfe.RegistryModuleCreateOptions{Name: tfe.String(mod.Name), Provider: tfe.String(mod.Provider), RegistryName: tfe.PrivateRegistry}); err != nil {
		t.Fatal(err)
	}
	const n = bulkPageSize + 5
	config := provider + fmt.Sprintf(`
resource "tfgov_module_test_variable" "v" {
  count           = %d
  module_name     = %q
  module_provider = %q
  key             = "V_${count.index}"
  value           = "v"
}
`, n, mod.Name, mod.Provider)
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig:   func() { armed.Store(true) },
				Config:      config,
				ExpectError: wrappedRE(`Error reading module test variable`),
			},
			{
				// No variable left state: the plan is empty, and the state
				// still holds all of them.
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: false,
			},
		},
	})
}

// TestAccAgentTokenLeftBehindVisible (row 8): lost answers on several
// agent token creates in one apply. Terraform folds warnings that share a
// summary into "and N more similar warnings elsewhere", so each warning's
// summary names its own tokens: every token the apply left on the service
// (in the pool, not in state) is named in the apply's output, and the
// warnings point to the prune action.
func TestAccAgentTokenLeftBehindVisible(t *testing.T) {
	testCLIConfig(t)
	testAccPreCheck(t)
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("lost answers are injected by the sandbox")
	}
	ctx := context.Background()
	c := testAccClient(t)
	pool := testAccAgentPool(t)
	const lost = 3
	if err := sb.InjectFault(sandbox.Fault{Method: "POST", Path: "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens", Status: 503, After: true, Count: lost}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	config := fmt.Sprintf(`
terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}

resource "tfgov_agent_token" "t" {
  count         = 5
  agent_pool_id = %q
  description   = "left-${count.index}"
}
`, pool.ID)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runTerraform(t, dir, "apply", "-auto-approve", "-no-color")
	t.Cleanup(func() {
		if out, err := runTerraform(t, dir, "destroy", "-auto-approve", "-no-color"); err != nil {
			t.Errorf("terraform destroy: %v\n%s", err, out)
		}
	})
	if err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Instances []struct {
				Attributes struct {
					ID string `json:"id"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	inState := map[string]bool{}
	for _, r := range st.Resources {
		for _, i := range r.Instances {
			inState[i.Attributes.ID] = true
		}
	}
	tokens, err := allAgentTokens(ctx, c, pool.ID)
	if err != nil {
		t.Fatal(err)
	}
	var left, unnamed []string
	for _, tok := range tokens {
		if inState[tok.ID] {
			continue
		}
		left = append(left, tok.ID)
		if !strings.Contains(out, tok.ID) {
			unnamed = append(unnamed, tok.ID)
		}
	}
	if len(left) != lost || len(unnamed) > 0 {
		t.Errorf("tokens left in the pool: %v (want %d); not named in the apply's output: %v\n%s", left, lost, unnamed, out)
	}
	if !strings.Contains(out, "tfgov_agent_token_prune") {
		t.Errorf("the warnings do not point to the prune action:\n%s", out)
	}
	// Clean up the tokens left behind (the test's own pool).
	for _, id := range left {
		_ = c.AgentTokens.Delete(ctx, id)
	}
}
