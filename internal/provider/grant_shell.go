package provider

import (
	"context"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// The grant resource of a parent kind (tfgov_team_access, tfgov_team_project_access): its read,
// delete, import and the create and update around the one request are written once, over a
// grantShell that holds what differs. DESIGN.md "One grant resource, two parents".

// grantFields points at the attributes every grant model has.
type grantFields struct{ id, teamID, teamName, parentID, access *types.String }

// grantShell is a grant resource's kind, its grant type G and model M, and the requests on them.
type grantShell[G, M any] struct {
	kind       *grantParentKind
	fields     func(m *M) grantFields
	model      func(g G, prior M) *M // g's state; team and parent from the answer when it names them
	goneTeam   func(m M) string      // the team as the warning of a deleted parent names it
	grantID    func(g G) string
	access     func(g G) string
	team       func(g G) *tfe.Team
	shared     func(d *providerData, ctx context.Context, parentID string) (*recordsByID[G], error)
	held       func(d *providerData, parentID string) (*recordsByID[G], bool)
	afresh     func(ctx context.Context, c *tfe.Client, parentID string) ([]G, error) // no shared list
	read       func(ctx context.Context, c *tfe.Client, id string) (G, error)
	remove     func(ctx context.Context, c *tfe.Client, id string) error
	taken      func(d *providerData, ctx context.Context, teamID, parentID string, g G, note string) string
	addMissing func(d *providerData, ctx context.Context, teamID, parentID string) string // an add's 404
	updMissing func(d *providerData, ctx context.Context, id, parentID string) string     // an update's 404
	byNames    func(d *providerData, ctx context.Context, org, parentName, teamName string) (string, error)
}

// grantResource is a grant resource's CRUD over its shell; the type's file adds the schema, the plan
// and the two requests whose options differ.
type grantResource[G, M any] struct {
	resourceBase
	shell *grantShell[G, M]
}

// noun is the grant's lower-case noun in messages: "team access".
func (s *grantShell[G, M]) noun() string { return strings.ToLower(s.kind.what) }

// create adds the grant through add, the one request, and refuses one that exists, also after a lost answer.
func (r *grantResource[G, M]) create(ctx context.Context, plan M, add func() (G, error), applied func(G) *M, resp *resource.CreateResponse) {
	s, k := r.shell, r.shell.kind
	f := s.fields(&plan)
	teamID, parentID := f.teamID.ValueString(), f.parentID.ValueString()
	tflog.Debug(ctx, "Adding "+s.noun(), map[string]any{"team_id": teamID, k.noun + "_id": parentID, "access": f.access.ValueString()})
	defer k.invalidate(r.data, parentID)
	g, err := reconcileCreate(ctx, "tfgov_"+string(k.grant),
		func() (G, error) {
			g, err := add()
			if err == nil {
				r.data.owned.receive(s.grantID(g))
			}
			return g, err
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (G, bool, error) {
			var none G // a grant found is never adopted
			return none, false, r.lostAdd(ctx, teamID, parentID, amb)
		})
	if _, ok := err.(*conflictError); ok { //nolint:errorlint // reconcileCreate returns it unwrapped
		resp.Diagnostics.AddError("Error adding "+s.noun(), err.Error())
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error adding "+s.noun(), r.addError(ctx, teamID, parentID, err))
		return
	}
	tflog.Info(ctx, "Added "+s.noun(), map[string]any{"id": s.grantID(g), "team_id": teamID, k.noun + "_id": parentID, "access": s.access(g)})
	resp.Diagnostics.Append(resp.State.Set(ctx, applied(g))...)
}

// Read finds the grant in its parent's shared list (one request per 100 grants a plan); one missing
// is gone only as grantGone says. An import by ID has no parent yet: read by ID.
func (r *grantResource[G, M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	s, k := r.shell, r.shell.kind
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	f := s.fields(&state)
	id, parentID := f.id.ValueString(), f.parentID.ValueString()
	var g G
	found, listMissing := false, false
	readByID := func() bool {
		var err error
		g, err = s.read(ctx, r.data.client, id)
		if err != nil && !isNotFound(err) {
			resp.Diagnostics.AddError("Error reading "+s.noun(), fmt.Sprintf("Reading %s %s: %s", s.noun(), id, err))
			return false
		}
		found = err == nil
		return true
	}
	if parentID == "" {
		if !readByID() {
			return
		}
	} else {
		grants, err := s.shared(r.data, ctx, parentID)
		if err != nil {
			resp.Diagnostics.AddError("Error reading "+s.noun(), fmt.Sprintf("Listing the team access of %s %s: %s", k.noun, parentID, err))
			return
		}
		listMissing = grants.parentMissing
		// Make sure (shared_lists.go): read by ID.
		if g, found = grants.lookup(id); !found && !grants.definite() && !readByID() {
			return
		}
	}
	if !found && importing {
		importedMissing(&resp.Diagnostics, s.noun(), fmt.Sprintf("%s %s was not found: no team holds a grant of that ID, or the API token may not see it "+
			"(members see only the access of their own teams; owners, the %s's admins and teams with \"Manage %ss\" see all).", k.what, id, k.noun, k.noun))
		return
	}
	if !found && parentID == "" {
		resp.Diagnostics.AddError("Error reading "+s.noun(), fmt.Sprintf("%s %s was not found, and state names no %s to tell whether it was removed "+
			"or the API token may not see it. State keeps it; refresh with a token that has %s, or an owner's.", k.what, id, k.noun, k.perm))
		return
	}
	if !found {
		gone, why := r.data.grantGone(ctx, k, refreshCheck, id, f.teamID.ValueString(), parentID, listMissing)
		if !gone {
			resp.Diagnostics.AddError("Cannot refresh "+s.noun(), why)
			return
		}
		if why != "" {
			resp.Diagnostics.AddWarning(upperFirst(k.noun)+" deleted: "+s.noun()+" removed from state",
				fmt.Sprintf("%s %s of team %s left state: its %s %s was deleted. %s", k.what, id, s.goneTeam(state), k.noun, parentID, why))
		}
		tflog.Info(ctx, k.what+" no longer exists; removing it from state", map[string]any{"id": id, k.noun + "_id": parentID})
		resp.State.RemoveResource(ctx)
		return
	}
	m := s.model(g, state)
	if mf := s.fields(m); mf.teamName.IsNull() {
		// Read by ID, as an import is: the answer names no team.
		*mf.teamName = r.data.grantTeamName(ctx, k, mf.parentID.ValueString(), mf.teamID.ValueString())
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// update sends the grant's level and permissions through send, the one request.
func (r *grantResource[G, M]) update(ctx context.Context, plan, state M, send func(id string) (G, error), applied func(G) *M, resp *resource.UpdateResponse) {
	s, k := r.shell, r.shell.kind
	f := s.fields(&state)
	id, parentID := f.id.ValueString(), f.parentID.ValueString()
	tflog.Debug(ctx, "Updating "+s.noun(), map[string]any{"id": id, "access": s.fields(&plan).access.ValueString()})
	defer k.invalidate(r.data, parentID)
	g, err := send(id)
	if err != nil {
		detail := fmt.Sprintf("Updating %s %s: %s", s.noun(), id, err)
		if isNotFound(err) {
			detail = s.updMissing(r.data, ctx, id, parentID)
		}
		resp.Diagnostics.AddError("Error updating "+s.noun(), detail)
		return
	}
	tflog.Info(ctx, "Updated "+s.noun(), map[string]any{"id": id, "access": s.access(g)})
	resp.Diagnostics.Append(resp.State.Set(ctx, applied(g))...)
}

func (r *grantResource[G, M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	s, k := r.shell, r.shell.kind
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	f := s.fields(&state)
	id, parentID := f.id.ValueString(), f.parentID.ValueString()
	defer k.invalidate(r.data, parentID)
	deleteConfirmed(ctx, &resp.Diagnostics, removeCheck, "remove", s.noun(), k.what+" "+id, id, k.perm,
		func() error { return s.remove(ctx, r.data.client, id) }, r.data.locateGrant(k, id, f.teamID.ValueString(), parentID))
}

// ImportState takes the grant's ID, or `<organization>/<parent name>/<team name>` resolved by three
// reads, on import only.
func (r *grantResource[G, M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	s := r.shell
	forms := s.kind.grantPrefix + "<id> or <organization>/<" + s.kind.noun + "_name>/<team_name>"
	r.importIDOrNames(ctx, req, resp, s.noun(), s.kind.grantPrefix, forms, 3, false, func(parts []string) (string, error) {
		id, err := s.byNames(r.data, ctx, parts[0], parts[1], parts[2])
		if err == nil {
			tflog.Debug(ctx, "Resolved "+s.noun()+" import ID", map[string]any{"import_id": strings.Join(parts, "/"), "id": id})
		}
		return id, err
	})
}

// planTaken refuses a grant for a team holding one already, when this plan listed the parent anyway:
// listing for every create would triple a lone grant's requests, so otherwise the apply refuses it,
// with the same advice.
func (r *grantResource[G, M]) planTaken(ctx context.Context, teamID, parentID types.String, diags *diag.Diagnostics) {
	s := r.shell
	if r.data == nil || !isKnown(teamID) || !isKnown(parentID) {
		return
	}
	grants, ok := s.held(r.data, parentID.ValueString())
	if !ok || grants.parentMissing {
		return
	}
	for _, g := range sortedByKey(grants.byID) {
		if t := s.team(g); t != nil && t.ID == teamID.ValueString() {
			diags.AddAttributeError(path.Root("team_id"), s.kind.what+" already exists",
				s.taken(r.data, ctx, teamID.ValueString(), parentID.ValueString(), g, "Found at plan, in the "+s.kind.noun+"'s team access this plan read: nothing was sent."))
			return
		}
	}
}

// planFlap refuses a grant that a planned exclusive set of its parent leaves out (team_access_plans.go).
func (r *grantResource[G, M]) planFlap(ctx context.Context, plan M, diags *diag.Diagnostics) {
	f := r.shell.fields(&plan)
	if r.data == nil || !isKnown(*f.teamID) || !isKnown(*f.parentID) {
		return
	}
	parent := accessParent{r.shell.kind, f.parentID.ValueString()}
	if r.data.lists.plannedAccess.planGrant(parent, f.teamID.ValueString()) {
		diags.AddAttributeError(path.Root("team_id"), r.shell.kind.what+" and exclusive team access disagree", r.data.accessFlap(ctx, parent, []string{f.teamID.ValueString()}))
	}
}

// planTeamName keeps the refreshed name of an unchanged team, else reads the shared team list.
func (r *grantResource[G, M]) planTeamName(ctx context.Context, req resource.ModifyPlanRequest, plan M, resp *resource.ModifyPlanResponse) {
	f := r.shell.fields(&plan)
	if !f.teamName.IsUnknown() || !isKnown(*f.teamID) {
		return
	}
	name := types.StringUnknown()
	if !req.State.Raw.IsNull() {
		var state M
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if sf := r.shell.fields(&state); sf.teamID.Equal(*f.teamID) {
			name = *sf.teamName
		}
	}
	if name.IsUnknown() && r.data != nil {
		parentID := ""
		if isKnown(*f.parentID) {
			parentID = f.parentID.ValueString()
		}
		if n := r.data.grantTeamName(ctx, r.shell.kind, parentID, f.teamID.ValueString()); !n.IsNull() {
			name = n
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("team_name"), name)...)
}

// teamGrant is the grant of team teamID among grants.
func (s *grantShell[G, M]) teamGrant(grants []G, teamID string) (G, bool) {
	for _, g := range grants {
		if t := s.team(g); t != nil && t.ID == teamID {
			return g, true
		}
	}
	var none G
	return none, false
}

// lostAdd looks for the grant a lost add may have made. One found is never adopted: a grant has no
// creation time or mark to prove it is this add's (DESIGN.md "Lost creates"), so it fails as taken.
func (r *grantResource[G, M]) lostAdd(ctx context.Context, teamID, parentID string, amb *tfeclient.AmbiguousWriteError) error {
	grants, err := r.shell.afresh(ctx, r.data.client, parentID)
	if err != nil {
		return err
	}
	if g, ok := r.shell.teamGrant(grants, teamID); ok {
		return &conflictError{r.shell.taken(r.data, ctx, teamID, parentID, g, lostAnswerFound(amb))}
	}
	return nil
}

// addError looks for the existing grant rather than match the service's 422 wording, and says how to
// import it.
func (r *grantResource[G, M]) addError(ctx context.Context, teamID, parentID string, err error) string {
	s := r.shell
	if isNotFound(err) {
		return s.addMissing(r.data, ctx, teamID, parentID)
	}
	if grants, lerr := s.afresh(ctx, r.data.client, parentID); lerr == nil {
		if g, ok := s.teamGrant(grants, teamID); ok {
			return s.taken(r.data, ctx, teamID, parentID, g, "The service said: "+err.Error())
		}
	}
	return fmt.Sprintf("Adding access for team %s to %s %s: %s", teamID, s.kind.noun, parentID, err)
}

// teamByName is the team of organization org called name, or an error naming it.
func teamByName(ctx context.Context, c *tfe.Client, org, name string) (*tfe.Team, error) {
	teams, err := c.Teams.List(ctx, org, &tfe.TeamListOptions{Names: []string{name}})
	if err != nil {
		return nil, fmt.Errorf("looking up team %q in organization %q: %w", name, org, err)
	}
	var team *tfe.Team
	for _, t := range teams.Items {
		if t.Name == name {
			team = t
		}
	}
	if team == nil {
		return nil, fmt.Errorf("team %q was not found in organization %q, or the API token may not see it (secret teams are visible only to their members and owners)", name, org)
	}
	return team, nil
}
