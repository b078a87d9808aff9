package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Module test variables.

type moduleTestVariableList struct{ listBase }

func (l *moduleTestVariableList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestVariableType.listPermissions())
	resp.Schema = moduleListSchema("test variables")
	resp.Schema.MarkdownDescription += " The API never returns a sensitive variable's value: its `value` is null, " +
		"which the resource reads as \"leave the value on the service as it is\"."
}

func (l *moduleTestVariableList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	mod := l.module(ctx, req, &diags)
	if diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	vars, err := l.data.moduleTestVariables(ctx, mod)
	switch {
	case err != nil:
		diags.AddError("Error listing module test variables", l.data.testVariableError(ctx, mod, "list the test variables of", err))
	case vars.parentMissing:
		diags.AddError("Error listing module test variables", l.data.testVariableError(ctx, mod, "list the test variables of", tfe.ErrResourceNotFound))
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
