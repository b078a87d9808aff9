package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// Protocol-level tests of the list resources (acctest_protocol_test.go): every
// result's identity, display name and (include_resource) resource, the
// filters, the limit, the requests a list costs, and errors.

// listSize is how many objects the paging tests list: more than one page.
const listSize = 150

// listPages is the number of list requests for listSize objects:
// ceil(listSize/100).
const listPages = (listSize + bulkPageSize - 1) / bulkPageSize

// checkResults checks that results are n results without diagnostics, each
// with an identity of every identity attribute of typ (no provider prefix)
// and a display name, and with a resource exactly when include is set,
// whose identity attributes equal the identity's.
func checkResults(t *testing.T, typ resourceType, results []listResult, n int, include bool) {
	t.Helper()
	if len(results) != n {
		t.Fatalf("%d results, want %d", len(results), n)
	}
	seen := map[string]bool{}
	for _, r := range results {
		if len(r.diags) > 0 {
			t.Fatalf("diagnostics: %s", diagText(r.diags))
		}
		if r.display == "" {
			t.Errorf("result %v has no display name", r.identity)
		}
		key := fmt.Sprint(r.identity)
		if seen[key] {
			t.Errorf("identity %s listed twice", key)
		}
		seen[key] = true
		if len(r.identity) != len(resourceIdentities[typ]) {
			t.Errorf("identity %v, want the attributes %v", r.identity, resourceIdentities[typ])
		}
		for _, a := range resourceIdentities[typ] {
			if r.identity[a.name] == "" {
				t.Errorf("identity %v has no %s", r.identity, a.name)
			}
			if include && str(t, r.resource[a.name]) != r.identity[a.name] {
				t.Errorf("resource %s = %q, identity has %q", a.name, str(t, r.resource[a.name]), r.identity[a.name])
			}
		}
		if include != (r.resource != nil) {
			t.Errorf("include_resource %v, but resource %v", include, r.resource)
		}
	}
}

// listTestModule makes private module org/mod/aws with versions.
func listTestModule(t *testing.T, c *tfe.Client, org string, versions ...string) moduleRef {
	t.Helper()
	ctx := context.Background()
	if _, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("mod"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry}); err != nil {
		t.Fatal(err)
	}
	mod := moduleRef{Organization: org, Name: "mod", Provider: "aws"}
	for _, v := range versions {
		if _, err := c.RegistryModules.CreateVersion(ctx, mod.id(), tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(v)}); err != nil {
			t.Fatal(err)
		}
	}
	return mod
}

// TestListResource_errorMidList: a list whose second page fails ends with
// the error, never with the first page as if it were everything.
func TestListResource_errorMidList(t *testing.T) {
	ctx := context.Background()
	failPage2 := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Query().Get("page[number]") == "2" && r.Header.Get("X-Test-Fail-Page") == "" {
				w.Header().Set("Content-Type", "application/vnd.api+json")
				w.WriteHeader(http.StatusForbidden)
				_, _ = w.Write([]byte(`{"errors":[{"status":"403","title":"forbidden","detail":"page 2 refused by the test"}]}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	_, c, p := protoSandbox(t, "list-err", failPage2)
	pool, err := c.AgentPools.Create(ctx, "list-err", tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	if err != nil {
		t.Fatal(err)
	}
	mod := listTestModule(t, c, "list-err")
	for i := range listSize {
		if _, err := c.Policies.Create(ctx, "list-err", tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("p%03d", i)), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("t")}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String(fmt.Sprintf("V%03d", i)), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		typ string
		cfg map[string]string
	}{
		{"tfgov_policy", nil},
		{"tfgov_policy_upload", nil},
		{"tfgov_agent_token", map[string]string{"agent_pool_id": pool.ID}},
		{"tfgov_module_test_variable", map[string]string{"module_name": "mod", "module_provider": "aws"}},
	} {
		res := p.list(tc.typ, tc.cfg, true, 1000)
		if len(res) != 1 || !hasErrors(res[0].diags) || !strings.Contains(diagText(res[0].diags), "page 2 refused") {
			t.Errorf("%s: %d results (%s), want only the error of page 2", tc.typ, len(res), diagText(firstDiags(res)))
		}
	}
}

func firstDiags(res []listResult) []*tfprotov6.Diagnostic {
	if len(res) == 0 {
		return nil
	}
	return res[0].diags
}

// queryCase is one list resource's acceptance test (Terraform 1.14 and
// later): Terraform makes an object, then `terraform query` with the list
// block finds exactly it, with its identity, display name and resource.
type queryCase struct {
	typ      string // without the provider prefix
	config   string
	filter   string // the list block's config arguments
	identity map[string]knownvalue.Check
	display  knownvalue.Check
	values   map[string]knownvalue.Check // resource attributes
}

func testAccQuery(t *testing.T, c queryCase) {
	addr := "tfgov_" + c.typ + ".test"
	var known []querycheck.KnownValueCheck
	for attr, check := range c.values {
		known = append(known, querycheck.KnownValueCheck{Path: tfjsonpath.New(attr), KnownValue: check})
	}
	byIdentity := queryfilter.ByResourceIdentity(c.identity)
	accParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: c.config},
			{
				Query: true,
				Config: fmt.Sprintf(`
provider "tfgov" {}

list "tfgov_%[1]s" "test" {
  provider         = tfgov
  include_resource = true
  config {
    %[2]s
  }
}
`, c.typ, c.filter),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength(addr, 1),
					querycheck.ExpectIdentity(addr, c.identity),
					querycheck.ExpectResourceDisplayName(addr, byIdentity, c.display),
					querycheck.ExpectResourceKnownValues(addr, byIdentity, known),
				},
			},
		},
	})
}

var (
	orgCheck = func() knownvalue.Check { return knownvalue.StringExact(testAccOrganization()) }
	idLike   = func(prefix string) knownvalue.Check {
		return knownvalue.StringRegexp(regexp.MustCompile(`^` + prefix + `-[A-Za-z0-9]+$`))
	}
	moduleIDOf = func(mod moduleRef, last string, check knownvalue.Check) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{
			"organization": knownvalue.StringExact(mod.Organization), "module_name": knownvalue.StringExact(mod.Name),
			"module_provider": knownvalue.StringExact(mod.Provider), last: check,
		}
	}
)

// queryAdoptionFixtures makes, outside Terraform, each kit's objects for
// a query to find (adoptionKit). It returns the list blocks that find
// exactly them, and how many objects they are.
func queryAdoptionFixtures(t *testing.T) (string, int) {
	t.Helper()
	e := &adoptionEnv{t: t, ctx: context.Background(), c: testAccClient(t), org: testAccOrganization(), prefix: testAccName("query")}
	var b strings.Builder
	objects := 0
	for _, k := range kits {
		ak := k.generateConfig()
		if !ak.ok {
			continue
		}
		cfg, n := ak.c.make(e)
		objects += n
		fmt.Fprintf(&b, "list %q \"found\" {\n  provider         = tfgov\n  include_resource = true\n  limit            = 1000\n  config {\n    %s\n  }\n}\n\n", kitName(k), cfg)
	}
	return b.String(), objects
}

// queryAdoptionTypes are the types TestAccListResources_generateConfig
// covers: its kits' (registry_test.go).
func queryAdoptionTypes() map[string]bool {
	types := map[string]bool{}
	for _, k := range kits {
		if k.generateConfig().ok {
			types[kitName(k)] = true
		}
	}
	return types
}

// TestAccListResources_generateConfig: `terraform query
// -generate-config-out` finds objects of every type made outside
// Terraform and writes configuration whose plan only imports them; after
// the apply the plan is empty.
func TestAccListResources_generateConfig(t *testing.T) {
	testCLIConfig(t)
	testAccPreCheck(t)
	skipTerraformBelow(t, "1.14.0")
	query, n := queryAdoptionFixtures(t)
	dir := t.TempDir()
	for name, content := range map[string]string{
		"main.tf":          "terraform {\n  required_providers {\n    tfgov = { source = \"tfgov/tfgov\" }\n  }\n}\n\nprovider \"tfgov\" {}\n",
		"find.tfquery.hcl": query,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tf := func(args ...string) string {
		t.Helper()
		out, err := runTerraform(t, dir, append(args, "-no-color")...)
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	out := tf("query", "-generate-config-out=generated.tf")
	gen, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
	if err != nil {
		t.Fatalf("no generated.tf: %v\n%s", err, out)
	}
	t.Logf("terraform query:\n%s\ngenerated.tf:\n%s", out, gen)
	plan := tf("plan")
	want := regexp.MustCompile(`Plan: (\d+) to import, 0 to add, 0 to change, 0 to destroy`)
	if m := want.FindStringSubmatch(plan); m == nil || m[1] != strconv.Itoa(n) {
		t.Fatalf("plan of the generated configuration: want %d imports and nothing else:\n%s", n, plan)
	}
	tf("apply", "-auto-approve")
	if out := tf("plan", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after adopting is not empty:\n%s", out)
	}
}
