package sandbox_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// The sandbox's go-tfe contract tests come from its routes: every route it
// serves (Server.RoutePatterns) has an entry of routeContracts, naming the
// test that sends it through go-tfe, or a reason of routeExemptionText why
// none does. TestGoTFEFields_everyRoute checks the table against the
// routes; TestMain checks, after the tests ran, that each named test that
// ran did send its route through a go-tfe client of helpers_test.go's
// client and got an answer below 400.

// routeContract is one route's contract test, or why it has none.
type routeContract struct {
	test   string
	exempt routeExemption
}

// routeExemption is why a route has no go-tfe contract test.
type routeExemption int

const (
	_ routeExemption = iota
	exemptNoGoTFEMethod
)

// routeExemptionText is each reason as a reviewer reads it.
var routeExemptionText = map[routeExemption]string{
	exemptNoGoTFEMethod: "go-tfe has no method for it: its area's tests send it as raw JSON:API and check the answer",
}

// goTFECalls are the requests go-tfe clients made, answered below 400, by
// top-level test.
var goTFECalls = struct {
	sync.Mutex
	byTest map[string][]*http.Request
}{byTest: map[string][]*http.Request{}}

// recordingTransport records the requests of test's go-tfe client.
type recordingTransport struct {
	next http.RoundTripper
	test string
}

func (rt recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := rt.next.RoundTrip(r)
	if err == nil && resp.StatusCode < 400 {
		goTFECalls.Lock()
		goTFECalls.byTest[rt.test] = append(goTFECalls.byTest[rt.test], &http.Request{Method: r.Method, URL: r.URL, Host: r.Host})
		goTFECalls.Unlock()
	}
	return resp, err
}

// topTest is t's top-level test's name.
func topTest(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// routePatterns are the routes a new sandbox serves.
func routePatterns() ([]string, error) {
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	return srv.RoutePatterns(), nil
}

// sentRoutes gives, by top-level test, the route patterns its go-tfe
// clients sent.
func sentRoutes(patterns []string) map[string]map[string]bool {
	mux := http.NewServeMux()
	for _, p := range patterns {
		mux.HandleFunc(p, func(http.ResponseWriter, *http.Request) {})
	}
	goTFECalls.Lock()
	defer goTFECalls.Unlock()
	out := map[string]map[string]bool{}
	for test, reqs := range goTFECalls.byTest {
		out[test] = map[string]bool{}
		for _, r := range reqs {
			if _, p := mux.Handler(r); p != "" {
				out[test][p] = true
			}
		}
	}
	return out
}

// TestMain runs the tests, then checks that each route's contract test,
// when it ran, sent the route through go-tfe.
func TestMain(m *testing.M) {
	code := m.Run()
	patterns, err := routePatterns()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sent := sentRoutes(patterns)
	if dump := os.Getenv("TFGOV_ROUTE_DUMP"); dump != "" {
		var b strings.Builder
		for test, routes := range sent {
			for r := range routes {
				fmt.Fprintf(&b, "%s\t%s\n", r, test)
			}
		}
		_ = os.WriteFile(dump, []byte(b.String()), 0o600)
	}
	for _, p := range slices.Sorted(maps.Keys(routeContracts)) {
		c := routeContracts[p]
		if ran, ok := sent[c.test]; c.test != "" && ok && !ran[p] {
			fmt.Fprintf(os.Stderr, "route %s: its contract test %s ran and never sent it through go-tfe (routeContracts, route_contracts_test.go)\n", p, c.test)
			code = 1
		}
	}
	os.Exit(code)
}

// TestGoTFEFields_everyRoute: every route the sandbox serves has a go-tfe
// contract test that exists, or a typed reason for none; no entry names a
// route the sandbox does not serve.
func TestGoTFEFields_everyRoute(t *testing.T) {
	t.Parallel()
	patterns, err := routePatterns()
	if err != nil {
		t.Fatal(err)
	}
	tests := testFuncs(t)
	served := map[string]bool{}
	for _, p := range patterns {
		served[p] = true
		c, ok := routeContracts[p]
		switch {
		case !ok:
			t.Errorf("route %s has no go-tfe contract test and no reason for none: add it to routeContracts (route_contracts_test.go)", p)
		case (c.test == "") == (c.exempt == 0):
			t.Errorf("route %s: routeContracts needs a test or an exemption, and not both", p)
		case c.test != "" && !tests[c.test]:
			t.Errorf("route %s: its contract test %s is no test of this package", p, c.test)
		case c.exempt != 0 && routeExemptionText[c.exempt] == "":
			t.Errorf("route %s: its exemption is no reason of routeExemptionText", p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(routeContracts)) {
		if !served[p] {
			t.Errorf("routeContracts lists %s, a route the sandbox does not serve", p)
		}
	}
}

// testFuncs are the Test functions of this package's test files.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
				names[fd.Name.Name] = true
			}
		}
	}
	return names
}

// routeContracts: each route's go-tfe contract test, or why it has none.
var routeContracts = map[string]routeContract{
	"GET /api/v2/account/details":                                                                  {test: "TestGoTFEFields"},
	"POST /api/v2/organizations":                                                                   {test: "TestGoTFEFields"},
	"GET /api/v2/organizations":                                                                    {test: "TestGoTFEFields"},
	"GET /api/v2/organizations/{org}":                                                              {test: "TestGoTFEFields"},
	"PATCH /api/v2/organizations/{org}":                                                            {test: "TestSettingsPersist"},
	"DELETE /api/v2/organizations/{org}":                                                           {test: "TestOrganizationDelete"},
	"GET /api/v2/admin/feature-sets":                                                               {test: "TestAdminSubscriptions"},
	"POST /api/v2/admin/organizations/{org}/subscription":                                          {test: "TestAdminSubscriptions"},
	"GET /api/v2/organizations/{org}/subscription":                                                 {test: "TestAdminSubscriptions"},
	"POST /api/v2/users/{id}/authentication-tokens":                                                {test: "TestGoTFEFields"},
	"POST /api/v2/organizations/{org}/organization-memberships":                                    {test: "TestGoTFEFields"},
	"GET /api/v2/organizations/{org}/organization-memberships":                                     {test: "TestGoTFEFields"},
	"GET /api/v2/organization-memberships/{id}":                                                    {test: "TestGoTFEFields"},
	"DELETE /api/v2/organization-memberships/{id}":                                                 {test: "TestGoTFEFields"},
	"POST /api/v2/organizations/{org}/teams":                                                       {test: "TestGoTFEFields"},
	"GET /api/v2/organizations/{org}/teams":                                                        {test: "TestTeamListNamesAndQuery"},
	"GET /api/v2/teams/{id}":                                                                       {test: "TestTeamSettings"},
	"PATCH /api/v2/teams/{id}":                                                                     {test: "TestTeamSettings"},
	"DELETE /api/v2/teams/{id}":                                                                    {test: "TestTeamAccess_cascade"},
	"POST /api/v2/teams/{id}/relationships/users":                                                  {test: "TestTeamMembers"},
	"DELETE /api/v2/teams/{id}/relationships/users":                                                {test: "TestTeamMembers"},
	"POST /api/v2/teams/{id}/relationships/organization-memberships":                               {test: "TestGoTFEFields"},
	"DELETE /api/v2/teams/{id}/relationships/organization-memberships":                             {test: "TestGoTFEFields"},
	"POST /api/v2/teams/{id}/authentication-token":                                                 {test: "TestGoTFEFields"},
	"POST /api/v2/teams/{id}/authentication-tokens":                                                {test: "TestGoTFEFields"},
	"GET /api/v2/teams/{id}/authentication-token":                                                  {test: "TestGoTFEFields"},
	"DELETE /api/v2/teams/{id}/authentication-token":                                               {test: "TestTokens"},
	"POST /api/v2/organizations/{org}/authentication-token":                                        {test: "TestGoTFEFields"},
	"GET /api/v2/organizations/{org}/authentication-token":                                         {test: "TestGoTFEFields"},
	"DELETE /api/v2/organizations/{org}/authentication-token":                                      {test: "TestGoTFEFields"},
	"POST /api/v2/organizations/{org}/workspaces":                                                  {test: "TestGoTFEFields"},
	"GET /api/v2/organizations/{org}/workspaces":                                                   {test: "TestWorkspaceListFilters"},
	"GET /api/v2/organizations/{org}/workspaces/{name}":                                            {test: "TestWorkspaces"},
	"PATCH /api/v2/organizations/{org}/workspaces/{name}":                                          {test: "TestWorkspaceSettings"},
	"POST /api/v2/organizations/{org}/workspaces/{name}/actions/safe-delete":                       {test: "TestWorkspaceSafeDelete"},
	"DELETE /api/v2/organizations/{org}/workspaces/{name}":                                         {test: "TestGoTFEFields"},
	"GET /api/v2/workspaces/{id}":                                                                  {test: "TestSettingsPersist"},
	"PATCH /api/v2/workspaces/{id}":                                                                {test: "TestWorkspaceSettings"},
	"POST /api/v2/workspaces/{id}/actions/safe-delete":                                             {test: "TestWorkspaceSafeDelete"},
	"GET /api/v2/workspaces/{id}/relationships/remote-state-consumers":                             {test: "TestRemoteStateConsumers"},
	"DELETE /api/v2/workspaces/{id}":                                                               {test: "TestWorkspaces"},
	"GET /api/v2/workspaces/{id}/relationships/tags":                                               {test: "TestWorkspaceTags"},
	"POST /api/v2/workspaces/{id}/relationships/tags":                                              {test: "TestWorkspaceTags"},
	"DELETE /api/v2/workspaces/{id}/relationships/tags":                                            {test: "TestWorkspaceTags"},
	"POST /api/v2/organizations/{org}/agent-pools":                                                 {test: "TestGoTFEFields"},
	"GET /api/v2/organizations/{org}/agent-pools":                                                  {test: "TestAgentPoolListQuery"},
	"GET /api/v2/agent-pools/{id}":                                                                 {test: "TestAgentPoolUpdate"},
	"PATCH /api/v2/agent-pools/{id}":                                                               {test: "TestAgentPoolUpdate"},
	"DELETE /api/v2/agent-pools/{id}":                                                              {test: "TestAgentPools"},
	"POST /api/v2/organizations/{org}/registry-modules":                                            {test: "TestGoTFEFields"},
	"POST /api/v2/organizations/{org}/registry-modules/vcs":                                        {test: "TestRegistryModulesVCS_persistence"},
	"POST /api/v2/registry-modules":                                                                {test: "TestRegistryModulesVCS_tags"},
	"GET /api/v2/organizations/{org}/registry-modules":                                             {test: "TestRegistryModuleList"},
	"GET /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}":              {test: "TestGoTFEFields"},
	"DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}":                      {test: "TestRegistryModules_deletes"},
	"PATCH /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}":            {test: "TestRegistryModulesVCS_update"},
	"DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}":           {test: "TestModuleTestVariables_moduleDeleted"},
	"GET /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/version":      {test: "TestModuleDeprecation_seed"},
	"DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}": {test: "TestModuleDeprecation_lifecycle"},
	"POST /api/v2/registry-modules/{org}/{name}/{provider}/{action}":                               {test: "TestGoTFEFields"},
	"POST /api/v2/registry-modules/actions/delete/{org}/{name}/{provider}":                         {test: "TestRegistryModules_deletes"},
	"POST /api/v2/registry-modules/actions/delete/{org}/{name}/{provider}/{version}":               {test: "TestRegistryModules_deletes"},
	"POST /api/v2/organizations/{org}/policy-sets":                                                 {test: "TestGoTFEFields"},
	"GET /api/v2/organizations/{org}/policy-sets":                                                  {test: "TestGoTFEFields"},
	"GET /api/v2/policy-sets/{id}":                                                                 {test: "TestPolicySets"},
	"DELETE /api/v2/policy-sets/{id}":                                                              {test: "TestPolicySets"},
	"PATCH /api/v2/policy-sets/{id}":                                                               {test: "TestPolicySets"},
	"POST /api/v2/policy-sets/{id}/relationships/workspaces":                                       {test: "TestPolicySets_scope"},
	"DELETE /api/v2/policy-sets/{id}/relationships/workspaces":                                     {test: "TestPolicySets_scope"},
	"POST /api/v2/policy-sets/{id}/relationships/workspace-exclusions":                             {test: "TestPolicySets_scope"},
	"DELETE /api/v2/policy-sets/{id}/relationships/workspace-exclusions":                           {test: "TestPolicySets_scope"},
	"POST /api/v2/policy-sets/{id}/relationships/projects":                                         {test: "TestPolicySets_projects"},
	"DELETE /api/v2/policy-sets/{id}/relationships/projects":                                       {test: "TestPolicySets_projects"},
	"POST /api/v2/policy-sets/{id}/relationships/project-exclusions":                               {test: "TestPolicySets_projects"},
	"DELETE /api/v2/policy-sets/{id}/relationships/project-exclusions":                             {test: "TestPolicySets_projects"},
	"POST /api/v2/policy-sets/{id}/tag-selectors":                                                  {test: "TestPolicySets_scope"},
	"DELETE /api/v2/policy-sets/{id}/tag-selectors":                                                {test: "TestPolicySets_scope"},
	"POST /api/v2/policy-sets/{id}/versions":                                                       {test: "TestPolicySetVersions"},
	"GET /api/v2/policy-set-versions/{id}":                                                         {test: "TestPolicySetVersions"},
	"GET /api/v2/policy-sets/{id}/parameters":                                                      {test: "TestPolicySetParameters"},
	"POST /api/v2/policy-sets/{id}/parameters":                                                     {test: "TestPolicySetParameters"},
	"GET /api/v2/policy-sets/{id}/parameters/{param}":                                              {test: "TestPolicySetParameters"},
	"PATCH /api/v2/policy-sets/{id}/parameters/{param}":                                            {test: "TestPolicySetParameters"},
	"DELETE /api/v2/policy-sets/{id}/parameters/{param}":                                           {test: "TestPolicySetParameters"},
	"GET /api/v2/workspaces/{id}/tag-bindings":                                                     {test: "TestPolicySets_scope"},
	"PATCH /api/v2/workspaces/{id}/tag-bindings":                                                   {test: "TestPolicySets_scope"},
	"GET /api/v2/workspaces/{id}/effective-tag-bindings":                                           {test: "TestPolicySets_scope"},
	"GET /api/v2/admin/sentinel-versions":                                                          {test: "TestAdminSentinelVersions"},
	"POST /api/v2/admin/sentinel-versions":                                                         {test: "TestAdminSentinelVersions"},
	"GET /api/v2/admin/sentinel-versions/{id}":                                                     {test: "TestAdminSentinelVersions"},
	"PATCH /api/v2/admin/sentinel-versions/{id}":                                                   {test: "TestAdminSentinelVersions"},
	"DELETE /api/v2/admin/sentinel-versions/{id}":                                                  {test: "TestAdminSentinelVersions"},
	"GET /api/v2/admin/opa-versions":                                                               {test: "TestAdminSentinelVersions"},
	"POST /api/v2/admin/opa-versions":                                                              {test: "TestAdminSentinelVersions"},
	"GET /api/v2/admin/opa-versions/{id}":                                                          {test: "TestAdminSentinelVersions"},
	"PATCH /api/v2/admin/opa-versions/{id}":                                                        {test: "TestAdminSentinelVersions"},
	"DELETE /api/v2/admin/opa-versions/{id}":                                                       {test: "TestAdminSentinelVersions"},
	"POST /api/v2/organizations/{org}/oauth-clients":                                               {test: "TestRegistryModulesVCS_tags"},
	"GET /api/v2/organizations/{org}/oauth-clients":                                                {test: "TestOAuthClients_validation"},
	"GET /api/v2/oauth-clients/{id}":                                                               {test: "TestRegistryModulesVCS_persistence"},
	"DELETE /api/v2/oauth-clients/{id}":                                                            {test: "TestOAuthClients_lifecycle"},
	"GET /api/v2/oauth-clients/{id}/oauth-tokens":                                                  {exempt: exemptNoGoTFEMethod},
	"GET /api/v2/organizations/{org}/oauth-tokens":                                                 {test: "TestOAuthClients_lifecycle"},
	"GET /api/v2/oauth-tokens/{id}":                                                                {test: "TestOAuthClients_authorization"},
	"GET /api/v2/agent-pools/{id}/authentication-tokens":                                           {test: "TestAgentTokens_pagination"},
	"POST /api/v2/agent-pools/{id}/authentication-tokens":                                          {test: "TestAgentTokens_wireFormat"},
	"GET /api/v2/authentication-tokens/{id}":                                                       {test: "TestAgentTokens_lastUsed"},
	"DELETE /api/v2/authentication-tokens/{id}":                                                    {test: "TestAgentTokens_lifecycle"},
	"PATCH /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}":  {test: "TestModuleDeprecation_seed"},
	"POST /api/v2/organizations/{org}/projects":                                                    {test: "TestProjects_lifecycle"},
	"GET /api/v2/organizations/{org}/projects":                                                     {test: "TestProjects_lifecycle"},
	"GET /api/v2/projects/{id}":                                                                    {test: "TestProjects_lifecycle"},
	"PATCH /api/v2/projects/{id}":                                                                  {test: "TestProjects_lifecycle"},
	"DELETE /api/v2/projects/{id}":                                                                 {test: "TestProjects_lifecycle"},
	"GET /api/v2/projects/{id}/tag-bindings":                                                       {test: "TestProjects_tagBindings"},
	"GET /api/v2/projects/{id}/effective-tag-bindings":                                             {test: "TestProjects_tagBindings"},
	"PATCH /api/v2/projects/{id}/tag-bindings":                                                     {test: "TestProjects_tagBindings"},
	"GET /api/v2/team-projects":                                                                    {test: "TestTeamProjectAccess_lifecycle"},
	"POST /api/v2/team-projects":                                                                   {test: "TestTeamProjectAccess_lifecycle"},
	"GET /api/v2/team-projects/{id}":                                                               {test: "TestTeamProjectAccess_levels"},
	"PATCH /api/v2/team-projects/{id}":                                                             {test: "TestTeamProjectAccess_levels"},
	"DELETE /api/v2/team-projects/{id}":                                                            {test: "TestTeamProjectAccess_lifecycle"},
	"GET /api/v2/team-workspaces":                                                                  {test: "TestTeamAccess_duplicate"},
	"POST /api/v2/team-workspaces":                                                                 {test: "TestTeamAccess_snapshot"},
	"GET /api/v2/team-workspaces/{id}":                                                             {test: "TestTeamAccess_snapshot"},
	"PATCH /api/v2/team-workspaces/{id}":                                                           {test: "TestTeamAccess_policyOverrides"},
	"DELETE /api/v2/team-workspaces/{id}":                                                          {test: "TestTeamAccess_lifecycle"},
	"POST /api/v2/organizations/{org}/policies":                                                    {test: "TestLatency"},
	"GET /api/v2/organizations/{org}/policies":                                                     {test: "TestPolicies_list"},
	"GET /api/v2/policies/{id}":                                                                    {test: "TestPolicies_sentinelQueryUpdate"},
	"PATCH /api/v2/policies/{id}":                                                                  {test: "TestPolicies_enforceDefaults"},
	"DELETE /api/v2/policies/{id}":                                                                 {test: "TestPolicies_lifecycle"},
	"PUT /api/v2/policies/{id}/upload":                                                             {test: "TestPolicies_uploadLimit"},
	"GET /api/v2/policies/{id}/download":                                                           {test: "TestPolicies_uploadLimit"},
	"POST /api/v2/policy-sets/{id}/relationships/policies":                                         {test: "TestPolicies_policySets"},
	"DELETE /api/v2/policy-sets/{id}/relationships/policies":                                       {test: "TestPolicies_policySets"},
	"POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs/configuration-versions": {test: "TestTestRuns_createValidation"},
	"GET /api/v2/configuration-versions/{id}":                                                                            {test: "TestConfigurationVersions_lifecycle"},
	"POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs":                   {test: "TestTestRuns_invalidConfiguration"},
	"GET /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs":                    {test: "TestTestRuns_createValidation"},
	"GET /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs/{$}":                {test: "TestTestRuns_listAndLog"},
	"GET /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs/{id}":               {test: "TestTestRuns_invalidConfiguration"},
	"POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs/{id}/cancel":       {test: "TestTestRuns_cancel"},
	"POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs/{id}/force-cancel": {test: "TestTestRuns_cancel"},
	"GET /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars":                         {test: "TestModuleTestVariables_pagination"},
	"POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars":                        {test: "TestModuleTestVariables_invalid"},
	"GET /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars/{id}":                    {test: "TestModuleTestVariables_invalid"},
	"PATCH /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars/{id}":                  {test: "TestModuleTestVariables_sensitive"},
	"DELETE /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars/{id}":                 {test: "TestModuleTestVariables_lifecycle"},
}
