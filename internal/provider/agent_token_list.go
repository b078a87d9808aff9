package provider

import (
	"cmp"
	"context"
	"fmt"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Agent tokens.

type agentTokenList struct{ listBase }

func (l *agentTokenList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, agentTokenType.listPermissions())
	resp.Schema = parentListSchema("Lists the tokens of an agent pool. The API never returns a token's secret after it is created, so `token` is null in every result.",
		"agent_pool_id", "ID of the agent pool (`apool-<id>`).")
}

func (l *agentTokenList) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	var diags diag.Diagnostics
	pool := l.parentID(ctx, req, "agent_pool_id", &diags)
	if diags.HasError() {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	tokens, err := l.data.agentPoolTokens(ctx, pool)
	switch {
	case err != nil:
		diags.AddError("Error listing agent tokens", fmt.Sprintf("Listing the tokens of agent pool %s: %s", pool, err))
	case tokens.parentMissing:
		diags.AddAttributeError(path.Root("agent_pool_id"), "Error listing agent tokens", l.data.agentPoolError(ctx, pool, tfe.ErrResourceNotFound))
	}
	var items []listed
	if !diags.HasError() {
		for _, tok := range sortedByKey(tokens.byID) {
			items = append(items, listed{
				identity: []string{pool, tok.ID},
				display:  fmt.Sprintf("%s (created %s)", cmp.Or(tok.Description, tok.ID), tok.CreatedAt.UTC().Format(time.RFC3339)),
				fill: fillModel(func(_ context.Context, m *agentTokenResourceModel, _ *diag.Diagnostics) {
					m.ID, m.AgentPoolID = types.StringValue(tok.ID), types.StringValue(pool)
					m.setListed(tok)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}
