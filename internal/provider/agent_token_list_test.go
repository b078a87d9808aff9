package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

func TestListResource_agentToken(t *testing.T) {
	ctx := context.Background()
	sb, c, p := protoSandbox(t, "list-at", nil)
	pool, err := c.AgentPools.Create(ctx, "list-at", tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range listSize {
		if _, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(fmt.Sprintf("token %03d", i))}); err != nil {
			t.Fatal(err)
		}
	}
	listPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
	before := sb.RequestsTo("GET", listPath)
	res := p.list("tfgov_agent_token", map[string]string{"agent_pool_id": pool.ID}, true, 1000)
	if got := sb.RequestsTo("GET", listPath) - before; got != listPages {
		t.Errorf("listing %d tokens took %d requests, want %d", listSize, got, listPages)
	}
	checkResults(t, "agent_token", res, listSize, true)
	for _, r := range res {
		// The secret is never listed.
		if !r.resource["token"].IsNull() || !strings.HasPrefix(r.display, str(t, r.resource["description"])+" (created ") {
			t.Errorf("result %q: %v", r.display, r.resource)
		}
	}
}

func TestAccAgentTokenList_query(t *testing.T) {
	pool := testAccAgentPool(t)
	testAccQuery(t, queryCase{
		typ: "agent_token", config: testAccAgentTokenConfig(pool.ID, "listed token", ""),
		filter:   fmt.Sprintf("agent_pool_id = %q", pool.ID),
		identity: map[string]knownvalue.Check{"agent_pool_id": knownvalue.StringExact(pool.ID), "id": idLike("at")},
		display:  knownvalue.StringRegexp(regexp.MustCompile(`^listed token \(created \d{4}-`)),
		values: map[string]knownvalue.Check{
			"description": knownvalue.StringExact("listed token"), "agent_pool_id": knownvalue.StringExact(pool.ID),
			"token": knownvalue.Null(), // never returned after create
		},
	})
}
