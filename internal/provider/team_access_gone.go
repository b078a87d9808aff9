package provider

import (
	"context"
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// grantRecord is what an exclusive access's refresh saw: each team's grant
// ID. It is kept in private state (not shown in plans), so that an
// update's apply, which Terraform plans again from the refreshed state,
// removes only the grants the plan saw, and a grant made after the plan
// is left for the next plan to show.
type grantRecord map[string]string // team ID → grant ID

// grantRecordKey is the private state key of the record; its value is a
// JSON string of "team:grant" pairs without the IDs' prefixes, joined by
// commas, to keep state lean.
const grantRecordKey = "grants"

func grantRecordOf(grants *recordsByID[*tfe.TeamAccess]) grantRecord {
	rec := grantRecord{}
	for _, g := range grants.byID {
		if g.Team != nil && g.Team.ID != "" {
			rec[g.Team.ID] = g.ID
		}
	}
	return rec
}

type privateSetter interface {
	SetKey(context.Context, string, []byte) diag.Diagnostics
}

// readGrantRecord returns the record in p, or nil when there is none (a
// state no refresh of this version wrote).
func readGrantRecord(ctx context.Context, p privateGetter, diags *diag.Diagnostics) grantRecord {
	if p == nil || reflect.ValueOf(p).IsNil() {
		return nil
	}
	b, d := p.GetKey(ctx, grantRecordKey)
	diags.Append(d...)
	var s string
	if len(b) == 0 || json.Unmarshal(b, &s) != nil {
		return nil
	}
	rec := grantRecord{}
	for _, pair := range strings.Split(s, ",") {
		if team, grant, ok := strings.Cut(pair, ":"); ok {
			rec["team-"+team] = "tws-" + grant
		}
	}
	return rec
}

// writeGrantRecord keeps rec in p.
func writeGrantRecord(ctx context.Context, p privateSetter, rec grantRecord, diags *diag.Diagnostics) {
	if p == nil || reflect.ValueOf(p).IsNil() {
		return
	}
	pairs := make([]string, 0, len(rec))
	for team, grant := range rec {
		pairs = append(pairs, strings.TrimPrefix(team, "team-")+":"+strings.TrimPrefix(grant, "tws-"))
	}
	slices.Sort(pairs)
	b, _ := json.Marshal(strings.Join(pairs, ",")) // a string always marshals
	diags.Append(p.SetKey(ctx, grantRecordKey, b)...)
}

// teamOrganization is the organization of team teamID, read by ID (one
// request, on teamAccessAddError's path only), or "" when the token may
// not read the team. go-tfe's Team has no organization relation.
func (d *providerData) teamOrganization(ctx context.Context, teamID string) string {
	var team struct {
		ID           string            `jsonapi:"primary,teams"`
		Organization *tfe.Organization `jsonapi:"relation,organization"`
	}
	if err := tfeclient.APIRequest(ctx, d.client, "GET", "teams/"+url.PathEscape(teamID), nil, nil, &team); err != nil || team.Organization == nil {
		return ""
	}
	return team.Organization.Name
}
