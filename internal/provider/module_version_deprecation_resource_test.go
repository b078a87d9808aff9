package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

const deprecationAddr = "tfgov_module_version_deprecation.test"

// testAccDeprecationConfig deprecates version of module name/aws; an empty
// reason or link leaves the attribute out. providerBlock is prepended.
func testAccDeprecationConfig(providerBlock, name, version, reason, link string) string {
	var extra strings.Builder
	if reason != "" {
		fmt.Fprintf(&extra, "  reason = %q\n", reason)
	}
	if link != "" {
		fmt.Fprintf(&extra, "  link   = %q\n", link)
	}
	return fmt.Sprintf(`%[1]s
resource "tfgov_module_version_deprecation" "test" {
  module_name     = %[2]q
  module_provider = "aws"
  module_version  = %[3]q
%[4]s}
`, providerBlock, name, version, extra.String())
}

func testAccModuleVersion(m *tfe.RegistryModule, version string) moduleVersionRef {
	return moduleVersionRef{Organization: testAccOrganization(), Name: m.Name, Provider: m.Provider, Version: version}
}

// testAccCheckDeprecation checks on the server that the version is
// deprecated with exactly reason and link ("" for none), or not deprecated
// when deprecated is false.
func testAccCheckDeprecation(t *testing.T, ref moduleVersionRef, deprecated bool, reason, link string) error {
	t.Helper()
	info, err := readModuleVersion(context.Background(), testAccClient(t), ref)
	if err != nil {
		return fmt.Errorf("reading %s: %w", ref.describe(), err)
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	if info.Deprecated != deprecated || str(info.Reason) != reason || str(info.Link) != link {
		return fmt.Errorf("%s on the server: deprecated=%v reason=%q link=%q; want deprecated=%v reason=%q link=%q",
			ref.describe(), info.Deprecated, str(info.Reason), str(info.Link), deprecated, reason, link)
	}
	return nil
}

func checkServer(t *testing.T, ref moduleVersionRef, deprecated bool, reason, link string) stateCheckFunc {
	return func(context.Context, *tfjson.State) error {
		return testAccCheckDeprecation(t, ref, deprecated, reason, link)
	}
}

// testAccCheckNotDeprecated is a CheckDestroy: destroying reverted the
// deprecation of every version named, which still exist.
func testAccCheckNotDeprecated(t *testing.T, refs ...moduleVersionRef) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, ref := range refs {
			if err := testAccCheckDeprecation(t, ref, false, "", ""); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestAccModuleVersionDeprecationResource_basic(t *testing.T) {
	mod := testAccRegistryModule(t, "1.0.0", "1.1.0")
	v100, v110 := testAccModuleVersion(mod, "1.0.0"), testAccModuleVersion(mod, "1.1.0")
	sameVersionID := statecheck.CompareValue(compare.ValuesSame())
	config := func(version, reason, link string) string {
		return testAccDeprecationConfig("", mod.Name, version, reason, link)
	}

	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckNotDeprecated(t, v100, v110),
		Steps: []resource.TestStep{
			// Deprecate.
			{
				Config: config("1.0.0", "Use 1.1.0.", "https://example.com/upgrade"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deprecationAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("id"), knownvalue.StringExact(v100.String())),
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("organization"), knownvalue.StringExact(testAccOrganization())),
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("reason"), knownvalue.StringExact("Use 1.1.0.")),
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("link"), knownvalue.StringExact("https://example.com/upgrade")),
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("module_version_id"), knownvalue.StringRegexp(regexp.MustCompile(`^modver-[A-Za-z0-9]+$`))),
					sameVersionID.AddStateValue(deprecationAddr, tfjsonpath.New("module_version_id")),
					checkServer(t, v100, true, "Use 1.1.0.", "https://example.com/upgrade"),
					checkServer(t, v110, false, "", ""),
				},
			},
			// Import by <organization>/<module_name>/<module_provider>/<module_version> ...
			{
				ResourceName:      deprecationAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			// ... also through an import block, which plans no change.
			{
				ResourceName:    deprecationAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   v100.String(),
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deprecationAddr, plancheck.ResourceActionNoop),
				}},
			},
			// ... and with terraform plan -generate-config-out: clean.
			{ResourceName: deprecationAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: v100.String(), GenerateConfig: true},
			// Change reason and link in place.
			{
				Config: config("1.0.0", "Security fix in 1.1.0.", "https://example.com/advisory"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deprecationAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("reason"), knownvalue.StringExact("Security fix in 1.1.0.")),
					sameVersionID.AddStateValue(deprecationAddr, tfjsonpath.New("module_version_id")),
					checkServer(t, v100, true, "Security fix in 1.1.0.", "https://example.com/advisory"),
				},
			},
			// Drop both: a deprecation without reason or link.
			{
				Config: config("1.0.0", "", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deprecationAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("reason"), knownvalue.Null()),
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("link"), knownvalue.Null()),
					checkServer(t, v100, true, "", ""),
				},
			},
			// Drift: reason and link changed outside Terraform; the plan sets them back.
			{
				PreConfig: func() {
					if _, err := deprecateModuleVersion(context.Background(), testAccClient(t), v100, tfe.String("changed by hand"), tfe.String("https://example.com/other")); err != nil {
						t.Fatalf("changing the deprecation outside Terraform: %v", err)
					}
				},
				Config: config("1.0.0", "", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deprecationAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{checkServer(t, v100, true, "", "")},
			},
			// Drift: the deprecation reverted outside Terraform; the plan deprecates again.
			{
				PreConfig: func() {
					if err := undeprecateModuleVersion(context.Background(), testAccClient(t), v100); err != nil {
						t.Fatalf("reverting the deprecation outside Terraform: %v", err)
					}
				},
				Config: config("1.0.0", "Use 1.1.0.", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deprecationAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{checkServer(t, v100, true, "Use 1.1.0.", "")},
			},
			// Another version: the old one is reverted, the new one deprecated.
			{
				Config: config("1.1.0", "Use 2.x.", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(deprecationAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(deprecationAddr, tfjsonpath.New("id"), knownvalue.StringExact(v110.String())),
					checkServer(t, v100, false, "", ""),
					checkServer(t, v110, true, "Use 2.x.", ""),
				},
			},
			// A version the module lacks is refused at plan, with the
			// versions it has, before 1.1.0's deprecation is reverted.
			{
				Config: config("1.2.0", "Use 2.x.", ""),
				ExpectError: matchWrapped("Module version not found",
					fmt.Sprintf("Module %s/%s/aws has no version 1.2.0; its versions are 1.0.0, 1.1.0.", v110.Organization, mod.Name)),
			},
			{
				PreConfig: func() {
					if err := testAccCheckDeprecation(t, v110, true, "Use 2.x.", ""); err != nil {
						t.Fatalf("after the refused plan: %v", err)
					}
				},
				Config:   config("1.1.0", "Use 2.x.", ""),
				PlanOnly: true,
			},
		},
	})
}

// TestAccModuleVersionDeprecationResource_alreadyDeprecated: a version
// someone else deprecated is refused at plan, and one deprecated between a
// saved plan and its apply at apply: the resource never takes over (nor
// would its destroy revert) a deprecation it did not make; an import
// block adopts it. The scenario machine found the takeover (make
// scenarios STEPS=300 SEED=7, ACTIONS=EditDeprecation,EditVariable,Outside,
// Apply,Plan,SavedPlanApply,RefreshOnly; shrunk: EditDeprecation d0 on
// 1.2.0, SavedPlanApply with "deprecate 1.2.0" by the owner between plan
// and apply: invariant 7).
func TestAccModuleVersionDeprecationResource_alreadyDeprecated(t *testing.T) {
	m := testAccRegistryModule(t, "1.0.0", "1.1.0")
	v100, v110 := testAccModuleVersion(m, "1.0.0"), testAccModuleVersion(m, "1.1.0")
	deprecateOutside := func(ref moduleVersionRef) error {
		_, err := deprecateModuleVersion(context.Background(), testAccClient(t), ref, tfe.String("theirs"), nil)
		return err
	}
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckNotDeprecated(t, v110),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := deprecateOutside(v100); err != nil {
						t.Fatal(err)
					}
				},
				Config:      testAccDeprecationConfig("", m.Name, "1.0.0", "mine", ""),
				ExpectError: regexp.MustCompile(`(?s)Module version already deprecated.*already deprecated\s+\(reason "theirs"\).*import \{`),
			},
			{
				Config: testAccDeprecationConfig("", m.Name, "1.1.0", "mine", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{planCheckFunc(func(context.Context, *tfjson.Plan) error {
					return deprecateOutside(v110) // between the saved plan and its apply
				})}},
				ExpectError: regexp.MustCompile(`Module version already deprecated`),
			},
			// Neither was taken over: both keep the owner's reason. An import adopts one.
			{
				Config: testAccDeprecationConfig("", m.Name, "1.1.0", "mine", "") + `
import {
  to = tfgov_module_version_deprecation.test
  id = "` + v110.String() + `"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{checkServer(t, v100, true, "theirs", ""), checkServer(t, v110, true, "mine", "")},
			},
		},
	})
}

// TestAccModuleVersionDeprecationResource_versionDeleted: a version deleted
// outside Terraform leaves state on refresh, and the plan to deprecate it
// again is refused, saying the module has no such version; destroying then
// has nothing to revert.
func TestAccModuleVersionDeprecationResource_versionDeleted(t *testing.T) {
	mod := testAccRegistryModule(t, "1.0.0")
	ref := testAccModuleVersion(mod, "1.0.0")
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:            testAccDeprecationConfig("", mod.Name, "1.0.0", "old", ""),
				ConfigStateChecks: []statecheck.StateCheck{checkServer(t, ref, true, "old", "")},
			},
			{
				PreConfig: func() {
					id := tfe.RegistryModuleID{Organization: ref.Organization, Namespace: ref.Organization, Name: ref.Name, Provider: ref.Provider, RegistryName: tfe.PrivateRegistry}
					if err := testAccClient(t).RegistryModules.DeleteVersion(context.Background(), id, "1.0.0"); err != nil {
						t.Fatalf("deleting the version outside Terraform: %v", err)
					}
				},
				RefreshState: true,
				ExpectError:  matchWrapped("Module version not found", fmt.Sprintf("Module %s/%s/aws has no versions yet, so version 1.0.0 cannot be deprecated", ref.Organization, ref.Name)),
			},
		},
	})
}

// TestAccModuleVersionDeprecationResource_missingModule names the module
// and the version, and says which is missing: a missing version is refused
// at plan, listing the versions the module has; a missing module is left
// to the apply (it may be published meanwhile), which says so.
func TestAccModuleVersionDeprecationResource_missingModule(t *testing.T) {
	mod := testAccRegistryModule(t, "2.1.0", "3.0.0", "2.0.0")
	missing := "no-such-module-" + randomSuffix()
	org := testAccOrganization()
	tests := map[string]struct {
		name, version string
		planOnly      bool
		want          *regexp.Regexp
	}{
		"module": {missing, "1.0.0", false, matchWrapped(fmt.Sprintf("Could not deprecate version 1.0.0 of module %s/%s/aws: module %s/%s/aws was not found in the private registry of organization %s", org, missing, org, missing, org))},
		"version": {mod.Name, "2.0.9", true, matchWrapped("Module version not found",
			fmt.Sprintf("Module %s/%s/aws has no version 2.0.9; its versions are 2.0.0, 2.1.0, 3.0.0. Fix module_version.", org, mod.Name))},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:      testAccDeprecationConfig("", tc.name, tc.version, "x", ""),
					PlanOnly:    tc.planOnly,
					ExpectError: tc.want,
				}},
			})
		})
	}
}

// TestVersionMissing: the plan's error for a version the module lacks
// lists the versions it has, or says it has none.
func TestVersionMissing(t *testing.T) {
	t.Parallel()
	ref := moduleVersionRef{Organization: "acme", Name: "vpc", Provider: "aws", Version: "1.2.0"}
	for versions, want := range map[string]string{
		"1.0.0, 1.2.0":        "",
		"1.2.0":               "",
		"1.0.0, 1.1.0, 2.0.0": "Module acme/vpc/aws has no version 1.2.0; its versions are 1.0.0, 1.1.0, 2.0.0. Fix module_version.",
		"":                    "Module acme/vpc/aws has no versions yet, so version 1.2.0 cannot be deprecated. Publish it first, or fix module_version.",
		"1.2.0-rc1, 11.2.0":   "Module acme/vpc/aws has no version 1.2.0; its versions are 1.2.0-rc1, 11.2.0. Fix module_version.",
	} {
		if got := versionMissing(ref, versions); got != want {
			t.Errorf("versions %q: %q, want %q", versions, got, want)
		}
	}
}

// TestAccModuleVersionDeprecationResource_importErrors: importing a version
// that is not deprecated, or does not exist, says so (rather than
// Terraform's "non-existent remote object"), with the command and with an
// import block.
func TestAccModuleVersionDeprecationResource_importErrors(t *testing.T) {
	mod := testAccRegistryModule(t, "1.0.0")
	v100 := testAccModuleVersion(mod, "1.0.0")
	missing := testAccModuleVersion(mod, "9.9.9")
	notDeprecated := matchWrapped(fmt.Sprintf("Cannot import module version deprecation %s is not deprecated, so there is no deprecation to import.", v100.describe()))
	notFound := matchWrapped(fmt.Sprintf("Could not import the deprecation of %s: module %s/%s/aws has no version 9.9.9; its versions are 1.0.0.", missing.describe(), testAccOrganization(), mod.Name))
	config := testAccDeprecationConfig("", mod.Name, "1.0.0", "x", "")
	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckNotDeprecated(t, v100),
		Steps: []resource.TestStep{
			{Config: config, ResourceName: deprecationAddr, ImportState: true, ImportStateKind: resource.ImportBlockWithID, ImportStateId: v100.String(), ExpectError: notDeprecated},
			{Config: config, ResourceName: deprecationAddr, ImportState: true, ImportStateId: v100.String(), ExpectError: notDeprecated},
			{Config: config, ResourceName: deprecationAddr, ImportState: true, ImportStateId: missing.String(), ExpectError: notFound},
		},
	})
}

// TestAccModuleVersionDeprecationResource_invalid rejects bad input at plan
// time, before any request (the API would answer 422 for the link).
func TestAccModuleVersionDeprecationResource_invalid(t *testing.T) {
	tests := map[string]struct {
		provider, version, reason, link string
		want                            string
	}{
		"link not a URL":    {"aws", "1.0.0", "x", "see the wiki", `link must be an absolute http:// or\s+https:// URL, got "see the wiki"`},
		"relative link":     {"aws", "1.0.0", "x", "/docs/upgrade", `link must be an absolute http:// or\s+https:// URL`},
		"ftp link":          {"aws", "1.0.0", "x", "ftp://example.com/x", `link must be an absolute http:// or\s+https:// URL`},
		"blank reason":      {"aws", "1.0.0", "   ", "", `reason.*must not be empty or only whitespace`},
		"version":           {"aws", "latest", "", "", `module_version must be a semantic version such as 1.2.3, got\s+"latest"`},
		"provider":          {"AWS", "1.0.0", "", "", `module_provider.*must contain only lower-case letters and\s+digits`},
		"module name chars": {"aws", "1.0.0", "", "", `module_name.*must contain only letters, numbers, - and _`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			module := "network"
			if name == "module name chars" {
				module = "net/work"
			}
			config := strings.Replace(testAccDeprecationConfig("", module, tc.version, tc.reason, tc.link), `"aws"`, fmt.Sprintf("%q", tc.provider), 1)
			accParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config:      config,
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// TestAccModuleVersionDeprecationResource_serverErrors injects the
// reference's 500 and 503 on the sandbox: they are retried (retry_max = 1
// here), and an error that outlasts the retries is reported naming the
// module and the version, with nothing half-done.
func TestAccModuleVersionDeprecationResource_serverErrors(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("fault injection needs the sandbox")
	}
	mod := testAccRegistryModule(t, "1.0.0")
	ref := testAccModuleVersion(mod, "1.0.0")
	patchPath := "/api/v2/" + ref.modulePath() + "/1.0.0"
	readPath := "/api/v2/" + ref.modulePath() + "/version"
	inject := func(method, path string, status, count int) func() {
		return func() {
			if err := sb.InjectFault(sandbox.Fault{Method: method, Path: path, Status: status, Count: count}); err != nil {
				t.Fatal(err)
			}
		}
	}
	config := testAccDeprecationConfig("provider \"tfgov\" {\n  retry_max = 1\n}\n", mod.Name, "1.0.0", "old", "")
	named := func(action string) *regexp.Regexp {
		return matchWrapped(fmt.Sprintf("Could not %s version 1.0.0 of module %s/%s/aws:", action, ref.Organization, ref.Name))
	}
	patches := func(want int) stateCheckFunc {
		return func(context.Context, *tfjson.State) error {
			if n := sb.RequestsTo("PATCH", patchPath); n != want {
				return fmt.Errorf("%d PATCH requests so far, want %d", n, want)
			}
			return nil
		}
	}

	accParallelTest(t, resource.TestCase{
		CheckDestroy: testAccCheckNotDeprecated(t, ref),
		Steps: []resource.TestStep{
			// 503 twice: the request and its one retry fail; reported, nothing deprecated.
			{
				PreConfig:   inject("PATCH", patchPath, 503, 2),
				Config:      config,
				ExpectError: wrappedRE(named("deprecate").String() + `\s+service\s+unavailable`),
			},
			// 500 once: the retry succeeds.
			{
				PreConfig: func() {
					if err := testAccCheckDeprecation(t, ref, false, "", ""); err != nil {
						t.Fatalf("after the failed create: %v", err)
					}
					inject("PATCH", patchPath, 500, 1)()
				},
				Config:            config,
				ConfigStateChecks: []statecheck.StateCheck{patches(4), checkServer(t, ref, true, "old", "")},
			},
			// A refresh that keeps failing is an error naming the version.
			{
				PreConfig:    inject("GET", readPath, 503, 2),
				RefreshState: true,
				ExpectError:  named("read"),
			},
			// So is a revert that keeps failing; the deprecation stays.
			{
				PreConfig:   inject("PATCH", patchPath, 500, 2),
				Config:      config,
				Destroy:     true,
				ExpectError: wrappedRE(named("revert the deprecation of").String() + `\s+internal\s+server\s+error`),
			},
			{
				Config:            config,
				ConfigStateChecks: []statecheck.StateCheck{checkServer(t, ref, true, "old", "")},
			},
		},
	})
}

// planCheckFunc adapts a function to plancheck.PlanCheck.
type planCheckFunc func(ctx context.Context, plan *tfjson.Plan) error

func (f planCheckFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f(ctx, req.Plan)
}

// TestAccModuleVersionDeprecationResource_requests counts the API requests
// of create, refresh and destroy on the sandbox.
func TestAccModuleVersionDeprecationResource_requests(t *testing.T) {
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("request counting needs the sandbox")
	}
	mod := testAccRegistryModule(t, "1.0.0")
	ref := testAccModuleVersion(mod, "1.0.0")
	patchPath := "/api/v2/" + ref.modulePath() + "/1.0.0"
	readPath := "/api/v2/" + ref.modulePath() + "/version"
	type counts struct{ patch, get int }
	now := func() counts { return counts{sb.RequestsTo("PATCH", patchPath), sb.RequestsTo("GET", readPath)} }
	var created, beforeRefresh, refreshed, beforeDestroy, destroyed counts
	config := testAccDeprecationConfig("", mod.Name, "1.0.0", "counted", "https://example.com")

	accParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			n := now()
			destroyed = counts{n.patch - beforeDestroy.patch, n.get - beforeDestroy.get}
			return testAccCheckNotDeprecated(t, ref)(nil)
		},
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{stateCheckFunc(func(context.Context, *tfjson.State) error {
					created = now()
					return nil
				})},
			},
			{
				PreConfig:    func() { beforeRefresh = now() },
				RefreshState: true,
				Check: func(*terraform.State) error {
					n := now()
					refreshed = counts{n.patch - beforeRefresh.patch, n.get - beforeRefresh.get}
					return nil
				},
			},
			// The last thing before the final destroy is this step's
			// post-apply refreshed plan: the baseline for destroy.
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{planCheckFunc(func(context.Context, *tfjson.Plan) error {
					beforeDestroy = now()
					return nil
				})}},
			},
		},
	})
	// The version read by the plan and by the apply's plan: one deprecated meanwhile is refused.
	if created != (counts{patch: 1, get: 2}) {
		t.Errorf("create made %d PATCH and %d GET requests, want 1 PATCH and 2 GET", created.patch, created.get)
	}
	if refreshed != (counts{get: 1}) {
		t.Errorf("refresh made %d PATCH and %d GET requests, want 1 GET only", refreshed.patch, refreshed.get)
	}
	if destroyed.patch != 1 {
		t.Errorf("destroy made %d PATCH requests, want 1", destroyed.patch)
	}
	t.Logf("requests: create %d PATCH + %d GET; refresh %d GET; terraform destroy %d PATCH + %d GET",
		created.patch, created.get, refreshed.get, destroyed.patch, destroyed.get)
}

// TestModuleVersionDeprecationRead_moduleMissing (issue 53, survivor c): a
// refresh whose version read answers 404 with the module missing too cannot
// tell "deleted" from "cannot see" (a token of no team of the organization
// gets the same 404): it fails and state keeps the deprecation. With the
// module visible, its version gone, the deprecation leaves state.
func TestModuleVersionDeprecationRead_moduleMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const org = "dep-module-missing"
	_, c, p := protoSandbox(t, org, nil)
	mod := listTestModule(t, c, org, "1.0.0", "1.1.0")
	typ := "tfgov_module_version_deprecation"
	states := map[string]map[string]tftypes.Value{}
	for _, version := range []string{"1.0.0", "1.1.0"} {
		ver := moduleVersionRef{Organization: org, Name: mod.Name, Provider: mod.Provider, Version: version}
		if _, err := deprecateModuleVersion(ctx, c, ver, tfe.String("old"), nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range p.list(typ, map[string]string{"module_name": mod.Name, "module_provider": mod.Provider}, true, 100) {
		states[str(t, r.resource["module_version"])] = r.resource
	}
	if len(states) != 2 {
		t.Fatalf("listed %d deprecations, want 2", len(states))
	}
	if err := c.RegistryModules.DeleteVersion(ctx, mod.id(), "1.1.0"); err != nil {
		t.Fatal(err)
	}
	resp := p.fresh().readNoIdentity(typ, states["1.1.0"])
	if len(resp.Diagnostics) > 0 || p.decode(p.schema.ResourceSchemas[typ].ValueType(), resp.NewState) != nil {
		t.Errorf("the version deleted, its module visible: diagnostics %s, state %v; want the deprecation gone", diagText(resp.Diagnostics), resp.NewState)
	}
	if err := c.RegistryModules.DeleteProvider(ctx, mod.id()); err != nil {
		t.Fatal(err)
	}
	resp = p.fresh().readNoIdentity(typ, states["1.0.0"])
	if !hasErrors(resp.Diagnostics) || !strings.Contains(diagText(resp.Diagnostics), "module "+mod.String()+" was not found") {
		t.Errorf("the module missing: diagnostics %s; want the refresh to fail naming the module", diagText(resp.Diagnostics))
	}
	if resp.NewState != nil && p.decode(p.schema.ResourceSchemas[typ].ValueType(), resp.NewState) == nil {
		t.Error("the module missing: the deprecation left state")
	}
}
