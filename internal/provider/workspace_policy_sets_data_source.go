package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*workspacePolicySetsDataSource)(nil)

// NewWorkspacePolicySetsDataSource is the tfgov_workspace_policy_sets data source.
func NewWorkspacePolicySetsDataSource() datasource.DataSource {
	return &workspacePolicySetsDataSource{dataSourceBase{typ: workspacePolicySetsDataSourceType}}
}

type workspacePolicySetsDataSource struct{ dataSourceBase }

type workspacePolicySetsDataSourceModel struct {
	ID            types.String     `tfsdk:"id"`
	Organization  types.String     `tfsdk:"organization"`
	WorkspaceName types.String     `tfsdk:"workspace_name"`
	IDs           []types.String   `tfsdk:"ids"`
	Names         []types.String   `tfsdk:"names"`
	PolicySets    []policySetEntry `tfsdk:"policy_sets"`
}

func (d *workspacePolicySetsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, workspacePolicySetsDataSourceType.permissions())
	entry := policySetDataAttributes()
	entry["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the policy set."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The policy sets that govern one workspace, derived from each set's scope as `tfgov_policy_set`'s `governed_workspaces` is: " +
			"a set governs the workspace when it is global, attaches the workspace or its project, or its tag selectors match the workspace's tags " +
			"(its own, and its project's key/value tags), and no exclusion (workspace, project, tags) removes it. " +
			"The API has no such list: it takes two listings, the organization's policy sets and its workspaces (100 a request each), shared with the other policy set types " +
			"in one operation. A workspace no set governs gives an empty result: a workspace is named, not searched.",
		Attributes: map[string]schema.Attribute{
			"id":           schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the workspace (`ws-<id>`)."},
			"organization": organizationScope.dataSource(),
			"workspace_name": schema.StringAttribute{
				Required: true, MarkdownDescription: "Name of the workspace.",
				Validators: []validator.String{nameValidator()},
			},
			"ids":   schema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "IDs of the sets that govern the workspace, in the order of `policy_sets`."},
			"names": schema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "Names of those sets, in the same order."},
			"policy_sets": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "The sets that govern the workspace, by name.",
				NestedObject: schema.NestedAttributeObject{Attributes: entry},
			},
		},
	}
}

func (d *workspacePolicySetsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg workspacePolicySetsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := d.data.organizationOr(cfg.Organization, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sets := d.data.policySetsOf(ctx, org, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	workspaces, err := d.data.scopedWorkspaces(ctx, org)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Error listing workspaces", fmt.Sprintf("Listing the workspaces of organization %s: %s", org, err))
		return
	}
	name := cfg.WorkspaceName.ValueString()
	var names []string
	for _, ws := range workspaces {
		names = append(names, ws.Name)
		if ws.Name != name {
			continue
		}
		cfg.ID, cfg.Organization = types.StringValue(ws.ID), types.StringValue(org)
		cfg.IDs, cfg.Names, cfg.PolicySets = []types.String{}, []types.String{}, []policySetEntry{}
		for _, ps := range sets {
			// The plan's own rule for governed_workspaces: DESIGN.md "Governed workspaces".
			if len(scopeOfSet(ps).governed([]scopedWorkspace{ws})) == 0 {
				continue
			}
			cfg.IDs = append(cfg.IDs, types.StringValue(ps.ID))
			cfg.Names = append(cfg.Names, types.StringValue(ps.Name))
			cfg.PolicySets = append(cfg.PolicySets, policySetEntryOf(ps))
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root("workspace_name"), "Workspace not found",
		fmt.Sprintf("Organization %s has no workspace named %q that the API token can see%s", org, name,
			suggest("names", name, names, wholeDistance, "the API token sees no workspace there")))
}
