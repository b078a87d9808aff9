package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// moduleTestVariableKit is tfgov_module_test_variable's part of the
// cross-type suites (kit_test.go).
type moduleTestVariableKit struct{}

func (moduleTestVariableKit) kitType() resourceType { return moduleTestVariableType }

func (moduleTestVariableKit) idPrefix() string { return "var" }

func (moduleTestVariableKit) parents() []*parentKind { return []*parentKind{parentModule} }

func (moduleTestVariableKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(moduleTestVariableType, "this",
				arg("module_name", hclString(e.mod().Name)),
				arg("module_provider", hclString(e.mod().Provider)),
				arg("key", hclString("BUDGET_VAR")),
				arg("value", hclString("budget value")))
		},
		cases: func(b stateBudgets, _ map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_module_test_variable.this", "tfe_test_variable + identity", b.tfeTestVariable}}
		},
	})
}

func (moduleTestVariableKit) tfe() string { return "tfe_test_variable" }

func (moduleTestVariableKit) sandboxArea() string { return "module_test_vars.go" }

func (moduleTestVariableKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{
		"module_test_variable": {
			row:      "`tfgov_module_test_variable`",
			fixtures: func(e *budgetEnv, _ int) { budgetModule(e) },
			config: func(e *budgetEnv, n, v int) string {
				return fmt.Sprintf(`resource "tfgov_module_test_variable" "r" {
  for_each        = toset([for i in range(%d) : tostring(i)])
  module_name     = %q
  module_provider = "aws"
  key             = "VAR_${each.key}"
  value           = "value v%d"
  category        = "env"
}
output "ids" { value = { for k, r in tfgov_module_test_variable.r : k => "%s/%s/aws/${r.id}" } }
`, n, e.vars["module"], v, e.org, e.vars["module"])
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_module_test_variable.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) {
				mod := moduleRef{Organization: e.org, Name: e.vars["module"], Provider: "aws"}
				id := e.ids["0"][strings.LastIndex(e.ids["0"], "/")+1:]
				if _, err := e.client.TestVariables.Update(context.Background(), mod.id(), id, tfe.VariableUpdateOptions{Value: tfe.String("changed outside")}); err != nil {
					e.t.Fatal(err)
				}
			},
			reads: refreshReads(routeTestVariables, false, true, nil),
			budget: func(op budgetOp, n, p int) int {
				return starts(op) + map[budgetOp]int{
					opCreate:  n, // POST; nothing is listed before a create (a look-up proves nothing)
					opPlan:    p, // the module's list
					opDrift:   p,
					opUpdate:  p + n,
					opImport:  p, // the module's list, shared by every import
					opDestroy: p + n,
				}[op]
			},
		},
	})
}

func (moduleTestVariableKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count:   chaosVariables,
		config:  func(e fleetEnv) string { return testVariableFleet(e, chaosVariables, "CHAOS") },
		objects: serviceVariableObjects,
	})
}

func (moduleTestVariableKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count:   10,
		config:  func(e fleetEnv) string { return testVariableFleet(e, 10, "CRASH") },
		objects: serviceVariableObjects,
	})
}

// testVariableFleet is n variables of the fleet's module, keyed
// <prefix>_<index>.
func testVariableFleet(e fleetEnv, n int, prefix string) string {
	return hclResource(moduleTestVariableType, "v",
		arg("count", fmt.Sprint(n)),
		arg("module_name", hclString(e.mod().Name)),
		arg("module_provider", hclString(e.mod().Provider)),
		arg("key", hclString(prefix+"_${count.index}")),
		arg("value", hclString("value-${count.index}")))
}

func serviceVariableObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	vars, err := serviceTestVariables(ctx, c, e.mod())
	var out []serviceObject
	for _, v := range vars {
		out = append(out, serviceObject{id: v.ID})
	}
	return out, err
}

func (moduleTestVariableKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make:   func() error { return identityTestVariable(f) },
		cfg:    f.modCfg,
		remove: func() error { return f.c.TestVariables.Delete(f.ctx, f.mod().id(), f.made[moduleTestVariableType]) },
	})
}

func (moduleTestVariableKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make:   func() error { return identityTestVariable(f) },
		cfg:    f.modCfg,
		change: map[string]tftypes.Value{"value": tftypes.NewValue(tftypes.String, "w")},
	})
}

// identityTestVariable is the identity tests' variable of the module's tests.
func identityTestVariable(f *identityFixtures) error {
	v, err := f.c.TestVariables.Create(f.ctx, f.mod().id(), tfe.VariableCreateOptions{Key: tfe.String("K"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)})
	if err == nil {
		f.keep(moduleTestVariableType, v.ID)
	}
	return err
}

func (moduleTestVariableKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			variable, err := f.c.TestVariables.Create(f.ctx, f.mod.id(), tfe.VariableCreateOptions{Key: tfe.String("THERE"), Value: tfe.String("1"), Category: tfe.Category(tfe.CategoryEnv)})
			f.must(err)
			return []string{f.org + "/net/aws/" + variable.ID}
		},
		missing: func(org, _ string) []importMissingCase {
			return []importMissingCase{
				{"test variable", org + "/net/aws/var-typo00000000001", "Module " + org + "/net/aws has no test variable var-typo00000000001"},
				{"test variable's module", org + "/none/aws/var-typo00000000001", "Module " + org + "/none/aws was not found"},
			}
		},
	})
}

// generateConfig: a plain and a sensitive variable.
func (moduleTestVariableKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		mod := e.mod()
		for _, v := range []tfe.VariableCreateOptions{
			{Key: tfe.String("AWS_REGION"), Value: tfe.String("eu-west-1"), Description: tfe.String("Region"), Category: tfe.Category(tfe.CategoryEnv)},
			{Key: tfe.String("API_TOKEN"), Value: tfe.String("hush"), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(true)},
		} {
			if _, err := e.c.TestVariables.Create(e.ctx, mod.id(), v); err != nil {
				e.t.Fatalf("test variable: %v", err)
			}
		}
		return e.modCfg(), 2
	}})
}
