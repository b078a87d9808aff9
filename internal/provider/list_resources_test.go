package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Protocol-level tests of the list resources (protocol_test.go): every
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

func TestListResource_policy(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-pol", nil)
	for i := range listSize {
		opts := tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("pol-%03d", i)), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}
		if i%3 == 0 {
			opts.Kind, opts.Query = tfe.OPA, tfe.String("data.terraform.deny")
		}
		if _, err := c.Policies.Create(ctx, "list-pol", opts); err != nil {
			t.Fatal(err)
		}
	}
	const listPath = "/api/v2/organizations/list-pol/policies"
	before := sb.RequestsTo("GET", listPath)
	res := p.list("tfgov_policy", nil, true, 1000)
	if got := sb.RequestsTo("GET", listPath) - before; got != listPages {
		t.Errorf("listing %d policies took %d requests, want %d", listSize, got, listPages)
	}
	checkResults(t, "policy", res, listSize, true)
	for _, r := range res {
		name := str(t, r.resource["name"])
		if !strings.HasPrefix(r.display, name+" (") || str(t, r.resource["organization"]) != "list-pol" || str(t, r.resource["enforcement_level"]) != "advisory" {
			t.Errorf("result %q: resource %v", r.display, r.resource)
		}
	}
	// Filters: kind, name search, both; the limit.
	checkResults(t, "policy", p.list("tfgov_policy", map[string]string{"kind": "opa"}, false, 1000), (listSize+2)/3, false)
	checkResults(t, "policy", p.list("tfgov_policy", map[string]string{"search": "pol-01"}, false, 1000), 10, false)
	checkResults(t, "policy", p.list("tfgov_policy", map[string]string{"search": "pol-01", "kind": "opa", "organization": "list-pol"}, false, 1000), 3, false)
	checkResults(t, "policy", p.list("tfgov_policy", nil, false, 7), 7, false)
}

func TestListResource_policyUpload(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-up", nil)
	code := map[string]string{}
	var ids []string
	for i := range 4 {
		pol, err := c.Policies.Create(ctx, "list-up", tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("up-%d", i)), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, pol.ID)
	}
	// Two with code, one changed without code, one untouched.
	for _, id := range ids[:2] {
		code[id] = "main = rule { \"" + id + "\" != \"\" }\n"
		if err := c.Policies.Upload(ctx, id, []byte(code[id])); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Policies.Update(ctx, ids[2], tfe.PolicyUpdateOptions{Description: tfe.String("changed")}); err != nil {
		t.Fatal(err)
	}
	downloads := func() int {
		n := 0
		for _, id := range ids {
			n += sb.RequestsTo("GET", "/api/v2/policies/"+id+"/download")
		}
		return n
	}
	res := p.list("tfgov_policy_upload", nil, true, 100)
	checkResults(t, "policy_upload", res, 2, true)
	for _, r := range res {
		id := r.identity["policy_id"]
		if got := str(t, r.resource["content"]); got != code[id] {
			t.Errorf("%s: content %q, want %q", id, got, code[id])
		}
		if got := str(t, r.resource["content_sha256"]); got != sha256String(code[id]) {
			t.Errorf("%s: content_sha256 %q", id, got)
		}
	}
	// The policies changed since their creation are downloaded, once each.
	if got := downloads(); got != 3 {
		t.Errorf("%d downloads, want 3 (the policies with updated-at)", got)
	}
	// With a limit of 1, the download that found the first is the last.
	before := downloads()
	checkResults(t, "policy_upload", p.list("tfgov_policy_upload", nil, false, 1), 1, false)
	if got := downloads() - before; got != 1 {
		t.Errorf("limit 1: %d downloads, want 1", got)
	}
}

func TestListResource_teamAccess(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-ta", nil)
	ws, err := c.Workspaces.Create(ctx, "list-ta", tfe.WorkspaceCreateOptions{Name: tfe.String("ws")})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for i := range listSize {
		tm, err := c.Teams.Create(ctx, "list-ta", tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("developers-%03d", i)), Visibility: tfe.String("organization")})
		if err != nil {
			t.Fatal(err)
		}
		names[tm.ID] = tm.Name
		access := tfe.AccessRead
		if i%2 == 1 {
			access = tfe.AccessWrite
		}
		if _, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(access), Team: tm, Workspace: ws}); err != nil {
			t.Fatal(err)
		}
	}
	before := sb.RequestsTo("GET", "/api/v2/team-workspaces")
	teamsBefore := sb.RequestsTo("GET", "/api/v2/organizations/list-ta/teams")
	res := p.list("tfgov_team_access", map[string]string{"workspace_id": ws.ID}, true, 1000)
	if got := sb.RequestsTo("GET", "/api/v2/team-workspaces") - before; got != listPages {
		t.Errorf("listing %d grants took %d requests, want %d", listSize, got, listPages)
	}
	// The names: the organization's team list (its teams and the owners
	// team), never a read per team.
	if got, want := sb.RequestsTo("GET", "/api/v2/organizations/list-ta/teams")-teamsBefore, (listSize+1+bulkPageSize-1)/bulkPageSize; got != want {
		t.Errorf("naming %d teams took %d team list requests, want %d", listSize, got, want)
	}
	checkResults(t, "team_access", res, listSize, true)
	for _, r := range res {
		team := str(t, r.resource["team_id"])
		if str(t, r.resource["workspace_id"]) != ws.ID || r.display != "team "+names[team]+": "+str(t, r.resource["access"])+" access" {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
	// A workspace that does not exist is an error, not an empty list.
	res = p.list("tfgov_team_access", map[string]string{"workspace_id": "ws-missing"}, false, 10)
	if len(res) != 1 || !hasErrors(res[0].diags) {
		t.Fatalf("listing a missing workspace: %+v, want one error", res)
	}
}

func TestListResource_agentToken(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-at", nil)
	pool, err := c.AgentPools.Create(ctx, "list-at", tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range listSize {
		if _, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(fmt.Sprintf("token %03d", i))}); err != nil {
			t.Fatal(err)
		}
	}
	listPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
	before := sb.RequestsTo("GET", listPath)
	res := p.list("tfgov_agent_token", map[string]string{"agent_pool_id": pool.ID}, true, 1000)
	if got := sb.RequestsTo("GET", listPath) - before; got != listPages {
		t.Errorf("listing %d tokens took %d requests, want %d", listSize, got, listPages)
	}
	checkResults(t, "agent_token", res, listSize, true)
	for _, r := range res {
		// The secret is never listed.
		if !r.resource["token"].IsNull() || !strings.HasPrefix(r.display, str(t, r.resource["description"])+" (created ") {
			t.Errorf("result %q: %v", r.display, r.resource)
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

func TestListResource_moduleTestVariable(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-tv", nil)
	mod := listTestModule(t, c, "list-tv")
	for i := range listSize {
		if _, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{
			Key: tfe.String(fmt.Sprintf("VAR_%03d", i)), Value: tfe.String(fmt.Sprint(i)), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(i%10 == 0),
		}); err != nil {
			t.Fatal(err)
		}
	}
	listPath := "/api/v2/organizations/list-tv/tests/registry-modules/private/list-tv/mod/aws/vars"
	before := sb.RequestsTo("GET", listPath)
	cfg := map[string]string{"module_name": "mod", "module_provider": "aws"}
	res := p.list("tfgov_module_test_variable", cfg, true, 1000)
	if got := sb.RequestsTo("GET", listPath) - before; got != listPages {
		t.Errorf("listing %d variables took %d requests, want %d (path %s)", listSize, got, listPages, listPath)
	}
	checkResults(t, "module_test_variable", res, listSize, true)
	for _, r := range res {
		sensitive := r.resource["sensitive"]
		var s bool
		if err := sensitive.As(&s); err != nil {
			t.Fatal(err)
		}
		// A sensitive value is never returned: null, which the resource
		// reads as "keep the service's value".
		if s != r.resource["value"].IsNull() || !strings.HasPrefix(r.display, str(t, r.resource["key"])) {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
	// A module that does not exist is an error.
	res = p.list("tfgov_module_test_variable", map[string]string{"module_name": "nope", "module_provider": "aws"}, false, 10)
	if len(res) != 1 || !hasErrors(res[0].diags) {
		t.Fatalf("listing a missing module: %+v, want one error", res)
	}
}

func TestListResource_moduleTestRun(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-tr", nil)
	mod := listTestModule(t, c, "list-tr")
	packed, err := packConfiguration(testModuleDir(t, "pass"), true)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := testRunClient{c}.uploadConfiguration(ctx, mod, packed.archive)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	for range n {
		if _, err := c.TestRuns.Create(ctx, tfe.TestRunCreateOptions{
			ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
			RegistryModule:       &tfe.RegistryModule{Name: mod.Name, Provider: mod.Provider, Namespace: mod.Organization, RegistryName: tfe.PrivateRegistry, Organization: &tfe.Organization{Name: mod.Organization}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	// Pages of 2 runs: 5 runs are 3 pages (a run takes the engine's time,
	// so this test pages through few runs on small pages).
	defer func(size int) { testRunListPageSize = size }(testRunListPageSize)
	testRunListPageSize = 2
	listPath := "/api/v2/organizations/list-tr/tests/registry-modules/private/list-tr/mod/aws/test-runs"
	before := sb.RequestsTo("GET", listPath) + sb.RequestsTo("GET", listPath+"/")
	res := p.list("tfgov_module_test_run", map[string]string{"module_name": "mod", "module_provider": "aws"}, true, 1000)
	if got := sb.RequestsTo("GET", listPath) + sb.RequestsTo("GET", listPath+"/") - before; got != 3 {
		t.Errorf("listing %d runs 2 a page took %d requests, want 3", n, got)
	}
	checkResults(t, "module_test_run", res, n, true)
	for _, r := range res {
		if str(t, r.resource["configuration_version_id"]) != cv || !strings.HasPrefix(r.display, r.identity["id"]+" (") {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
}

func TestListResource_moduleVersionDeprecation(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-dep", nil)
	mod := listTestModule(t, c, "list-dep", "1.0.0", "1.1.0", "2.0.0")
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if _, err := deprecateModuleVersion(ctx, c, moduleVersionRef{Organization: mod.Organization, Name: mod.Name, Provider: mod.Provider, Version: v}, tfe.String("Use 2.0.0."), nil); err != nil {
			t.Fatal(err)
		}
	}
	before := sb.Stats()
	res := p.list("tfgov_module_version_deprecation", map[string]string{"module_name": "mod", "module_provider": "aws"}, true, 1000)
	checkResults(t, "module_version_deprecation", res, 2, true)
	for _, r := range res {
		if str(t, r.resource["reason"]) != "Use 2.0.0." || !strings.HasSuffix(r.display, "deprecated: Use 2.0.0.") {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
	// The module read, then each of its 3 versions.
	after := sb.Stats()
	total := 0
	for k, v := range after {
		total += v - before[k]
	}
	if total != 4 {
		t.Errorf("%d requests, want 4 (1 + one per version)", total)
	}
	// With a limit of 1: the module and the newest versions down to the
	// first deprecated one (2.0.0 is not, 1.1.0 is).
	before = sb.Stats()
	checkResults(t, "module_version_deprecation", p.list("tfgov_module_version_deprecation", map[string]string{"module_name": "mod", "module_provider": "aws"}, false, 1), 1, false)
	total = 0
	for k, v := range sb.Stats() {
		total += v - before[k]
	}
	if total != 3 {
		t.Errorf("limit 1: %d requests, want 3", total)
	}
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
