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

// grantParentKind is what teams are granted access on, as a value: a workspace now; a project is
// another value (its grant and exclusive resource types, its label), not a copy of this mechanism.
type grantParentKind struct {
	noun             string       // as messages name it
	grant, exclusive resourceType // the grant resource and the exclusive set on this kind of parent
	// label names a parent for a message; teamNames the teams of grants on it (a request, on error paths).
	label     func(d *providerData, ctx context.Context, id string) string
	teamNames func(d *providerData, ctx context.Context, id string, grants []*tfe.TeamAccess) map[string]string
}

// workspaceGrants: tfgov_team_access and tfgov_workspace_team_access_exclusive.
var workspaceGrants = &grantParentKind{
	noun: "workspace", grant: teamAccessType, exclusive: workspaceTeamAccessExclusiveType,
	label: (*providerData).workspaceLabel, teamNames: (*providerData).teamNames,
}

// accessParent is one parent that holds grants.
type accessParent struct {
	kind *grantParentKind
	id   string
}

func (p accessParent) String() string { return p.kind.noun + " " + p.id }

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
	names := k.teamNames(d, ctx, parent.id, grants)
	labels := make([]string, 0, len(teamIDs))
	for _, id := range teamIDs {
		labels = append(labels, "team "+teamLabel(names, id))
	}
	grant, exclusive := k.grant.typeName("tfgov"), k.exclusive.typeName("tfgov")
	return fmt.Sprintf("This configuration grants %s access to %s %s with %s, and its %s of that %s "+
		"leaves them out of team_ids. Each apply would undo the previous one: one adds the access, the next removes it, for ever.\n\n"+
		"Add %s to the team_ids of the %s (for example team_ids = [for a in %s.<name> : a.team_id]), "+
		"or remove the %s.",
		strings.Join(labels, ", "), k.noun, k.label(d, ctx, parent.id), grant, exclusive, k.noun,
		strings.Join(teamIDs, ", "), exclusive, grant, grant)
}

// isKnown: neither null nor unknown.
func isKnown(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }
