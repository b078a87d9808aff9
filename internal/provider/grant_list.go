package provider

import (
	"cmp"
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// grantList is a grant resource's list resource: the grants of one parent, named by ID or by name;
// only the look-up by name is the kind's. DESIGN.md "One grant resource, two parents".
type grantList[G, M any] struct {
	listBase
	shell *grantShell[G, M]
	// byName is the parent called name in org, or "" with an error on name's attribute.
	byName func(d *providerData, ctx context.Context, org, name string, diags *diag.Diagnostics) string
}

func (l *grantList[G, M]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, l.typ.listPermissions())
	k := l.shell.kind
	id, name := k.idAttr, k.noun+"_name"
	either := " Set either `" + id + "` or `" + name + "`."
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the teams' access to a " + k.noun + ", named by ID or by name (a query file has no data sources to look a name up with).",
		Attributes: map[string]listschema.Attribute{
			id: listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "ID of the " + k.noun + " (`" + k.idPrefix + "<id>`)." + either,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1),
					stringvalidator.ExactlyOneOf(path.MatchRoot(id), path.MatchRoot(name))},
			},
			name: listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Name of the " + k.noun + ", looked up in `organization` (one request more; `organization` is ignored with `" + id + "`)." + either,
				Validators:          []validator.String{nameValidator()},
			},
			// The organization the name is looked up in.
			"organization": organizationScope.list(),
		},
	}
}

// parentID is the parent's ID attribute, or the parent called by the name attribute.
func (l *grantList[G, M]) parentID(ctx context.Context, req list.ListRequest, diags *diag.Diagnostics) string {
	k := l.shell.kind
	var id, name, org types.String
	diags.Append(req.Config.GetAttribute(ctx, path.Root(k.idAttr), &id)...)
	diags.Append(req.Config.GetAttribute(ctx, path.Root(k.noun+"_name"), &name)...)
	diags.Append(req.Config.GetAttribute(ctx, path.Root("organization"), &org)...)
	if diags.HasError() || !l.configured(diags) {
		return ""
	}
	if name.IsNull() {
		return id.ValueString()
	}
	o := l.data.organizationOr(org, diags)
	if diags.HasError() {
		return ""
	}
	return l.byName(l.data, ctx, o, name.ValueString(), diags)
}

func (l *grantList[G, M]) List(ctx context.Context, req list.ListRequest, resp *list.ListResultsStream) {
	s, k := l.shell, l.shell.kind
	var diags diag.Diagnostics
	parentID := l.parentID(ctx, req, &diags)
	if diags.HasError() {
		l.stream(ctx, req, resp, nil, diags)
		return
	}
	grants, err := s.shared(l.data, ctx, parentID)
	switch {
	case err != nil:
		diags.AddError("Error listing "+s.noun(), fmt.Sprintf("Listing the team access of %s %s: %s", k.noun, parentID, err))
	case grants.parentMissing:
		diags.AddAttributeError(path.Root(k.idAttr), "Error listing "+s.noun(), k.notFound(parentID))
	}
	var items []listed
	if !diags.HasError() {
		all := sortedByKey(grants.byID)
		teams := make([]*tfe.TeamAccess, 0, len(all))
		for _, g := range all {
			teams = append(teams, &tfe.TeamAccess{Team: s.team(g)})
		}
		names := l.data.grantTeamNames(ctx, k, parentID, teams) // the organization's team list
		for _, g := range all {
			team := ""
			if t := s.team(g); t != nil {
				team = cmp.Or(names[t.ID], t.ID)
			}
			items = append(items, listed{
				identity: []string{s.grantID(g)},
				display:  fmt.Sprintf("team %s: %s access", team, s.access(g)),
				fill: fillModel(func(_ context.Context, m *M, _ *diag.Diagnostics) {
					*s.fields(m).parentID = types.StringValue(parentID)
					*m = *s.model(g, *m)
				}),
			})
		}
	}
	l.stream(ctx, req, resp, items, diags)
}
