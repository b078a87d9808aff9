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

// Resource identity (Terraform 1.12+): the import ID's parts, kept set after
// every CRUD (DESIGN.md "One registry of types").

type identityAttr struct{ name, description string }

// resourceIdentities: each type's identity attributes in import ID order (registry.go).
var resourceIdentities = registeredIdentities()

// moduleIdentity starts the identity of a module's test variable, test run and deprecation.
func moduleIdentity() []identityAttr {
	return []identityAttr{
		{"organization", "Organization of the module's registry."},
		{"module_name", "Name of the module."},
		{"module_provider", "Provider of the module (its `<provider>` in `terraform-<provider>-<name>`)."},
	}
}

func identitySchemaFor(typ resourceType) identityschema.Schema {
	attrs := map[string]identityschema.Attribute{}
	for _, a := range resourceIdentities[typ] {
		attrs[a.name] = identityschema.StringAttribute{RequiredForImport: true, Description: a.description}
	}
	return identityschema.Schema{Attributes: attrs}
}

// identityImportID is the import ID an import by identity stands for, or req.ID.
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

// syncIdentity (deferred in Create, Read, Update) sets identity from state, or from prior when
// state is null, even after an error; a null or unknown attribute leaves it as it was.
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
