package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// moduleVersionDeprecationKit is tfgov_module_version_deprecation's part
// of the cross-type suites (kit_test.go).
type moduleVersionDeprecationKit struct{}

func (moduleVersionDeprecationKit) kitType() resourceType { return moduleVersionDeprecationType }

// idPrefix: none; its objects are named by their parents'.
func (moduleVersionDeprecationKit) idPrefix() string { return "" }

func (moduleVersionDeprecationKit) parents() []*parentKind { return []*parentKind{parentModule} }

// stateBudgetDeprecation is the stated budget (hashicorp/tfe has no such
// type), without the identity (Terraform 1.12+), with the organization's
// and the module's names counted as 10 and 12 characters.
const stateBudgetDeprecation = 300

func (moduleVersionDeprecationKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(moduleVersionDeprecationType, "this",
				arg("module_name", hclString(e.mod().Name)),
				arg("module_provider", hclString(e.mod().Provider)),
				arg("module_version", hclString("1.0.0")),
				arg("reason", hclString("budget")))
		},
		cases: func(stateBudgets, map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_module_version_deprecation.this", "stated", func(statesize.Instance) int { return stateBudgetDeprecation }}}
		},
	})
}

// tfe: hashicorp/tfe has no such resource.
func (moduleVersionDeprecationKit) tfe() string { return "" }

func (moduleVersionDeprecationKit) sandboxArea() string { return "module_deprecation.go" }

func (moduleVersionDeprecationKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{
		"module_version_deprecation": {
			row: "`tfgov_module_version_deprecation`",
			fixtures: func(e *budgetEnv, n int) {
				budgetModule(e)
				id := tfe.RegistryModuleID{Organization: e.org, Name: e.vars["module"], Provider: "aws", Namespace: e.org, RegistryName: tfe.PrivateRegistry}
				for i := range n {
					if _, err := e.client.RegistryModules.CreateVersion(context.Background(), id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(fmt.Sprintf("1.0.%d", i))}); err != nil {
						e.t.Fatal(err)
					}
				}
			},
			config: func(e *budgetEnv, n, v int) string {
				return fmt.Sprintf(`resource "tfgov_module_version_deprecation" "r" {
  for_each        = toset([for i in range(%d) : tostring(i)])
  module_name     = %q
  module_provider = "aws"
  module_version  = "1.0.${each.key}"
  reason          = "reason v%d"
}
output "ids" { value = { for k, r in tfgov_module_version_deprecation.r : k => r.id } }
`, n, e.vars["module"], v)
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_module_version_deprecation.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) {
				ref := moduleVersionRef{Organization: e.org, Name: e.vars["module"], Provider: "aws", Version: "1.0.0"}
				if err := undeprecateModuleVersion(context.Background(), e.client, ref); err != nil {
					e.t.Fatal(err)
				}
			},
			// Each version read; the reverted one again by the plan that creates it (by each walk of an apply).
			reads: refreshReads(routeModuleVersion, true, true, func(op budgetOp, n, _ int) map[string]int {
				switch op {
				case opCreate:
					return map[string]int{routeModuleVersion: 2 * n}
				case opDrift:
					return map[string]int{routeModuleVersion: 1}
				case opUpdate:
					return map[string]int{routeModuleVersion: 2}
				}
				return nil
			}),
			budget: func(op budgetOp, n, _ int) int {
				// The API has no list of a module's deprecations: one read per
				// version. A plan that creates a deprecation reads its version
				// (a missing one is refused at plan, not after a replacement
				// reverted the previous one; a deprecated one, made by someone
				// else, is never taken over), in each walk of an apply.
				return starts(op) + map[budgetOp]int{
					opCreate:  3 * n,
					opPlan:    n,
					opDrift:   n + 1,   // the reverted deprecation plans a create
					opUpdate:  2*n + 1, // read, PATCH; the drift's create reads its version again
					opImport:  n,
					opDestroy: 2 * n, // read, PATCH (revert)
				}[op]
			},
		},
	})
}

func (moduleVersionDeprecationKit) chaos() covered[fleetKit] {
	return exempted[fleetKit](exemptCreatesNothing)
}

func (moduleVersionDeprecationKit) crash() covered[fleetKit] {
	return exempted[fleetKit](exemptCreatesNothing)
}

func (moduleVersionDeprecationKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make:   func() error { return identityDeprecation(f) },
		cfg:    f.modCfg,
		remove: func() error { return undeprecateModuleVersion(f.ctx, f.c, f.ver()) },
	})
}

func (moduleVersionDeprecationKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make:   func() error { return identityDeprecation(f) },
		cfg:    f.modCfg,
		change: map[string]tftypes.Value{"reason": tftypes.NewValue(tftypes.String, "older")},
	})
}

// identityDeprecation deprecates the module parent's version 1.0.0.
func identityDeprecation(f *identityFixtures) error {
	_, err := deprecateModuleVersion(f.ctx, f.c, f.ver(), tfe.String("old"), nil)
	return err
}

func (moduleVersionDeprecationKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			_, err := f.c.RegistryModules.CreateVersion(f.ctx, f.mod.id(), tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")})
			f.must(err)
			_, err = deprecateModuleVersion(f.ctx, f.c, moduleVersionRef{Organization: f.org, Name: "net", Provider: "aws", Version: "1.0.0"}, tfe.String("old"), nil)
			f.must(err)
			return []string{f.org + "/net/aws/1.0.0"}
		},
		missing: func(org, _ string) []importMissingCase {
			return []importMissingCase{{"version deprecation", org + "/net/aws/9.9.9", "9.9.9"}}
		},
	})
}

// generateConfig: version 1.0.0 deprecated (1.1.0 is not).
func (moduleVersionDeprecationKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		m := e.mod()
		ref := moduleVersionRef{Organization: m.Organization, Name: m.Name, Provider: m.Provider, Version: "1.0.0"}
		if _, err := deprecateModuleVersion(e.ctx, e.c, ref, tfe.String("Use 1.1.0."), tfe.String("https://example.com/upgrade")); err != nil {
			e.t.Fatalf("deprecation: %v", err)
		}
		return e.modCfg(), 1
	}})
}
