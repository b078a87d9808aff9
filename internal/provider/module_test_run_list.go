package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Module test runs.

type moduleTestRunList struct{ listBase }

func (l *moduleTestRunList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, moduleTestRunType.listPermissions())
	resp.Schema = moduleListSchema("test runs (newest first)")
}

func (l *moduleTestRunList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	mod := l.module(ctx, req, &diags)
	if diags.HasError() || !l.configured(&diags) {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	runs, err := testRunClient{l.data.client}.list(ctx, mod, nil)
	if err != nil {
		diags.AddError("Error listing module test runs", l.data.testRunsListError(ctx, mod, err))
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
