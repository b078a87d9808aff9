package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Policy set parameters.

type policySetParameterList struct{ listBase }

func (l *policySetParameterList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policySetParameterType.listPermissions())
	resp.Schema = parentListSchema("Lists the parameters of a policy set. The API never returns a sensitive parameter's value: its `value` is null, "+
		"which the resource reads as \"leave the value on the service as it is\".",
		"policy_set_id", "ID of the policy set (`polset-<id>`).")
}

func (l *policySetParameterList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	setID := l.parentID(ctx, req, "policy_set_id", &diags)
	if diags.HasError() {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	params, err := l.data.policySetParameters(ctx, setID)
	switch {
	case err != nil:
		diags.AddError("Error listing policy set parameters", fmt.Sprintf("Listing the parameters of policy set %s: %s", setID, err))
	case params.parentMissing:
		diags.AddAttributeError(path.Root("policy_set_id"), "Error listing policy set parameters", l.data.parameterSetError(ctx, setID, "list the parameters", tfe.ErrResourceNotFound))
	}
	var items []listed
	if !diags.HasError() {
		for _, v := range sortedByKey(params.byKey) {
			display := v.Key
			if v.Sensitive {
				display += " (sensitive)"
			}
			items = append(items, listed{
				identity: []string{setID, v.ID},
				display:  display,
				fill: fillModel(func(_ context.Context, m *policySetParameterResourceModel, _ *diag.Diagnostics) {
					m.PolicySetID = types.StringValue(setID)
					*m = *policySetParameterModel(v, *m)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}
