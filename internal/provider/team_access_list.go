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

// Team access.

type teamAccessList struct{ listBase }

func (l *teamAccessList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = parentListSchema("Lists the teams' access to a workspace.", "workspace_id", "ID of the workspace (`ws-<id>`).")
}

func (l *teamAccessList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	ws := l.parentID(ctx, req, "workspace_id", &diags)
	if diags.HasError() {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	grants, err := l.data.workspaceTeamAccess(ctx, ws)
	switch {
	case err != nil:
		diags.AddError("Error listing team access", fmt.Sprintf("Listing the team access of workspace %s: %s", ws, err))
	case grants.parentMissing:
		diags.AddAttributeError(path.Root("workspace_id"), "Error listing team access", workspaceAccessError(ws, tfe.ErrResourceNotFound))
	}
	var items []listed
	if !diags.HasError() {
		all := sortedByKey(grants.byID)
		names := l.data.teamNames(ctx, ws, all) // the organization's team list
		for _, ta := range all {
			team := ""
			if ta.Team != nil {
				team = firstNonEmpty(names[ta.Team.ID], ta.Team.ID)
			}
			items = append(items, listed{
				identity: []string{ta.ID},
				display:  fmt.Sprintf("team %s: %s access", team, ta.Access),
				fill: fillModel(func(_ context.Context, m *teamAccessResourceModel, _ *diag.Diagnostics) {
					m.WorkspaceID = types.StringValue(ws)
					*m = *teamAccessModel(ta, *m)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}
