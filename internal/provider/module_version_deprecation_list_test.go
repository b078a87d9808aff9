package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestListResource_moduleVersionDeprecation(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-dep", nil)
	mod := listTestModule(t, c, "list-dep", "1.0.0", "1.1.0", "2.0.0")
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if _, err := deprecateModuleVersion(ctx, c, moduleVersionRef{Organization: mod.Organization, Name: mod.Name, Provider: mod.Provider, Version: v}, tfe.String("Use 2.0.0."), nil); err != nil {
			t.Fatal(err)
		}
	}
	before := sb.Stats()
	res := p.list("tfgov_module_version_deprecation", map[string]string{"module_name": "mod", "module_provider": "aws"}, true, 1000)
	checkResults(t, "module_version_deprecation", res, 2, true)
	for _, r := range res {
		if str(t, r.resource["reason"]) != "Use 2.0.0." || !strings.HasSuffix(r.display, "deprecated: Use 2.0.0.") {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
	// The module read, then each of its 3 versions.
	after := sb.Stats()
	total := 0
	for k, v := range after {
		total += v - before[k]
	}
	if total != 4 {
		t.Errorf("%d requests, want 4 (1 + one per version)", total)
	}
	// With a limit of 1: the module and the newest versions down to the
	// first deprecated one (2.0.0 is not, 1.1.0 is).
	before = sb.Stats()
	checkResults(t, "module_version_deprecation", p.list("tfgov_module_version_deprecation", map[string]string{"module_name": "mod", "module_provider": "aws"}, false, 1), 1, false)
	total = 0
	for k, v := range sb.Stats() {
		total += v - before[k]
	}
	if total != 3 {
		t.Errorf("limit 1: %d requests, want 3", total)
	}
}

func TestAccModuleVersionDeprecationList_query(t *testing.T) {
	m := testAccRegistryModule(t, "1.0.0", "1.1.0")
	mod := moduleRef{Organization: testAccOrganization(), Name: m.Name, Provider: m.Provider}
	testAccQuery(t, queryCase{
		typ: "module_version_deprecation", config: testAccDeprecationConfig("", m.Name, "1.0.0", "Use 1.1.0.", ""),
		filter:   fmt.Sprintf("module_name = %q\n    module_provider = %q", mod.Name, mod.Provider),
		identity: moduleIDOf(mod, "module_version", knownvalue.StringExact("1.0.0")),
		display:  knownvalue.StringExact("version 1.0.0 deprecated: Use 1.1.0."),
		values: map[string]knownvalue.Check{
			"reason": knownvalue.StringExact("Use 1.1.0."), "link": knownvalue.Null(), "module_version_id": knownvalue.NotNull(),
		},
	})
}
