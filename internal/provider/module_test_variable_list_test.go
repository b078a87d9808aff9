package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestListResource_moduleTestVariable(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-tv", nil)
	mod := listTestModule(t, c, "list-tv")
	for i := range listSize {
		if _, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{
			Key: tfe.String(fmt.Sprintf("VAR_%03d", i)), Value: tfe.String(fmt.Sprint(i)), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(i%10 == 0),
		}); err != nil {
			t.Fatal(err)
		}
	}
	listPath := "/api/v2/organizations/list-tv/tests/registry-modules/private/list-tv/mod/aws/vars"
	before := sb.RequestsTo("GET", listPath)
	cfg := map[string]string{"module_name": "mod", "module_provider": "aws"}
	res := p.list("tfgov_module_test_variable", cfg, true, 1000)
	if got := sb.RequestsTo("GET", listPath) - before; got != listPages {
		t.Errorf("listing %d variables took %d requests, want %d (path %s)", listSize, got, listPages, listPath)
	}
	checkResults(t, "module_test_variable", res, listSize, true)
	for _, r := range res {
		sensitive := r.resource["sensitive"]
		var s bool
		if err := sensitive.As(&s); err != nil {
			t.Fatal(err)
		}
		// A sensitive value is never returned: null, which the resource
		// reads as "keep the service's value".
		if s != r.resource["value"].IsNull() || !strings.HasPrefix(r.display, str(t, r.resource["key"])) {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
	// A module that does not exist is an error.
	res = p.list("tfgov_module_test_variable", map[string]string{"module_name": "nope", "module_provider": "aws"}, false, 10)
	if len(res) != 1 || !hasErrors(res[0].diags) {
		t.Fatalf("listing a missing module: %+v, want one error", res)
	}
}

func TestAccModuleTestVariableList_query(t *testing.T) {
	mod := testAccModule(t)
	testAccQuery(t, queryCase{
		typ: "module_test_variable", config: testAccTestVariableConfig(mod, `key = "AWS_REGION"`, `value = "eu-west-1"`),
		filter:   fmt.Sprintf("module_name = %q\n    module_provider = %q", mod.Name, mod.Provider),
		identity: moduleIDOf(mod, "id", idLike("var")),
		display:  knownvalue.StringExact("AWS_REGION"),
		values: map[string]knownvalue.Check{
			"key": knownvalue.StringExact("AWS_REGION"), "value": knownvalue.StringExact("eu-west-1"), "sensitive": knownvalue.Bool(false),
		},
	})
}
