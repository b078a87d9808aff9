package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type policySetList struct{ listBase }

type policySetListConfig struct {
	Organization types.String `tfsdk:"organization"`
	Search       types.String `tfsdk:"search"`
}

func (l *policySetList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policySetType.listPermissions())
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the policy sets of an organization, optionally by name, with their scope and what each governs.",
		Attributes: map[string]listschema.Attribute{
			"organization": organizationScope.list(),
			"search": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only policy sets whose name contains this (the API's `search[name]`).",
			},
		},
	}
}

// List: the set list's pages and the workspace list's, whatever the number of sets.
func (l *policySetList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	var cfg policySetListConfig
	var items []listed
	if diags.Append(req.Config.Get(ctx, &cfg)...); !diags.HasError() && l.configured(&diags) {
		org := l.organization(cfg.Organization, &diags)
		all, err := l.data.organizationPolicySets(ctx, org)
		switch {
		case diags.HasError():
		case err != nil:
			diags.AddError("Error listing policy sets", l.data.organizationPoliciesError(ctx, org, err))
		case all.parentMissing:
			diags.AddError("Error listing policy sets", l.data.organizationPoliciesError(ctx, org, errNoPolicySetNamed))
		default:
			wss, err := l.data.everyWorkspace(ctx, org)
			if err != nil {
				diags.AddError("Error listing workspaces", workspaceListError(err))
				break
			}
			for _, ps := range sortedByKey(all.byID) {
				if s := cfg.Search.ValueString(); s != "" && !containsFold(ps.Name, s) {
					continue
				}
				items = append(items, listed{
					identity: []string{ps.ID},
					display:  fmt.Sprintf("%s (%s)", ps.Name, ps.Kind),
					fill: fillModel(func(_ context.Context, m *policySetResourceModel, _ *diag.Diagnostics) {
						m.set(ps, org)
						m.GovernedWorkspaces = stringMap(scopeOfSet(ps).governed(wss))
					}),
				})
			}
		}
	}
	l.stream(ctx, req, resp, items, diags)
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
