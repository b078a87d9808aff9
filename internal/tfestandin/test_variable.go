package tfestandin

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// fwProvider is the framework half: the same provider schema as the SDKv2
// half (the mux requires it) and tfe_test_variable.
type fwProvider struct{}

type fwProviderModel struct {
	Hostname      types.String `tfsdk:"hostname"`
	Token         types.String `tfsdk:"token"`
	Organization  types.String `tfsdk:"organization"`
	SSLSkipVerify types.Bool   `tfsdk:"ssl_skip_verify"`
}

func (p *fwProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "tfe"
}

func (p *fwProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"hostname":        pschema.StringAttribute{Optional: true},
		"token":           pschema.StringAttribute{Optional: true, Sensitive: true},
		"organization":    pschema.StringAttribute{Optional: true},
		"ssl_skip_verify": pschema.BoolAttribute{Optional: true},
	}}
}

func (p *fwProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m fwProviderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c, err := newClient(m.Hostname.ValueString(), m.Token.ValueString(), m.Organization.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Configuring the tfe stand-in", err.Error())
		return
	}
	resp.ResourceData = c
}

func (p *fwProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &testVariable{} }}
}

func (p *fwProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// testVariable is tfe_test_variable at schema version 1.
type testVariable struct{ c *client }

type testVariableModel struct {
	ID             types.String `tfsdk:"id"`
	Key            types.String `tfsdk:"key"`
	Value          types.String `tfsdk:"value"`
	ValueWO        types.String `tfsdk:"value_wo"`
	ValueWOVersion types.Int64  `tfsdk:"value_wo_version"`
	ReadableValue  types.String `tfsdk:"readable_value"`
	Category       types.String `tfsdk:"category"`
	Description    types.String `tfsdk:"description"`
	HCL            types.Bool   `tfsdk:"hcl"`
	Sensitive      types.Bool   `tfsdk:"sensitive"`
	Organization   types.String `tfsdk:"organization"`
	ModuleName     types.String `tfsdk:"module_name"`
	ModuleProvider types.String `tfsdk:"module_provider"`
}

func (m *testVariableModel) module() tfe.RegistryModuleID {
	org := m.Organization.ValueString()
	return tfe.RegistryModuleID{Organization: org, Namespace: org, Name: m.ModuleName.ValueString(), Provider: m.ModuleProvider.ValueString(), RegistryName: tfe.PrivateRegistry}
}

// fromAPI stores what v0.79.0 stores: the API's attributes; for a
// sensitive variable the last value set (last); with a write-only value
// (woVersion set), "" in value and readable_value.
func (m *testVariableModel) fromAPI(v *tfe.Variable, last types.String, woVersion types.Int64) {
	m.ID, m.Key = types.StringValue(v.ID), types.StringValue(v.Key)
	m.Value, m.ReadableValue = types.StringValue(v.Value), types.StringValue(v.Value)
	m.Category, m.Description = types.StringValue(string(v.Category)), types.StringValue(v.Description)
	m.HCL, m.Sensitive = types.BoolValue(v.HCL), types.BoolValue(v.Sensitive)
	m.ValueWO, m.ValueWOVersion = types.StringNull(), woVersion
	if v.Sensitive {
		m.Value, m.ReadableValue = last, types.StringNull()
	}
	if !woVersion.IsNull() {
		m.Value, m.ReadableValue = types.StringValue(""), types.StringValue("")
	}
}

func (r *testVariable) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "tfe_test_variable"
}

func (r *testVariable) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: 1,
		Attributes: map[string]schema.Attribute{
			"id":               schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"key":              schema.StringAttribute{Required: true},
			"value":            schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(""), Sensitive: true},
			"value_wo":         schema.StringAttribute{Optional: true, WriteOnly: true, Sensitive: true},
			"value_wo_version": schema.Int64Attribute{Optional: true},
			"category":         schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"description":      schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("")},
			"hcl":              schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false)},
			"sensitive":        schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false)},
			"organization":     schema.StringAttribute{Required: true},
			"module_name":      schema.StringAttribute{Required: true},
			"module_provider":  schema.StringAttribute{Required: true},
			"readable_value":   schema.StringAttribute{Computed: true},
		},
	}
}

func (r *testVariable) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if c, ok := req.ProviderData.(*client); ok {
		r.c = c
	}
}

func (r *testVariable) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, cfg testVariableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	value := plan.Value.ValueStringPointer()
	if !cfg.ValueWO.IsNull() {
		value = cfg.ValueWO.ValueStringPointer()
	}
	v, err := r.c.TestVariables.Create(ctx, plan.module(), tfe.VariableCreateOptions{
		Key: plan.Key.ValueStringPointer(), Value: value, Category: tfe.Category(tfe.CategoryType(plan.Category.ValueString())),
		HCL: plan.HCL.ValueBoolPointer(), Sensitive: plan.Sensitive.ValueBoolPointer(), Description: plan.Description.ValueStringPointer(),
	})
	if err != nil {
		resp.Diagnostics.AddError("Error creating variable", err.Error())
		return
	}
	plan.fromAPI(v, plan.Value, cfg.ValueWOVersion)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *testVariable) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state testVariableModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	v, err := r.c.TestVariables.Read(ctx, state.module(), state.ID.ValueString())
	if notFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading variable", err.Error())
		return
	}
	state.fromAPI(v, state.Value, state.ValueWOVersion)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *testVariable) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, cfg testVariableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := tfe.VariableUpdateOptions{
		Key: plan.Key.ValueStringPointer(), Description: plan.Description.ValueStringPointer(),
		HCL: plan.HCL.ValueBoolPointer(), Sensitive: plan.Sensitive.ValueBoolPointer(),
	}
	switch {
	case !cfg.ValueWO.IsNull() && !plan.ValueWOVersion.Equal(state.ValueWOVersion):
		opts.Value = cfg.ValueWO.ValueStringPointer()
	case plan.ValueWOVersion.IsNull() && !plan.Value.Equal(state.Value):
		opts.Value = plan.Value.ValueStringPointer()
	}
	v, err := r.c.TestVariables.Update(ctx, plan.module(), plan.ID.ValueString(), opts)
	if err != nil {
		resp.Diagnostics.AddError("Error updating variable", fmt.Sprintf("variable %s: %s", plan.ID.ValueString(), err))
		return
	}
	plan.fromAPI(v, plan.Value, cfg.ValueWOVersion)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *testVariable) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state testVariableModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.c.TestVariables.Delete(ctx, state.module(), state.ID.ValueString()); err != nil && !notFound(err) {
		resp.Diagnostics.AddError("Error deleting variable", err.Error())
	}
}
