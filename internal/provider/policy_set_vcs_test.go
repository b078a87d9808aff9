package provider

import (
	"context"
	"fmt"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// testAccOAuthToken makes a GitHub OAuth client of the test organization through the API and returns
// its token's ID. The sandbox contacts no VCS; a live organization would need a real VCS token.
func testAccOAuthToken(t *testing.T) string {
	t.Helper()
	return oauthToken(t, testAccClient(t), testAccOrganization())
}

// oauthToken is testAccOAuthToken in organization org of c.
func oauthToken(t *testing.T, c *tfe.Client, org string) string {
	t.Helper()
	oc, err := c.OAuthClients.Create(context.Background(), org, tfe.OAuthClientCreateOptions{
		Name: tfe.String(testAccName("vcs")), APIURL: tfe.String("https://api.github.com"), HTTPURL: tfe.String("https://github.com"),
		OAuthToken: tfe.String("ghp_not-a-real-token"), ServiceProvider: tfe.ServiceProvider(tfe.ServiceProviderGithub),
	})
	if err != nil {
		t.Fatalf("OAuth client: %v", err)
	}
	t.Cleanup(func() { _ = c.OAuthClients.Delete(context.Background(), oc.ID) })
	if len(oc.OAuthTokens) != 1 {
		t.Fatalf("OAuth client %s has %d tokens", oc.ID, len(oc.OAuthTokens))
	}
	return oc.OAuthTokens[0].ID
}

// TestAccPolicySetResource_vcs: a set from a VCS repository is created, imported, updated, repaired
// after a change outside, and refuses at plan a second content form, both connections and a move
// away from the repository, naming the attributes.
func TestAccPolicySetResource_vcs(t *testing.T) {
	if testAccSandbox() == nil {
		t.Skip("a live organization's OAuth client needs a real VCS token")
	}
	f := testAccPolicySetFixtures(t)
	tok := testAccOAuthToken(t)
	ctx := context.Background()
	c := testAccClient(t)
	config := func(repo, path, extra string) string {
		return fmt.Sprintf(`
resource "tfgov_policy_set" "test" {
  name          = %q
  vcs_repo      = %s
  policies_path = %q
  scope         = { workspace_ids = [%q] }
%s}
`, f.nm, repo, path, f.d.ID, extra)
	}
	repo := func(branch string, submodules bool) string {
		return fmt.Sprintf("{\n    identifier = \"acme/policies\"\n    branch = %q\n    ingress_submodules = %t\n    oauth_token_id = %q\n  }", branch, submodules, tok)
	}
	vcs := func(branch string, submodules bool, path string) []statecheck.StateCheck {
		at := tfjsonpath.New("vcs_repo")
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(policySetAddr, at.AtMapKey("identifier"), knownvalue.StringExact("acme/policies")),
			statecheck.ExpectKnownValue(policySetAddr, at.AtMapKey("branch"), knownvalue.StringExact(branch)),
			statecheck.ExpectKnownValue(policySetAddr, at.AtMapKey("ingress_submodules"), knownvalue.Bool(submodules)),
			statecheck.ExpectKnownValue(policySetAddr, at.AtMapKey("oauth_token_id"), knownvalue.StringExact(tok)),
			statecheck.ExpectKnownValue(policySetAddr, tfjsonpath.New("policies_path"), knownvalue.StringExact(path)),
		}
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config(repo("main", false), "prod", ""), ConfigStateChecks: vcs("main", false, "prod")},
			{ResourceName: policySetAddr, ImportState: true, ImportStateVerify: true},
			{
				Config: config(repo("stage", true), "stage", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: vcs("stage", true, "stage"),
			},
			{
				Config: config(repo("stage", true), "stage", fmt.Sprintf("  policy_ids = [%q]\n", f.policy)), PlanOnly: true,
				ExpectError: wrappedRE(`These attributes cannot be configured together: \[policy_ids,source,vcs_repo\]`),
			},
			{
				Config: config(fmt.Sprintf("{\n    identifier = \"acme/policies\"\n    oauth_token_id = %q\n    github_app_installation_id = \"ghain-1\"\n  }", tok), "stage", ""), PlanOnly: true,
				ExpectError: wrappedRE(`vcs_repo takes exactly one of oauth_token_id .* and github_app_installation_id .*; it has both`),
			},
			{
				Config:      fmt.Sprintf("resource \"tfgov_policy_set\" \"test\" {\n  name = %q\n  policy_ids = [%q]\n  scope = { workspace_ids = [%q] }\n}\n", f.nm, f.policy, f.d.ID),
				PlanOnly:    true,
				ExpectError: wrappedRE(`A policy set cannot move to or from a VCS repository`),
			},
			// Changed outside: the plan puts the branch back.
			{
				PreConfig: func() {
					sets, err := c.PolicySets.List(ctx, testAccOrganization(), &tfe.PolicySetListOptions{Search: f.nm})
					if err != nil || len(sets.Items) != 1 {
						t.Fatalf("finding the set: %v", err)
					}
					if _, err := c.PolicySets.Update(ctx, sets.Items[0].ID, tfe.PolicySetUpdateOptions{
						VCSRepo: &tfe.VCSRepoOptions{Identifier: tfe.String("acme/policies"), Branch: tfe.String("hotfix"), OAuthTokenID: tfe.String(tok)},
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config(repo("stage", true), "stage", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policySetAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: vcs("stage", true, "stage"),
			},
		},
	})
}
