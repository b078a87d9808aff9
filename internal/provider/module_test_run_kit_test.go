package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// moduleTestRunKit is tfgov_module_test_run's part of the cross-type
// suites (kit_test.go).
type moduleTestRunKit struct{}

func (moduleTestRunKit) kitType() resourceType { return moduleTestRunType }

func (moduleTestRunKit) idPrefix() string { return "trun" }

func (moduleTestRunKit) parents() []*parentKind { return []*parentKind{parentModule} }

// stateBudgetTestRun is the stated budget (hashicorp/tfe has no such
// type), counted as stateBudgetDeprecation is; measured after a refresh,
// it holds the refresh's record of its source directory (code_hash.go, 37
// bytes).
const stateBudgetTestRun = 720

func (moduleTestRunKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(moduleTestRunType, "this",
				arg("module_name", hclString(e.mod().Name)),
				arg("module_provider", hclString(e.mod().Provider)),
				arg("source", hclString(e.moduleDir)),
				arg("wait_for_completion", "false"))
		},
		cases: func(stateBudgets, map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_module_test_run.this", "stated", func(statesize.Instance) int { return stateBudgetTestRun }}}
		},
	})
}

// tfe: hashicorp/tfe has no such resource.
func (moduleTestRunKit) tfe() string { return "" }

func (moduleTestRunKit) sandboxArea() string { return "module_test_runs.go" }

// requestBudgets: a create's requests follow the run's progress (polls).
func (moduleTestRunKit) requestBudgets() covered[map[string]budgetCase] {
	return exemptedFor[map[string]budgetCase]("TestAccModuleTestRunResource_requests")
}

// chaos: runs of the fleet's module, each uploading its configuration.
func (moduleTestRunKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count: chaosTestRuns,
		config: func(e fleetEnv) string {
			return hclResource(moduleTestRunType, "r",
				arg("count", fmt.Sprint(chaosTestRuns)),
				arg("module_name", hclString(e.mod().Name)),
				arg("module_provider", hclString(e.mod().Provider)),
				arg("source", hclString(e.moduleDir)),
				arg("triggers", "{ n = count.index }"))
		},
		objects: func(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
			runs, err := serviceTestRuns(ctx, c, e.mod())
			var out []serviceObject
			for _, r := range runs {
				out = append(out, serviceObject{id: r.ID})
			}
			return out, err
		},
		outlivesDestroy: true,
	})
}

func (moduleTestRunKit) crash() covered[fleetKit] {
	return exempted[fleetKit](exemptCannotDelete)
}

// identityNoPrior: a run cannot be deleted, only its module, made again
// without runs (kits' last: a missing module fails the refresh).
func (moduleTestRunKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make: func() error { return identityTestRun(f) },
		cfg:  f.modCfg,
		remove: func() error {
			if err := f.c.RegistryModules.DeleteProvider(f.ctx, f.mod().id()); err != nil {
				return err
			}
			_, err := f.c.RegistryModules.Create(f.ctx, f.mod().Organization, tfe.RegistryModuleCreateOptions{
				Name: tfe.String(f.mod().Name), Provider: tfe.String(f.mod().Provider), RegistryName: tfe.PrivateRegistry,
			})
			return err
		},
	})
}

func (moduleTestRunKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make:   func() error { return identityTestRun(f) },
		cfg:    f.modCfg,
		change: map[string]tftypes.Value{"wait_for_completion": tftypes.NewValue(tftypes.Bool, false)},
	})
}

// identityTestRun is the identity tests' run of the module's tests (the "pass" configuration).
func identityTestRun(f *identityFixtures) error {
	packed, err := packConfiguration(testModuleDir(f.t, "pass"), true)
	if err != nil {
		return err
	}
	mod := f.mod()
	cv, err := testRunClient{f.c}.uploadConfiguration(f.ctx, mod, packed.archive)
	if err != nil {
		return err
	}
	_, err = f.c.TestRuns.Create(f.ctx, tfe.TestRunCreateOptions{
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
		RegistryModule:       &tfe.RegistryModule{Name: mod.Name, Provider: mod.Provider, Namespace: mod.Organization, RegistryName: tfe.PrivateRegistry, Organization: &tfe.Organization{Name: mod.Organization}},
	})
	return err
}

func (moduleTestRunKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			packed, err := packConfiguration(testModuleDir(f.t, "pass"), true)
			f.must(err)
			cv, err := testRunClient{f.c}.uploadConfiguration(f.ctx, f.mod, packed.archive)
			f.must(err)
			run, err := f.c.TestRuns.Create(f.ctx, tfe.TestRunCreateOptions{
				ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
				RegistryModule: &tfe.RegistryModule{Name: f.mod.Name, Provider: f.mod.Provider, Namespace: f.org, RegistryName: tfe.PrivateRegistry,
					Organization: &tfe.Organization{Name: f.org}},
			})
			f.must(err)
			return []string{f.org + "/net/aws/" + run.ID}
		},
		missing: func(org, _ string) []importMissingCase {
			return []importMissingCase{
				{"test run", org + "/net/aws/trun-typo0000000001", "Test run trun-typo0000000001 of module " + org + "/net/aws was not found"},
				{"test run's module", org + "/none/aws/trun-typo0000000001", "Module " + org + "/none/aws was not found"},
			}
		},
	})
}

// generateConfig: a finished run.
func (moduleTestRunKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		mod := e.mod()
		run := testAccTestRun(e.t, mod, testAccTestConfiguration(e.t, mod, "pass"))
		if _, err := (testRunClient{e.c}).waitFor(e.ctx, mod, run.ID, func(r *testRunRecord) bool { return r.final() }); err != nil {
			e.t.Fatalf("waiting for run %s: %v", run.ID, err)
		}
		return e.modCfg(), 1
	}})
}
