package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// byNameQuery is the part of a plural look-up's model (tfgov_agent_pools,
// tfgov_projects) that finds items by exact `names` or by a `search`, and
// gives their IDs in name order and by name; each embeds it beside its list.
type byNameQuery struct {
	Organization types.String   `tfsdk:"organization"`
	Names        []types.String `tfsdk:"names"`
	Search       types.String   `tfsdk:"search"`
	AllowEmpty   types.Bool     `tfsdk:"allow_empty"`
	IDs          types.List     `tfsdk:"ids"`
	IDsByName    types.Map      `tfsdk:"ids_by_name"`
}

// byNameAttributes are the schema of byNameQuery: one and many name an item
// in the descriptions ("pool", "pools"), typeName and listAttr the data source
// and its list of items.
func byNameAttributes(one, many, typeName, listAttr string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"organization": organizationScope.dataSource(),
		"names": schema.SetAttribute{
			Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Exact names of the " + many + " to find (case-sensitive); each must exist. Not with `search`.",
			Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(nameValidator())},
		},
		"search": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Keep only " + many + " whose name contains this text, in any case (the API's `q`).",
			Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"allow_empty": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Whether a `search` that matches no " + one + " gives an empty result. " +
				"Defaults to `false`: a search that matches nothing is an error naming the closest names. Not with `names`.",
		},
		"ids": schema.ListAttribute{
			Computed: true, ElementType: types.StringType,
			MarkdownDescription: "IDs of the " + many + " found, in the order of `" + listAttr + "` (by name).",
		},
		"ids_by_name": schema.MapAttribute{
			Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The " + many + "' IDs by name: `for_each = data." + typeName + ".x.ids_by_name` gives `each.key` the name and `each.value` the ID.",
		},
	}
}

// byNameValidators: `names` is not with `search` nor `allow_empty`.
func byNameValidators() []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.Conflicting(path.MatchRoot("names"), path.MatchRoot("search")),
		datasourcevalidator.Conflicting(path.MatchRoot("names"), path.MatchRoot("allow_empty")),
	}
}

// byNameLookup is how a plural look-up reads its items of type T: what
// differs between types is the API calls and the nouns of the messages.
type byNameLookup[T any] struct {
	one, many string // "agent pool", "agent pools"
	name, id  func(T) string
	// list reads org's items whose name contains search, in any case (every item without search).
	list func(ctx context.Context, org, search string) ([]T, error)
	// named reads org's items with these names, and the names it did not find;
	// nil: names filter list(""), which also gives a missing name's closest ones.
	named func(ctx context.Context, org string, names []string) ([]T, []string, error)
	// emptyDetail explains a search that matches none of the organization's names.
	emptyDetail func(org, search string, names []string) string
}

// serve is a plural look-up's Read: the configuration into m (whose query is q), the items found
// in its organization, m's list of them (fill), and m as the state.
func (l byNameLookup[T]) serve(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse, m any, q *byNameQuery, fill func([]T)) {
	resp.Diagnostics.Append(req.Config.Get(ctx, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := data.organizationOr(q.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	found, ok := l.read(ctx, org, q, &resp.Diagnostics)
	if !ok {
		return
	}
	fill(found)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// read finds q's items in org, sorted by name, and sets q's organization,
// IDs and IDs by name; on an error (a name missing, a search with no match
// unless allow_empty) it adds it to diags and returns false. A miss's closest
// names cost one more listing, on that path only.
func (l byNameLookup[T]) read(ctx context.Context, org string, q *byNameQuery, diags *diag.Diagnostics) ([]T, bool) {
	title := strings.ToUpper(l.one[:1]) + l.one[1:]
	listErr := func(err error) ([]T, bool) {
		diags.AddAttributeError(path.Root("organization"), "Error listing "+l.many, byNameError(l.many, org, err))
		return nil, false
	}
	var found []T
	switch search := q.Search.ValueString(); {
	case q.Names != nil:
		names := make([]string, 0, len(q.Names))
		for _, n := range q.Names {
			names = append(names, n.ValueString())
		}
		slices.Sort(names)
		var missing, have []string
		var err error
		if l.named != nil {
			found, missing, err = l.named(ctx, org, names)
		} else if found, err = l.list(ctx, org, ""); err == nil {
			have = namesOf(found, l.name)
			missing = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(have, n) })
			found = slices.DeleteFunc(found, func(v T) bool { return !slices.Contains(names, l.name(v)) })
		}
		if err != nil {
			return listErr(err)
		}
		if len(missing) > 0 {
			if have == nil {
				all, err := l.list(ctx, org, "")
				if err != nil {
					return listErr(err)
				}
				have = namesOf(all, l.name)
			}
			diags.AddAttributeError(path.Root("names"), title+" not found", notFoundByName(l.one, org, missing, have))
			return nil, false
		}
	default:
		var err error
		if found, err = l.list(ctx, org, search); err != nil {
			return listErr(err)
		}
		// The search is applied again here, in case a server ignores q.
		found = slices.DeleteFunc(found, func(v T) bool {
			return !strings.Contains(strings.ToLower(l.name(v)), strings.ToLower(search))
		})
		if len(found) == 0 && search != "" && !q.AllowEmpty.ValueBool() {
			all, err := l.list(ctx, org, "")
			if err != nil {
				return listErr(err)
			}
			diags.AddAttributeError(path.Root("search"), "No "+l.one+" matches the search", l.emptyDetail(org, search, namesOf(all, l.name)))
			return nil, false
		}
	}
	slices.SortFunc(found, func(a, b T) int { return strings.Compare(l.name(a), l.name(b)) })
	ids := make([]string, 0, len(found))
	byName := make(map[string]string, len(found))
	for _, v := range found {
		ids = append(ids, l.id(v))
		byName[l.name(v)] = l.id(v)
	}
	q.Organization = types.StringValue(org)
	q.IDs, q.IDsByName = stringList(ids), stringMap(byName)
	return found, true
}
