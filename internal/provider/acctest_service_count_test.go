package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// Counting what the service holds, for the chaos and crash tests: plain
// go-tfe List calls, paging to the end, never the provider's own list
// helpers (a paging bug there would hide orphans from the very tests that
// look for them).

// pageAll calls list for pages 1, 2, ... until the answer names no next
// page.
func pageAll(list func(page int) (*tfe.Pagination, error)) error {
	for page := 1; ; {
		p, err := list(page)
		if err != nil {
			return err
		}
		if p == nil || p.NextPage <= page {
			return nil
		}
		page = p.NextPage
	}
}

func serviceAgentTokens(ctx context.Context, c *tfe.Client, poolID string) ([]*tfe.AgentToken, error) {
	var out []*tfe.AgentToken
	err := pageAll(func(page int) (*tfe.Pagination, error) {
		l, err := c.AgentTokens.ListWithOptions(ctx, poolID, &tfe.AgentTokenListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		return l.Pagination, nil
	})
	return out, err
}

func servicePolicies(ctx context.Context, c *tfe.Client, org string) ([]*tfe.Policy, error) {
	var out []*tfe.Policy
	err := pageAll(func(page int) (*tfe.Pagination, error) {
		l, err := c.Policies.List(ctx, org, &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		return l.Pagination, nil
	})
	return out, err
}

func serviceTeamAccess(ctx context.Context, c *tfe.Client, workspaceID string) ([]*tfe.TeamAccess, error) {
	var out []*tfe.TeamAccess
	err := pageAll(func(page int) (*tfe.Pagination, error) {
		l, err := c.TeamAccess.List(ctx, &tfe.TeamAccessListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}, WorkspaceID: workspaceID})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		return l.Pagination, nil
	})
	return out, err
}

func serviceTestVariables(ctx context.Context, c *tfe.Client, mod moduleRef) ([]*tfe.Variable, error) {
	var out []*tfe.Variable
	err := pageAll(func(page int) (*tfe.Pagination, error) {
		l, err := c.TestVariables.List(ctx, mod.id(), &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		return l.Pagination, nil
	})
	return out, err
}

func serviceTestRuns(ctx context.Context, c *tfe.Client, mod moduleRef) ([]*tfe.TestRun, error) {
	var out []*tfe.TestRun
	err := pageAll(func(page int) (*tfe.Pagination, error) {
		l, err := c.TestRuns.List(ctx, mod.id(), &tfe.TestRunListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 100}})
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		return l.Pagination, nil
	})
	return out, err
}

// otherConfiguration is a second configuration sharing an agent pool, the
// workspaces, a module and the organization with the configuration under
// test, made through go-tfe as its apply would make it: tokens with the
// same description as the test's, grants of its own teams on the same
// workspaces, policies, test variables and a test run of its own. While
// the test's apply runs, it keeps making tokens with that description
// (another apply at the same moment), through a client that sees the same
// faults. Afterwards every object it holds must be there, unchanged.
type otherConfiguration struct {
	c           *tfe.Client
	poolID      string
	description string

	mu sync.Mutex
	// held is every object the configuration holds, by ID, with what
	// describes it now (unchanged checks it).
	held map[string]string
	// failedCreates counts its token creates that ended in an error: each
	// may have made a token it never heard of.
	failedCreates int
	stop          chan struct{}
	done          chan struct{}
}

// newOtherConfiguration makes the second configuration's objects: 5
// tokens with description in pool, a grant of each of its 2 teams on each
// workspace, 3 policies, 3 test variables of mod and one test run of mod.
func newOtherConfiguration(ctx context.Context, c *tfe.Client, org, poolID, description string, workspaces []string, mod moduleRef, moduleDir string) (*otherConfiguration, error) {
	o := &otherConfiguration{c: c, poolID: poolID, description: description, held: map[string]string{}}
	for range 5 {
		tok, err := c.AgentTokens.Create(ctx, poolID, tfe.AgentTokenCreateOptions{Description: tfe.String(description)})
		if err != nil {
			return nil, err
		}
		o.held[tok.ID] = "token " + tok.Description
	}
	for i := range 2 {
		tm, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String(fmt.Sprintf("other-%d", i)), Visibility: tfe.String("organization")})
		if err != nil {
			return nil, err
		}
		for _, ws := range workspaces {
			g, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: tm, Workspace: &tfe.Workspace{ID: ws}})
			if err != nil {
				return nil, err
			}
			o.held[g.ID] = "grant " + string(g.Access)
		}
	}
	for i := range 3 {
		pol, err := policyClient{c}.create(ctx, org, &tfe.PolicyCreateOptions{Name: tfe.String(fmt.Sprintf("other-%d", i)), Kind: tfe.Sentinel, Description: tfe.String("other")})
		if err != nil {
			return nil, err
		}
		o.held[pol.ID] = "policy other"
	}
	for i := range 3 {
		v, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{
			Key: tfe.String(fmt.Sprintf("OTHER_%d", i)), Value: tfe.String("other"), Category: tfe.Category(tfe.CategoryEnv),
		})
		if err != nil {
			return nil, err
		}
		o.held[v.ID] = "variable other"
	}
	packed, err := packConfiguration(moduleDir, true)
	if err != nil {
		return nil, err
	}
	cv, err := testRunClient{c}.uploadConfiguration(ctx, mod, packed.archive)
	if err != nil {
		return nil, err
	}
	run, err := c.TestRuns.Create(ctx, tfe.TestRunCreateOptions{
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
		RegistryModule: &tfe.RegistryModule{
			Name: mod.Name, Provider: mod.Provider, Namespace: mod.Organization, RegistryName: tfe.PrivateRegistry,
			Organization: &tfe.Organization{Name: mod.Organization},
		},
	})
	if err != nil {
		return nil, err
	}
	o.held[run.ID] = "run"
	return o, nil
}

// applyMeanwhile makes a token with the configuration's description every
// interval until stopped.
func (o *otherConfiguration) applyMeanwhile(interval time.Duration) {
	o.stop, o.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(o.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-o.stop:
				return
			case <-t.C:
			}
			tok, err := o.c.AgentTokens.Create(context.Background(), o.poolID, tfe.AgentTokenCreateOptions{Description: tfe.String(o.description)})
			o.mu.Lock()
			if err != nil {
				o.failedCreates++
			} else {
				o.held[tok.ID] = "token " + tok.Description
			}
			o.mu.Unlock()
		}
	}()
}

// stopApplying stops applyMeanwhile.
func (o *otherConfiguration) stopApplying() {
	if o.stop != nil {
		close(o.stop)
		<-o.done
		o.stop = nil
	}
}

// holds reports whether the configuration holds id.
func (o *otherConfiguration) holds(id string) bool {
	if o == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.held[id]
	return ok
}

// unchanged checks that every object the configuration holds is on the
// service as it was made; mod is the module of its variables and run.
func (o *otherConfiguration) unchanged(ctx context.Context, org string, workspaces []string, mod moduleRef) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	now := map[string]string{}
	tokens, err := serviceAgentTokens(ctx, o.c, o.poolID)
	if err != nil {
		return err
	}
	for _, t := range tokens {
		now[t.ID] = "token " + t.Description
	}
	for _, ws := range workspaces {
		grants, err := serviceTeamAccess(ctx, o.c, ws)
		if err != nil {
			return err
		}
		for _, g := range grants {
			now[g.ID] = "grant " + string(g.Access)
		}
	}
	pols, err := servicePolicies(ctx, o.c, org)
	if err != nil {
		return err
	}
	for _, p := range pols {
		if p.UpdatedAt.IsZero() {
			now[p.ID] = "policy " + p.Description
		} else {
			now[p.ID] = "policy changed at " + p.UpdatedAt.String()
		}
	}
	vars, err := serviceTestVariables(ctx, o.c, mod)
	if err != nil {
		return err
	}
	for _, v := range vars {
		now[v.ID] = "variable " + v.Value
	}
	runs, err := serviceTestRuns(ctx, o.c, mod)
	if err != nil {
		return err
	}
	for _, r := range runs {
		now[r.ID] = "run"
	}
	var problems []string
	for id, was := range o.held {
		if got, ok := now[id]; !ok {
			problems = append(problems, fmt.Sprintf("%s (%s): gone", id, was))
		} else if got != was {
			problems = append(problems, fmt.Sprintf("%s: was %q, now %q", id, was, got))
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return errors.New("the other configuration's objects were touched:\n" + strings.Join(problems, "\n"))
	}
	return nil
}
