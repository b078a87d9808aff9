package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// policySetParameterKit is tfgov_policy_set_parameter's part of the cross-type suites (kit_test.go).
type policySetParameterKit struct{}

func (policySetParameterKit) kitType() resourceType { return policySetParameterType }

func (policySetParameterKit) idPrefix() string { return "var" }

func (policySetParameterKit) parents() []*parentKind { return []*parentKind{parentPolicySet} }

func (policySetParameterKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(policySetParameterType, "this",
				arg("policy_set_id", hclString(e.id(parentPolicySet))),
				arg("key", hclString("region")),
				arg("value", hclString("eu-west-1")))
		},
		cases: func(b stateBudgets, _ map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_policy_set_parameter.this", "tfe_policy_set_parameter + readable_value, value_wo_version, organization + identity", b.tfePolicySetParameter}}
		},
	})
}

func (policySetParameterKit) tfe() string { return "tfe_policy_set_parameter" }

func (policySetParameterKit) sandboxArea() string { return "policy_set_parameters.go" }

const (
	routeParameters = "GET /api/v2/policy-sets/{id}/parameters"
	routePolicySet  = "GET /api/v2/policy-sets/{id}"
)

// budgetPolicySet makes the budget case's policy set (e.vars["set"]).
func budgetPolicySet(e *budgetEnv) {
	ps, err := e.client.PolicySets.Create(context.Background(), e.org, tfe.PolicySetCreateOptions{Name: tfe.String("budget-params")})
	if err != nil {
		e.t.Fatal(err)
	}
	e.vars["set"] = ps.ID
}

func (policySetParameterKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{
		"policy_set_parameter": {
			row:      "`tfgov_policy_set_parameter`",
			fixtures: func(e *budgetEnv, _ int) { budgetPolicySet(e) },
			config: func(e *budgetEnv, n, v int) string {
				return fmt.Sprintf(`resource "tfgov_policy_set_parameter" "r" {
  for_each      = toset([for i in range(%d) : tostring(i)])
  policy_set_id = %q
  key           = "param_${each.key}"
  value         = "value v%d"
}
output "ids" { value = { for k, r in tfgov_policy_set_parameter.r : k => "%s/${r.id}" } }
`, n, e.vars["set"], v, e.vars["set"])
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_policy_set_parameter.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) {
				id := e.ids["0"][strings.LastIndex(e.ids["0"], "/")+1:]
				if _, err := e.client.PolicySetParameters.Update(context.Background(), e.vars["set"], id, tfe.PolicySetParameterUpdateOptions{Value: tfe.String("changed outside")}); err != nil {
					e.t.Fatal(err)
				}
			},
			// A create's plan reads the set (does it take parameters?) once per graph walk: Terraform
			// plans again in the apply's; an import's refresh reads it once (its organization).
			reads: refreshReads(routeParameters, false, true, func(op budgetOp, _, _ int) map[string]int {
				switch op {
				case opCreate:
					return map[string]int{routePolicySet: 2}
				case opImport:
					return map[string]int{routePolicySet: 1}
				}
				return nil
			}),
			budget: func(op budgetOp, n, p int) int {
				return starts(op) + map[budgetOp]int{
					opCreate:  2 + n, // the set's read, shared, in each walk; a POST each; nothing listed before a create
					opPlan:    p,     // the set's parameter list
					opDrift:   p,
					opUpdate:  p + n,
					opImport:  p + 1, // the list, shared by every import, and the set's read for the organization
					opDestroy: p + n,
				}[op]
			},
		},
	})
}

func (policySetParameterKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count:   chaosVariables,
		config:  func(e fleetEnv) string { return parameterFleet(e, chaosVariables, "chaos") },
		objects: serviceParameterObjects,
	})
}

func (policySetParameterKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count:   10,
		config:  func(e fleetEnv) string { return parameterFleet(e, 10, "crash") },
		objects: serviceParameterObjects,
	})
}

// parameterFleet is n parameters of the fleet's policy set, keyed <prefix>_<index>.
func parameterFleet(e fleetEnv, n int, prefix string) string {
	return hclResource(policySetParameterType, "p",
		arg("count", fmt.Sprint(n)),
		arg("policy_set_id", hclString(e.id(parentPolicySet))),
		arg("key", hclString(prefix+"_${count.index}")),
		arg("value", hclString("value-${count.index}")))
}

func serviceParameterObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	l, err := listPolicySetParameters(ctx, c, e.id(parentPolicySet))
	if err != nil {
		return nil, err
	}
	var out []serviceObject
	for _, v := range sortedByKey(l.byID) {
		out = append(out, serviceObject{id: v.ID})
	}
	return out, nil
}

func (policySetParameterKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make: func() error { return identityParameter(f) },
		cfg:  func() map[string]string { return map[string]string{"policy_set_id": f.id(parentPolicySet)} },
		remove: func() error {
			return f.c.PolicySetParameters.Delete(f.ctx, f.id(parentPolicySet), f.made[policySetParameterType])
		},
	})
}

func (policySetParameterKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make:   func() error { return identityParameter(f) },
		cfg:    func() map[string]string { return map[string]string{"policy_set_id": f.id(parentPolicySet)} },
		change: map[string]tftypes.Value{"value": tftypes.NewValue(tftypes.String, "w")},
	})
}

// identityParameter is the identity tests' parameter of the set.
func identityParameter(f *identityFixtures) error {
	p, err := f.c.PolicySetParameters.Create(f.ctx, f.id(parentPolicySet), tfe.PolicySetParameterCreateOptions{Key: tfe.String("region"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryPolicySet)})
	if err == nil {
		f.keep(policySetParameterType, p.ID)
	}
	return err
}

// importMissingSet is the set existing made, which missing's first case names.
var importMissingSet string

func (policySetParameterKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			ps, err := f.c.PolicySets.Create(f.ctx, f.org, tfe.PolicySetCreateOptions{Name: tfe.String("import-params")})
			f.must(err)
			p, err := f.c.PolicySetParameters.Create(f.ctx, ps.ID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("there"), Value: tfe.String("1"), Category: tfe.Category(tfe.CategoryPolicySet)})
			f.must(err)
			importMissingSet = ps.ID
			return []string{ps.ID + "/" + p.ID, p.ID, f.org + "/import-params/there"}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{
				{"parameter", importMissingSet + "/var-typo00000000001", "Policy set " + importMissingSet + " has no parameter var-typo00000000001"},
				{"parameter's set", "polset-typo00000000001/var-typo00000000001", "Could not import parameter var-typo00000000001 of policy set polset-typo00000000001: the set was not found"},
			}
		},
	})
}

// generateConfig: a plain and a sensitive parameter.
func (policySetParameterKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		ps, err := e.c.PolicySets.Create(e.ctx, e.org, tfe.PolicySetCreateOptions{Name: tfe.String(e.prefix + "-params")})
		if err != nil {
			e.t.Fatalf("policy set: %v", err)
		}
		e.t.Cleanup(func() { cleanupErr(e.t, "policy set "+ps.ID, e.c.PolicySets.Delete(e.ctx, ps.ID)) })
		for _, p := range []tfe.PolicySetParameterCreateOptions{
			{Key: tfe.String("region"), Value: tfe.String("eu-west-1"), Category: tfe.Category(tfe.CategoryPolicySet)},
			{Key: tfe.String("token"), Value: tfe.String("hush"), Category: tfe.Category(tfe.CategoryPolicySet), Sensitive: tfe.Bool(true)},
		} {
			if _, err := e.c.PolicySetParameters.Create(e.ctx, ps.ID, p); err != nil {
				e.t.Fatalf("parameter: %v", err)
			}
		}
		return fmt.Sprintf("policy_set_id = %q", ps.ID), 2
	}})
}

// parentPolicySet is a policy set with no policies or scope: the parent of parameters (and, in
// the identity tests, policySetKit's object).
var parentPolicySet = &parentKind{
	name: "policy set", prefix: "params",
	make: func(ctx context.Context, c *tfe.Client, org, name string) (string, error) {
		ps, err := c.PolicySets.Create(ctx, org, tfe.PolicySetCreateOptions{Name: tfe.String(name)})
		return idOf(ps, err, func(ps *tfe.PolicySet) string { return ps.ID })
	},
	remove: func(ctx context.Context, c *tfe.Client, _, id string) error { return c.PolicySets.Delete(ctx, id) },
}
