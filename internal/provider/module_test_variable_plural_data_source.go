package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var _ datasource.DataSourceWithConfigure = (*moduleTestVariablesDataSource)(nil)

// NewModuleTestVariablesDataSource is the tfgov_module_test_variables data source.
func NewModuleTestVariablesDataSource() datasource.DataSource {
	return &moduleTestVariablesDataSource{dataSourceBase{typ: moduleTestVariablesDataSourceType}}
}

type moduleTestVariablesDataSource struct{ dataSourceBase }

type moduleTestVariablesDataSourceModel struct {
	moduleDataSourceModel
	ID        types.String                   `tfsdk:"id"`
	Variables []moduleTestVariableEntryModel `tfsdk:"variables"`
}

type moduleTestVariableEntryModel struct {
	ID          types.String `tfsdk:"id"`
	Key         types.String `tfsdk:"key"`
	Value       types.String `tfsdk:"value"`
	Description types.String `tfsdk:"description"`
	Category    types.String `tfsdk:"category"`
	HCL         types.Bool   `tfsdk:"hcl"`
	Sensitive   types.Bool   `tfsdk:"sensitive"`
}

func (d *moduleTestVariablesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestVariablesDataSourceType.permissions())
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every test variable of a private registry module, by key. One request per 100 variables, shared with the refresh of the " +
			"module's `tfgov_module_test_variable` resources in the same run. A sensitive variable's value is never returned: `value` is null for it. " +
			"Useful to adopt the variables with `import` blocks (see the guide *Adopting an existing organization*). " +
			"A module with no test variable is a normal state, not a typo: the module must exist, so an empty list is no error.\n\n" +
			"Module tests need a token of the organization's owners team or of one of its members.",
		Attributes: moduleDataSourceAttributes(map[string]schema.Attribute{
			"id": computed("The module: `<organization>/<module_name>/<module_provider>`."),
			"variables": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The variables, sorted by key.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":          computed("ID of the variable (`var-<id>`)."),
					"key":         computed("Name of the environment variable."),
					"value":       computed("Value of a plain variable; null for a sensitive one (the API never returns it)."),
					"description": computed("Description of the variable (`\"\"` when none)."),
					"category":    computed("Category: always `env`."),
					"hcl":         schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the value is HCL."},
					"sensitive":   schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the variable is sensitive."},
				}},
			},
		}),
	}
}

// Read takes the module's shared list (module_test_variable_api.go).
func (d *moduleTestVariablesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg moduleTestVariablesDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mod := cfg.module(d.data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	l, err := d.data.moduleTestVariables(ctx, mod)
	if err == nil && l.parentMissing {
		resp.Diagnostics.AddAttributeError(path.Root("module_name"), "Error listing module test variables",
			fmt.Sprintf("Module %s was not found, or the API token may not manage its tests "+
				"(module tests need a token of the organization's owners team or of one of its members).", mod))
		return
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("module_name"), "Error listing module test variables", d.data.testVariableError(ctx, mod, "list the test variables of", err))
		return
	}
	cfg.ID = types.StringValue(mod.String())
	cfg.Variables = make([]moduleTestVariableEntryModel, 0, len(l.byID))
	for _, v := range l.byID {
		e := moduleTestVariableEntryModel{
			ID:          types.StringValue(v.ID),
			Key:         types.StringValue(v.Key),
			Value:       types.StringNull(),
			Description: types.StringValue(v.Description),
			Category:    types.StringValue(string(v.Category)),
			HCL:         types.BoolValue(v.HCL),
			Sensitive:   types.BoolValue(v.Sensitive),
		}
		if !v.Sensitive {
			e.Value = types.StringValue(v.Value)
		}
		cfg.Variables = append(cfg.Variables, e)
	}
	slices.SortFunc(cfg.Variables, func(a, b moduleTestVariableEntryModel) int {
		return strings.Compare(a.Key.ValueString(), b.Key.ValueString())
	})
	tflog.Debug(ctx, "Read module test variables", map[string]any{"module": mod.String(), "count": len(cfg.Variables)})
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
