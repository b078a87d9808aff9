package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// policyUploadKit is tfgov_policy_upload's part of the cross-type suites
// (kit_test.go). Its objects are policies' code: its fleets upload to
// policyKit's policies.
type policyUploadKit struct{}

func (policyUploadKit) kitType() resourceType { return policyUploadType }

func (policyUploadKit) idPrefix() string { return "pol" }

func (policyUploadKit) parents() []*parentKind { return nil }

// stateBudgetPolicyUpload is tfgov_policy_upload's stated budget
// (hashicorp/tfe has no separate upload) with its code from `source`,
// whatever the code's size, with the organization's name counted as 10
// characters and the file's path as 40; 36 of them are its null
// tests_wo and tests_sha256 (testsNulls).
const stateBudgetPolicyUpload = 560

// stateBudget: the code of policyKit's two_ policies, from a file.
func (policyUploadKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			out := ""
			for _, label := range stateLabels {
				out += hclResource(policyUploadType, "two_"+label,
					arg("policy_id", "tfgov_policy.two_"+label+".id"),
					arg("source", hclString(e.files[label])))
			}
			return out
		},
		cases: func(stateBudgets, map[string]string) []stateBudgetCase {
			var cases []stateBudgetCase
			for _, label := range stateLabels {
				cases = append(cases, stateBudgetCase{"tfgov_policy_upload.two_" + label, "stated", func(statesize.Instance) int { return stateBudgetPolicyUpload }})
			}
			return cases
		},
	})
}

// tfe: hashicorp/tfe has no such resource.
func (policyUploadKit) tfe() string { return "" }

func (policyUploadKit) sandboxArea() string { return "policies.go" }

func (policyUploadKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{
		// tfgov_policy and tfgov_policy_upload: the upload reads nothing per
		// policy that the list gave.
		"policy_upload": {
			row: "`tfgov_policy` + `tfgov_policy_upload`",
			config: func(_ *budgetEnv, n, v int) string {
				return fmt.Sprintf(`resource "tfgov_policy" "r" {
  for_each    = toset([for i in range(%d) : tostring(i)])
  name        = "budget-upload-${each.key}"
  description = "policy ${each.key} v%d"
}
resource "tfgov_policy_upload" "r" {
  for_each  = tfgov_policy.r
  policy_id = each.value.id
  content   = "main = rule { true }\n"
}
output "ids" { value = { for k, r in tfgov_policy.r : k => r.id } }
`, n, v)
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_policy.r[each.key]
  id       = each.value
}
import {
  for_each = local.ids
  to       = tfgov_policy_upload.r[each.key]
  id       = each.value
}
`,
			outside:      func(e *budgetEnv) { outsidePolicyCode(e) },
			repair:       uploadRepair(""),
			budget:       uploadBudget(""),
			proofRecheck: true,
			reads:        refreshReads(routePolicies, false, true, driftedCode),
		},
	})
}

func (policyUploadKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count: chaosPolicies,
		config: func(fleetEnv) string {
			return hclResource(policyUploadType, "p",
				arg("count", fmt.Sprint(chaosPolicies)),
				arg("policy_id", "tfgov_policy.p[count.index].id"),
				arg("content", hclString("main = rule { ${count.index} >= 0 }\n")))
		},
		objects: serviceUploadObjects,
	})
}

func (policyUploadKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count: 10,
		config: func(fleetEnv) string {
			return hclResource(policyUploadType, "p",
				arg("count", "10"),
				arg("policy_id", "tfgov_policy.p[count.index].id"),
				arg("content", hclString("main = rule { true }\n")))
		},
		objects: serviceUploadObjects,
	})
}

// serviceUploadObjects are the organization's policies that hold code.
func serviceUploadObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	pols, err := servicePolicies(ctx, c, e.org)
	var out []serviceObject
	for _, p := range pols {
		if code, err := c.Policies.Download(ctx, p.ID); err == nil && len(code) > 0 {
			out = append(out, serviceObject{id: p.ID})
		}
	}
	return out, err
}

func (policyUploadKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make:   func() error { return identityUploadedPolicy(f) },
		cfg:    func() map[string]string { return nil },
		remove: func() error { return f.c.Policies.Delete(f.ctx, f.made[policyUploadType]) },
	})
}

// identityUploadedPolicy is the identity tests' policy with its code uploaded.
func identityUploadedPolicy(f *identityFixtures) error {
	pol, err := f.c.Policies.Create(f.ctx, f.org, tfe.PolicyCreateOptions{Name: tfe.String("uploaded"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		return err
	}
	f.keep(policyUploadType, pol.ID)
	return f.c.Policies.Upload(f.ctx, pol.ID, []byte("main = rule { true }\n"))
}

func (policyUploadKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make: func() error { return identityUploadedPolicy(f) },
		cfg:  func() map[string]string { return nil },
		change: map[string]tftypes.Value{
			"content":        tftypes.NewValue(tftypes.String, "main = rule { false }\n"),
			"content_sha256": tftypes.NewValue(tftypes.String, nil),
		},
	})
}

func (policyUploadKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			pol, err := f.c.Policies.Create(f.ctx, f.org, tfe.PolicyCreateOptions{Name: tfe.String("there-uploaded"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
			f.must(err)
			f.must(f.c.Policies.Upload(f.ctx, pol.ID, []byte(sentinelCode)))
			return []string{pol.ID}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{{"policy upload", "pol-doesnotexist00001", "Policy pol-doesnotexist00001 was not found"}}
		},
	})
}

// generateConfig: policyKit's policy with code.
func (policyUploadKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		return fmt.Sprintf("search = %q", e.prefix), 1
	}})
}
