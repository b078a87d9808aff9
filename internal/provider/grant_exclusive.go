package provider

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// The exclusive set of a grant parent: one mechanism, two parents (a workspace's team access,
// a project's team project access). DESIGN.md "Exclusive team access: the grants a plan saw".

// exclusiveGrant is one team's grant on a parent, of either kind.
type exclusiveGrant struct {
	ID, TeamID, TeamName, Access string
	admin                        bool // administers the parent: manages its team access
}

// exclusiveGrants is a parent's grants, sorted by ID; parentMissing: its list was a 404.
type exclusiveGrants struct {
	parentMissing bool
	grants        []*exclusiveGrant
}

// exclusiveParent is what the mechanism needs of a kind of parent beyond its grantParentKind
// (grant_parent.go): its grants in a common shape, their removal, and its lock-out rule.
type exclusiveParent struct {
	kind *grantParentKind
	// see is the kind's read (seeGrantParent), or one that keeps more of the parent (a workspace's project).
	see    func(d *providerData, ctx context.Context, id string) (*parentSeen, error)
	list   func(d *providerData, ctx context.Context, id string) (*exclusiveGrants, error)
	remove func(d *providerData, ctx context.Context, grantID string) error
	// orgAdmin: a team that administers every parent of the kind (owners, "Manage workspaces"/"Manage projects").
	orgAdmin  func(t *tfe.Team) bool
	listError func(id string, err error) string // any other error of the list
}

// exclusiveSet is the attributes both exclusive resources share.
type exclusiveSet struct {
	ParentID                               types.String
	TeamIDs, RemovedTeamIDs, RemovedGrants types.Set
}

// exclusivePlan is ModifyPlan's outcome: removed_team_ids and removed_grant_ids, and the grants the
// plan removes (nil: none, or the plan stopped).
type exclusivePlan struct {
	removedTeams, removedGrants types.Set
	removed                     []*exclusiveGrant
	ok                          bool
}

// attributes are the schema's attributes both forms share, and more, the form's own.
func (p *exclusiveParent) attributes(more map[string]schema.Attribute) map[string]schema.Attribute {
	n := p.kind.noun
	attrs := map[string]schema.Attribute{
		p.kind.idAttr: schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "ID of the " + n + " (`" + p.kind.idPrefix + "<id>`). Changing it replaces the resource (which removes no access from the former " + n + ").",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			Validators:          []validator.String{idValidator(p.kind.idPrefix)},
		},
		"team_ids": schema.SetAttribute{
			Required:    true,
			ElementType: types.StringType,
			MarkdownDescription: "IDs of the teams (`team-<id>`) that may hold access to the " + n + "; the access of every other team is removed on apply. " +
				"An empty set removes every team's access.",
			Validators: []validator.Set{setvalidator.ValueStringsAre(idValidator("team-"))},
		},
		"removed_team_ids": schema.SetAttribute{
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "IDs of the teams whose access the plan removes, known when the plan is made (unless `team_ids` is not), so that " +
				"`terraform show` of a saved plan lists them; the apply removes the access of exactly these teams. For an update these are the teams " +
				"that leave `team_ids` and held access when the plan's refresh read the " + n + "'s grants (a team that held none loses nothing); " +
				"the refresh records the IDs of the grants it saw in the resource's private state (not shown in plans), and the apply removes only " +
				"them: a grant made after the plan, to any team, is left alone, and the next plan shows it leaving. For a new resource, the teams " +
				"that hold access and `team_ids` does not name. After the apply it lists the teams whose access the apply removed, and a refresh " +
				"empties it.\n\n" +
				"Terraform plans a new resource again when it applies it, and does not show the provider the plan it made " +
				"before: if the " + n + "'s grants changed in between, a new resource's apply stops before removing anything, with " +
				"\"Provider produced inconsistent final plan\" for `removed_team_ids` or `removed_grant_ids`; plan again to see them.",
		},
		"removed_grant_ids": schema.SetAttribute{
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "IDs of the grants (`" + p.kind.grantPrefix + "<id>`) that the apply removes, one for each team of `removed_team_ids` that holds access, " +
				"known when the plan is made (unless `team_ids` is not). A grant revoked and made again for the same team after the plan " +
				"has a new ID: the apply of an update leaves it alone, and a new resource's apply stops before removing anything " +
				"(\"Provider produced inconsistent final plan\" for `removed_grant_ids`). A refresh empties it.",
		},
	}
	maps.Copy(attrs, more)
	return attrs
}

// plan plans removed_team_ids and removed_grant_ids, refuses a lock-out, and warns with each
// grant the apply removes by team name: the diff shows bare IDs. state is nil for a new resource.
func (p *exclusiveParent) plan(ctx context.Context, d *providerData, plan exclusiveSet, state *exclusiveSet, private privateGetter, diags *diag.Diagnostics) exclusivePlan {
	keep, ok := teamIDsOf(ctx, plan.TeamIDs)
	if !ok || plan.ParentID.IsUnknown() {
		// Known when the apply plans again with known values.
		return exclusivePlan{removedTeams: types.SetUnknown(types.StringType), removedGrants: types.SetUnknown(types.StringType), ok: true}
	}
	id := plan.ParentID.ValueString()
	parent := accessParent{p.kind, id}
	if left := d.lists.plannedAccess.planExclusive(parent, keep); len(left) > 0 {
		diags.AddAttributeError(path.Root("team_ids"), p.kind.what+" and exclusive team access disagree", d.accessFlap(ctx, parent, left))
		return exclusivePlan{}
	}
	// prior: the refreshed state's teams; nil for a new (or replaced) resource.
	var prior map[string]bool
	var seen grantRecord
	if state != nil && state.ParentID.Equal(plan.ParentID) {
		prior = priorTeams(ctx, state.TeamIDs)
		seen = readGrantRecord(ctx, private, p.kind.grantPrefix, diags)
		if len(removedTeams(nil, keep, prior, seen)) == 0 {
			// Nothing leaves team_ids: no request, and an unchanged plan keeps removed_team_ids.
			removed, grants := teamIDSet(nil), teamIDSet(nil)
			if plan.TeamIDs.Equal(state.TeamIDs) && !state.RemovedTeamIDs.IsNull() {
				removed = state.RemovedTeamIDs
				if !state.RemovedGrants.IsNull() {
					grants = state.RemovedGrants
				}
			}
			return exclusivePlan{removedTeams: removed, removedGrants: grants, ok: true}
		}
	}
	noun := p.kind.noun
	if prior == nil {
		// A new resource's plan trusts the list alone, which must then be complete.
		seenParent, err := p.see(d, ctx, id)
		if err != nil {
			diags.AddError("Error reading "+noun, fmt.Sprintf("Reading %s %s to tell whether the API token sees every grant of it: %s", noun, id, err))
			return exclusivePlan{}
		}
		if !seenParent.missing && !seenParent.allGrants { // missing: the list below says so
			diags.AddAttributeError(path.Root(p.kind.idAttr), "Cannot plan exclusive team access", p.notAllGrants(id, seenParent.name)+
				" Plan with a token that has the permission.")
			return exclusivePlan{}
		}
	}
	grants, err := p.list(d, ctx, id)
	if err != nil {
		diags.AddError("Error listing team access", p.listError(id, err))
		return exclusivePlan{}
	}
	if grants.parentMissing {
		diags.AddAttributeError(path.Root(p.kind.idAttr), upperFirst(noun)+" not found", p.kind.notFound(id))
		return exclusivePlan{}
	}
	removedIDs := removedTeams(grants, keep, prior, seen)
	removed := revocations(grants, keep, removedIDs, seen)
	out := exclusivePlan{removedTeams: teamIDSet(removedIDs), removedGrants: plannedGrants(prior, removedIDs, seen, removed), removed: removed, ok: true}
	if len(removed) == 0 {
		return out
	}
	if msg := p.lockOut(ctx, d, id, grants, removed); msg != "" {
		diags.AddAttributeError(path.Root("team_ids"), "Removing this team access would lock the API token out of the "+noun, msg)
		return exclusivePlan{}
	}
	// Names from the shared team list (read only when a grant goes) and the refresh's parent
	// read, never from state.
	names := p.teamNames(ctx, d, id, removed)
	lines := make([]string, 0, len(removed))
	for _, g := range removed {
		lines = append(lines, fmt.Sprintf("  - team %s: %s access (%s)", teamLabel(names, g.TeamID), g.Access, g.ID))
	}
	if prior == nil {
		diags.AddWarning("Team access will be removed",
			fmt.Sprintf("Applying removes the access of %d team(s) to %s %s that team_ids does not name (removed_team_ids):\n%s\n\n"+
				"Add a team to team_ids to keep its access. A grant made after this plan is not removed by its apply: Terraform plans a new "+
				"resource again when it applies it, and if the grants to remove differ then, it stops with \"Provider produced inconsistent final plan\" "+
				"for removed_team_ids or removed_grant_ids before anything is removed; plan again.", len(removed), noun, d.parentLabel(ctx, p.kind, id), strings.Join(lines, "\n")))
		return out
	}
	diags.AddWarning("Team access will be removed",
		fmt.Sprintf("Applying removes the access of %d team(s) that leave team_ids from %s %s (removed_team_ids):\n%s\n\n"+
			"Put a team back in team_ids to keep its access.", len(removed), noun, d.parentLabelHeld(p.kind, id), strings.Join(lines, "\n")))
	return out
}

// refresh adds every team holding access to team_ids, so a team that would lose it shows leaving
// in the plan, and records the grants it saw (grantRecord). Without seeing every grant it fails.
// remove: the parent is gone and the resource leaves state.
func (p *exclusiveParent) refresh(ctx context.Context, d *providerData, state exclusiveSet, importing bool, private privateSetter, diags *diag.Diagnostics) (out exclusiveSet, remove bool) {
	id := state.ParentID.ValueString()
	noun := p.kind.noun
	if seen, err := p.see(d, ctx, id); err == nil && seen.missing {
		if importing {
			importedMissing(diags, "exclusive team access", p.kind.notFound(id))
			return state, false
		}
		if teams, _ := teamIDsOf(ctx, state.TeamIDs); d.parentGone(ctx, p.kind, id, slices.Sorted(maps.Keys(teams))) {
			diags.AddWarning(upperFirst(noun)+" deleted: exclusive team access removed from state",
				fmt.Sprintf("The exclusive team access of %s %s left state: the %s was deleted. %s", noun, id, noun, d.parentGoneProof(p.kind)))
			return state, true
		}
	}
	if why := p.cannotSee(ctx, d, id); why != "" {
		diags.AddAttributeError(path.Root(p.kind.idAttr), "Cannot refresh exclusive team access", why)
		return state, false
	}
	grants, err := p.list(d, ctx, id)
	if err != nil {
		diags.AddError("Error reading team access", p.listError(id, err))
		return state, false
	}
	if grants.parentMissing {
		diags.AddAttributeError(path.Root(p.kind.idAttr), "Cannot refresh exclusive team access", parentMissingText(p.kind, refreshCheck, "The exclusive team access of "+noun+" "+id, id))
		return state, false
	}
	writeGrantRecord(ctx, private, p.kind.grantPrefix, grantRecordOf(grants), diags)
	ids, _ := teamIDsOf(ctx, state.TeamIDs)
	if ids == nil {
		ids = map[string]bool{}
	}
	for _, g := range grants.grants {
		ids[g.TeamID] = true
	}
	state.TeamIDs = teamIDSet(ids)
	state.RemovedTeamIDs, state.RemovedGrants = teamIDSet(nil), teamIDSet(nil) // nothing removed since this refresh
	return state, false
}

// apply removes the revocations once the lock-out guard passes again, and keeps in team_ids the
// teams whose removal failed, so the next plan shows them leaving again. The record becomes the
// grants left. prior and seen are nil for a new resource. ok: the result goes to state.
func (p *exclusiveParent) apply(ctx context.Context, d *providerData, plan exclusiveSet, prior map[string]bool, seen grantRecord,
	private privateSetter, diags *diag.Diagnostics) (exclusiveSet, bool) {
	keep, ok := teamIDsOf(ctx, plan.TeamIDs)
	if !ok {
		diags.AddAttributeError(path.Root("team_ids"), "Unknown team_ids", "team_ids must be known when the resource is applied.")
		return plan, false
	}
	id := plan.ParentID.ValueString()
	noun := p.kind.noun
	removedIDs, planned := teamIDsOf(ctx, plan.RemovedTeamIDs)
	if (planned && !hasRemoval(removedIDs, keep)) || (!planned && prior != nil && len(removedTeams(nil, keep, prior, seen)) == 0) {
		// Nothing to remove, no request.
		if !planned {
			plan.RemovedTeamIDs = teamIDSet(nil)
		}
		if plan.RemovedGrants.IsUnknown() {
			plan.RemovedGrants = teamIDSet(nil)
		}
		return plan, true
	}
	grants, err := p.list(d, ctx, id)
	if err != nil {
		diags.AddError("Error listing team access", p.listError(id, err))
		return plan, false
	}
	if grants.parentMissing {
		diags.AddAttributeError(path.Root(p.kind.idAttr), upperFirst(noun)+" not found", p.kind.notFound(id))
		return plan, false
	}
	if !planned {
		removedIDs = removedTeams(grants, keep, prior, seen)
	}
	removed := revocations(grants, keep, removedIDs, seen)
	if ids, known := teamIDsOf(ctx, plan.RemovedGrants); known {
		// Only the grants the plan named, whatever the service holds now.
		removed = slices.DeleteFunc(removed, func(g *exclusiveGrant) bool { return !ids[g.ID] })
	}
	// The guard again: a membership or grant may have changed since the plan (shared lists: no request).
	if msg := p.lockOut(ctx, d, id, grants, removed); msg != "" {
		diags.AddAttributeError(path.Root("team_ids"), "Removing this team access would lock the API token out of the "+noun, msg)
		return plan, false
	}
	defer p.kind.invalidate(d, id)
	final := map[string]bool{}
	for t := range keep {
		final[t] = true
	}
	left := grantRecordOf(grants)
	for _, g := range removed {
		tflog.Debug(ctx, "Removing team access not declared in team_ids", map[string]any{"id": g.ID, "team_id": g.TeamID, p.kind.idAttr: id, "access": g.Access})
		err := p.remove(d, ctx, g.ID)
		if isNotFound(err) {
			if why := confirmGone(ctx, removeCheck, p.kind.what+" "+g.ID+" (team "+g.TeamID+")", p.kind.perm, d.locateGrant(p.kind, g.ID, g.TeamID, id)); why != "" {
				final[g.TeamID] = true
				diags.AddError("Cannot remove team access", why)
				continue
			}
			err = nil
		}
		if err != nil {
			final[g.TeamID] = true
			diags.AddError("Error removing team access",
				fmt.Sprintf("Removing the %s access of team %s to %s %s (%s): %s. Apply again to retry.",
					g.Access, teamLabel(p.teamNames(ctx, d, id, []*exclusiveGrant{g}), g.TeamID), noun, id, g.ID, err))
			continue
		}
		delete(left, g.TeamID)
		tflog.Info(ctx, "Removed team access not declared in team_ids", map[string]any{"id": g.ID, "team_id": g.TeamID, p.kind.idAttr: id})
	}
	writeGrantRecord(ctx, private, p.kind.grantPrefix, left, diags)
	grantIDs := plan.RemovedGrants
	if grantIDs.IsUnknown() {
		grantIDs = plannedGrants(prior, removedIDs, seen, removed)
	}
	return exclusiveSet{ParentID: plan.ParentID, TeamIDs: teamIDSet(final), RemovedTeamIDs: teamIDSet(removedIDs), RemovedGrants: grantIDs}, true
}

// teamNames names the grants' teams from the list's answer, else through the kind (the shared
// team list): never a read per grant.
func (p *exclusiveParent) teamNames(ctx context.Context, d *providerData, id string, grants []*exclusiveGrant) map[string]string {
	as := make([]*tfe.TeamAccess, 0, len(grants))
	for _, g := range grants {
		as = append(as, &tfe.TeamAccess{ID: g.ID, Team: &tfe.Team{ID: g.TeamID, Name: g.TeamName}})
	}
	return d.grantTeamNames(ctx, p.kind, id, as)
}

// cannotSee says why the token may not refresh the exclusive access ("" when it may).
func (p *exclusiveParent) cannotSee(ctx context.Context, d *providerData, id string) string {
	what := "The exclusive team access of " + p.kind.noun + " " + id
	seen, err := p.see(d, ctx, id)
	switch {
	case err != nil:
		return fmt.Sprintf("%s cannot be refreshed: reading the %s to tell whether the API token sees every grant failed: %s.", what, p.kind.noun, err)
	case seen.missing:
		return parentMissingText(p.kind, refreshCheck, what, id)
	case !seen.allGrants:
		return fmt.Sprintf("%s cannot be refreshed: %s State keeps it; refresh with a token that has the permission.", what, p.notAllGrants(id, seen.name))
	}
	return ""
}

// notAllGrants says the token may not see every grant of parent id (name).
func (p *exclusiveParent) notAllGrants(id, name string) string {
	return fmt.Sprintf("%s %s (%q) exists, but the API token may not see every team's access to it: it needs %s, or to be an owner. "+
		"Without it a token sees only the access of its own teams, and could not tell which other teams hold access.", p.kind.noun, id, name, p.kind.perm)
}

// lockOut says why removing these grants would take the token's user's administration of the
// parent away, or "" when it would not or the API cannot tell (DESIGN.md "Exclusive team
// access: the grants a plan saw").
func (p *exclusiveParent) lockOut(ctx context.Context, d *providerData, id string, grants *exclusiveGrants, removed []*exclusiveGrant) string {
	var admins []*exclusiveGrant
	for _, g := range removed {
		if g.admin {
			admins = append(admins, g)
		}
	}
	if len(admins) == 0 {
		return ""
	}
	noun := p.kind.noun
	caller, err := d.caller.get(ctx, d.client)
	if err != nil {
		return fmt.Sprintf("The provider could not check whether removing %s's admin access locks the API token out of %s %s: %s. Apply again later, or keep the team in team_ids.",
			admins[0].TeamID, noun, id, err)
	}
	if caller == nil {
		tflog.Debug(ctx, "Lock-out guard: the token names no user (an organization or team token), so the provider cannot tell whether it administers the parent through a grant", map[string]any{p.kind.idAttr: id})
		return ""
	}
	teams, err := d.parentOrganizationTeams(ctx, p.kind, id, admins[0].TeamID)
	if err != nil {
		return fmt.Sprintf("The provider could not check whether removing %s's admin access locks the API token out of %s %s: listing the organization's teams: %s. Apply again later, or keep the team in team_ids.",
			admins[0].TeamID, noun, id, err)
	}
	mine := map[string]*tfe.Team{}
	for _, t := range teams.byID {
		if slices.ContainsFunc(t.Users, func(u *tfe.User) bool { return u != nil && u.ID == caller.ID }) {
			if p.orgAdmin(t) {
				return "" // administers every parent of the kind through the organization
			}
			mine[t.ID] = t
		}
	}
	gone := map[string]bool{}
	for _, g := range removed {
		gone[g.ID] = true
	}
	for _, g := range grants.grants {
		if g.admin && mine[g.TeamID] != nil && !gone[g.ID] {
			return "" // another admin grant of the user's stays
		}
	}
	for _, g := range admins {
		if t := mine[g.TeamID]; t != nil {
			return fmt.Sprintf("The API token acts as user %s, who administers %s %s only through team %q (%s)'s admin access (%s), which this plan removes: "+
				"after it the token could no longer manage the %s's team access, and neither could Terraform.\n\n"+
				"Keep %s (%q) in team_ids, give the user admin access through another team first, or apply with a token of an organization owner.",
				cmp.Or(caller.Username, caller.ID), noun, d.parentLabel(ctx, p.kind, id), t.Name, t.ID, g.ID, noun, t.ID, t.Name)
		}
	}
	return ""
}

// plannedGrants is removed_grant_ids: an update's from the refresh's record (seen) alone, like
// removed_team_ids, so that Terraform's second plan at apply makes the same set; a new
// resource's, and an update's without a record, from the grants the plan removes (removed).
func plannedGrants(prior, teams map[string]bool, seen grantRecord, removed []*exclusiveGrant) types.Set {
	ids := map[string]bool{}
	if prior != nil && seen != nil {
		for team := range teams {
			if seen[team] != "" {
				ids[seen[team]] = true
			}
		}
		return teamIDSet(ids)
	}
	for _, g := range removed {
		ids[g.ID] = true
	}
	return teamIDSet(ids)
}

// removedTeams is the plan's removed_team_ids: an update's from state and the refresh's record
// (seen) alone, so that Terraform's second plan at apply makes the same set; a new resource's from
// grants.
func removedTeams(grants *exclusiveGrants, keep, prior map[string]bool, seen grantRecord) map[string]bool {
	out := map[string]bool{}
	if prior != nil {
		for id := range prior {
			if !keep[id] && (seen == nil || seen[id] != "") {
				out[id] = true
			}
		}
		return out
	}
	for _, g := range grants.grants {
		if !keep[g.TeamID] {
			out[g.TeamID] = true
		}
	}
	return out
}

// revocations are the removed teams' grants that, for an update, the refresh recorded (seen): a
// grant made after the plan is left for the next plan to show.
func revocations(grants *exclusiveGrants, keep, removed map[string]bool, seen grantRecord) []*exclusiveGrant {
	var out []*exclusiveGrant
	for _, g := range grants.grants {
		if keep[g.TeamID] || !removed[g.TeamID] || (seen != nil && seen[g.TeamID] != g.ID) {
			continue
		}
		out = append(out, g)
	}
	return out
}

func hasRemoval(prior, keep map[string]bool) bool {
	for id := range prior {
		if !keep[id] {
			return true
		}
	}
	return false
}

// teamIDsOf returns the elements of a known set.
// priorTeams is the team_ids of a state, empty (never nil) when it holds none.
func priorTeams(ctx context.Context, s types.Set) map[string]bool {
	if m, _ := teamIDsOf(ctx, s); m != nil {
		return m
	}
	return map[string]bool{}
}

// importParent imports the exclusive set of parent id (the import ID, read by importID).
func (p *exclusiveParent) importParent(ctx context.Context, id string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !strings.HasPrefix(id, p.kind.idPrefix) || strings.Contains(id, "/") {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("Expected the ID of a %s (%s<id>), got %q.", p.kind.noun, p.kind.idPrefix, id))
		return
	}
	req.ID = id
	resource.ImportStatePassthroughID(ctx, path.Root(p.kind.idAttr), req, resp)
	markImporting(ctx, resp)
}

func teamIDsOf(ctx context.Context, s types.Set) (map[string]bool, bool) {
	if s.IsNull() || s.IsUnknown() {
		return nil, false
	}
	var ids []string
	if d := s.ElementsAs(ctx, &ids, false); d.HasError() {
		return nil, false
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m, true
}

func teamIDSet(ids map[string]bool) types.Set {
	keys := make([]string, 0, len(ids))
	for id := range ids {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	s, _ := types.SetValueFrom(context.Background(), types.StringType, keys)
	return s
}

// grantRecordOf is the record a refresh keeps: each team's grant ID.
func grantRecordOf(grants *exclusiveGrants) grantRecord {
	rec := grantRecord{}
	for _, g := range grants.grants {
		rec[g.TeamID] = g.ID
	}
	return rec
}

// exclusiveGrantsOf converts a shared list of either kind: each grant with a team, sorted by ID.
func exclusiveGrantsOf[T any](l *recordsByID[T], conv func(T) *exclusiveGrant) *exclusiveGrants {
	out := &exclusiveGrants{parentMissing: l.parentMissing}
	for _, v := range sortedByKey(l.byID) {
		if g := conv(v); g != nil && g.TeamID != "" {
			out.grants = append(out.grants, g)
		}
	}
	return out
}
