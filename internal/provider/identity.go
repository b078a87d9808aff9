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
// for its object, each the state attribute of the same name. Joined with
// "/" in the order below they are the resource's import ID, so an import
// by identity runs the same code as an import by ID (identityImportID),
// and the identity carries no more than that ID:
//
//   - tfgov_policy: id (pol-…);
//   - tfgov_policy_upload: policy_id (pol-…);
//   - tfgov_team_access: id (tws-…: the grant's own ID; its workspace and
//     team never change for it either, but the ID alone finds it);
//   - tfgov_agent_token: agent_pool_id, id (apool-…, at-…: the pool spares
//     the lookup an import by token ID makes);
//   - tfgov_module_test_variable: organization, module_name,
//     module_provider, id (var-…);
//   - tfgov_module_test_run: organization, module_name, module_provider, id
//     (trun-…);
//   - tfgov_module_version_deprecation: organization, module_name,
//     module_provider, module_version (a deprecation has no ID of its own);
//   - tfgov_workspace_team_access_exclusive: workspace_id (ws-…).
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

// resourceIdentities lists the identity attributes of each resource type
// (without the provider prefix), in import ID order.
var resourceIdentities = map[resourceType][]identityAttr{
	policyType:       {{"id", "ID of the policy (`pol-<id>`)."}},
	policyUploadType: {{"policy_id", "ID of the policy whose code this is (`pol-<id>`)."}},
	teamAccessType:   {{"id", "ID of the team's access to the workspace (`tws-<id>`)."}},
	agentTokenType: {
		{"agent_pool_id", "ID of the agent pool (`apool-<id>`)."},
		{"id", "ID of the agent token (`at-<id>`)."},
	},
	moduleTestVariableType: append(moduleIdentity(),
		identityAttr{"id", "ID of the test variable (`var-<id>`)."}),
	moduleTestRunType: append(moduleIdentity(),
		identityAttr{"id", "ID of the test run (`trun-<id>`)."}),
	moduleVersionDeprecationType: append(moduleIdentity(),
		identityAttr{"module_version", "The deprecated version of the module."}),
	workspaceTeamAccessExclusiveType: {{"workspace_id", "ID of the workspace (`ws-<id>`)."}},
}

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

var (
	_ resource.ResourceWithIdentity = (*policyResource)(nil)
	_ resource.ResourceWithIdentity = (*policyUploadResource)(nil)
	_ resource.ResourceWithIdentity = (*teamAccessResource)(nil)
	_ resource.ResourceWithIdentity = (*agentTokenResource)(nil)
	_ resource.ResourceWithIdentity = (*moduleTestVariableResource)(nil)
	_ resource.ResourceWithIdentity = (*moduleTestRunResource)(nil)
	_ resource.ResourceWithIdentity = (*moduleVersionDeprecationResource)(nil)
)
