package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var _ datasource.DataSourceWithConfigure = (*moduleVersionDataSource)(nil)

// NewModuleVersionDataSource is the tfgov_module_version data source.
func NewModuleVersionDataSource() datasource.DataSource {
	return &moduleVersionDataSource{dataSourceBase{typ: moduleVersionDataSourceType}}
}

type moduleVersionDataSource struct{ dataSourceBase }

type moduleVersionDataSourceModel struct {
	ID                types.String `tfsdk:"id"`
	Organization      types.String `tfsdk:"organization"`
	ModuleName        types.String `tfsdk:"module_name"`
	ModuleProvider    types.String `tfsdk:"module_provider"`
	ModuleVersion     types.String `tfsdk:"module_version"`
	Status            types.String `tfsdk:"status"`
	Deprecated        types.Bool   `tfsdk:"deprecated"`
	DeprecationReason types.String `tfsdk:"deprecation_reason"`
	DeprecationLink   types.String `tfsdk:"deprecation_link"`
}

func (d *moduleVersionDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleVersionDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "One version of a private registry module and whether it is deprecated, with the reason and link, " +
			"so a configuration can check a version before it pins it (for example in a `check` block).\n\n" + moduleDeprecationBeta,
		Attributes: moduleDataSourceAttributes(map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the module version.",
			},
			"module_version": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The version, such as `1.0.0`.",
				Validators:          []validator.String{semverValidator{}},
			},
			"status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Ingestion status of the version, such as `ok` (published) or `pending` (no archive uploaded yet).",
			},
			"deprecated": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the version is deprecated.",
			},
			"deprecation_reason": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Why the version is deprecated; null when it is not, or when the deprecation gives no reason.",
			},
			"deprecation_link": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "URL with more information about the deprecation; null when it is not deprecated, or when the deprecation gives no link.",
			},
		}),
	}
}

// Read is one request.
func (d *moduleVersionDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg moduleVersionDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ref := moduleVersionRef{Organization: org, Name: cfg.ModuleName.ValueString(), Provider: cfg.ModuleProvider.ValueString(), Version: cfg.ModuleVersion.ValueString()}
	info, err := readModuleVersion(ctx, d.data.client, ref)
	if err != nil {
		msg := fmt.Sprintf("Could not read %s: %s", ref.describe(), err)
		if isNotFound(err) {
			msg = fmt.Sprintf("Could not read %s: %s", ref.describe(), missingModuleVersion(ctx, d.data.client, ref, "the API token may not read it"))
		}
		resp.Diagnostics.AddError("Error reading module version", msg)
		return
	}
	tflog.Debug(ctx, "Read module version", map[string]any{"module": ref.String(), "deprecated": info.Deprecated})
	cfg.ID = types.StringValue(info.ID)
	cfg.Organization = types.StringValue(org)
	cfg.Status = types.StringValue(info.Status)
	cfg.Deprecated = types.BoolValue(info.Deprecated)
	cfg.DeprecationReason = types.StringPointerValue(info.Reason)
	cfg.DeprecationLink = types.StringPointerValue(info.Link)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
