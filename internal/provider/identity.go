package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Resource identity (Terraform 1.12 and later).
//
// Every managed resource has an identity: the attributes that never change
// for its object, each the state attribute of the same name, declared
// beside the resource (policyIdentityAttrs in policy_resource.go, and so on
// for each type). Joined with "/" in their order they are the resource's
// import ID, so an import by identity runs the same code as an import by
// ID (identityImportID), and the identity carries no more than that ID.
//
// Create, Read and Update set the identity from the state they return
// (syncIdentity, deferred), so it is never missing after any of them: not
// after an update of a resource whose state predates identity (made by
// Terraform 1.11, which has none), and not after a read that finds the
// object deleted outside Terraform, where the identity is taken from the
// prior state. A Terraform without identity support (1.11) sends none and
// ignores the one it gets back: its behaviour is unchanged (the existing
// acceptance tests pass on 1.11).

// identityAttr is one attribute of an identity.
type identityAttr struct{ name, description string }

// resourceIdentities gives each resource type's identity attributes, in
// import ID order (from the registry, registry.go).
var resourceIdentities = registeredIdentities()

// moduleIdentity is the start of the identity of a module's test variable,
// test run and version deprecation.
func moduleIdentity() []identityAttr {
	return []identityAttr{
		{"organization", "Organization of the module's registry."},
		{"module_name", "Name of the module."},
		{"module_provider", "Provider of the module (its `<provider>` in `terraform-<provider>-<name>`)."},
	}
}

// identitySchemaFor is the identity schema of resource type typ.
func identitySchemaFor(typ resourceType) identityschema.Schema {
	attrs := map[string]identityschema.Attribute{}
	for _, a := range resourceIdentities[typ] {
		attrs[a.name] = identityschema.StringAttribute{RequiredForImport: true, Description: a.description}
	}
	return identityschema.Schema{Attributes: attrs}
}

// identityImportID returns the import ID an import by identity stands for,
// or req.ID for an import by ID.
func identityImportID(ctx context.Context, typ resourceType, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	if req.ID != "" || req.Identity == nil {
		return req.ID
	}
	parts := make([]string, 0, len(resourceIdentities[typ]))
	for _, a := range resourceIdentities[typ] {
		var v types.String
		diags.Append(req.Identity.GetAttribute(ctx, path.Root(a.name), &v)...)
		parts = append(parts, v.ValueString())
	}
	return strings.Join(parts, "/")
}

// syncIdentity sets identity from state, or from prior when state is null
// (the object was removed from state), also after an error (a create that
// made the object and then failed saves its state, and its identity with
// it). An attribute that is null or unknown in the state leaves the
// identity as it was. Call it deferred at
// the start of Create, Read and Update.
func syncIdentity(ctx context.Context, typ resourceType, prior, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil {
		return
	}
	src := state
	if src == nil || src.Raw.IsNull() {
		src = prior
	}
	if src == nil || src.Raw.IsNull() {
		return
	}
	vals := map[string]types.String{}
	for _, a := range resourceIdentities[typ] {
		var v types.String
		if d := src.GetAttribute(ctx, path.Root(a.name), &v); d.HasError() || v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
			return
		}
		vals[a.name] = v
	}
	for name, v := range vals {
		diags.Append(identity.SetAttribute(ctx, path.Root(name), v)...)
	}
}
