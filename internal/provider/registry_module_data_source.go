package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*registryModuleDataSource)(nil)

// NewRegistryModuleDataSource is the tfgov_registry_module data source.
func NewRegistryModuleDataSource() datasource.DataSource {
	return &registryModuleDataSource{dataSourceBase{typ: registryModuleDataSourceType}}
}

type registryModuleDataSource struct{ dataSourceBase }

type registryModuleDataSourceModel struct {
	ID                 types.String            `tfsdk:"id"`
	Organization       types.String            `tfsdk:"organization"`
	ModuleName         types.String            `tfsdk:"module_name"`
	ModuleProvider     types.String            `tfsdk:"module_provider"`
	IncludeDeprecation types.Bool              `tfsdk:"include_deprecation"`
	Status             types.String            `tfsdk:"status"`
	LatestVersion      types.String            `tfsdk:"latest_version"`
	Versions           []registryModuleVersion `tfsdk:"versions"`
}

type registryModuleVersion struct {
	Version           types.String `tfsdk:"version"`
	Status            types.String `tfsdk:"status"`
	Error             types.String `tfsdk:"error"`
	Deprecated        types.Bool   `tfsdk:"deprecated"`
	DeprecationReason types.String `tfsdk:"deprecation_reason"`
	DeprecationLink   types.String `tfsdk:"deprecation_link"`
}

func (d *registryModuleDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, registryModuleDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "A private registry module, by name and provider, with its versions and each version's status. " +
			"One request. The module's read does not carry deprecations: with `include_deprecation = true` each version's " +
			"deprecation is read too, one request per version (" + "`tfgov_module_version` reads one). " +
			"A module that matches nothing is an error listing the closest `name/provider` pairs (one more request per 100 modules). " +
			"Publishing modules stays with hashicorp/tfe's `tfe_registry_module`.",
		Attributes: moduleDataSourceAttributes(map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the module (`mod-<id>`)."},
			"include_deprecation": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Read each version's deprecation too (one request per version). Default `false`: `deprecated` and its reason and link are then null (not known).",
			},
			"status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Status of the module, such as `setup_complete` (a version is published) or `pending`.",
			},
			"latest_version": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The highest published (`ok`) version, by semantic version precedence; null when none is published.",
			},
			"versions": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The module's versions, newest first, as the registry lists them.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"version": schema.StringAttribute{Computed: true, MarkdownDescription: "The version, such as `1.1.0`."},
					"status":  schema.StringAttribute{Computed: true, MarkdownDescription: "Ingestion status: `ok` (published), `pending` (no archive uploaded yet), `reg_ingress_failed`, ..."},
					"error":   schema.StringAttribute{Computed: true, MarkdownDescription: "Why ingestion failed; null if it did not."},
					"deprecated": schema.BoolAttribute{
						Computed:            true,
						MarkdownDescription: "Whether the version is deprecated; null unless `include_deprecation` is `true`.",
					},
					"deprecation_reason": schema.StringAttribute{Computed: true, MarkdownDescription: "Why it is deprecated; null when it is not, when the deprecation gives none, or when not read."},
					"deprecation_link":   schema.StringAttribute{Computed: true, MarkdownDescription: "URL with more about the deprecation; null when it is not deprecated, gives none, or was not read."},
				}},
			},
		}),
	}
}

func (d *registryModuleDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg registryModuleDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := moduleRef{Organization: org, Name: cfg.ModuleName.ValueString(), Provider: cfg.ModuleProvider.ValueString()}
	c := d.data.client
	m, err := c.RegistryModules.Read(ctx, ref.id())
	if err != nil {
		if !isNotFound(err) {
			resp.Diagnostics.AddError("Error reading registry module", fmt.Sprintf("Could not read module %s: %s", ref, err))
			return
		}
		have, lerr := moduleNames(ctx, c, org)
		if lerr != nil {
			resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error reading registry module", byNameError("private registry modules", org, lerr))
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("module_name"), "Registry module not found",
			notFoundByName("private registry module", org, []string{ref.Name + "/" + ref.Provider}, have))
		return
	}
	cfg.ID = types.StringValue(m.ID)
	cfg.Organization = types.StringValue(org)
	cfg.Status = types.StringValue(string(m.Status))
	cfg.LatestVersion = types.StringNull()
	var latest *version.Version
	cfg.Versions = make([]registryModuleVersion, 0, len(m.VersionStatuses))
	for _, vs := range m.VersionStatuses {
		v := registryModuleVersion{
			Version: types.StringValue(vs.Version), Status: types.StringValue(string(vs.Status)),
			Error: types.StringNull(), Deprecated: types.BoolNull(), DeprecationReason: types.StringNull(), DeprecationLink: types.StringNull(),
		}
		if vs.Error != "" {
			v.Error = types.StringValue(vs.Error)
		}
		if sv, err := version.NewSemver(vs.Version); err == nil && vs.Status == tfe.RegistryModuleVersionStatusOk && (latest == nil || sv.GreaterThan(latest)) {
			latest = sv
			cfg.LatestVersion = types.StringValue(vs.Version)
		}
		if cfg.IncludeDeprecation.ValueBool() {
			info, err := readModuleVersion(ctx, c, moduleVersionRef{Organization: org, Name: ref.Name, Provider: ref.Provider, Version: vs.Version})
			if err != nil {
				resp.Diagnostics.AddError("Error reading registry module", fmt.Sprintf("Could not read the deprecation of version %s of module %s: %s", vs.Version, ref, err))
				return
			}
			v.Deprecated = types.BoolValue(info.Deprecated)
			v.DeprecationReason, v.DeprecationLink = types.StringPointerValue(info.Reason), types.StringPointerValue(info.Link)
		}
		cfg.Versions = append(cfg.Versions, v)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
