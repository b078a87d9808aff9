package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
)

type policyList struct{ listBase }

func (l *policyList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policyType.listPermissions())
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
