package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
)

// agentTokenKit is tfgov_agent_token's part of the cross-type suites
// (kit_test.go).
type agentTokenKit struct{}

func (agentTokenKit) kitType() resourceType { return agentTokenType }

func (agentTokenKit) idPrefix() string { return "at" }

func (agentTokenKit) parents() []*parentKind { return []*parentKind{parentPool} }

func (agentTokenKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(agentTokenType, "this",
				arg("agent_pool_id", hclString(e.id(parentPool))),
				arg("description", hclString("budget token")))
		},
		cases: func(b stateBudgets, _ map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_agent_token.this", "tfe_agent_token + identity + null rotation_triggers", b.tfeAgentToken}}
		},
	})
}

func (agentTokenKit) tfe() string { return "tfe_agent_token" }

func (agentTokenKit) sandboxArea() string { return "agent_tokens.go" }

func (agentTokenKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{
		"agent_token": {
			row: "`tfgov_agent_token`",
			fixtures: func(e *budgetEnv, _ int) {
				pool, err := e.client.AgentPools.Create(context.Background(), e.org, tfe.AgentPoolCreateOptions{Name: tfe.String("budget")})
				if err != nil {
					e.t.Fatal(err)
				}
				e.vars["pool"] = pool.ID
				// A token Terraform does not manage: at N = 101 the pool keeps two pages after the
				// drift deletes one, so the missing token is read by ID.
				if _, err := e.client.AgentTokens.Create(context.Background(), pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("not managed")}); err != nil {
					e.t.Fatal(err)
				}
			},
			config: func(e *budgetEnv, n, v int) string {
				// The description of a token cannot change: the update is a
				// replacement, so v only names the configuration.
				_ = v
				return fmt.Sprintf(`resource "tfgov_agent_token" "r" {
  for_each      = toset([for i in range(%d) : tostring(i)])
  agent_pool_id = %q
  description   = "token ${each.key}"
}
output "ids" { value = { for k, r in tfgov_agent_token.r : k => "%s/${r.id}" } }
`, n, e.vars["pool"], e.vars["pool"])
			},
			imports: `import {
  for_each = local.ids
  to       = tfgov_agent_token.r[each.key]
  id       = each.value
}
`,
			outside: func(e *budgetEnv) {
				if err := e.client.AgentTokens.Delete(context.Background(), strings.TrimPrefix(e.ids["0"], e.vars["pool"]+"/")); err != nil {
					e.t.Fatal(err)
				}
			},
			// A token missing from a list of pages is read by ID before it counts as gone.
			reads: refreshReads(routeAgentTokens, false, true, func(op budgetOp, _, p int) map[string]int {
				if op == opDrift || op == opUpdate {
					return map[string]int{routeAgentToken: multiPage(p)}
				}
				return nil
			}),
			budget: func(op budgetOp, n, p int) int {
				return starts(op) + map[budgetOp]int{
					opCreate:  n,                // POST
					opPlan:    p,                // the pool's list
					opDrift:   p + multiPage(p), // the pool's list; the missing token read by ID when the list has pages
					opUpdate:  p + multiPage(p), // nothing changes but the drift: the list
					opImport:  p,                // the pool's list, shared by every import
					opDestroy: p + n,
				}[op]
			},
		},
	})
}

// chaos: tokens sharing one description (whose lost creates the provider
// cannot tell apart), and tokens with a description each.
func (agentTokenKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count: chaosSharedTokens + chaosOwnTokens,
		config: func(e fleetEnv) string {
			return hclResource(agentTokenType, "shared",
				arg("count", fmt.Sprint(chaosSharedTokens)),
				arg("agent_pool_id", hclString(e.id(parentPool))),
				arg("description", hclString("chaos"))) +
				hclResource(agentTokenType, "own",
					arg("count", fmt.Sprint(chaosOwnTokens)),
					arg("agent_pool_id", hclString(e.id(parentPool))),
					arg("description", hclString("chaos-${count.index}")))
		},
		objects:    serviceTokenObjects,
		unprovable: true,
		sharedKey:  "chaos",
	})
}

func (agentTokenKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count: 5,
		config: func(e fleetEnv) string {
			return hclResource(agentTokenType, "a",
				arg("count", "5"),
				arg("agent_pool_id", hclString(e.id(parentPool))),
				arg("description", hclString("crash-${count.index}")))
		},
		objects:    serviceTokenObjects,
		unprovable: true,
	})
}

// serviceTokenObjects are the pool's tokens, keyed by description.
func serviceTokenObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	toks, err := serviceAgentTokens(ctx, c, e.id(parentPool))
	var out []serviceObject
	for _, tok := range toks {
		out = append(out, serviceObject{id: tok.ID, key: tok.Description})
	}
	return out, err
}

func (agentTokenKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		make:   func() error { return identityAgentToken(f) },
		cfg:    func() map[string]string { return map[string]string{"agent_pool_id": f.id(parentPool)} },
		remove: func() error { return f.c.AgentTokens.Delete(f.ctx, f.made[agentTokenType]) },
	})
}

// identityUpdate: a token has nothing to update in place; the update
// changes nothing.
func (agentTokenKit) identityUpdate(f *identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		make: func() error { return identityAgentToken(f) },
		cfg:  func() map[string]string { return map[string]string{"agent_pool_id": f.id(parentPool)} },
	})
}

// identityAgentToken is the identity tests' token of the pool.
func identityAgentToken(f *identityFixtures) error {
	tok, err := f.c.AgentTokens.Create(f.ctx, f.id(parentPool), tfe.AgentTokenCreateOptions{Description: tfe.String("tok")})
	if err == nil {
		f.keep(agentTokenType, tok.ID)
	}
	return err
}

func (agentTokenKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			token, err := f.c.AgentTokens.Create(f.ctx, f.poolID, tfe.AgentTokenCreateOptions{Description: tfe.String("there")})
			f.must(err)
			return []string{f.poolID + "/" + token.ID}
		},
		missing: func(_, poolID string) []importMissingCase {
			return []importMissingCase{
				{"agent token", poolID + "/at-typo00000000001", "Agent token at-typo00000000001 was not found in agent pool " + poolID},
				{"agent token's pool", "apool-typo000000001/at-typo00000000001", "Agent pool apool-typo000000001 was not found"},
			}
		},
	})
}

func (agentTokenKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		pool := e.agentPool()
		for _, d := range []string{"first", "second"} {
			if _, err := e.c.AgentTokens.Create(e.ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(d)}); err != nil {
				e.t.Fatalf("agent token: %v", err)
			}
		}
		return fmt.Sprintf("agent_pool_id = %q", pool.ID), 2
	}})
}
