package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var (
	_ resource.ResourceWithConfigure   = (*moduleVersionDeprecationResource)(nil)
	_ resource.ResourceWithImportState = (*moduleVersionDeprecationResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*moduleVersionDeprecationResource)(nil)
	_ resource.ResourceWithIdentity    = (*moduleVersionDeprecationResource)(nil)
)

// NewModuleVersionDeprecationResource is the tfgov_module_version_deprecation resource.
func NewModuleVersionDeprecationResource() resource.Resource {
	return &moduleVersionDeprecationResource{resourceBase{typ: moduleVersionDeprecationType}}
}

type moduleVersionDeprecationResource struct{ resourceBase }

// moduleVersionDeprecationIdentityAttrs: the module and the version (a deprecation has no ID).
var moduleVersionDeprecationIdentityAttrs = append(moduleIdentity(), identityAttr{"module_version", "The deprecated version of the module."})

type moduleVersionDeprecationResourceModel struct {
	ID              types.String `tfsdk:"id"`
	Organization    types.String `tfsdk:"organization"`
	ModuleName      types.String `tfsdk:"module_name"`
	ModuleProvider  types.String `tfsdk:"module_provider"`
	ModuleVersion   types.String `tfsdk:"module_version"`
	Reason          types.String `tfsdk:"reason"`
	Link            types.String `tfsdk:"link"`
	ModuleVersionID types.String `tfsdk:"module_version_id"`
}

func (m *moduleVersionDeprecationResourceModel) ref() moduleVersionRef {
	return moduleVersionRef{
		Organization: m.Organization.ValueString(),
		Name:         m.ModuleName.ValueString(),
		Provider:     m.ModuleProvider.ValueString(),
		Version:      m.ModuleVersion.ValueString(),
	}
}

// moduleDeprecationBeta opens every description of the section.
const moduleDeprecationBeta = "~> **Public beta:** module version deprecation is a public beta of HCP Terraform (Plus edition): its API and workflows may change, " +
	"and a change may need a newer release of this provider. Reading a version's deprecation relies on the module version read reporting it; " +
	"if the service stops doing so, the provider reports an error rather than guessing."

func (r *moduleVersionDeprecationResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleVersionDeprecationType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Deprecates one version of a private registry module. While the resource exists, HCP Terraform shows a warning on the module's registry page " +
			"and in the run output of every configuration that uses the version; destroying the resource reverts the deprecation, which removes the warnings.\n\n" +
			"A version that is already deprecated (by someone else, or by a request whose answer was lost) is refused at plan, and at apply when it was deprecated after a saved plan: " +
			"the resource never takes over, nor later reverts, a deprecation it did not make; import it to manage it. " +
			"A version the module does not have is refused at plan, listing the versions it has (the plan reads the version, and the module when the version is not found), so that changing `module_version` to a typo " +
			"never reverts the previous version's deprecation. " +
			"If the deprecation is reverted outside Terraform, the next plan deprecates the version again; if the version is deleted, the resource is removed from state. " +
			"If its module is not found (deleted, or the API token belongs to no team of the organization: the API answers the same to both), " +
			"the refresh fails and keeps the resource, saying how to remove it from state.\n\n" +
			moduleDeprecationBeta,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<organization>/<module_name>/<module_provider>/<module_version>`, the import ID.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"organization":    organizationAttribute(),
			"module_name":     moduleNameAttribute(),
			"module_provider": moduleProviderAttribute(),
			"module_version": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The version to deprecate, such as `1.0.0`. Changing it reverts the deprecation of the old version and deprecates the new one.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{semverValidator{}},
			},
			"reason": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Why the version is deprecated, shown with the warnings (for example `Security fix in 1.1.0; upgrade.`). Omit it for a deprecation without a reason.",
				Validators:          []validator.String{notBlank()},
			},
			"link": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "An absolute `http://` or `https://` URL with more information, such as upgrade notes, shown with the warnings.",
				Validators:          []validator.String{urlValidator{}},
			},
			"module_version_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the module version.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// ModifyPlan checks that a new (or replaced) deprecation's version exists and is not deprecated
// (one read): at apply, a replacement would fail after reverting the previous deprecation. A
// version not found is told apart from the read of the module the refreshes share; a module not
// found is left to the apply (it may be published meanwhile).
func (r *moduleVersionDeprecationResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.data.planOrganization(ctx, req, resp)
	if req.Plan.Raw.IsNull() || r.data == nil || resp.Diagnostics.HasError() {
		return
	}
	var plan moduleVersionDeprecationResourceModel
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !req.State.Raw.IsNull() {
		var state moduleVersionDeprecationResourceModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if state.ref() == plan.ref() {
			return // no create: the refresh read the version
		}
	}
	for _, v := range []types.String{plan.Organization, plan.ModuleName, plan.ModuleProvider, plan.ModuleVersion} {
		if v.IsUnknown() || v.IsNull() {
			return
		}
	}
	ref := plan.ref()
	// Never take over a deprecation this resource did not make: Terraform plans a create again
	// in the apply's walk, so one made between a saved plan and its apply stops it too.
	info, err := readModuleVersion(ctx, r.data.client, ref)
	if err == nil && info.Deprecated {
		resp.Diagnostics.AddAttributeError(path.Root("module_version"), "Module version already deprecated", alreadyDeprecated(ref, info))
	}
	if !isNotFound(err) {
		return // read: the version exists; another error: the apply says why
	}
	mod := moduleRef{Organization: ref.Organization, Name: ref.Name, Provider: ref.Provider}
	seen, err := r.data.moduleSeen(ctx, mod)
	if err != nil || seen.missing {
		return // the apply says why
	}
	if msg := versionMissing(ref, seen.versions); msg != "" {
		resp.Diagnostics.AddAttributeError(path.Root("module_version"), "Module version not found", msg)
	}
}

// Create deprecates the version: one request.
func (r *moduleVersionDeprecationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan moduleVersionDeprecationResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.deprecate(ctx, &plan, "Error deprecating module version", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes from the version's read (one request; no list gives a version's deprecation): a
// version gone (404, its module visible) or no longer deprecated leaves state; a reason or link
// changed outside Terraform is recorded, so the next plan sets it back.
func (r *moduleVersionDeprecationResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state moduleVersionDeprecationResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := state.ref()
	fields := map[string]any{"module": ref.String()}
	info, err := readModuleVersion(ctx, r.data.client, ref)
	// The read that follows an import says what is wrong instead of
	// leaving Terraform's "non-existent remote object".
	if takeImporting(ctx, req, resp) {
		switch {
		case isNotFound(err):
			resp.Diagnostics.AddError("Cannot import module version deprecation", moduleVersionError(ctx, r.data.client, ref, "import the deprecation of", err))
			return
		case err == nil && !info.Deprecated:
			resp.Diagnostics.AddError("Cannot import module version deprecation",
				fmt.Sprintf("%s is not deprecated, so there is no deprecation to import. "+
					"To deprecate it with Terraform, remove the import and apply the tfgov_module_version_deprecation resource: it deprecates the version.", ref.describe()))
			return
		}
	}
	if isNotFound(err) {
		// Every member may read the organization's modules: with the module visible the version is gone
		// (DESIGN.md "Gone or cannot see").
		mod := moduleRef{Organization: ref.Organization, Name: ref.Name, Provider: ref.Provider}
		seen, merr := r.data.moduleSeen(ctx, mod)
		if merr != nil || seen.missing {
			resp.Diagnostics.AddError("Cannot refresh module version deprecation", cannotSee(refreshCheck, "The deprecation of "+ref.describe(), "module "+mod.String(), "versions",
				"to belong to a team of organization "+ref.Organization, seen, merr))
			return
		}
		tflog.Info(ctx, "Module version no longer exists; removing its deprecation from state", fields)
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading module version deprecation", fmt.Sprintf("Could not read %s: %s", ref.describe(), err))
		return
	}
	if !info.Deprecated {
		tflog.Info(ctx, "Module version is no longer deprecated; removing the deprecation from state", fields)
		resp.State.RemoveResource(ctx)
		return
	}
	state.setDeprecation(ref, info)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update sends the new reason and link: one request.
func (r *moduleVersionDeprecationResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan moduleVersionDeprecationResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.deprecate(ctx, &plan, "Error updating module version deprecation", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete reverts the deprecation: one request; a version gone has none left.
func (r *moduleVersionDeprecationResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state moduleVersionDeprecationResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := state.ref()
	err := undeprecateModuleVersion(ctx, r.data.client, ref)
	if isNotFound(err) {
		if why := confirmGone(ctx, writeCheck("Reverting", "reverted"), "The deprecation of "+ref.describe(), permManageRegistry+" and the Plus edition", r.data.locateDeprecation(ref)); why != "" {
			resp.Diagnostics.AddError("Cannot revert module version deprecation", why)
			return
		}
		err = nil
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reverting module version deprecation", moduleVersionError(ctx, r.data.client, ref, "revert the deprecation of", err))
		return
	}
	tflog.Info(ctx, "Reverted module version deprecation", map[string]any{"module": ref.String()})
}

// ImportState takes `<organization>/<module_name>/<module_provider>/<module_version>`.
func (r *moduleVersionDeprecationResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	parts, err := splitImportID(req.ID, 4, "<organization>/<module_name>/<module_provider>/<module_version>")
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error())
		return
	}
	for i, attr := range []string{"organization", "module_name", "module_provider", "module_version"} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), parts[i])...)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	markImporting(ctx, resp)
}

// versionMissing: the plan's error when versions (", "-joined) lack ref's, else "".
func versionMissing(ref moduleVersionRef, versions string) string {
	if slices.Contains(strings.Split(versions, ", "), ref.Version) {
		return ""
	}
	if versions == "" {
		return fmt.Sprintf("Module %s/%s/%s has no versions yet, so version %s cannot be deprecated. Publish it first, or fix module_version.",
			ref.Organization, ref.Name, ref.Provider, ref.Version)
	}
	return fmt.Sprintf("Module %s/%s/%s has no version %s; its versions are %s. Fix module_version.",
		ref.Organization, ref.Name, ref.Provider, ref.Version, versions)
}

// alreadyDeprecated is the plan's error for a new deprecation of a version that has one: someone
// else's, another resource's, or one a lost answer made; nothing the API returns tells them apart.
func alreadyDeprecated(ref moduleVersionRef, info *moduleVersionInfo) string {
	reason := "no reason"
	if info.Reason != nil {
		reason = fmt.Sprintf("reason %q", *info.Reason)
	}
	return fmt.Sprintf("%s is already deprecated (%s), and this resource did not deprecate it: creating it would take that deprecation over, "+
		"and destroying it later would revert a deprecation someone else made. If another resource of this configuration moves off the version "+
		"in the same plan, apply that change first. ", ref.describe(), reason) +
		importAdvice("tfgov_module_version_deprecation", "the deprecation", ref.String())
}

// setDeprecation records the read of deprecated version ref (Read, the list resource).
func (m *moduleVersionDeprecationResourceModel) setDeprecation(ref moduleVersionRef, info *moduleVersionInfo) {
	m.ID = types.StringValue(ref.String())
	m.ModuleVersionID = types.StringValue(info.ID)
	m.Reason = types.StringPointerValue(info.Reason)
	m.Link = types.StringPointerValue(info.Link)
}

// deprecate sends the deprecation in m and records the answer in m.
func (r *moduleVersionDeprecationResource) deprecate(ctx context.Context, m *moduleVersionDeprecationResourceModel, summary string, diags *diag.Diagnostics) {
	ref := m.ref()
	tflog.Debug(ctx, "Deprecating module version", map[string]any{"module": ref.String(), "has_reason": !m.Reason.IsNull(), "link": m.Link.ValueString()})
	info, err := deprecateModuleVersion(ctx, r.data.client, ref, m.Reason.ValueStringPointer(), m.Link.ValueStringPointer())
	if err != nil {
		diags.AddError(summary, moduleVersionError(ctx, r.data.client, ref, "deprecate", err))
		return
	}
	m.ID = types.StringValue(ref.String())
	m.ModuleVersionID = types.StringValue(info.ID)
	tflog.Info(ctx, "Deprecated module version", map[string]any{"module": ref.String(), "module_version_id": info.ID})
}

// moduleVersionError explains a failed call on a module version; a 404 (a missing module or
// version, or no permission alike) costs one read to say which (missingModuleVersion).
func moduleVersionError(ctx context.Context, c *tfe.Client, m moduleVersionRef, action string, err error) string {
	if isNotFound(err) {
		return fmt.Sprintf("Could not %s %s: %s", action, m.describe(),
			missingModuleVersion(ctx, c, m, "the API token may not manage the private registry (it needs the organization's \"Manage private registry\" permission); deprecation also needs the Plus edition"))
	}
	return fmt.Sprintf("Could not %s %s: %s", action, m.describe(), err)
}

// missingModuleVersion reads the module (any member may) to say why a version answered 404: no
// module, no such version (listing those it has), or the version exists and denied is why.
func missingModuleVersion(ctx context.Context, c *tfe.Client, m moduleVersionRef, denied string) string {
	mod, err := c.RegistryModules.Read(ctx, tfe.RegistryModuleID{
		Organization: m.Organization, Name: m.Name, Provider: m.Provider, Namespace: m.Organization, RegistryName: tfe.PrivateRegistry})
	switch {
	case isNotFound(err):
		return fmt.Sprintf("module %s/%s/%s was not found in the private registry of organization %s, or the API token belongs to no team of that organization.",
			m.Organization, m.Name, m.Provider, m.Organization)
	case err != nil:
		return fmt.Sprintf("the module or the version was not found, or %s (reading the module to tell which failed: %s).", denied, err)
	}
	var versions []string
	for _, v := range mod.VersionStatuses {
		if v.Version == m.Version {
			return fmt.Sprintf("the version exists, so %s.", denied)
		}
		versions = append(versions, v.Version)
	}
	if len(versions) == 0 {
		return fmt.Sprintf("module %s/%s/%s has no versions yet.", m.Organization, m.Name, m.Provider)
	}
	sortVersions(versions)
	return fmt.Sprintf("module %s/%s/%s has no version %s; its versions are %s.", m.Organization, m.Name, m.Provider, m.Version, strings.Join(versions, ", "))
}

// locateDeprecation is the refresh of ref's deprecation after a write's 404 (Read's reads, the
// module's made afresh): a version not deprecated, or gone with its module visible, has none.
func (d *providerData) locateDeprecation(ref moduleVersionRef) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		mod := moduleRef{Organization: ref.Organization, Name: ref.Name, Provider: ref.Provider}
		d.lists.parents.invalidate("module:" + mod.String())
		info, err := readModuleVersion(ctx, d.client, ref)
		switch {
		case err == nil:
			return info.Deprecated, ""
		case !isNotFound(err):
			return false, fmt.Sprintf("The deprecation of %s cannot be %s: reading the version to tell whether it is still deprecated failed: %s. State keeps it.", ref.describe(), check.done, err)
		}
		if seen, merr := d.moduleSeen(ctx, mod); merr != nil || seen.missing {
			return false, cannotSee(check, "The deprecation of "+ref.describe(), "module "+mod.String(), "versions", "to belong to a team of organization "+ref.Organization, seen, merr)
		}
		return false, ""
	}
}
