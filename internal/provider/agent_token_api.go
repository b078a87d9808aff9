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
func (d *providerData) agentTokenCannotSee(ctx context.Context, check goneCheck, poolID, id string) string {
	seen, err := d.agentPoolSeen(ctx, poolID)
	return cannotSee(check, "Agent token "+id, "agent pool "+poolID, "tokens", permManageAgentPools+", or to be an owner", seen, err)
}

// revokeCheck: an agent token's DELETE, by its resource's destroy or the prune action.
var revokeCheck = writeCheck("Revoking", "revoked")

// locateAgentToken is the refresh of token id of pool poolID after a write's 404 (Read's reads,
// made afresh): a pool list of one page without it, or agentTokenInPool's answer, is gone.
func (d *providerData) locateAgentToken(poolID, id string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		d.lists.agentTokens.invalidate(poolID)
		d.lists.parents.invalidate("agent-pool:" + poolID)
		tokens, err := d.agentPoolTokens(ctx, poolID)
		switch {
		case err != nil:
			return false, fmt.Sprintf("Agent token %s cannot be %s: listing the tokens of agent pool %s to tell whether it is gone failed: %s. State keeps it.", id, check.done, poolID, err)
		case tokens.parentMissing:
			return false, d.agentTokenCannotSee(ctx, check, poolID, id)
		}
		_, ok := tokens.lookup(id)
		if !ok && !tokens.definite() {
			var failure string
			if _, ok, failure = d.agentTokenInPool(ctx, poolID, id); failure != "" {
				return false, failure
			}
		}
		return ok, ""
	}
}
