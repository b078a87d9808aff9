package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestResourceTypesDeriveNames checks that each managed resource's type
// name, identity and list resource come from its one resourceType: every
// resource has an identity with attributes and a list resource of the
// same name (but for withoutList), and every identity and list belongs to
// a resource.
func TestResourceTypesDeriveNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := New("test")().(*tfgovProvider)
	// withoutList: resource types that have no list resource, and why.
	withoutList := map[string]string{
		"tfgov_workspace_team_access_exclusive": "it declares a workspace's complete set of teams; the grants themselves are tfgov_team_access's list",
	}
	lists := map[string]bool{}
	for _, f := range p.ListResources(ctx) {
		var meta resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		lists[meta.TypeName] = true
	}
	resources := map[string]bool{}
	for _, f := range p.Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		resources[meta.TypeName] = true
		ri, ok := r.(resource.ResourceWithIdentity)
		if !ok {
			t.Errorf("%s has no identity", meta.TypeName)
			continue
		}
		var id resource.IdentitySchemaResponse
		ri.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &id)
		if len(id.IdentitySchema.Attributes) == 0 {
			t.Errorf("%s: identity schema without attributes", meta.TypeName)
		}
		if !lists[meta.TypeName] && withoutList[meta.TypeName] == "" {
			t.Errorf("%s has no list resource", meta.TypeName)
		}
	}
	for name := range lists {
		if !resources[name] {
			t.Errorf("list resource %s lists no resource type", name)
		}
	}
	for typ := range resourceIdentities {
		if !resources[typ.typeName("tfgov")] {
			t.Errorf("identity of %q, which is no resource type", typ)
		}
	}
}
