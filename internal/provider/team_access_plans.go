package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/attr"
)

// The grants and exclusive sets this process planned, by parent: a grant its parent's exclusive set leaves
// out flaps, so whichever plans second fails. DESIGN.md "Exclusive team access: the grants a plan saw".

// plannedAccess is kept for the provider process, which plans every resource of one walk.
type plannedAccess struct {
	mu        sync.Mutex
	grants    map[accessParent]map[string]bool // team IDs granted by a planned grant resource
	exclusive map[accessParent]map[string]bool // the teams a planned exclusive set keeps
}

// planGrant records a planned grant of teamID on parent; true when a planned exclusive set of
// parent leaves the team out.
func (p *plannedAccess) planGrant(parent accessParent, teamID string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.grants == nil {
		p.grants = map[accessParent]map[string]bool{}
	}
	if p.grants[parent] == nil {
		p.grants[parent] = map[string]bool{}
	}
	p.grants[parent][teamID] = true
	keep, ok := p.exclusive[parent]
	return ok && !keep[teamID]
}

// planExclusive records parent's planned exclusive set and returns the planned grants' teams it
// leaves out, sorted.
func (p *plannedAccess) planExclusive(parent accessParent, keep map[string]bool) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exclusive == nil {
		p.exclusive = map[accessParent]map[string]bool{}
	}
	p.exclusive[parent] = keep
	var out []string
	for id := range p.grants[parent] {
		if !keep[id] {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// accessFlap says why a grant resource and an exclusive set of one parent would undo each other on
// every apply; the team names cost a request on this error path only.
func (d *providerData) accessFlap(ctx context.Context, parent accessParent, teamIDs []string) string {
	grants := make([]*tfe.TeamAccess, 0, len(teamIDs))
	for _, id := range teamIDs {
		grants = append(grants, &tfe.TeamAccess{Team: &tfe.Team{ID: id}})
	}
	k := parent.kind
	names := d.grantTeamNames(ctx, k, parent.id, grants)
	labels := make([]string, 0, len(teamIDs))
	for _, id := range teamIDs {
		labels = append(labels, "team "+teamLabel(names, id))
	}
	grant, exclusive := k.grant.typeName("tfgov"), k.exclusive.typeName("tfgov")
	return fmt.Sprintf("This configuration grants %s access to %s %s with %s, and its %s of that %s "+
		"leaves them out of team_ids. Each apply would undo the previous one: one adds the access, the next removes it, for ever.\n\n"+
		"Add %s to the team_ids of the %s (for example team_ids = [for a in %s.<name> : a.team_id]), "+
		"or remove the %s.",
		strings.Join(labels, ", "), k.noun, d.parentLabel(ctx, k, parent.id), grant, exclusive, k.noun,
		strings.Join(teamIDs, ", "), exclusive, grant, grant)
}

// isKnown: neither null nor unknown.
func isKnown(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }
