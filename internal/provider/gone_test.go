package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync/atomic"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"golang.org/x/sync/errgroup"
)

// TestAccCannotSeeIsNotGone: objects made with the
// owner's token are refreshed with the token of a team without
// organization permissions. The lists answer 404, which is "gone" and
// "cannot see" alike: each refresh fails naming the object, its parent and
// the permission, and the owner's next plan is empty (state kept every
// object; nothing is proposed for creation). Runs against a live
// organization too (the team token through go-tfe).
func TestAccCannotSeeIsNotGone(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	org := testAccOrganization()
	pool := testAccAgentPool(t)
	mod := testAccModule(t)
	team := testAccTeam(t, nil)
	name := testAccName("cannot-see")
	// The upload's policy is made outside the configuration: a dependent's
	// refresh is not reached when its dependency's refresh fails.
	outside, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String(name + "-outside"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Policies.Delete(ctx, outside.ID); err != nil && !isNotFound(err) {
			t.Errorf("deleting policy %s: %v", outside.ID, err)
		}
	})
	config := fmt.Sprintf(`
resource "tfgov_policy" "inline" {
  name    = "%[1]s-inline"
  kind    = "sentinel"
  content = "main = rule { true }\n"
}

resource "tfgov_policy_upload" "test" {
  policy_id = %[3]q
  content   = "main = rule { true }\n"
}

resource "tfgov_agent_token" "test" {
  agent_pool_id = %[2]q
  description   = "cannot see"
}
`, name, pool.ID, outside.ID) + testAccTestVariableConfig(mod, `key = "A"`, `value = "x"`)
	limited := testAccTeamTokenProvider(t, team)
	// Each pattern starts at its detail's first line, so it matches only
	// that object's error.
	denied := func(pattern string) resource.TestStep {
		return resource.TestStep{Config: limited + config, PlanOnly: true, ExpectError: wrappedRE(`(^|\n)` + pattern)}
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config},
			denied(`Policy pol-\w+ cannot be refreshed: organization ` + regexp.QuoteMeta(org) +
				` exists, but the API token may not list its policies: it needs the organization's "Manage policies" permission`),
			denied(`The code of policy ` + outside.ID + ` cannot be refreshed: organization ` + regexp.QuoteMeta(org) + ` exists, but the API token may not list its policies`),
			denied(`Agent token at-\w+ cannot be refreshed: agent pool ` + pool.ID + ` \("` + regexp.QuoteMeta(pool.Name) +
				`"\) exists, but the API token may not list its tokens: it needs the organization's "Manage agent pools" permission`),
			denied(`Test variable var-\w+ of module ` + regexp.QuoteMeta(mod.String()) + ` cannot be refreshed: module ` + regexp.QuoteMeta(mod.String()) +
				` exists, but the API token may not list its test variables: it needs membership of the owners team`),
			{Config: config, PlanOnly: true},
		},
	})
}

// TestSeeParent: the one read of a parent is shared by every refresh that
// asks for it; a 404 is kept as an answer, another error is not.
func TestSeeParent(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	tests := []struct {
		name      string
		answer    error
		wantReads int32
		wantSeen  *parentSeen
	}{
		{"visible", nil, 1, &parentSeen{name: "p"}},
		{"missing", tfe.ErrResourceNotFound, 1, &parentSeen{missing: true}},
		{"failed", boom, 3, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := &providerData{}
			var reads atomic.Int32
			for range 3 {
				seen, err := d.seeParent(context.Background(), "k", func(context.Context) (parentSeen, error) {
					reads.Add(1)
					return parentSeen{name: "p"}, tc.answer
				})
				if tc.wantSeen == nil {
					if !errors.Is(err, boom) {
						t.Fatalf("err = %v, want boom", err)
					}
					continue
				}
				if err != nil || *seen != *tc.wantSeen {
					t.Fatalf("seen = %+v, %v; want %+v", seen, err, tc.wantSeen)
				}
			}
			if got := reads.Load(); got != tc.wantReads {
				t.Errorf("%d reads, want %d", got, tc.wantReads)
			}
		})
	}
}

// TestCannotSee: the three answers of the parent's read, each naming the
// object and what to do.
func TestCannotSee(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		seen *parentSeen
		err  error
		want string
	}{
		"parent visible": {&parentSeen{name: "blue"}, nil, `Agent token at-1 cannot be refreshed: agent pool apool-1 ("blue") exists, but the API token may not list its tokens: it needs P. State keeps it`},
		"parent missing": {&parentSeen{missing: true}, nil, "Agent token at-1 cannot be refreshed: agent pool apool-1 was not found. It was deleted, or the API token belongs to no team of its organization: " +
			"the service answers the same to both. If it was deleted, remove the resource from state: terraform state rm <address>"},
		"read failed": {nil, errors.New("boom"), "Agent token at-1 cannot be refreshed: the list of tokens of agent pool apool-1 answered 404 (deleted, or the API token lacks P), and reading agent pool apool-1 to tell which failed: boom. State keeps it."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := cannotSee(refreshCheck, "Agent token at-1", "agent pool apool-1", "tokens", "P", tc.seen, tc.err)
			if len(got) < len(tc.want) || got[:len(tc.want)] != tc.want {
				t.Errorf("got  %q\nwant %q...", got, tc.want)
			}
		})
	}
}

// TestAccAgentTokenImportOtherPool: importing a token as
// <pool>/<token> with a pool that is not the token's own fails naming both
// pools, also when that pool has more than 100 tokens, where the token
// misses the list's first page and a read by ID does not say which pool it
// is in.
func TestAccAgentTokenImportOtherPool(t *testing.T) {
	ctx := context.Background()
	c := testAccClient(t)
	big, own := testAccAgentPool(t), testAccAgentPool(t)
	tok, err := c.AgentTokens.Create(ctx, own.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("own")})
	if err != nil {
		t.Fatalf("agent token: %v", err)
	}
	var g errgroup.Group
	g.SetLimit(8)
	for range bulkPageSize + 1 {
		g.Go(func() error {
			_, err := c.AgentTokens.Create(ctx, big.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("filler")})
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatalf("agent tokens of %s: %v", big.ID, err)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:        testAccAgentTokenConfig(big.ID, "own", ""),
			ResourceName:  agentTokenAddr,
			ImportState:   true,
			ImportStateId: big.ID + "/" + tok.ID,
			ExpectError: matchWrapped(fmt.Sprintf("Agent token %s is not a token of agent pool %s", tok.ID, big.ID),
				fmt.Sprintf("It belongs to agent pool %s (%q)", own.ID, own.Name)),
		}},
	})
}

// TestConfirmGone: a write's 404 is done only when the refresh's reads find the object gone; an
// object still listed fails naming the permission, and one they cannot tell fails with their why.
func TestConfirmGone(t *testing.T) {
	t.Parallel()
	check := writeCheck("Deleting", "deleted")
	tests := map[string]struct {
		exists bool
		why    string
		want   string
	}{
		"gone": {want: ""},
		"still there": {exists: true, want: "Deleting agent token at-1 answered 404, which the service answers both for an object that is gone and for one the API token may not see or change. " +
			"Agent token at-1 exists: the service still lists it, so the API token may see it but not change it: it needs P. State keeps it; apply again with a token that has the permission."},
		"cannot tell": {why: "Agent token at-1 cannot be deleted: W", want: "Deleting agent token at-1 answered 404, which the service answers both for an object that is gone and for one the API token may not see or change. " +
			"Agent token at-1 cannot be deleted: W"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var asked goneCheck
			got := confirmGone(context.Background(), check, "Agent token at-1", "P", func(_ context.Context, c goneCheck) (bool, string) {
				asked = c
				return tc.exists, tc.why
			})
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if asked != check {
				t.Errorf("locate asked with %+v, want the write's check %+v", asked, check)
			}
		})
	}
}
