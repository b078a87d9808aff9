package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	tfe "github.com/hashicorp/go-tfe"
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

// List resources (Terraform 1.14 and later: `list` blocks in .tfquery.hcl
// files, `terraform query`).
//
// Every managed resource type has one. A list reads its parent's list with
// the same function the resources' refresh uses (100 records a page, every
// page: N records cost ceil(N/100) requests), and each result carries the
// resource's identity (identity.go) and a name a person recognises. With
// include_resource the result also holds the whole resource, converted
// from the list's record by the same code as the resource's Read, so
// `terraform query -generate-config-out` writes configuration that plans
// no change. An API error ends the list with that error, never with a
// shorter list; so does a parent that does not exist (a 404).
//
// Two types need a request per object, because the API's list has no such
// field: a policy's code (tfgov_policy_upload: one download per policy
// that has changed since it was created, to learn whether it has code at
// all), and a module version's deprecation (tfgov_module_version_deprecation:
// the module's read lists its versions without their deprecation, so each
// version is read).

var _ provider.ProviderWithListResources = (*tfgovProvider)(nil)

func (p *tfgovProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		func() list.ListResource { return &policyList{listBase{typ: policyType}} },
		func() list.ListResource { return &policyUploadList{listBase{typ: policyUploadType}} },
		func() list.ListResource { return &teamAccessList{listBase{typ: teamAccessType}} },
		func() list.ListResource { return &agentTokenList{listBase{typ: agentTokenType}} },
		func() list.ListResource { return &testVariableListResource{listBase{typ: moduleTestVariableType}} },
		func() list.ListResource { return &testRunList{listBase{typ: moduleTestRunType}} },
		func() list.ListResource { return &deprecationList{listBase{typ: moduleVersionDeprecationType}} },
	}
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
	// identity holds the identity's values in resourceIdentities order.
	identity []string
	display  string
	// fill writes the whole resource into the result's (include_resource),
	// starting from a model whose attributes are all null.
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

// stream answers a List with items (up to the request's limit), or with
// diags when they hold an error.
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

// organization is the list's organization: the configured one, else the
// provider's.
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

// configured reports whether the provider is configured, and says so when
// it is not.
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

// policies lists the policies a policy list's configuration selects, in
// the API's order.
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
		diags.AddError("Error listing policies", policyError("Organization "+org, err))
		return nil
	}
	for _, p := range pols {
		l.data.rememberPolicy(p)
	}
	return pols
}

type policyList struct{ listBase }

func (l *policyList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = policyListSchema("policies")
}

func (l *policyList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	var items []listed
	for _, pol := range l.policies(ctx, req, &diags) {
		items = append(items, listed{
			identity: []string{pol.ID},
			display:  fmt.Sprintf("%s (%s)", pol.Name, pol.Kind),
			fill: fillModel(func(_ context.Context, m *policyResourceModel, _ *diag.Diagnostics) {
				m.set(pol.values())
			}),
		})
	}
	l.stream(ctx, req, resp, items, diags)
}

type policyUploadList struct{ listBase }

func (l *policyUploadList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = policyListSchema("policy code uploads (the policies that have code)")
	resp.Schema.MarkdownDescription += " The policy list does not say which policies have code: every policy changed since its creation " +
		"(`updated-at` set) is downloaded once to find out, and the code found is the resource's `content`."
}

func (l *policyUploadList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	var items []listed
	for _, pol := range l.policies(ctx, req, &diags) {
		if full(req, items) {
			break // no download for a result Terraform would drop
		}
		if pol.UpdatedAt.IsZero() {
			continue // never changed since created: no code uploaded
		}
		// As the Read that follows an import: the code as content.
		sum, content, gone, err := l.data.downloadCode(ctx, pol.ID, types.StringNull(), types.StringUnknown())
		if err != nil {
			diags.AddError("Error listing policy code", err.Error())
			break
		}
		if gone {
			continue
		}
		items = append(items, listed{
			identity: []string{pol.ID},
			display:  fmt.Sprintf("code of %s (%s)", pol.Name, pol.Kind),
			fill: fillModel(func(_ context.Context, m *policyUploadResourceModel, _ *diag.Diagnostics) {
				m.ID, m.PolicyID = types.StringValue(pol.ID), types.StringValue(pol.ID)
				m.ContentSHA256, m.Content = sum, content
			}),
		})
	}
	l.stream(ctx, req, resp, items, diags)
}

// Team access.

type teamAccessList struct{ listBase }

func (l *teamAccessList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the teams' access to a workspace.",
		Attributes: map[string]listschema.Attribute{
			"workspace_id": listschema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the workspace (`ws-<id>`).",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

func (l *teamAccessList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	var wsID types.String
	if diags.Append(req.Config.GetAttribute(ctx, path.Root("workspace_id"), &wsID)...); diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	ws := wsID.ValueString()
	grants, err := l.data.workspaceTeamAccess(ctx, ws)
	switch {
	case err != nil:
		diags.AddError("Error listing team access", fmt.Sprintf("Listing the team access of workspace %s: %s", ws, err))
	case grants.parentMissing:
		diags.AddAttributeError(path.Root("workspace_id"), "Error listing team access", workspaceAccessError(ws, tfe.ErrResourceNotFound))
	}
	var items []listed
	if !diags.HasError() {
		all := sortedByKey(grants.byID)
		names := l.data.teamNames(ctx, ws, all) // the organization's team list
		for _, ta := range all {
			team := ""
			if ta.Team != nil {
				team = firstNonEmpty(names[ta.Team.ID], ta.Team.ID)
			}
			items = append(items, listed{
				identity: []string{ta.ID},
				display:  fmt.Sprintf("team %s: %s access", team, ta.Access),
				fill: fillModel(func(_ context.Context, m *teamAccessResourceModel, _ *diag.Diagnostics) {
					m.WorkspaceID = types.StringValue(ws)
					*m = *teamAccessModel(ta, *m)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}

// sortedByKey returns the records of m in the order of their keys (an ID,
// or a variable's key), for a stable answer.
func sortedByKey[T any](m map[string]T) []T {
	out := make([]T, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

// Agent tokens.

type agentTokenList struct{ listBase }

func (l *agentTokenList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the tokens of an agent pool. The API never returns a token's secret after it is created, so `token` is null in every result.",
		Attributes: map[string]listschema.Attribute{
			"agent_pool_id": listschema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the agent pool (`apool-<id>`).",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

func (l *agentTokenList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	var poolID types.String
	if diags.Append(req.Config.GetAttribute(ctx, path.Root("agent_pool_id"), &poolID)...); diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	pool := poolID.ValueString()
	tokens, err := l.data.agentPoolTokens(ctx, pool)
	switch {
	case err != nil:
		diags.AddError("Error listing agent tokens", fmt.Sprintf("Listing the tokens of agent pool %s: %s", pool, err))
	case tokens.parentMissing:
		diags.AddAttributeError(path.Root("agent_pool_id"), "Error listing agent tokens", agentPoolError(pool, tfe.ErrResourceNotFound))
	}
	var items []listed
	if !diags.HasError() {
		for _, tok := range sortedByKey(tokens.byID) {
			items = append(items, listed{
				identity: []string{pool, tok.ID},
				display:  fmt.Sprintf("%s (created %s)", firstNonEmpty(tok.Description, tok.ID), tok.CreatedAt.UTC().Format(time.RFC3339)),
				fill: fillModel(func(_ context.Context, m *agentTokenResourceModel, _ *diag.Diagnostics) {
					m.ID, m.AgentPoolID = types.StringValue(tok.ID), types.StringValue(pool)
					m.setListed(tok)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}

// Module test variables.

type testVariableListResource struct{ listBase }

func (l *testVariableListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = moduleListSchema("test variables")
	resp.Schema.MarkdownDescription += " The API never returns a sensitive variable's value: its `value` is null, " +
		"which the resource reads as \"leave the value on the service as it is\"."
}

func (l *testVariableListResource) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	mod := l.module(ctx, req, &diags)
	if diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	vars, err := l.data.moduleTestVariables(ctx, mod)
	switch {
	case err != nil:
		diags.AddError("Error listing module test variables", testVariableError(mod, "list the test variables of", err))
	case vars.moduleMissing:
		diags.AddError("Error listing module test variables", testVariableError(mod, "list the test variables of", tfe.ErrResourceNotFound))
	}
	var items []listed
	if !diags.HasError() {
		for _, v := range sortedByKey(vars.byKey) {
			display := v.Key
			if v.Sensitive {
				display += " (sensitive)"
			}
			items = append(items, listed{
				identity: []string{mod.Organization, mod.Name, mod.Provider, v.ID},
				display:  display,
				fill: fillModel(func(_ context.Context, m *moduleTestVariableResourceModel, _ *diag.Diagnostics) {
					m.Organization, m.ModuleName, m.ModuleProvider = types.StringValue(mod.Organization), types.StringValue(mod.Name), types.StringValue(mod.Provider)
					*m = *testVariableModel(v, *m)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}

// Module test runs.

type testRunList struct{ listBase }

func (l *testRunList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = moduleListSchema("test runs (newest first)")
}

func (l *testRunList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	mod := l.module(ctx, req, &diags)
	if diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	runs, err := testRunClient{l.data.client}.list(ctx, mod, nil)
	if err != nil {
		diags.AddError("Error listing module test runs", moduleTestsError(mod, err))
	}
	var items []listed
	for _, rec := range runs {
		outcome := rec.Status
		if rec.TestStatus != nil {
			outcome += ", " + *rec.TestStatus
		}
		items = append(items, listed{
			identity: []string{mod.Organization, mod.Name, mod.Provider, rec.ID},
			display:  fmt.Sprintf("%s (%s, %s)", rec.ID, outcome, rec.CreatedAt.UTC().Format(time.RFC3339)),
			fill: fillModel(func(ctx context.Context, m *moduleTestRunResourceModel, diags *diag.Diagnostics) {
				m.Organization, m.ModuleName, m.ModuleProvider = types.StringValue(mod.Organization), types.StringValue(mod.Name), types.StringValue(mod.Provider)
				// As an import sets them.
				m.WaitForCompletion, m.FailOnTestFailure = types.BoolValue(true), types.BoolValue(true)
				m.apply(ctx, rec, diags)
			}),
		})
	}
	l.stream(ctx, req, resp, items, diags)
}

// Module version deprecations.

type deprecationList struct{ listBase }

func (l *deprecationList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = moduleListSchema("deprecated versions")
	resp.Schema.MarkdownDescription += " The module's read lists its versions without their deprecation, so each version is read once: " +
		"a module of V versions costs 1 + V requests."
}

func (l *deprecationList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	mod := l.module(ctx, req, &diags)
	if diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	m, err := l.data.client.RegistryModules.Read(ctx, mod.id())
	if err != nil {
		diags.AddError("Error listing module version deprecations", fmt.Sprintf("Reading module %s: %s", mod, err))
	}
	var items []listed
	for _, vs := range registryModuleVersions(m) {
		if full(req, items) {
			break // no read for a result Terraform would drop
		}
		ref := moduleVersionRef{Organization: mod.Organization, Name: mod.Name, Provider: mod.Provider, Version: vs}
		info, err := readModuleVersion(ctx, l.data.client, ref)
		if err != nil {
			diags.AddError("Error listing module version deprecations", fmt.Sprintf("Could not read %s: %s", ref.describe(), err))
			break
		}
		if !info.Deprecated {
			continue
		}
		display := "version " + vs + " deprecated"
		if info.Reason != nil && *info.Reason != "" {
			display += ": " + *info.Reason
		}
		items = append(items, listed{
			identity: []string{mod.Organization, mod.Name, mod.Provider, vs},
			display:  display,
			fill: fillModel(func(_ context.Context, m *moduleVersionDeprecationResourceModel, _ *diag.Diagnostics) {
				m.Organization, m.ModuleName, m.ModuleProvider, m.ModuleVersion = types.StringValue(mod.Organization), types.StringValue(mod.Name), types.StringValue(mod.Provider), types.StringValue(vs)
				m.setDeprecation(ref, info)
			}),
		})
	}
	l.stream(ctx, req, resp, items, diags)
}

// registryModuleVersions are the versions a module read lists, newest
// first; none for a nil module.
func registryModuleVersions(m *tfe.RegistryModule) []string {
	if m == nil {
		return nil
	}
	out := make([]string, 0, len(m.VersionStatuses))
	for _, vs := range m.VersionStatuses {
		out = append(out, vs.Version)
	}
	return out
}
