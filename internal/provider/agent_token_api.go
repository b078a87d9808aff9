package provider

import (
	"context"
	"fmt"
)

// agentPoolError tells a missing pool from a missing permission by one read of the pool.
func (d *providerData) agentPoolError(ctx context.Context, poolID string, err error) string {
	if !isNotFound(err) {
		return fmt.Sprintf("Agent pool %s: %s", poolID, err)
	}
	pool, rerr := d.agentPoolSeen(ctx, poolID)
	switch {
	case rerr != nil:
		return fmt.Sprintf("Agent pool %s was not found, or the API token may not manage agent pools (it needs %s); reading the pool to tell which failed: %s.", poolID, permManageAgentPools, rerr)
	case pool.missing:
		return fmt.Sprintf("Agent pool %s was not found: no organization the API token belongs to has an agent pool of that ID.", poolID)
	}
	return fmt.Sprintf("Agent pool %s (%q) exists, but the API token may not manage its tokens: it needs %s, or to be an owner.", poolID, pool.name, permManageAgentPools)
}

// agentTokenCannotSee explains a token whose pool's token list answered 404.
func (d *providerData) agentTokenCannotSee(ctx context.Context, poolID, id string) string {
	seen, err := d.agentPoolSeen(ctx, poolID)
	return cannotSee("Agent token "+id, "agent pool "+poolID, "tokens", permManageAgentPools+", or to be an owner", seen, err)
}
