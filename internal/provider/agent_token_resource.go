package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ resource.ResourceWithConfigure   = (*agentTokenResource)(nil)
	_ resource.ResourceWithImportState = (*agentTokenResource)(nil)
	_ resource.ResourceWithIdentity    = (*agentTokenResource)(nil)
)

// NewAgentTokenResource is the tfgov_agent_token resource.
func NewAgentTokenResource() resource.Resource {
	return &agentTokenResource{resourceBase{typ: agentTokenType}}
}

type agentTokenResource struct{ resourceBase }

// agentTokenIdentityAttrs: the pool spares the lookup an import by token ID makes.
var agentTokenIdentityAttrs = []identityAttr{
	{"agent_pool_id", "ID of the agent pool (`apool-<id>`)."},
	{"id", "ID of the agent token (`at-<id>`)."},
}

type agentTokenResourceModel struct {
	ID               types.String `tfsdk:"id"`
	AgentPoolID      types.String `tfsdk:"agent_pool_id"`
	Description      types.String `tfsdk:"description"`
	Token            types.String `tfsdk:"token"`
	RotationTriggers types.Map    `tfsdk:"rotation_triggers"`
}

func (m *agentTokenResourceModel) fields() []modelField {
	return []modelField{
		{"id", types.StringType, &m.ID},
		{"agent_pool_id", types.StringType, &m.AgentPoolID},
		{"description", types.StringType, &m.Description},
		{"token", types.StringType, &m.Token},
		{"rotation_triggers", types.MapType{ElemType: types.StringType}, &m.RotationTriggers},
	}
}

// FromTerraform5Value and ToTerraform5Value spare the framework's reflection (model_convert.go).
func (m *agentTokenResourceModel) FromTerraform5Value(v tftypes.Value) error {
	return fromTerraformObject(v, m.fields())
}

func (m *agentTokenResourceModel) ToTerraform5Value() (any, error) {
	return toTerraformObject(m.fields())
}

func (r *agentTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, agentTokenType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "An authentication token of an agent pool, which HCP Terraform agents use to register with the pool.\n\n" +
			"The API returns the secret only when the token is created, so the provider keeps it in state from then on. " +
			"The API cannot change a token: any change of `description` or `rotation_triggers` creates a new token and revokes the old one " +
			"(add `lifecycle { create_before_destroy = true }` to hand the new secret to your agents before the old one stops working).\n\n" +
			"**Lost answers.** A token has no natural key and its secret is returned only once, so a token made by a create whose answer was lost " +
			"(a 5xx, or a connection lost once the request was sent) can never be adopted: nobody received its secret. The provider creates the token again, " +
			"and never revokes a token it cannot prove it made: no API field says which process made a token, and another configuration's (or a person's) token " +
			"with the same description made at the same moment looks the same. Instead the apply ends with a warning that lists the possible orphans: " +
			"the pool's tokens with the description sent, created while the lost request was in flight as the service's clock tells it (the provider reads that clock from the \"Date\" header of the service's answers, so a service clock ahead of or behind the machine's changes nothing), " +
			"that no create of this apply received (tokens of `count` and `for_each` siblings are never listed), with how to revoke them " +
			"(the pool's token list in the organization's settings, or `DELETE /api/v2/authentication-tokens/<id>`). " +
			"Each such warning's summary names its tokens, so Terraform never folds two into \"and N more similar warnings\". " +
			"A token nobody holds is never used: the action `tfgov_agent_token_prune`, which revokes the tokens of one agent pool unused for a duration, also revokes it once that duration has passed. " +
			"Give each configuration's tokens a description of its own to make that list exact. " +
			"A token whose create answer reached a Terraform process that was then killed before saving state cannot be told from others and stays: revoke it in the pool's token list.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the token (`at-<id>`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"agent_pool_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the agent pool (`apool-<id>`). Changing it creates a new token.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{idValidator("apool-")},
			},
			"description": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Description of the token, shown in the agent pool's token list. Changing it creates a new token (the API cannot update one).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{notBlank()},
			},
			"token": schema.StringAttribute{
				Computed:            true,
				Sensitive:           true,
				MarkdownDescription: "The secret. Known only to the Terraform run that created the token; null after an import, since the API never returns it again.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"rotation_triggers": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Arbitrary values that, when changed, create a new token and revoke the old one. " +
					"Feed it a `time_rotating` resource's `id` to rotate on a schedule.",
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
		},
	}
}

func (r *agentTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	plan, diags := getModel[agentTokenResourceModel](ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	poolID := plan.AgentPoolID.ValueString()
	defer r.data.lists.agentTokens.invalidate(poolID)
	tflog.Debug(ctx, "Creating agent token", map[string]any{"agent_pool_id": poolID})
	opts := tfe.AgentTokenCreateOptions{Description: plan.Description.ValueStringPointer()}
	pool := r.data.owned.lock("agent pool " + poolID)
	var maybeOrphans []*tfe.AgentToken
	tok, err := reconcileCreate(ctx, "tfgov_agent_token",
		func() (*tfe.AgentToken, error) {
			pool.RLock()
			defer pool.RUnlock()
			tok, err := r.data.client.AgentTokens.Create(ctx, poolID, opts)
			if err == nil {
				r.data.owned.receive(tok.ID)
			}
			return tok, err
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*tfe.AgentToken, bool, error) {
			pool.Lock()
			defer pool.Unlock()
			found, err := r.unreceivedTokens(ctx, poolID, *opts.Description, amb)
			maybeOrphans = append(maybeOrphans, found...)
			return nil, false, err
		})
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("agent_pool_id"), "Error creating agent token", r.data.agentPoolError(ctx, poolID, err))
		return
	}
	plan.ID = types.StringValue(tok.ID)
	plan.Token = types.StringValue(tok.Token)
	tflog.Info(ctx, "Created agent token", map[string]any{"id": tok.ID, "agent_pool_id": poolID})
	if summary, detail := agentTokenOrphansWarning(poolID, *opts.Description, tok.ID, maybeOrphans); detail != "" {
		resp.Diagnostics.AddWarning(summary, detail)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Read finds the token in its pool's shared list (a request per 100 tokens of a pool per plan):
// missing, it was revoked outside Terraform; a 404 on the list fails (DESIGN.md "Gone or cannot
// see"). The secret is never listed: the one in state is kept.
func (r *agentTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	state, diags := getModel[agentTokenResourceModel](ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	poolID := state.AgentPoolID.ValueString()
	tokens, err := r.data.agentPoolTokens(ctx, poolID)
	if err != nil {
		resp.Diagnostics.AddError("Error reading agent token", fmt.Sprintf("Listing the tokens of agent pool %s: %s", poolID, err))
		return
	}
	id := state.ID.ValueString()
	if tokens.parentMissing {
		if importing {
			importedMissing(&resp.Diagnostics, "agent token", r.data.agentPoolError(ctx, poolID, tfe.ErrResourceNotFound))
		} else {
			resp.Diagnostics.AddError("Cannot refresh agent token", r.data.agentTokenCannotSee(ctx, refreshCheck, poolID, id))
		}
		return
	}
	tok, ok := tokens.lookup(id)
	if !ok && !tokens.definite() {
		// Missing from a list of several pages: only probably gone
		// (shared_lists.go), and a read by ID does not name the pool.
		var failure string
		if tok, ok, failure = r.data.agentTokenInPool(ctx, poolID, id); failure != "" {
			resp.Diagnostics.AddError("Error reading agent token", failure)
			return
		}
	}
	if !ok && importing {
		importedMissing(&resp.Diagnostics, "agent token", fmt.Sprintf("Agent token %s was not found in agent pool %s: the pool's tokens, which the API token can list, do not include it.", id, poolID))
		return
	}
	if !ok {
		tflog.Info(ctx, "Agent token no longer exists; removing it from state", map[string]any{"id": id, "agent_pool_id": poolID})
		resp.State.RemoveResource(ctx)
		return
	}
	state.setListed(tok)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update is reached only when nothing but computed values would change:
// every configurable attribute forces a new token.
func (r *agentTokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan agentTokenResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *agentTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, diags := getModel[agentTokenResourceModel](ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	defer r.data.lists.agentTokens.invalidate(state.AgentPoolID.ValueString())
	err := r.data.client.AgentTokens.Delete(ctx, state.ID.ValueString())
	if isNotFound(err) {
		poolID, id := state.AgentPoolID.ValueString(), state.ID.ValueString()
		if why := confirmGone(ctx, revokeCheck, "Agent token "+id, permManageAgentPools, r.data.locateAgentToken(poolID, id)); why != "" {
			resp.Diagnostics.AddError("Cannot revoke agent token", why)
			return
		}
		err = nil
	}
	if err != nil {
		resp.Diagnostics.AddError("Error deleting agent token", fmt.Sprintf("Deleting agent token %s: %s", state.ID.ValueString(), err))
		return
	}
	tflog.Info(ctx, "Deleted agent token", map[string]any{"id": state.ID.ValueString()})
}

// ImportState takes `<agent_pool_id>/<token_id>`, or the bare `at-` ID, whose pool is then looked
// for among the organization's (the token read does not name its pool).
func (r *agentTokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	const forms = "<agent_pool_id>/<token_id> or <token_id> (at-<id>)"
	var poolID, tokenID string
	if strings.HasPrefix(req.ID, "at-") {
		tokenID = req.ID
		var err error
		if poolID, err = r.findPool(ctx, tokenID); err != nil {
			resp.Diagnostics.AddError("Error importing agent token", err.Error())
			return
		}
	} else {
		parts, err := splitImportID(req.ID, 2, forms)
		if err != nil {
			resp.Diagnostics.AddError("Invalid import ID", err.Error())
			return
		}
		poolID, tokenID = parts[0], parts[1]
		if !strings.HasPrefix(poolID, "apool-") || !strings.HasPrefix(tokenID, "at-") {
			resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("invalid import ID %q: want %s", req.ID, forms))
			return
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), tokenID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("agent_pool_id"), poolID)...)
	markImporting(ctx, resp)
	resp.Diagnostics.AddWarning("Agent token secret cannot be imported",
		fmt.Sprintf("The API returns an agent token's secret only when it is created, so the imported token %s has a null token attribute. Replace the resource (terraform apply -replace) to get a token whose secret Terraform knows.", tokenID))
}

// unreceivedTokens: the pool's tokens with the sent description, created in the request's window on
// the service's clock, that no create here received. Never revoked, only named (nothing proves who made
// one); the caller holds the pool's lock alone, so siblings' tokens are all received (DESIGN.md "Lost creates").
func (r *agentTokenResource) unreceivedTokens(ctx context.Context, poolID, description string, amb *tfeclient.AmbiguousWriteError) ([]*tfe.AgentToken, error) {
	tokens, err := tfeclient.ListAll(ctx, r.data.agentTokenPages(poolID))
	if err != nil {
		return nil, err
	}
	var found []*tfe.AgentToken
	for _, t := range tokens {
		if t.Description == description && amb.Within(t.CreatedAt) && !r.data.owned.wasReceived(t.ID) {
			found = append(found, t)
		}
	}
	for _, t := range found {
		countReconcile("tfgov_agent_token", reconcileLeft)
		agentTokenOrphanCandidates.Store(t.ID, true)
		tflog.Warn(ctx, "An agent token whose create answer was lost may be this one; it is left alone", map[string]any{"id": t.ID, "agent_pool_id": poolID})
	}
	return found, nil
}

// agentTokenOrphanCandidates: every token a create here named as possibly left behind (for tests).
var agentTokenOrphanCandidates sync.Map // token ID → true

// agentTokenOrphansWarning names the tokens a lost create may have left and how to revoke them ("",
// "" for none). The summary names them: Terraform folds warnings with one summary into "and N more
// similar warnings", showing only the first detail.
func agentTokenOrphansWarning(poolID, description, id string, tokens []*tfe.AgentToken) (summary, detail string) {
	lines := candidateLines(tokens, id, func(t *tfe.AgentToken) string { return t.ID }, func(t *tfe.AgentToken) string {
		return fmt.Sprintf("  - %s (created %s)", t.ID, t.CreatedAt.UTC().Format(time.RFC3339))
	})
	if len(lines) == 0 {
		return "", ""
	}
	ids := candidateLines(tokens, id, func(t *tfe.AgentToken) string { return t.ID }, func(t *tfe.AgentToken) string { return t.ID })
	what := "An agent token"
	if len(ids) > 1 {
		what = "Agent tokens"
	}
	summary = fmt.Sprintf("%s may have been left behind in pool %s: %s (description %q)", what, poolID, strings.Join(ids, ", "), description)
	detail = fmt.Sprintf("A request that creates an agent token in pool %s ended without a definite answer, so the service may have made a token whose secret nobody received. "+
		"The provider created the token again (%s, in state) and revoked nothing: no API field tells which process made a token, "+
		"and a token of another configuration or person with the same description made at the same moment looks the same. "+
		"These tokens of the pool have the description %q, were created while the lost request was in flight, and were not received by this apply:\n\n%s\n\n"+
		"One of them may be a live credential that nobody holds. Revoke each one that no agent and no other configuration uses: "+
		"in the organization's settings (Agents, then the pool, then its token list), or with the API: DELETE /api/v2/authentication-tokens/<id>. "+
		"A token nobody holds is never used, so the action tfgov_agent_token_prune (agent_pool_id = %q, unused_for = a duration), which revokes the tokens of one agent pool unused for that long, "+
		"revokes it once the duration has passed, with every other token of the pool unused as long: run it with dry_run = true (its default) first to see which. "+
		"Giving each configuration's tokens a description of its own makes such a list exact.",
		poolID, id, description, strings.Join(lines, "\n"), poolID)
	return summary, detail
}

// setListed records a token's read or list (Read, the list resource); not its creation time, which
// no plan needs (the tfgov_agent_tokens data source has it).
func (m *agentTokenResourceModel) setListed(tok *tfe.AgentToken) {
	m.Description = types.StringValue(tok.Description)
}

// findPool looks for tokenID in every pool of the organization (import only).
func (r *agentTokenResource) findPool(ctx context.Context, tokenID string) (string, error) {
	if r.data.organization == "" {
		return "", fmt.Errorf("importing by token ID alone needs the provider's organization to search its agent pools; set it, or import with <agent_pool_id>/%s", tokenID)
	}
	pool, err := r.data.poolOfToken(ctx, r.data.organization, tokenID, "")
	if err != nil {
		return "", err
	}
	if pool == nil {
		return "", fmt.Errorf("agent token %s was not found in any agent pool of organization %s whose tokens the API token may list (listing them needs "+permManageAgentPools+")", tokenID, r.data.organization)
	}
	return pool.ID, nil
}

// poolOfToken returns the agent pool of org whose token list holds
// tokenID, skipping pool skip; nil when none the API token may list does.
func (d *providerData) poolOfToken(ctx context.Context, org, tokenID, skip string) (*tfe.AgentPool, error) {
	pools, err := tfeclient.ListAll(ctx, func(ctx context.Context, n int) ([]*tfe.AgentPool, *tfe.Pagination, error) {
		pl, err := d.client.AgentPools.List(ctx, org, &tfe.AgentPoolListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}})
		if err != nil {
			return nil, nil, err
		}
		return pl.Items, pl.Pagination, nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing agent pools of %s: %w", org, err)
	}
	for _, pool := range pools {
		if pool.ID == skip {
			continue
		}
		found, err := d.poolListsToken(ctx, pool.ID, tokenID)
		switch {
		case found:
			return pool, nil
		case isNotFound(err): // a pool whose tokens we may not see
		case err != nil:
			return nil, fmt.Errorf("listing tokens of agent pool %s: %w", pool.ID, err)
		}
	}
	return nil, nil
}

// poolListsToken walks the token list of poolID until it finds tokenID.
func (d *providerData) poolListsToken(ctx context.Context, poolID, tokenID string) (bool, error) {
	found := false
	_, err := tfeclient.WalkPages(ctx, d.agentTokenPages(poolID), func(tokens []*tfe.AgentToken) bool {
		found = slices.ContainsFunc(tokens, func(t *tfe.AgentToken) bool { return t.ID == tokenID })
		return found
	})
	return found, err
}

// agentTokenInPool settles a token missing from its pool's list of several pages: a read by ID says
// whether it exists but not its pool, so a second complete walk of the list says whether it is this
// pool's; if not, the error names the pool it is in, when the token may list that pool's tokens.
func (d *providerData) agentTokenInPool(ctx context.Context, poolID, id string) (tok *tfe.AgentToken, ok bool, failure string) {
	tok, err := d.client.AgentTokens.Read(ctx, id)
	switch {
	case isNotFound(err):
		return nil, false, "" // the pool's list was readable: revoked
	case err != nil:
		return nil, false, fmt.Sprintf("Reading agent token %s: %s", id, err)
	}
	found, err := d.poolListsToken(ctx, poolID, id)
	switch {
	case found:
		return tok, true, ""
	case err != nil:
		return nil, false, fmt.Sprintf("Agent token %s exists, and listing the tokens of agent pool %s again to find it failed: %s", id, poolID, err)
	}
	belongs := "The API token may not list the tokens of the pool it belongs to."
	if pool, err := d.client.AgentPools.Read(ctx, poolID); err == nil && pool.Organization != nil {
		if own, err := d.poolOfToken(ctx, pool.Organization.Name, id, poolID); err == nil && own != nil {
			belongs = fmt.Sprintf("It belongs to agent pool %s (%q).", own.ID, own.Name)
		}
	}
	return nil, false, fmt.Sprintf("Agent token %s is not a token of agent pool %s: the token exists, but two complete lists of the pool's tokens do not include it. %s "+
		"A token is managed only in its own pool: import it as <its pool's ID>/%s, or correct agent_pool_id. State keeps it; nothing was revoked.", id, poolID, belongs, id)
}
