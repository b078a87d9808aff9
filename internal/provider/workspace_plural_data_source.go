package provider

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ datasource.DataSourceWithConfigure        = (*workspacesDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*workspacesDataSource)(nil)
)

// NewWorkspacesDataSource is the tfgov_workspaces data source.
func NewWorkspacesDataSource() datasource.DataSource {
	return &workspacesDataSource{dataSourceBase{typ: workspacesDataSourceType}}
}

type workspacesDataSource struct{ dataSourceBase }

type workspacesDataSourceModel struct {
	Organization    types.String     `tfsdk:"organization"`
	Names           []types.String   `tfsdk:"names"`
	Search          types.String     `tfsdk:"search"`
	NamePrefix      types.String     `tfsdk:"name_prefix"`
	TagNames        []types.String   `tfsdk:"tag_names"`
	ExcludeTagNames []types.String   `tfsdk:"exclude_tag_names"`
	AllowEmpty      types.Bool       `tfsdk:"allow_empty"`
	AllowAbsentExcl types.Bool       `tfsdk:"allow_absent_exclude_tags"`
	IDs             types.List       `tfsdk:"ids"`
	IDsByName       types.Map        `tfsdk:"ids_by_name"`
	Workspaces      []workspaceEntry `tfsdk:"workspaces"`
}

func (d *workspacesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, workspacesDataSourceType.permissions())
	tagNames := func(desc string) schema.SetAttribute {
		return schema.SetAttribute{
			Optional: true, ElementType: types.StringType, MarkdownDescription: desc,
			Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Workspaces of an organization, by exact names or by a filter (name search, name prefix, tags), " +
			"with a name-to-ID map for `for_each` across a fleet of workspaces. Without `names` or a filter, every workspace. " +
			"By name order. One request per 100 workspaces listed; with `names`, the first page of the organization's list, " +
			"then whichever is fewer: its other pages, or one read per name still missing. " +
			"A name of `names` that matches nothing is an error listing the closest names. " +
			"So is a filter that matches no workspace, since it may hold a typo (a tag `team:payment` for `team:payments`) and an empty result " +
			"fed to `for_each` plans the destroy of everything it drove: the error names the filter and the closest names or tags " +
			"(from one more listing of the organization's workspaces, on that path only), unless `allow_empty = true`. " +
			"Without `names` or a filter, an organization with no workspace the token can see gives an empty result.",
		Attributes: map[string]schema.Attribute{
			"organization": organizationScope.dataSource(),
			"names": schema.SetAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Exact names of the workspaces to find; each must exist. Not with the filters.",
				Validators:          []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(nameValidator())},
			},
			"search": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Keep only workspaces whose name contains this text, in any case (the API's name search).",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"name_prefix": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Keep only workspaces whose name starts with this text (case-sensitive), such as `payments-`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"tag_names":         tagNames("Keep only workspaces carrying every one of these tags."),
			"exclude_tag_names": tagNames("Drop workspaces carrying any of these tags. A tag that no workspace of the organization the token can see carries is an error naming the closest tags (an exclusion with a typo excludes nothing, silently), unless `allow_absent_exclude_tags = true`."),
			"allow_absent_exclude_tags": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether a tag of `exclude_tag_names` that no workspace carries is accepted, such as one excluded ahead of the workspaces that will carry it. " +
					"Defaults to `false`: such a tag is an error naming the closest tags. Not with `names`.",
			},
			"allow_empty": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether a filter (`search`, `name_prefix`, `tag_names`, `exclude_tag_names`) that matches no workspace gives an empty result. " +
					"Defaults to `false`: a filter that matches nothing is an error naming the closest names or tags. Not with `names`.",
			},
			"ids": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "IDs of the workspaces found, in the order of `workspaces` (by name).",
			},
			"ids_by_name": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The workspaces' IDs by name: `for_each = data.tfgov_workspaces.x.ids_by_name` gives `each.key` the name and `each.value` the ID.",
			},
			"workspaces": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The workspaces found, by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: func() map[string]schema.Attribute {
					a := workspaceEntryAttributes()
					a["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the workspace."}
					return a
				}()},
			},
		},
	}
}

func (d *workspacesDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	var v []datasource.ConfigValidator
	for _, f := range []string{"search", "name_prefix", "tag_names", "exclude_tag_names", "allow_empty", "allow_absent_exclude_tags"} {
		v = append(v, datasourcevalidator.Conflicting(path.MatchRoot("names"), path.MatchRoot(f)))
	}
	return v
}

// workspaceFilter is the filters of tfgov_workspaces. The API applies
// search and tags; keep applies them all again, so that the result is the
// same where a server ignores a parameter (older Terraform Enterprise),
// and the prefix, which the list has no portable parameter for (the name
// search, a superset, narrows the list).
type workspaceFilter struct {
	search, prefix string
	tags, exclude  []string
}

// set reports whether f filters at all.
func (f workspaceFilter) set() bool {
	return f.search != "" || f.prefix != "" || len(f.tags) > 0 || len(f.exclude) > 0
}

func (f workspaceFilter) options(page int) *tfe.WorkspaceListOptions {
	return &tfe.WorkspaceListOptions{
		ListOptions: listPage(page),
		Search:      cmp.Or(f.search, f.prefix),
		Tags:        strings.Join(f.tags, ","),
		ExcludeTags: strings.Join(f.exclude, ","),
	}
}

func (f workspaceFilter) keep(ws *tfe.Workspace) bool {
	if !strings.Contains(strings.ToLower(ws.Name), strings.ToLower(f.search)) || !strings.HasPrefix(ws.Name, f.prefix) {
		return false
	}
	for _, t := range f.tags {
		if !slices.Contains(ws.TagNames, t) {
			return false
		}
	}
	return !slices.ContainsFunc(f.exclude, func(t string) bool { return slices.Contains(ws.TagNames, t) })
}

// workspaceTags are the tags that ws carry, sorted, each once.
func workspaceTags(ws []*tfe.Workspace) []string {
	var tags []string
	for _, w := range ws {
		tags = append(tags, w.TagNames...)
	}
	slices.Sort(tags)
	return slices.Compact(tags)
}

// absentExclusions are the tags of exclude that no workspace of org carries, and the tags
// workspaces do carry (for the error's suggestions). tags are those of the workspaces the other
// filters listed (all of org's when listed filters nothing); a tag missing from them needs
// one more listing, of every workspace (every), to tell a typo from a tag carried elsewhere.
func (d *workspacesDataSource) absentExclusions(ctx context.Context, org string, listed workspaceFilter, exclude, tags []string) (absent, carried []string, every []*tfe.Workspace, err error) {
	absent = slices.DeleteFunc(slices.Clone(exclude), func(t string) bool { return slices.Contains(tags, t) })
	if len(absent) == 0 || !listed.set() {
		return absent, tags, nil, nil
	}
	if every, err = listWorkspaces(ctx, d.data.client, org); err != nil {
		return nil, nil, nil, err
	}
	carried = workspaceTags(every)
	return slices.DeleteFunc(absent, func(t string) bool { return slices.Contains(carried, t) }), carried, every, nil
}

func lowerStrings(vals []types.String) []string {
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		out = append(out, strings.ToLower(v.ValueString()))
	}
	slices.Sort(out)
	return out
}

func (d *workspacesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg workspacesDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var found []*tfe.Workspace
	var err error
	if cfg.Names != nil {
		names := make([]string, 0, len(cfg.Names))
		for _, n := range cfg.Names {
			names = append(names, n.ValueString())
		}
		var missing, have []string
		found, missing, have, err = workspacesNamed(ctx, d.data.client, org, names)
		if err == nil && len(missing) > 0 {
			resp.Diagnostics.AddAttributeError(path.Root("names"), "Workspace not found", notFoundByName("workspace", org, missing, have))
			return
		}
	} else {
		f := workspaceFilter{search: cfg.Search.ValueString(), prefix: cfg.NamePrefix.ValueString(), tags: lowerStrings(cfg.TagNames), exclude: lowerStrings(cfg.ExcludeTagNames)}
		// The exclusions are applied here, not by the API: the workspaces they drop show
		// which excluded tags some workspace carries.
		listed := f
		listed.exclude = nil
		var all []*tfe.Workspace
		all, err = tfeclient.ListAll(ctx, func(ctx context.Context, page int) ([]*tfe.Workspace, *tfe.Pagination, error) {
			l, err := d.data.client.Workspaces.List(ctx, org, listed.options(page))
			if err != nil {
				return nil, nil, err
			}
			return l.Items, l.Pagination, nil
		})
		checkExclusions := err == nil && len(f.exclude) > 0 && !cfg.AllowAbsentExcl.ValueBool()
		var tags []string
		if checkExclusions { // before DeleteFunc, which clears the workspaces it drops from all
			tags = workspaceTags(all)
		}
		found = slices.DeleteFunc(all, func(ws *tfe.Workspace) bool { return !f.keep(ws) })
		var every []*tfe.Workspace // every workspace of org, once listed
		if checkExclusions {
			var absent, carried []string
			absent, carried, every, err = d.absentExclusions(ctx, org, listed, f.exclude, tags)
			if err == nil && len(absent) > 0 {
				resp.Diagnostics.AddAttributeError(path.Root("exclude_tag_names"), "Excluded tag carried by no workspace", absentExclusionsDetail(org, absent, carried))
				return
			}
		}
		if err == nil && len(found) == 0 && f.set() && !cfg.AllowEmpty.ValueBool() {
			// Suggestions from every workspace the token can see.
			if every == nil {
				every, err = listWorkspaces(ctx, d.data.client, org)
			}
			if err == nil {
				resp.Diagnostics.AddError("No workspace matches the filter", emptyWorkspacesDetail(org, f, every))
				return
			}
		}
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing workspaces", byNameError("workspaces", org, err))
		return
	}
	slices.SortFunc(found, func(a, b *tfe.Workspace) int { return strings.Compare(a.Name, b.Name) })
	found = slices.CompactFunc(found, func(a, b *tfe.Workspace) bool { return a.ID == b.ID })
	ids := make([]string, 0, len(found))
	byName := make(map[string]string, len(found))
	cfg.Workspaces = make([]workspaceEntry, 0, len(found))
	for _, ws := range found {
		ids = append(ids, ws.ID)
		byName[ws.Name] = ws.ID
		cfg.Workspaces = append(cfg.Workspaces, newWorkspaceEntry(ws))
	}
	cfg.Organization = types.StringValue(org)
	cfg.IDs, cfg.IDsByName = stringList(ids), stringMap(byName)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// workspacesNamed finds the workspaces of org with these names in the
// fewest requests: the first page of the organization's list (100 by name);
// then, while names are missing, the next page or, when the pages left
// outnumber the names missing, a read of each missing name. It returns the
// workspaces found and the names missing; when some are, have holds every
// workspace name of org, for the error's suggestions (the rest of the
// list, read for that alone).
func workspacesNamed(ctx context.Context, c *tfe.Client, org string, names []string) (found []*tfe.Workspace, missing, have []string, err error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	take := func(items []*tfe.Workspace) {
		for _, ws := range items {
			have = append(have, ws.Name)
			if want[ws.Name] {
				found = append(found, ws)
				delete(want, ws.Name)
			}
		}
	}
	listed := true // have holds every name
	for page := 1; ; page++ {
		l, err := c.Workspaces.List(ctx, org, &tfe.WorkspaceListOptions{ListOptions: listPage(page)})
		if err != nil {
			return nil, nil, nil, err
		}
		take(l.Items)
		if tfeclient.LastPage(page, l.Pagination, len(l.Items)) {
			break
		}
		if len(want) == 0 {
			listed = false
			break
		}
		if left := l.TotalPages - page; left > len(want) {
			// Cheaper to read the names still missing one by one.
			listed = false
			for _, n := range slices.Sorted(maps.Keys(want)) {
				ws, err := c.Workspaces.Read(ctx, org, n)
				if isNotFound(err) {
					continue
				}
				if err != nil {
					return nil, nil, nil, err
				}
				found = append(found, ws)
				delete(want, n)
			}
			break
		}
	}
	missing = slices.Sorted(maps.Keys(want))
	if len(missing) > 0 && !listed {
		if have, err = workspaceNames(ctx, c, org); err != nil {
			return nil, nil, nil, err
		}
	}
	return found, missing, have, nil
}
