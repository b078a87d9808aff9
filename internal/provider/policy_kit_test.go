package provider

import (
	"context"
	"encoding/json"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// policyKit is tfgov_policy's part of the cross-type suites (kit_test.go).
type policyKit struct{}

func (policyKit) kitType() resourceType { return policyType }

func (policyKit) idPrefix() string { return "pol" }

func (policyKit) parents() []*parentKind { return nil }

// stateBudget: each policy shape at both code sizes: inline code, code
// from content_wo, from source, from an upload (policyUploadKit's), and
// with tests.
func (policyKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			out := ""
			for _, label := range stateLabels {
				base := func(suffix string, more ...hclArg) []hclArg {
					return append([]hclArg{
						arg("name", hclString(e.name+"-"+suffix+"-"+label)),
						arg("description", hclString("budget policy")),
						arg("kind", hclString("opa")),
						arg("query", hclString("data.terraform.policies.tags.deny")),
					}, more...)
				}
				source := arg("source", hclString("${path.module}/policies/"+label+".rego"))
				out += hclResource(policyType, "inline_"+label, base("i", arg("content", "file("+hclString(e.files[label])+")"))...) +
					hclResource(policyType, "lean_"+label, base("l", arg("content_wo", "file("+hclString(e.files[label])+")"))...) +
					hclResource(policyType, "src_"+label, base("s", source)...) +
					hclResource(policyType, "two_"+label, base("u")...) +
					hclResource(policyType, "tested_"+label, base("t", source, arg("tests_wo", `{
    code     = ["package budget_test\n\ntest_ok if { true }\n"]
    examples = [{ input = jsonencode({ plan = {} }), expect = "pass" }]
  }`))...)
			}
			return out
		},
		cases: func(b stateBudgets, codes map[string]string) []stateBudgetCase {
			var cases []stateBudgetCase
			for _, label := range stateLabels {
				code := b.raw(codes[label])
				cases = append(cases,
					stateBudgetCase{"tfgov_policy.inline_" + label, "tfe_policy + longer names + null content_wo and content_sha256 + proof", func(i statesize.Instance) int {
						return b.tfePolicy(i, code) + policyAllowance(i) + leanNulls + proofAllowance
					}},
					stateBudgetCase{"tfgov_policy.lean_" + label, "tfe_policy without code + longer names + the code's SHA-256 + proof, at most a third of tfe_policy's", func(i statesize.Instance) int {
						return min(b.tfePolicy(i, json.RawMessage("null"))+policyAllowance(i)+leanDigest+proofAllowance, b.tfePolicy(i, code)/3+testsNulls)
					}},
					stateBudgetCase{"tfgov_policy.src_" + label, "tfe_policy without code + longer names + the file's path and the code's SHA-256 + proof and the refresh's record of the file, at most a third of tfe_policy's", func(i statesize.Instance) int {
						return min(b.tfePolicy(i, json.RawMessage("null"))+policyAllowance(i)+b.sourceDigest(i)+proofRecordAllowance, b.tfePolicy(i, code)/3+testsNulls)
					}},
					stateBudgetCase{"tfgov_policy.two_" + label, "tfe_policy (with the upload's code) + longer names + null content_wo and content_sha256", func(i statesize.Instance) int {
						return b.tfePolicy(i, code) + policyAllowance(i) + leanNulls
					}},
					stateBudgetCase{"tfgov_policy.tested_" + label, "src_ + the tests' SHA-256 (tests_sha256)", func(i statesize.Instance) int {
						return min(b.tfePolicy(i, json.RawMessage("null"))+policyAllowance(i)+b.sourceDigest(i)+proofRecordAllowance, b.tfePolicy(i, code)/3+testsNulls) + testsDigest
					}},
				)
			}
			return cases
		},
	})
}

func (policyKit) tfe() string { return "tfe_policy" }

func (policyKit) sandboxArea() string { return "policies.go" }

func (policyKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{
		// tfgov_policy without code: a refresh is the organization's list.
		"policy": {
			row: "`tfgov_policy`",
			config: func(_ *budgetEnv, n, v int) string {
				return fmt.Sprintf(`resource "tfgov_policy" "r" {
  for_each    = toset([for i in range(%d) : tostring(i)])
  name        = "budget-${each.key}"
  description = "policy ${each.key} v%d"
}
output "ids" { value = { for k, r in tfgov_policy.r : k => r.id } }
`, n, v)
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_policy.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) { outsidePolicyDescription(e) },
			reads:   refreshReads(routePolicies, false, true, nil),
			budget: func(op budgetOp, n, p int) int {
				return starts(op) + map[budgetOp]int{
					opCreate:  n,     // POST; nothing is listed before a create (a look-up proves nothing)
					opPlan:    p,     // the list
					opDrift:   p,     // the list
					opUpdate:  p + n, // the list, PATCH
					opImport:  p + n, // the provider organization's list (the state has no organization yet); the code, once (a 404 here), as the import cannot know whether the configuration has code
					opDestroy: p + n, // the list, DELETE
				}[op]
			},
		},
		// tfgov_policy with inline code: the code is downloaded only where nothing
		// proves it unchanged (policy_code_proof.go).
		"policy_inline": inlinePolicyCase("inline", "content", "`tfgov_policy` with `content` (Sentinel or OPA)"),
		// tfgov_policy with content_wo: the requests of inline code; state
		// keeps the code's SHA-256 instead of the code.
		"policy_lean": inlinePolicyCase("lean", "content_wo", "`tfgov_policy` with `content_wo`"),
		// An OPA policy with inline code: its update is a PATCH alone too (the
		// issue measured a re-upload and a download on top).
		"policy_inline_opa": {
			row: "`tfgov_policy` with `content` (Sentinel or OPA)",
			config: func(_ *budgetEnv, n, v int) string {
				return fmt.Sprintf(`resource "tfgov_policy" "r" {
  for_each    = toset([for i in range(%d) : tostring(i)])
  name        = "budget-opa-${each.key}"
  kind        = "opa"
  query       = "data.terraform.policies.budget.deny"
  description = "policy ${each.key} v%d"
  content     = "package terraform.policies.budget\n\nimport rego.v1\n\ndeny contains \"no\" if { false }\n"
}
output "ids" { value = { for k, r in tfgov_policy.r : k => r.id } }
`, n, v)
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_policy.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) {
				if err := e.client.Policies.Upload(context.Background(), e.ids["0"], []byte("package terraform.policies.budget\n\ndeny[\"x\"] { true }\n")); err != nil {
					e.t.Fatal(err)
				}
			},
			repair:       inlineRepair(""),
			budget:       inlineBudget(""),
			proofRecheck: true,
			reads:        refreshReads(routePolicies, false, true, driftedCode),
		},
	})
}

func (policyKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count: chaosPolicies,
		config: func(fleetEnv) string {
			return hclResource(policyType, "p",
				arg("count", fmt.Sprint(chaosPolicies)),
				arg("name", hclString("chaos-${count.index}")),
				arg("description", hclString("policy ${count.index}")))
		},
		objects: servicePolicyObjects,
	})
}

func (policyKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count: 10,
		config: func(fleetEnv) string {
			return hclResource(policyType, "p", arg("count", "10"), arg("name", hclString("crash-${count.index}")))
		},
		objects: servicePolicyObjects,
	})
}

// servicePolicyObjects are the organization's policies.
func servicePolicyObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	pols, err := servicePolicies(ctx, c, e.org)
	var out []serviceObject
	for _, p := range pols {
		out = append(out, serviceObject{id: p.ID})
	}
	return out, err
}

// identityNoPrior: the listed policy that is its own (the organization has
// two, the other policyUploadKit's).
func (policyKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make: func() error {
			pol, err := f.c.Policies.Create(f.ctx, f.org, tfe.PolicyCreateOptions{Name: tfe.String("pol"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
			if err == nil {
				f.keep(policyType, pol.ID)
			}
			return err
		},
		cfg:    func() map[string]string { return nil },
		pick:   func(identity map[string]string) bool { return identity["id"] == f.made[policyType] },
		remove: func() error { return f.c.Policies.Delete(f.ctx, f.made[policyType]) },
	})
}

func (policyKit) identityUpdate(*identityFixtures) covered[identityUpdateCase] {
	return exemptedFor[identityUpdateCase]("TestIdentity_protocolUpdateNoPriorIdentity")
}

func (policyKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			pol, err := f.c.Policies.Create(f.ctx, f.org, tfe.PolicyCreateOptions{Name: tfe.String("there"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
			f.must(err)
			return []string{pol.ID, f.org + "/there"}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{{"policy", "pol-doesnotexist00001", "Policy pol-doesnotexist00001 not found"}}
		},
	})
}

// generateConfig: a Sentinel policy with code (which policyUploadKit's
// block finds too) and an OPA one without.
func (policyKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		for _, p := range []struct {
			kind  tfe.PolicyKind
			query *string
			code  string
		}{
			{tfe.Sentinel, nil, sentinelCode},
			{tfe.OPA, tfe.String("data.terraform.policies.tags.deny"), ""},
		} {
			pol, err := e.c.Policies.Create(e.ctx, e.org, tfe.PolicyCreateOptions{Name: tfe.String(e.prefix + "-" + string(p.kind)), Kind: p.kind, Query: p.query, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory), Description: tfe.String("made outside Terraform")})
			if err != nil {
				e.t.Fatalf("policy: %v", err)
			}
			e.t.Cleanup(func() { _ = e.c.Policies.Delete(context.Background(), pol.ID) })
			if p.code != "" {
				if err := e.c.Policies.Upload(e.ctx, pol.ID, []byte(p.code)); err != nil {
					e.t.Fatalf("policy code: %v", err)
				}
			}
		}
		return fmt.Sprintf("search = %q", e.prefix), 2
	}})
}
