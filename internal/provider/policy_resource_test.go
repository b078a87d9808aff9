package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const policyAddr = "tfgov_policy.test"

// testAccPolicyConfig renders a tfgov_policy; empty arguments are left out.
func testAccPolicyConfig(name, kind, level, description, query string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"tfgov_policy\" \"test\" {\n  name = %q\n", name)
	for _, a := range []struct{ k, v string }{{"kind", kind}, {"enforcement_level", level}, {"description", description}, {"query", query}} {
		if a.v != "" {
			fmt.Fprintf(&b, "  %s = %q\n", a.k, a.v)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// testAccCheckPolicyDestroyed checks through go-tfe that no policy of the
// organization has one of names.
func testAccCheckPolicyDestroyed(t *testing.T, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, name := range names {
			_, err := policyClient{testAccClient(t)}.findByName(context.Background(), testAccOrganization(), name)
			if err == nil {
				return fmt.Errorf("policy %s still exists after destroy", name)
			}
			if !isNotFound(err) {
				return err
			}
		}
		return nil
	}
}

// testAccPolicyID reads the ID of the policy at addr from state.
func testAccPolicyID(s *terraform.State, addr string) string {
	if rs, ok := s.RootModule().Resources[addr]; ok {
		return rs.Primary.ID
	}
	return ""
}

func expectAction(addr string, action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)}}
}

func TestAccPolicyResource_sentinel(t *testing.T) {
	name := testAccName("sentinel")
	org := testAccOrganization()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var policyID string
	levelStep := func(level string) resource.TestStep {
		return resource.TestStep{
			Config:           testAccPolicyConfig(name, "", level, "Second", ""),
			ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact(level)),
				sameID.AddStateValue(policyAddr, tfjsonpath.New("id")),
				testAccCheckPolicyOnServer(t, policyAddr, func(p *tfe.Policy) error {
					if string(p.EnforcementLevel) != level {
						return fmt.Errorf("enforcement-level on the server is %q, want %q", p.EnforcementLevel, level)
					}
					return nil
				}),
			},
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				Config: testAccPolicyConfig(name, "", "hard-mandatory", "First **version**", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^pol-[A-Za-z0-9]+$`))),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("organization"), knownvalue.StringExact(org)),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("kind"), knownvalue.StringExact("sentinel")),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("description"), knownvalue.StringExact("First **version**")),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("query"), knownvalue.Null()),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("hard-mandatory")),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("policy_set_ids"), knownvalue.SetExact([]knownvalue.Check{})),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("updated_at"), knownvalue.Null()),
					sameID.AddStateValue(policyAddr, tfjsonpath.New("id")),
					stateCheckFunc(func(_ context.Context, s *tfjson.State) error {
						var err error
						policyID, err = stateID(s, policyAddr)
						return err
					}),
				},
			},
			// Import by ID ...
			{ResourceName: policyAddr, ImportState: true, ImportStateVerify: true},
			// ... and by <organization>/<name>.
			{
				ResourceName: policyAddr, ImportState: true, ImportStateVerify: true,
				ImportStateId: org + "/" + name,
			},
			// A configuration generated by terraform plan -generate-config-out plans clean.
			{ResourceName: policyAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: org + "/" + name, GenerateConfig: true},
			// Description changes in place.
			{
				Config:           testAccPolicyConfig(name, "", "hard-mandatory", "Second", ""),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("description"), knownvalue.StringExact("Second")),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("updated_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					sameID.AddStateValue(policyAddr, tfjsonpath.New("id")),
				},
			},
			// Every level, down and back up.
			levelStep("soft-mandatory"),
			levelStep("advisory"),
			levelStep("hard-mandatory"),
			levelStep("advisory"),
			levelStep("soft-mandatory"),
			// Leaving the level out plans Sentinel's default.
			{
				Config:           testAccPolicyConfig(name, "", "", "Second", ""),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("hard-mandatory")),
				},
			},
			// Removing the description clears it.
			{
				Config:           testAccPolicyConfig(name, "", "", "", ""),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("description"), knownvalue.Null()),
					testAccCheckPolicyOnServer(t, policyAddr, func(p *tfe.Policy) error {
						if p.Description != "" {
							return fmt.Errorf("description on the server is %q, want none", p.Description)
						}
						return nil
					}),
				},
			},
			// Drift: changed outside Terraform; the plan puts it back.
			{
				PreConfig: func() {
					if _, err := testAccClient(t).Policies.Update(context.Background(), policyID, tfe.PolicyUpdateOptions{
						Description: tfe.String("edited in the UI"), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory),
					}); err != nil {
						t.Fatalf("changing the policy outside Terraform: %v", err)
					}
				},
				Config:           testAccPolicyConfig(name, "", "hard-mandatory", "", ""),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("hard-mandatory")),
				},
			},
			// Drift: deleted outside Terraform; the plan creates it again.
			{
				PreConfig: func() {
					if err := testAccClient(t).Policies.Delete(context.Background(), policyID); err != nil {
						t.Fatalf("deleting the policy outside Terraform: %v", err)
					}
				},
				Config:           testAccPolicyConfig(name, "", "hard-mandatory", "", ""),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionCreate),
			},
			// A new name replaces the policy.
			{
				Config:           testAccPolicyConfig(name+"-renamed", "", "hard-mandatory", "", ""),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("name"), knownvalue.StringExact(name+"-renamed")),
				},
			},
		},
	})
	// The old name is gone too.
	if err := testAccCheckPolicyDestroyed(t, name, name+"-renamed")(nil); err != nil {
		t.Error(err)
	}
}

func TestAccPolicyResource_opa(t *testing.T) {
	name := testAccName("opa")
	org := testAccOrganization()
	sameID := statecheck.CompareValue(compare.ValuesSame())
	const query = "data.terraform.policies.deny"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{
				Config: testAccPolicyConfig(name, "opa", "mandatory", "Tags are required", query),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("kind"), knownvalue.StringExact("opa")),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("query"), knownvalue.StringExact(query)),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("mandatory")),
					sameID.AddStateValue(policyAddr, tfjsonpath.New("id")),
				},
			},
			{ResourceName: policyAddr, ImportState: true, ImportStateVerify: true},
			{
				ResourceName: policyAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID,
				ImportStateId: org + "/" + name,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(policyAddr, plancheck.ResourceActionNoop),
				}},
			},
			{ResourceName: policyAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: org + "/" + name, GenerateConfig: true},
			// The query changes in place.
			{
				Config:           testAccPolicyConfig(name, "opa", "mandatory", "Tags are required", "data.terraform.policies.tags.deny"),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("query"), knownvalue.StringExact("data.terraform.policies.tags.deny")),
					sameID.AddStateValue(policyAddr, tfjsonpath.New("id")),
					testAccCheckPolicyOnServer(t, policyAddr, func(p *tfe.Policy) error {
						if p.Query == nil || *p.Query != "data.terraform.policies.tags.deny" {
							return fmt.Errorf("query on the server is %v", p.Query)
						}
						return nil
					}),
				},
			},
			// Both levels, both ways.
			{
				Config:           testAccPolicyConfig(name, "opa", "advisory", "Tags are required", "data.terraform.policies.tags.deny"),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("advisory")),
					sameID.AddStateValue(policyAddr, tfjsonpath.New("id")),
				},
			},
			{
				Config:           testAccPolicyConfig(name, "opa", "mandatory", "Tags are required", "data.terraform.policies.tags.deny"),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("mandatory")),
					sameID.AddStateValue(policyAddr, tfjsonpath.New("id")),
				},
			},
			// Another kind is another policy.
			{
				Config:           testAccPolicyConfig(name, "sentinel", "", "", ""),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionDestroyBeforeCreate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("kind"), knownvalue.StringExact("sentinel")),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("enforcement_level"), knownvalue.StringExact("hard-mandatory")),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("query"), knownvalue.Null()),
				},
			},
		},
	})
}

// TestAccPolicyResource_defaultLevel leaves the level out at creation: the
// API's default for the kind is recorded, and the next plan is empty.
func TestAccPolicyResource_defaultLevel(t *testing.T) {
	sentinel, opa := testAccName("dflt-s"), testAccName("dflt-o")
	config := fmt.Sprintf(`
resource "tfgov_policy" "sentinel" {
  name = %[1]q
}
resource "tfgov_policy" "opa" {
  name  = %[2]q
  kind  = "opa"
  query = "data.terraform.deny"
}
`, sentinel, opa)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckPolicyDestroyed(t, sentinel, opa),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("tfgov_policy.sentinel", tfjsonpath.New("enforcement_level"), knownvalue.StringExact("hard-mandatory")),
					statecheck.ExpectKnownValue("tfgov_policy.opa", tfjsonpath.New("enforcement_level"), knownvalue.StringExact("advisory")),
				},
			},
			{Config: config, ConfigPlanChecks: expectAction("tfgov_policy.opa", plancheck.ResourceActionNoop)},
		},
	})
}

// TestAccPolicyResource_invalid rejects bad input at plan time. The
// configurations name an organization no other test uses, and the sandbox
// confirms that no request reached it.
func TestAccPolicyResource_invalid(t *testing.T) {
	org := testAccName("never")
	cfg := func(body string) string {
		return fmt.Sprintf("resource \"tfgov_policy\" \"test\" {\n  organization = %q\n%s\n}\n", org, body)
	}
	tests := map[string]struct {
		config string
		want   string
	}{
		"opa level on sentinel":      {cfg(`name = "p"` + "\n" + `enforcement_level = "mandatory"`), `enforcement_level "mandatory" is not valid when kind = "sentinel"; use one\s+of\s+"hard-mandatory",\s+"soft-mandatory",\s+"advisory"`},
		"sentinel level on opa":      {cfg(`name = "p"` + "\n" + `kind = "opa"` + "\n" + `query = "data.x"` + "\n" + `enforcement_level = "soft-mandatory"`), `enforcement_level "soft-mandatory" is not valid when kind = "opa"; use one\s+of\s+"mandatory",\s+"advisory"`},
		"hard-mandatory on opa":      {cfg(`name = "p"` + "\n" + `kind = "opa"` + "\n" + `query = "data.x"` + "\n" + `enforcement_level = "hard-mandatory"`), `not valid when kind = "opa"`},
		"unknown level":              {cfg(`name = "p"` + "\n" + `enforcement_level = "strict"`), `enforcement_level.*value must be one of`},
		"opa without query":          {cfg(`name = "p"` + "\n" + `kind = "opa"`), `query is required when kind = "opa"`},
		"query on sentinel":          {cfg(`name = "p"` + "\n" + `query = "data.x"`), `query is only valid when kind = "opa"`},
		"query that is not Rego":     {cfg(`name = "p"` + "\n" + `kind = "opa"` + "\n" + `query = "data.x["`), `(?s)Invalid Rego query.*must be a Rego query`},
		"unknown kind":               {cfg(`name = "p"` + "\n" + `kind = "python"`), `kind.*value must be one of`},
		"name characters":            {cfg(`name = "no spaces"`), `name.*must contain only letters, numbers, - and _`},
		"empty description":          {cfg(`name = "p"` + "\n" + `description = ""`), `description.*at least 1`},
		"organization characters":    {`resource "tfgov_policy" "test" {` + "\n" + `organization = "a/b"` + "\n" + `name = "p"` + "\n}", `organization.*must contain only letters`},
		"enforcement level, unknown": {cfg(`name = "p"` + "\n" + `kind = "opa"` + "\n" + `query = "data.x"` + "\n" + `enforcement_level = "Mandatory"`), `value must be one of`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      tc.config,
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want),
				}},
			})
			if sb := testAccSandbox(); sb != nil {
				for _, m := range []string{"GET", "POST"} {
					if n := sb.RequestsTo(m, "/api/v2/organizations/"+org+"/policies"); n != 0 {
						t.Errorf("%d %s requests reached the API", n, m)
					}
				}
			}
		})
	}
}

// TestAccPolicyResource_notFound names the permission the token may lack.
func TestAccPolicyResource_notFound(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `resource "tfgov_policy" "test" {
  organization = "` + testAccName("no-such-org") + `"
  name         = "p"
}`,
			ExpectError: regexp.MustCompile(`Organization no-such-org-[0-9a-f]+ not found, or the token may not manage\s+policies`),
		}},
	})
}

// TestAccPolicyResource_importErrors covers import IDs that cannot work.
func TestAccPolicyResource_importErrors(t *testing.T) {
	org := testAccOrganization()
	tests := map[string]struct{ id, want string }{
		"bad form":       {"just-a-name", `want pol-<id> or <organization>/<policy\s+name>`},
		"unknown name":   {org + "/" + testAccName("missing"), `Policy "missing-[0-9a-f]+" in organization ` + org + ` not\s+found,\s+or\s+the\s+token\s+may\s+not\s+manage\s+policies`},
		"empty part":     {org + "/", `no part may be empty`},
		"missing policy": {"pol-doesnotexist0000", `Cannot import non-existent remote object`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:        testAccPolicyConfig("imported", "", "", "", ""),
					ResourceName:  policyAddr,
					ImportState:   true,
					ImportStateId: tc.id,
					ExpectError:   regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// TestPolicyWrittenCheck: a value the API did not take is an error naming
// the attribute, and unknown planned values are not compared.
func TestPolicyWrittenCheck(t *testing.T) {
	t.Parallel()
	base := policyResourceModel{policyModel: policyModel{
		ID: types.StringValue("pol-1"), Organization: types.StringValue("acme"), Name: types.StringValue("p"),
		Kind: types.StringValue("opa"), Query: types.StringValue("data.x"), Description: types.StringNull(),
		EnforcementLevel: types.StringValue("mandatory"),
	}}
	tests := map[string]struct {
		change func(want, got *policyResourceModel)
		attrs  []string
	}{
		"same":             {func(_, _ *policyResourceModel) {}, nil},
		"level ignored":    {func(_, got *policyResourceModel) { got.EnforcementLevel = types.StringValue("advisory") }, []string{"enforcement_level"}},
		"query dropped":    {func(_, got *policyResourceModel) { got.Query = types.StringNull() }, []string{"query"}},
		"description kept": {func(want, _ *policyResourceModel) { want.Description = types.StringValue("new") }, []string{"description"}},
		"two at once": {func(_, got *policyResourceModel) {
			got.Query, got.Name = types.StringValue("data.y"), types.StringValue("q")
		}, []string{"name", "query"}},
		"unknown level not checked": {func(want, got *policyResourceModel) { want.EnforcementLevel = types.StringUnknown() }, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, got := base, base
			tc.change(&want, &got)
			var diags diag.Diagnostics
			checkPolicyWritten(want, got, &diags)
			if len(diags) != len(tc.attrs) {
				t.Fatalf("got %d diagnostics, want %d: %v", len(diags), len(tc.attrs), diags)
			}
			for i, d := range diags {
				if !strings.Contains(d.Detail(), tc.attrs[i]+" was sent as") {
					t.Errorf("diagnostic %d: %q does not name %s", i, d.Detail(), tc.attrs[i])
				}
			}
		})
	}
}

// testAccCheckPolicyOnServer reads the policy at addr through go-tfe.
func testAccCheckPolicyOnServer(t *testing.T, addr string, check func(*tfe.Policy) error) statecheck.StateCheck {
	return stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
		id, err := stateID(s, addr)
		if err != nil {
			return err
		}
		p, err := testAccClient(t).Policies.Read(ctx, id)
		if err != nil {
			return err
		}
		return check(p)
	})
}

// wrappedRE compiles pattern with each space matching any run of
// whitespace, since Terraform wraps diagnostics at any space.
func wrappedRE(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

// TestAccPolicyResource_policySets follows the policy's policy sets, which
// are managed elsewhere: refresh shows a set that includes the policy, and
// that it left.
func TestAccPolicyResource_policySets(t *testing.T) {
	name := testAccName("in-set")
	c := testAccClient(t)
	var set *tfe.PolicySet
	config := testAccPolicyConfig(name, "", "advisory", "", "") + `
data "tfgov_policy" "test" {
  id = tfgov_policy.test.id
}
`
	setIDs := func(ids ...string) knownvalue.Check {
		checks := []knownvalue.Check{}
		for _, id := range ids {
			checks = append(checks, knownvalue.StringExact(id))
		}
		return knownvalue.SetExact(checks)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckPolicyDestroyed(t, name),
		Steps: []resource.TestStep{
			{Config: config},
			// A set made outside Terraform includes the policy.
			{
				PreConfig: func() {
					pol, err := policyClient{c}.findByName(context.Background(), testAccOrganization(), name)
					if err != nil {
						t.Fatal(err)
					}
					set, err = c.PolicySets.Create(context.Background(), testAccOrganization(), tfe.PolicySetCreateOptions{
						Name: tfe.String(testAccName("set")), Policies: []*tfe.Policy{{ID: pol.ID}},
					})
					if err != nil {
						t.Fatalf("creating policy set: %v", err)
					}
					t.Cleanup(func() {
						if err := c.PolicySets.Delete(context.Background(), set.ID); err != nil && !isNotFound(err) {
							t.Errorf("deleting policy set %s: %v", set.ID, err)
						}
					})
				},
				Config:           config,
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionNoop),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("policy_set_ids"), knownvalue.SetSizeExact(1)),
					statecheck.ExpectKnownValue("data.tfgov_policy.test", tfjsonpath.New("policy_set_count"), knownvalue.Int64Exact(1)),
					statecheck.CompareValuePairs(policyAddr, tfjsonpath.New("policy_set_ids"), "data.tfgov_policy.test", tfjsonpath.New("policy_set_ids"), compare.ValuesSame()),
					stateCheckFunc(func(ctx context.Context, s *tfjson.State) error {
						// set.ID is known only once PreConfig has run.
						var resp statecheck.CheckStateResponse
						statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("policy_set_ids"), setIDs(set.ID)).CheckState(ctx, statecheck.CheckStateRequest{State: s}, &resp)
						return resp.Error
					}),
				},
			},
			// An update keeps the sets.
			{
				Config:           strings.Replace(config, `"advisory"`, `"soft-mandatory"`, 1),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionUpdate),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("policy_set_ids"), knownvalue.SetSizeExact(1)),
				},
			},
			// The set drops the policy.
			{
				PreConfig: func() {
					pol, err := policyClient{c}.findByName(context.Background(), testAccOrganization(), name)
					if err != nil {
						t.Fatal(err)
					}
					if err := c.PolicySets.RemovePolicies(context.Background(), set.ID, tfe.PolicySetRemovePoliciesOptions{Policies: []*tfe.Policy{{ID: pol.ID}}}); err != nil {
						t.Fatalf("removing the policy from its set: %v", err)
					}
				},
				Config:           strings.Replace(config, `"advisory"`, `"soft-mandatory"`, 1),
				ConfigPlanChecks: expectAction(policyAddr, plancheck.ResourceActionNoop),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("policy_set_ids"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(policyAddr, tfjsonpath.New("policy_set_ids"), setIDs()),
				},
			},
		},
	})
}
