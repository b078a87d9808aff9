package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type policyUploadList struct{ listBase }

func (l *policyUploadList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policyUploadType.listPermissions())
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
