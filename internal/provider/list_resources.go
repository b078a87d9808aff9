package provider

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// List resources (Terraform 1.14+, `terraform query`): a list reads its parent's list with the
// refresh's own function (ceil(N/100) requests); each result carries the identity, a name a person
// knows and, with include_resource, the resource converted by Read's own code, so
// -generate-config-out plans no change. Any error, a 404 parent too, ends the list: never a shorter
// one. A policy's code and a version's deprecation cost a request per object (not in the API's list).

var _ provider.ProviderWithListResources = (*tfgovProvider)(nil)

func (p *tfgovProvider) ListResources(_ context.Context) []func() list.ListResource {
	return registeredLists()
}

// listBase is what every list resource shares.
type listBase struct {
	data *providerData
	typ  resourceType
}

func (l *listBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.typ.typeName(req.ProviderTypeName)
}

func (l *listBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configureData(req.ProviderData, &resp.Diagnostics)
}

// listed is one object a list found.
type listed struct {
	identity []string // in resourceIdentities order
	display  string
	// fill writes the whole resource (include_resource) from a model of nulls.
	fill func(ctx context.Context, res *tfsdk.Resource) diag.Diagnostics
}

// fillModel returns a listed.fill that sets M's fields with set.
func fillModel[M any](set func(ctx context.Context, m *M, diags *diag.Diagnostics)) func(context.Context, *tfsdk.Resource) diag.Diagnostics {
	return func(ctx context.Context, res *tfsdk.Resource) diag.Diagnostics {
		var diags diag.Diagnostics
		typ, ok := res.Schema.Type().TerraformType(ctx).(tftypes.Object)
		if !ok {
			diags.AddError("Internal error", "the resource schema is not an object")
			return diags
		}
		nulls := make(map[string]tftypes.Value, len(typ.AttributeTypes))
		for k, t := range typ.AttributeTypes {
			nulls[k] = tftypes.NewValue(t, nil)
		}
		res.Raw = tftypes.NewValue(typ, nulls)
		var m M
		if diags.Append(res.Get(ctx, &m)...); diags.HasError() {
			return diags
		}
		if set(ctx, &m, &diags); diags.HasError() {
			return diags
		}
		diags.Append(res.Set(ctx, &m)...)
		return diags
	}
}

// stream answers a List with items up to the limit, or with diags holding an error.
func (l *listBase) stream(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream, items []listed, diags diag.Diagnostics) {
	if diags.HasError() {
		resp.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	tflog.Debug(ctx, "Listed", map[string]any{"type": l.typ, "count": len(items), "limit": req.Limit, "include_resource": req.IncludeResource})
	resp.Results = func(push func(list.ListResult) bool) {
		for i, it := range items {
			if full(req, items[:i]) {
				return
			}
			res := req.NewListResult(ctx)
			res.DisplayName = it.display
			for j, a := range resourceIdentities[l.typ] {
				res.Diagnostics.Append(res.Identity.SetAttribute(ctx, path.Root(a.name), it.identity[j])...)
			}
			if req.IncludeResource && it.fill != nil {
				res.Diagnostics.Append(it.fill(ctx, res.Resource)...)
			}
			if !push(res) {
				return
			}
		}
	}
}

// full reports whether items already hold the request's limit.
func full(req list.ListRequest, items []listed) bool {
	return req.Limit > 0 && int64(len(items)) >= req.Limit
}

// organization is the list's organization, else the provider's.
func (l *listBase) organization(v types.String, diags *diag.Diagnostics) string {
	if org := v.ValueString(); org != "" {
		return org
	}
	if l.data != nil && l.data.organization != "" {
		return l.data.organization
	}
	diags.AddAttributeError(path.Root("organization"), "Missing organization",
		"Set organization in the list block, or the provider's organization (or TFE_ORGANIZATION).")
	return ""
}

// configured reports whether the provider is configured, saying so if not.
func (l *listBase) configured(diags *diag.Diagnostics) bool {
	if l.data == nil {
		diags.AddError("Provider not configured", "The provider was not configured before listing "+string(l.typ)+"; this is a bug in the provider.")
		return false
	}
	return true
}

// List config attributes.

func moduleListSchema(what string) listschema.Schema {
	return listschema.Schema{
		MarkdownDescription: "Lists the " + what + " of a private registry module.",
		Attributes:          moduleListAttributes(),
	}
}

type moduleListConfig struct {
	Organization   types.String `tfsdk:"organization"`
	ModuleName     types.String `tfsdk:"module_name"`
	ModuleProvider types.String `tfsdk:"module_provider"`
}

// module reads the module a module list names.
func (l *listBase) module(ctx context.Context, req list.ListRequest, diags *diag.Diagnostics) moduleRef {
	var cfg moduleListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() {
		return moduleRef{}
	}
	return moduleRef{Organization: l.organization(cfg.Organization, diags), Name: cfg.ModuleName.ValueString(), Provider: cfg.ModuleProvider.ValueString()}
}

// Objects of one parent (an agent pool's tokens, a workspace's grants).

// parentListSchema configures a list of one parent's objects, named by its ID in attr.
func parentListSchema(description, attr, attrDescription string) listschema.Schema {
	return listschema.Schema{
		MarkdownDescription: description,
		Attributes: map[string]listschema.Attribute{
			attr: listschema.StringAttribute{
				Required:            true,
				MarkdownDescription: attrDescription,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

// parentID reads the parent's ID (attr); "" when it cannot (diags say why).
func (l *listBase) parentID(ctx context.Context, req list.ListRequest, attr string, diags *diag.Diagnostics) string {
	var id types.String
	if diags.Append(req.Config.GetAttribute(ctx, path.Root(attr), &id)...); diags.HasError() || !l.configured(diags) {
		return ""
	}
	return id.ValueString()
}

// Policies.

type policyListConfig struct {
	Organization types.String `tfsdk:"organization"`
	Search       types.String `tfsdk:"search"`
	Kind         types.String `tfsdk:"kind"`
}

func policyListSchema(what string) listschema.Schema {
	return listschema.Schema{
		MarkdownDescription: "Lists the " + what + " of an organization, optionally by name and kind.",
		Attributes: map[string]listschema.Attribute{
			"organization": organizationScope.list(),
			"search": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only policies whose name contains this (the API's `search[name]`).",
			},
			"kind": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only policies of this kind: " + backticked(policyKindNames) + ".",
				Validators:          []validator.String{stringvalidator.OneOf(policyKindNames...)},
			},
		},
	}
}

// policies lists the policies a policy list selects, in the API's order.
func (l *listBase) policies(ctx context.Context, req list.ListRequest, diags *diag.Diagnostics) []*policyAPI {
	var cfg policyListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() || !l.configured(diags) {
		return nil
	}
	org := l.organization(cfg.Organization, diags)
	if diags.HasError() {
		return nil
	}
	pols, err := policyClient{l.data.client}.list(ctx, org, cfg.Search.ValueString(), cfg.Kind.ValueString())
	if err != nil {
		diags.AddError("Error listing policies", l.data.organizationPoliciesError(ctx, org, err))
		return nil
	}
	for _, p := range pols {
		l.data.rememberPolicy(p)
	}
	return pols
}

// sortedByKey returns m's records in key order, for a stable answer.
func sortedByKey[T any](m map[string]T) []T {
	out := make([]T, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}
