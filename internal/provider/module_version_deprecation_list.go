package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Module version deprecations.

type moduleVersionDeprecationList struct{ listBase }

func (l *moduleVersionDeprecationList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleVersionDeprecationType.listPermissions())
	resp.Schema = moduleListSchema("deprecated versions")
	resp.Schema.MarkdownDescription += " The module's read lists its versions without their deprecation, so each version is read once: " +
		"a module of V versions costs 1 + V requests."
}

func (l *moduleVersionDeprecationList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	mod := l.module(ctx, req, &diags)
	if diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	m, err := l.data.client.RegistryModules.Read(ctx, mod.id())
	if err != nil {
		msg := fmt.Sprintf("Reading module %s: %s", mod, err)
		if isNotFound(err) { // every member of the organization may read it
			msg = fmt.Sprintf("Module %s was not found in the private registry of organization %s, or the API token belongs to no team of it.", mod, mod.Organization)
		}
		diags.AddError("Error listing module version deprecations", msg)
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
