package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestImportMissing: importing an object that does not exist, by ID and by
// identity (Terraform 1.12+), is the provider's own error naming the ID and
// where it was looked for, for every resource type, not Terraform's
// "Cannot import non-existent remote object". Through the protocol, as
// Terraform imports: ImportResourceState, then ReadResource with the
// import's private state. An unknown route answers 404 too, so each type
// first imports an object that exists, by ID and by identity, through the
// same requests: a 404 then proves a missing object, not a missing route.
func TestImportMissing(t *testing.T) {
	t.Parallel()
	const org = "import-missing"
	_, c, p := protoSandbox(t, org, nil)
	ctx := context.Background()
	pool, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("net"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry}); err != nil {
		t.Fatal(err)
	}
	existing := importMissingExisting(t, c, org, pool.ID)
	for _, typ := range slices.Sorted(maps.Keys(importMissingTypes())) {
		id, ok := existing[typ]
		if !ok {
			t.Errorf("%s: no existing object to import first (importMissingExisting), so its 404s could be an unknown route's", typ)
			continue
		}
		for _, by := range []string{"ID", "identity"} {
			t.Run(typ+" existing by "+by, func(t *testing.T) {
				if text, failed := protoImport(ctx, t, p, typ, id, by == "identity"); failed {
					t.Errorf("%s: importing existing %s by %s failed, so its routes may be missing:\n%s", typ, id, by, text)
				}
			})
		}
	}
	for _, tc := range importMissingCases(org, pool.ID) {
		for _, by := range []string{"ID", "identity"} {
			t.Run(tc.name+" by "+by, func(t *testing.T) {
				text, failed := protoImport(ctx, t, p, tc.typ, tc.id, by == "identity")
				if !failed {
					t.Fatalf("%s: no error: Terraform would say only \"Cannot import non-existent remote object\" (%s)", tc.typ, text)
				}
				for _, want := range []string{"Cannot import", tc.want} {
					if !strings.Contains(text, want) {
						t.Errorf("%s: the error lacks %q:\n%s", tc.typ, want, text)
					}
				}
			})
		}
	}
}

// protoImport imports typ's object id (by its identity when byIdentity) as
// Terraform does, and returns the read's diagnostics and whether they hold
// an error.
func protoImport(ctx context.Context, t *testing.T, p *protoProvider, typ, id string, byIdentity bool) (string, bool) {
	t.Helper()
	req := &tfprotov6.ImportResourceStateRequest{TypeName: typ, ID: id}
	if byIdentity {
		req.ID = ""
		idSchema := p.idents.IdentitySchemas[typ]
		vals := map[string]tftypes.Value{}
		parts := strings.Split(id, "/")
		for i, a := range resourceIdentities[resourceType(strings.TrimPrefix(typ, "tfgov_"))] {
			vals[a.name] = tftypes.NewValue(tftypes.String, parts[i])
		}
		req.Identity = &tfprotov6.ResourceIdentityData{IdentityData: p.dynamic(idSchema.ValueType(), vals)}
	}
	imp, err := p.srv.ImportResourceState(ctx, req)
	if err != nil || hasErrors(imp.Diagnostics) || len(imp.ImportedResources) != 1 {
		t.Fatalf("%s: ImportResourceState of %s: %v %s", typ, id, err, diagText(imp.Diagnostics))
	}
	ir := imp.ImportedResources[0]
	rd, err := p.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
		TypeName: typ, CurrentState: ir.State, Private: ir.Private, CurrentIdentity: ir.Identity})
	if err != nil {
		t.Fatal(err)
	}
	failed := hasErrors(rd.Diagnostics)
	if !failed && p.decode(p.schema.ResourceSchemas[typ].ValueType(), rd.NewState) == nil {
		return "the read removed it from state: " + diagText(rd.Diagnostics), true
	}
	return diagText(rd.Diagnostics), failed
}

// importMissingExisting makes, through the public API, one object of each
// type in org (agent pool poolID, module net/aws) and returns its import ID
// by type.
func importMissingExisting(t *testing.T, c *tfe.Client, org, poolID string) map[string]string {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	pol, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("there"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	must(err)
	must(c.Policies.Upload(ctx, pol.ID, []byte(sentinelCode)))
	ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("there")})
	must(err)
	team, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String("there"), Visibility: tfe.String("organization")})
	must(err)
	grant, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: team, Workspace: ws})
	must(err)
	token, err := c.AgentTokens.Create(ctx, poolID, tfe.AgentTokenCreateOptions{Description: tfe.String("there")})
	must(err)
	mod := moduleRef{Organization: org, Name: "net", Provider: "aws"}
	variable, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String("THERE"), Value: tfe.String("1"), Category: tfe.Category(tfe.CategoryEnv)})
	must(err)
	_, err = c.RegistryModules.CreateVersion(ctx, mod.id(), tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")})
	must(err)
	_, err = deprecateModuleVersion(ctx, c, moduleVersionRef{Organization: org, Name: "net", Provider: "aws", Version: "1.0.0"}, tfe.String("old"), nil)
	must(err)
	packed, err := packConfiguration(testModuleDir(t, "pass"), true)
	must(err)
	cv, err := testRunClient{c}.uploadConfiguration(ctx, mod, packed.archive)
	must(err)
	run, err := c.TestRuns.Create(ctx, tfe.TestRunCreateOptions{
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
		RegistryModule: &tfe.RegistryModule{Name: mod.Name, Provider: mod.Provider, Namespace: org, RegistryName: tfe.PrivateRegistry,
			Organization: &tfe.Organization{Name: org}},
	})
	must(err)
	return map[string]string{
		"tfgov_policy":                          pol.ID,
		"tfgov_policy_upload":                   pol.ID,
		"tfgov_team_access":                     grant.ID,
		"tfgov_agent_token":                     poolID + "/" + token.ID,
		"tfgov_workspace_team_access_exclusive": ws.ID,
		"tfgov_module_test_variable":            org + "/net/aws/" + variable.ID,
		"tfgov_module_version_deprecation":      org + "/net/aws/1.0.0",
		"tfgov_module_test_run":                 org + "/net/aws/" + run.ID,
	}
}

// importMissingCase is one import of a missing object: the type, the ID
// imported and what the error must name.
type importMissingCase struct{ name, typ, id, want string }

// importMissingCases are TestImportMissing's imports, in the organization
// org with the agent pool poolID and its module net/aws.
func importMissingCases(org, poolID string) []importMissingCase {
	return []importMissingCase{
		{"policy", "tfgov_policy", "pol-doesnotexist00001", "Policy pol-doesnotexist00001 not found"},
		{"policy upload", "tfgov_policy_upload", "pol-doesnotexist00001", "Policy pol-doesnotexist00001 was not found"},
		{"team access", "tfgov_team_access", "tws-typo00000000001", "Team access tws-typo00000000001 was not found"},
		{"agent token", "tfgov_agent_token", poolID + "/at-typo00000000001", "Agent token at-typo00000000001 was not found in agent pool " + poolID},
		{"agent token's pool", "tfgov_agent_token", "apool-typo000000001/at-typo00000000001", "Agent pool apool-typo000000001 was not found"},
		{"exclusive access", "tfgov_workspace_team_access_exclusive", "ws-typo000000000001", "Workspace ws-typo000000000001 was not found"},
		{"test variable", "tfgov_module_test_variable", org + "/net/aws/var-typo00000000001", "Module " + org + "/net/aws has no test variable var-typo00000000001"},
		{"test variable's module", "tfgov_module_test_variable", org + "/none/aws/var-typo00000000001", "Module " + org + "/none/aws was not found"},
		{"test run", "tfgov_module_test_run", org + "/net/aws/trun-typo0000000001", "Test run trun-typo0000000001 of module " + org + "/net/aws was not found"},
		{"test run's module", "tfgov_module_test_run", org + "/none/aws/trun-typo0000000001", "Module " + org + "/none/aws was not found"},
		{"version deprecation", "tfgov_module_version_deprecation", org + "/net/aws/9.9.9", "9.9.9"},
	}
}

// importMissingTypes are the types TestImportMissing covers: its cases'
// (registry_test.go).
func importMissingTypes() map[string]bool {
	types := map[string]bool{}
	for _, c := range importMissingCases("", "") {
		types[c.typ] = true
	}
	return types
}
