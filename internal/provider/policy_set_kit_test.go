package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// policySetKit is tfgov_policy_set's part of the cross-type suites (kit_test.go).
type policySetKit struct{}

func (policySetKit) kitType() resourceType { return policySetType }

func (policySetKit) idPrefix() string { return "polset" }

func (policySetKit) parents() []*parentKind { return []*parentKind{parentWorkspace, parentPolicySet} }

func (policySetKit) tfe() string { return "tfe_policy_set" }

func (policySetKit) sandboxArea() string { return "policy_sets.go" }

// stateBudget: a set attached to one workspace, against tfe_policy_set's bytes for it.
func (policySetKit) stateBudget() covered[stateKit] {
	return cover(stateKit{
		config: func(e stateEnv) string {
			return hclResource(policySetType, "this",
				arg("name", hclString(e.name+"-set")),
				arg("description", hclString("budget set")),
				arg("scope", fmt.Sprintf("{ workspace_ids = [%q] }", e.id(parentWorkspace))))
		},
		cases: func(b stateBudgets, _ map[string]string) []stateBudgetCase {
			return []stateBudgetCase{{"tfgov_policy_set.this", "tfe_policy_set + the scope's other attributes, governed_workspaces, and source, source_sha256 and version_id null", func(i statesize.Instance) int {
				return b.tfePolicySet(i) + policySetAllowance(b, i)
			}}}
		},
	})
}

// tfePolicySet: tfe_policy_set (SDKv2, schema version 0), attached by workspace_ids, with no VCS
// repository or slug.
func (b stateBudgets) tfePolicySet(i statesize.Instance) int {
	a := b.attrs(i)
	var scope map[string]json.RawMessage
	_ = json.Unmarshal(a["scope"], &scope)
	return b.tfe(0, map[string]json.RawMessage{
		"agent_enabled": a["agent_enabled"], "description": a["description"], "global": scope["global"], "id": a["id"], "kind": a["kind"],
		"name": a["name"], "organization": a["organization"], "overridable": a["overridable"], "policies_path": b.raw(""), "policy_ids": b.raw([]string{}),
		"policy_tool_version": a["policy_tool_version"], "slug": json.RawMessage("null"), "vcs_repo": b.raw([]string{}), "workspace_ids": scope["workspace_ids"],
	}, "[]", "eyJzY2hlbWFfdmVyc2lvbiI6IjAifQ==", nil)
}

// policySetAllowance is what tfgov_policy_set holds beyond tfe_policy_set: the scope's other six
// attributes, governed_workspaces (name → ID of each governed workspace: what a plan shows), and
// source, source_sha256 and version_id null; the identity on Terraform 1.12+.
func policySetAllowance(b stateBudgets, i statesize.Instance) int {
	return len(`"scope":{"excluded_project_ids":[],"excluded_tags":[],"excluded_workspace_ids":[],"project_ids":[],"tag_match":"any","tags":[]},`) +
		len(`"governed_workspaces":,`) + compactLen(b.attrs(i)["governed_workspaces"]) +
		len(`"source":null,"source_sha256":null,"version_id":null,`) + identityAllowance(i)
}

// requestBudgets: N sets, each attached to one of W = 3 workspaces. A refresh is the
// organization's set list, its workspace list and its team list (which proves the token sees every
// workspace), a page each per 100, shared by every set; each plan walk (the apply's too) computes
// governed_workspaces from the workspace and team lists; nothing is read by ID.
func (policySetKit) requestBudgets() covered[map[string]budgetCase] {
	return cover(map[string]budgetCase{"policy_set": {
		row: "`tfgov_policy_set` (each attached to a workspace)",
		fixtures: func(e *budgetEnv, _ int) {
			for i := range 3 {
				ws, err := e.client.Workspaces.Create(context.Background(), e.org, tfe.WorkspaceCreateOptions{Name: tfe.String(fmt.Sprint("governed-", i))})
				if err != nil {
					e.t.Fatal(err)
				}
				e.vars[fmt.Sprint("ws", i)] = ws.ID
			}
		},
		config: func(e *budgetEnv, n, v int) string {
			return fmt.Sprintf(`locals {
  governed = [%q, %q, %q]
}
resource "tfgov_policy_set" "r" {
  for_each    = toset([for i in range(%d) : tostring(i)])
  name        = "budget-${each.key}"
  description = "set ${each.key} v%d"
  scope = {
    workspace_ids = [local.governed[tonumber(each.key) %% 3]]
  }
}
output "ids" { value = { for k, r in tfgov_policy_set.r : k => r.id } }
`, e.vars["ws0"], e.vars["ws1"], e.vars["ws2"], n, v)
		},
		imports: `import {
  for_each = local.ids
  to       = tfgov_policy_set.r[each.key]
  id       = each.value
}
`,
		outside: func(e *budgetEnv) {
			if _, err := e.client.PolicySets.Update(context.Background(), e.ids["0"], tfe.PolicySetUpdateOptions{Description: tfe.String("changed outside")}); err != nil {
				e.t.Fatal(err)
			}
		},
		reads: refreshReads(routePolicySets, false, false, func(op budgetOp, _, _ int) map[string]int {
			return map[string]int{routeWorkspaces: 1, routeTeams: 1}
		}),
		budget: func(op budgetOp, n, p int) int {
			return starts(op) + map[budgetOp]int{
				opCreate:  n + 4,     // POST; the workspace and team lists in each walk's plan
				opPlan:    p + 2,     // the set list; the workspace and team lists
				opDrift:   p + 2,     // the same
				opUpdate:  p + 4 + n, // the lists, the apply walk's workspace and team lists, PATCH
				opImport:  n + p + 2, // a read by ID naming the organization; the lists
				opDestroy: p + 2 + n, // the lists, DELETE
			}[op]
		},
	}})
}

const (
	routePolicySets = "GET /api/v2/organizations/{org}/policy-sets"
	routeTeams      = "GET /api/v2/organizations/{org}/teams"
	routeWorkspaces = "GET /api/v2/organizations/{org}/workspaces"
)

func (policySetKit) chaos() covered[fleetKit] {
	return cover(fleetKit{
		count: 10,
		config: func(fleetEnv) string {
			return hclResource(policySetType, "s", arg("count", "10"), arg("name", hclString("chaos-set-${count.index}")))
		},
		objects: servicePolicySetObjects,
	})
}

func (policySetKit) crash() covered[fleetKit] {
	return cover(fleetKit{
		count: 5,
		config: func(fleetEnv) string {
			return hclResource(policySetType, "s", arg("count", "5"), arg("name", hclString("crash-set-${count.index}")))
		},
		objects: servicePolicySetObjects,
	})
}

// servicePolicySetObjects are the organization's policy sets but the parameters' parent sets.
func servicePolicySetObjects(ctx context.Context, c *tfe.Client, e fleetEnv) ([]serviceObject, error) {
	var out []serviceObject
	for page := 1; ; page++ {
		l, err := c.PolicySets.List(ctx, e.org, &tfe.PolicySetListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			return out, err
		}
		for _, ps := range l.Items {
			if !slices.Contains(e.all(parentPolicySet), ps.ID) {
				out = append(out, serviceObject{id: ps.ID})
			}
		}
		if l.Pagination == nil || l.NextPage == 0 {
			return out, nil
		}
	}
}

func (policySetKit) identityNoPrior(f *identityFixtures) covered[identityNoPriorCase] {
	return cover(identityNoPriorCase{
		cfg:    func() map[string]string { return nil },
		remove: func() error { return f.c.PolicySets.Delete(f.ctx, f.id(parentPolicySet)) },
	})
}

func (policySetKit) identityUpdate(*identityFixtures) covered[identityUpdateCase] {
	return cover(identityUpdateCase{
		cfg:    func() map[string]string { return nil },
		change: map[string]tftypes.Value{"description": tftypes.NewValue(tftypes.String, "after")},
	})
}

func (policySetKit) importMissing() covered[importKit] {
	return cover(importKit{
		existing: func(f importFixtures) []string {
			ps, err := f.c.PolicySets.Create(f.ctx, f.org, tfe.PolicySetCreateOptions{Name: tfe.String("there")})
			f.must(err)
			return []string{ps.ID, f.org + "/there"}
		},
		missing: func(string, string) []importMissingCase {
			return []importMissingCase{
				{"policy set", "polset-doesnotexist0001", "Policy set polset-doesnotexist0001 not found"},
			}
		},
	})
}

func (policySetKit) generateConfig() covered[adoptionKit] {
	return cover(adoptionKit{make: func(e *adoptionEnv) (string, int) {
		for _, name := range []string{"first", "second"} { // "-set-": not the parameter kit's set
			ps, err := e.c.PolicySets.Create(e.ctx, e.org, tfe.PolicySetCreateOptions{Name: tfe.String(e.prefix + "-set-" + name), Description: tfe.String("made outside Terraform"), Workspaces: []*tfe.Workspace{e.ws}})
			if err != nil {
				e.t.Fatalf("policy set: %v", err)
			}
			e.t.Cleanup(func() { _ = e.c.PolicySets.Delete(context.Background(), ps.ID) })
		}
		return fmt.Sprintf("search = %q", e.prefix+"-set-"), 2
	}})
}
