package provider

import (
	"context"
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
// import's private state.
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
	for _, tc := range importMissingCases(org, pool.ID) {
		for _, by := range []string{"ID", "identity"} {
			t.Run(tc.name+" by "+by, func(t *testing.T) {
				req := &tfprotov6.ImportResourceStateRequest{TypeName: tc.typ, ID: tc.id}
				if by == "identity" {
					req.ID = ""
					idSchema := p.idents.IdentitySchemas[tc.typ]
					vals := map[string]tftypes.Value{}
					parts := strings.Split(tc.id, "/")
					for i, a := range resourceIdentities[resourceType(strings.TrimPrefix(tc.typ, "tfgov_"))] {
						vals[a.name] = tftypes.NewValue(tftypes.String, parts[i])
					}
					req.Identity = &tfprotov6.ResourceIdentityData{IdentityData: p.dynamic(idSchema.ValueType(), vals)}
				}
				imp, err := p.srv.ImportResourceState(ctx, req)
				if err != nil || hasErrors(imp.Diagnostics) || len(imp.ImportedResources) != 1 {
					t.Fatalf("ImportResourceState: %v %s", err, diagText(imp.Diagnostics))
				}
				ir := imp.ImportedResources[0]
				rd, err := p.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
					TypeName: tc.typ, CurrentState: ir.State, Private: ir.Private, CurrentIdentity: ir.Identity})
				if err != nil {
					t.Fatal(err)
				}
				if !hasErrors(rd.Diagnostics) {
					t.Fatalf("no error: Terraform would say only \"Cannot import non-existent remote object\" (%s)", diagText(rd.Diagnostics))
				}
				text := diagText(rd.Diagnostics)
				for _, want := range []string{"Cannot import", tc.want} {
					if !strings.Contains(text, want) {
						t.Errorf("%s: the error lacks %q:\n%s", tc.typ, want, text)
					}
				}
			})
		}
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
