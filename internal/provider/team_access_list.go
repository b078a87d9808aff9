package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// Team access: the grant list (grant_list.go) on a workspace.

func newTeamAccessList() list.ListResource {
	return &grantList[*tfe.TeamAccess, teamAccessResourceModel]{listBase{typ: teamAccessType}, teamAccessShell, workspaceIDByName}
}

// workspaceIDByName is the workspace called name (one read; no match lists the closest names).
func workspaceIDByName(d *providerData, ctx context.Context, org, name string, diags *diag.Diagnostics) string {
	ws, err := d.client.Workspaces.Read(ctx, org, name)
	switch {
	case err == nil:
		return ws.ID
	case !isNotFound(err):
		diags.AddAttributeError(path.Root("workspace_name"), "Error listing team access", byNameError("workspaces", org, err))
	default:
		have, err := workspaceNames(ctx, d.client, org)
		if err != nil {
			diags.AddAttributeError(path.Root("organization"), "Error listing team access", byNameError("workspaces", org, err))
		} else {
			diags.AddAttributeError(path.Root("workspace_name"), "Workspace not found", notFoundByName("workspace", org, []string{name}, have))
		}
	}
	return ""
}
