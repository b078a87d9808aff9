package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// agentTokenPages fetches the pages of an agent pool's tokens (the pager's fetch).
func (d *providerData) agentTokenPages(poolID string) func(context.Context, int) ([]*tfe.AgentToken, *tfe.Pagination, error) {
	return func(ctx context.Context, n int) ([]*tfe.AgentToken, *tfe.Pagination, error) {
		p, err := d.client.AgentTokens.ListWithOptions(ctx, poolID, &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}})
		if err != nil {
			return nil, nil, err
		}
		return p.Items, p.Pagination, nil
	}
}

// agentPoolTokens returns the tokens of an agent pool, from the shared list.
func (d *providerData) agentPoolTokens(ctx context.Context, poolID string) (*recordsByID[*tfe.AgentToken], error) {
	return d.lists.agentTokens.get(ctx, poolID, func(ctx context.Context) (*recordsByID[*tfe.AgentToken], error) {
		l, err := listAllPages(ctx, func(t *tfe.AgentToken) string { return t.ID }, d.agentTokenPages(poolID))
		if err == nil {
			tflog.Debug(ctx, "Listed agent tokens", map[string]any{"agent_pool_id": poolID, "count": len(l.byID), "pool_missing": l.parentMissing})
		}
		return l, err
	})
}
