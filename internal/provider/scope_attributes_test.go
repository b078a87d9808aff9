package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// stringAttr is what a string attribute of every schema kind (resource,
// data source, list resource, action) offers.
type stringAttr interface {
	StringValidators() []validator.String
	IsRequired() bool
	IsOptional() bool
	GetMarkdownDescription() string
}

// scopeProbes are values run through each scope attribute's validators:
// every schema must accept and refuse the same ones.
var scopeProbes = []string{"aws", "network", "my-org", "my_org", "Org1", "AWS", "a b", "x.y", "a/b", " "}

// TestScopeAttributesAgree proves that every schema the provider serves
// (resources, data sources, list resources, actions) names an
// organization, a module and a module provider the same way: the same
// values accepted and refused, organization never required and the module
// attributes always required, and the same description.
func TestScopeAttributesAgree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := New("test")().(*tfgovProvider)
	found := map[string]map[string]stringAttr{} // attribute -> schema -> attribute
	add := func(where string, attrs map[string]any) {
		for _, name := range []string{"organization", "module_name", "module_provider"} {
			a, ok := attrs[name]
			if !ok {
				continue
			}
			s, ok := a.(stringAttr)
			if !ok {
				t.Errorf("%s: %s is %T, not a string attribute", where, name, a)
				continue
			}
			if found[name] == nil {
				found[name] = map[string]stringAttr{}
			}
			found[name][where] = s
		}
	}
	for _, f := range p.Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		add("resource "+meta.TypeName, anyValues(resp.Schema.Attributes))
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var meta datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		add("data source "+meta.TypeName, anyValues(resp.Schema.Attributes))
	}
	for _, f := range p.ListResources(ctx) {
		l := f()
		var meta resource.MetadataResponse
		l.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		var resp list.ListResourceSchemaResponse
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &resp)
		add("list "+meta.TypeName, anyValues(resp.Schema.Attributes))
	}
	for _, f := range p.Actions(ctx) {
		a := f()
		var meta action.MetadataResponse
		a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		var resp action.SchemaResponse
		a.Schema(ctx, action.SchemaRequest{}, &resp)
		add("action "+meta.TypeName, anyValues(resp.Schema.Attributes))
	}

	// Each kind of schema that names a module or an organization is here.
	for _, name := range []string{"organization", "module_name", "module_provider"} {
		for _, kind := range []string{"resource ", "data source ", "list ", "action "} {
			seen := false
			for where := range found[name] {
				seen = seen || strings.HasPrefix(where, kind)
			}
			if !seen {
				t.Errorf("no %sschema has %s: the test no longer covers that kind", kind, name)
			}
		}
	}

	for name, bySchema := range found {
		t.Run(name, func(t *testing.T) {
			wheres := make([]string, 0, len(bySchema))
			for w := range bySchema {
				wheres = append(wheres, w)
			}
			sort.Strings(wheres)
			var first, firstVerdict, firstDesc string
			for _, where := range wheres {
				a := bySchema[where]
				verdict := probe(ctx, name, a)
				if first == "" {
					first, firstVerdict = where, verdict
				} else if verdict != firstVerdict {
					t.Errorf("%s %s accepts/refuses\n  %s\nbut %s's\n  %s", where, name, verdict, first, firstVerdict)
				}
				if want := name != "organization"; a.IsRequired() != want {
					t.Errorf("%s: %s required = %v, want %v", where, name, a.IsRequired(), want)
				}
				// The description's first sentence, without what is
				// particular to a resource (replacement) or a data
				// source (policy's organization is for `name`).
				desc, _, _ := strings.Cut(a.GetMarkdownDescription(), ". ")
				desc = strings.TrimSuffix(desc, ".")
				if where == "data source tfgov_policy" {
					continue
				}
				if firstDesc == "" {
					firstDesc = desc
				} else if desc != firstDesc {
					t.Errorf("%s: %s is described %q, elsewhere %q", where, name, desc, firstDesc)
				}
			}
		})
	}
}

// probe runs a's validators over scopeProbes and tells which passed.
func probe(ctx context.Context, name string, a stringAttr) string {
	var b strings.Builder
	for _, v := range scopeProbes {
		ok := true
		for _, val := range a.StringValidators() {
			var resp validator.StringResponse
			val.ValidateString(ctx, validator.StringRequest{Path: path.Root(name), ConfigValue: types.StringValue(v)}, &resp)
			ok = ok && !resp.Diagnostics.HasError()
		}
		fmt.Fprintf(&b, "%q:%v ", v, ok)
	}
	return b.String()
}

// anyValues is m with its values as any: the four kinds of schema keep
// their attributes in maps of four different types.
func anyValues[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
