package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var _ action.ActionWithConfigure = (*agentTokenPruneAction)(nil)

// NewAgentTokenPruneAction is the tfgov_agent_token_prune action: it
// revokes the tokens of an agent pool that nobody has used for a while
// (Terraform 1.14 and later).
func NewAgentTokenPruneAction() action.Action {
	return &agentTokenPruneAction{actionBase{typ: agentTokenPruneActionType}}
}

type agentTokenPruneAction struct{ actionBase }

type agentTokenPruneModel struct {
	AgentPoolID        types.String `tfsdk:"agent_pool_id"`
	UnusedFor          types.String `tfsdk:"unused_for"`
	DescriptionMatches types.String `tfsdk:"description_matches"`
	DryRun             types.Bool   `tfsdk:"dry_run"`
}

func (a *agentTokenPruneAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, agentTokenPruneActionType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Revokes the tokens of an agent pool that have not been used for `unused_for`, when invoked " +
			"(`terraform apply -invoke=action.tfgov_agent_token_prune.<name>`). Requires Terraform 1.14 or later.\n\n" +
			"A token's last use is its `last-used-at` (set by the service when an agent authenticates with it); a token never used counts " +
			"from its `created-at`. A token whose last use is within `unused_for` of the service's time is never revoked: each candidate " +
			"is read again just before it is revoked, and kept if it was used meanwhile. `dry_run` (the default) revokes nothing and lists what " +
			"an invocation with `dry_run = false` would revoke. Each token of the pool is reported as progress with its ID, description, " +
			"creation and last use, its own idle time (since its last use, or since its creation when never used, at the service's time), and what happens to it.\n\n" +
			"Tokens pile up: each lost answer to a `tfgov_agent_token` create may leave one (the apply names them), agents are " +
			"decommissioned, tokens are made by hand. A revoked token that a `tfgov_agent_token` manages leaves its state on the next refresh, " +
			"and the next apply makes a new one: narrow the action with `description_matches` to leave those alone.\n\n" +
			"Requests: one list per 100 tokens of the pool; then, for each token revoked, one read and one delete.",
		Attributes: map[string]schema.Attribute{
			"agent_pool_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the agent pool (`apool-<id>`).",
				Validators:          []validator.String{idValidator("apool-")},
			},
			"unused_for": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "How long a token must have gone unused to be revoked: a duration such as `\"720h\"` (30 days) or `\"1h30m\"` " +
					"(units `h`, `m`, `s`).",
				Validators: []validator.String{unusedForValidator{}},
			},
			"description_matches": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only tokens whose description matches this regular expression (RE2 syntax, unanchored: " +
					"`\"^ci-\"` for descriptions starting with `ci-`, `\"^old agent$\"` for exactly `old agent`) are revoked. Every token may be revoked when omitted.",
				Validators: []validator.String{regexpValidator{}},
			},
			"dry_run": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "List what would be revoked, and revoke nothing. Defaults to `true`: set `false` to revoke.",
			},
		},
	}
}

// pruneVerdict is what the action does with one token.
type pruneVerdict int

const (
	pruneKeepUsed     pruneVerdict = iota // used within unused_for
	pruneKeepFiltered                     // description does not match
	pruneRevoke                           // unused for unused_for, and matching
)

// lastActivity is a token's last use, or its creation when never used.
func lastActivity(t *tfe.AgentToken) time.Time {
	if t.LastUsedAt.IsZero() {
		return t.CreatedAt
	}
	return t.LastUsedAt
}

// pruneVerdictOf decides for token t at the service's time now: revoked
// only when its last activity is strictly before now - unusedFor, and its
// description matches (match nil: every description).
func pruneVerdictOf(t *tfe.AgentToken, now time.Time, unusedFor time.Duration, match *regexp.Regexp) pruneVerdict {
	if match != nil && !match.MatchString(t.Description) {
		return pruneKeepFiltered
	}
	if !lastActivity(t).Before(now.Add(-unusedFor)) {
		return pruneKeepUsed
	}
	return pruneRevoke
}

// describeToken is a token's progress line: ID, description, creation,
// last use, and its own idle time at the service's time now: since its
// last use, or since its creation when never used.
func describeToken(t *tfe.AgentToken, now time.Time) string {
	used := "never used, idle " + idleFor(t, now) + " since its creation"
	if !t.LastUsedAt.IsZero() {
		used = fmt.Sprintf("last used %s, idle %s since that use", t.LastUsedAt.UTC().Format(time.RFC3339), idleFor(t, now))
	}
	return fmt.Sprintf("%s %q: created %s, %s", t.ID, t.Description, t.CreatedAt.UTC().Format(time.RFC3339), used)
}

// idleFor is how long t has gone unused at now, to the second.
func idleFor(t *tfe.AgentToken, now time.Time) string {
	return max(now.Sub(lastActivity(t)), 0).Round(time.Second).String()
}

// Invoke lists the pool's tokens (through the pager), takes the service's
// time from the list's answer (never this machine's clock), and reports
// each token; unless dry_run, it reads each candidate again and revokes it
// when it is still unused.
func (a *agentTokenPruneAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg agentTokenPruneModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.data == nil {
		resp.Diagnostics.AddError("Provider not configured", "The tfgov provider was not configured before the action was invoked. This is a bug in the provider; please report it.")
		return
	}
	unusedFor, err := time.ParseDuration(cfg.UnusedFor.ValueString())
	if err != nil || unusedFor <= 0 {
		resp.Diagnostics.AddAttributeError(path.Root("unused_for"), "Invalid unused_for", fmt.Sprintf("unused_for must be a positive duration such as \"720h\", got %q.", cfg.UnusedFor.ValueString()))
		return
	}
	var match *regexp.Regexp
	if !cfg.DescriptionMatches.IsNull() {
		if match, err = regexp.Compile(cfg.DescriptionMatches.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("description_matches"), "Invalid regular expression", err.Error())
			return
		}
	}
	dryRun := cfg.DryRun.IsNull() || cfg.DryRun.ValueBool()
	poolID := cfg.AgentPoolID.ValueString()
	progress := newActionProgress(ctx, resp.SendProgress)

	lctx, notes := tfeclient.WithResponseNotes(ctx)
	tokens, err := listAllPages(lctx, func(t *tfe.AgentToken) string { return t.ID }, a.data.agentTokenPages(poolID))
	if err != nil {
		resp.Diagnostics.AddError("Error listing agent tokens", fmt.Sprintf("Listing the tokens of agent pool %s: %s", poolID, err))
		return
	}
	if tokens.parentMissing {
		resp.Diagnostics.AddAttributeError(path.Root("agent_pool_id"), "Agent pool not found",
			a.data.agentPoolError(ctx, poolID, tfe.ErrResourceNotFound))
		return
	}
	now := notes.ServerTime()
	if now.IsZero() {
		// No Date header: this machine's clock, rounded down to the
		// second as a Date header would be.
		now = time.Now().Truncate(time.Second)
		tflog.Debug(ctx, "The list's answer had no Date header: comparing with this machine's clock", nil)
	}
	list := sortedByKey(tokens.byID)
	slices.SortStableFunc(list, func(x, y *tfe.AgentToken) int { return x.CreatedAt.Compare(y.CreatedAt) })

	toRevoke := "): to be revoked"
	if dryRun {
		toRevoke = "): would be revoked (dry run)"
	}
	var candidates []*tfe.AgentToken
	for _, t := range list {
		verdict := pruneVerdictOf(t, now, unusedFor, match)
		what := map[pruneVerdict]string{
			pruneKeepUsed:     "kept: used within " + unusedFor.String() + " (unused_for)",
			pruneKeepFiltered: "kept: its description does not match description_matches",
			pruneRevoke:       "idle longer than unused_for (" + unusedFor.String() + toRevoke,
		}[verdict]
		progress.send(describeToken(t, now) + " — " + what)
		if verdict == pruneRevoke {
			candidates = append(candidates, t)
		}
	}
	if dryRun {
		progress.send(fmt.Sprintf("Dry run: %d of the %d tokens of agent pool %s would be revoked (set dry_run = false to revoke them).", len(candidates), len(list), poolID))
		return
	}
	defer a.data.lists.agentTokens.invalidate(poolID)
	revoked := 0
	for _, t := range candidates {
		// Read it again: a token used since the list is kept.
		rctx, rnotes := tfeclient.WithResponseNotes(ctx)
		fresh, err := a.data.client.AgentTokens.Read(rctx, t.ID)
		if isNotFound(err) {
			if why := confirmGone(ctx, revokeCheck, "Agent token "+t.ID, permManageAgentPools, a.data.locateAgentToken(poolID, t.ID)); why != "" {
				resp.Diagnostics.AddError("Cannot revoke agent token", why)
				continue
			}
			progress.send(t.ID + ": already gone")
			continue
		}
		if err != nil {
			resp.Diagnostics.AddError("Error reading agent token", fmt.Sprintf("Reading agent token %s before revoking it: %s. It was not revoked.", t.ID, err))
			continue
		}
		at := rnotes.ServerTime()
		if at.IsZero() {
			at = now
		}
		if pruneVerdictOf(fresh, at, unusedFor, match) != pruneRevoke {
			progress.send(describeToken(fresh, at) + " — kept: used since the list")
			continue
		}
		err = a.data.client.AgentTokens.Delete(ctx, t.ID)
		if isNotFound(err) {
			if why := confirmGone(ctx, revokeCheck, "Agent token "+t.ID, permManageAgentPools, a.data.locateAgentToken(poolID, t.ID)); why != "" {
				resp.Diagnostics.AddError("Cannot revoke agent token", why)
				continue
			}
			err = nil
		}
		if err != nil {
			resp.Diagnostics.AddError("Error revoking agent token", fmt.Sprintf("Revoking agent token %s of agent pool %s: %s", t.ID, poolID, err))
			continue
		}
		revoked++
		tflog.Info(ctx, "Revoked unused agent token", map[string]any{"id": t.ID, "agent_pool_id": poolID})
		progress.send(t.ID + ": revoked")
	}
	progress.send(fmt.Sprintf("Revoked %d of the %d tokens of agent pool %s.", revoked, len(list), poolID))
}
