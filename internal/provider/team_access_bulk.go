package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// workspaceTeamAccess returns a workspace's grants from the shared list, with their teams' names.
func (d *providerData) workspaceTeamAccess(ctx context.Context, workspaceID string) (*recordsByID[*tfe.TeamAccess], error) {
	return d.lists.teamAccess.get(ctx, workspaceID, func(ctx context.Context) (*recordsByID[*tfe.TeamAccess], error) {
		l, err := listAllPages(ctx, func(ta *tfe.TeamAccess) string { return ta.ID }, teamAccessPagesWithTeams(d.client, workspaceID, bulkPageSize))
		if err == nil {
			tflog.Debug(ctx, "Listed team access", map[string]any{"workspace_id": workspaceID, "count": len(l.byID), "workspace_missing": l.parentMissing})
		}
		return l, err
	})
}
