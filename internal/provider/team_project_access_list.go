package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// Team project access: the grant list (grant_list.go) on a project.

func newTeamProjectAccessList() list.ListResource {
	return &grantList[*tfe.TeamProjectAccess, teamProjectAccessResourceModel]{listBase{typ: teamProjectAccessType}, teamProjectAccessShell, projectIDByName}
}

// projectIDByName is the project called name (one list by name).
func projectIDByName(d *providerData, ctx context.Context, org, name string, diags *diag.Diagnostics) string {
	prjs, err := d.client.Projects.List(ctx, org, &tfe.ProjectListOptions{Name: name})
	if err != nil {
		diags.AddAttributeError(path.Root("project_name"), "Error listing team project access", byNameError("projects", org, err))
		return ""
	}
	for _, p := range prjs.Items {
		if p.Name == name {
			return p.ID
		}
	}
	diags.AddAttributeError(path.Root("project_name"), "Project not found", fmt.Sprintf("No project named %q in organization %s that the API token may see.", name, org))
	return ""
}
