package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/jsonapi"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ resource.ResourceWithConfigure        = (*policySetResource)(nil)
	_ resource.ResourceWithConfigValidators = (*policySetResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*policySetResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*policySetResource)(nil)
	_ resource.ResourceWithImportState      = (*policySetResource)(nil)
	_ resource.ResourceWithIdentity         = (*policySetResource)(nil)
)

// NewPolicySetResource is the tfgov_policy_set resource.
func NewPolicySetResource() resource.Resource {
	return &policySetResource{resourceBase{typ: policySetType}}
}

type policySetResource struct{ resourceBase }

// policySetIdentityAttrs is tfgov_policy_set's identity (identity.go).
var policySetIdentityAttrs = []identityAttr{{"id", "ID of the policy set (`polset-<id>`)."}}

type policySetResourceModel struct {
	ID                 types.String `tfsdk:"id"`
	Organization       types.String `tfsdk:"organization"`
	Name               types.String `tfsdk:"name"`
	Description        types.String `tfsdk:"description"`
	Kind               types.String `tfsdk:"kind"`
	Overridable        types.Bool   `tfsdk:"overridable"`
	AgentEnabled       types.Bool   `tfsdk:"agent_enabled"`
	PolicyToolVersion  types.String `tfsdk:"policy_tool_version"`
	PolicyIDs          types.Set    `tfsdk:"policy_ids"`
	Source             types.String `tfsdk:"source"`
	SourceSHA256       types.String `tfsdk:"source_sha256"`
	VersionID          types.String `tfsdk:"version_id"`
	VCSRepo            types.Object `tfsdk:"vcs_repo"`
	PoliciesPath       types.String `tfsdk:"policies_path"`
	Scope              types.Object `tfsdk:"scope"`
	GovernedWorkspaces types.Map    `tfsdk:"governed_workspaces"`
}

// policyToolVersionRE is a policy tool version: `latest` or a semantic version.
var policyToolVersionRE = regexp.MustCompile(`^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$`)

var (
	scopeTagType   = types.ObjectType{AttrTypes: map[string]attr.Type{"key": types.StringType, "value": types.StringType}}
	scopeAttrTypes = map[string]attr.Type{
		"global":                 types.BoolType,
		"workspace_ids":          types.SetType{ElemType: types.StringType},
		"excluded_workspace_ids": types.SetType{ElemType: types.StringType},
		"project_ids":            types.SetType{ElemType: types.StringType},
		"excluded_project_ids":   types.SetType{ElemType: types.StringType},
		"tags":                   types.SetType{ElemType: scopeTagType},
		"excluded_tags":          types.SetType{ElemType: scopeTagType},
		"tag_match":              types.StringType,
	}
	tagMatchValues = []string{"any", "all"}
)

// set fills the model from the service's set; org is the organization it was read in.
func (m *policySetResourceModel) set(ps *tfe.PolicySet, org string) {
	m.ID, m.Organization, m.Name, m.Kind = types.StringValue(ps.ID), types.StringValue(org), types.StringValue(ps.Name), types.StringValue(string(ps.Kind))
	m.Description = types.StringNull()
	if ps.Description != "" {
		m.Description = types.StringValue(ps.Description)
	}
	m.AgentEnabled = types.BoolValue(ps.AgentEnabled)
	m.Overridable = types.BoolValue(ps.Overridable != nil && *ps.Overridable)
	m.PolicyToolVersion = types.StringNull()
	if ps.PolicyToolVersion != "" {
		m.PolicyToolVersion = types.StringValue(ps.PolicyToolVersion)
	}
	var pols []string
	for _, p := range ps.Policies {
		pols = append(pols, p.ID)
	}
	if len(pols) > 0 || !m.PolicyIDs.IsNull() {
		m.PolicyIDs = stringSet(pols)
	}
	m.VCSRepo, m.PoliciesPath = vcsRepoObject(ps.VCSRepo), nullIfEmpty(ps.PoliciesPath)
	m.Scope = scopeOfSet(ps).object()
}

func (r *policySetResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policySetType.permissions())
	idSet := func(what string) schema.SetAttribute {
		return schema.SetAttribute{
			ElementType: types.StringType, Optional: true, Computed: true,
			Default:             setdefault.StaticValue(types.SetValueMust(types.StringType, nil)),
			MarkdownDescription: what,
		}
	}
	tagSet := func(what string) schema.SetNestedAttribute {
		return schema.SetNestedAttribute{
			Optional: true, Computed: true,
			Default:             setdefault.StaticValue(types.SetValueMust(scopeTagType, nil)),
			MarkdownDescription: what,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"key": schema.StringAttribute{Required: true, MarkdownDescription: "The tag's key, or a flat tag's name.",
					Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
				"value": schema.StringAttribute{Optional: true, MarkdownDescription: "The value; leave it out to match any workspace carrying the key (a flat tag of that name, or a key/value tag of that key)."},
			}},
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A policy set of an organization: its policies (individual `policy_ids`, a `source` directory uploaded as a version, or a `vcs_repo`, at most one of them) " +
			"and, with `scope`, the whole of where they apply: global, workspaces, projects, exclusions and tag selectors, in one place.\n\n" +
			"The plan computes `governed_workspaces` (name → ID) from the proposed scope and the organization's workspace list " +
			"(a request per 100 workspaces, shared by every set of the organization; no workspace is read by ID), and a warning names every workspace " +
			"the set starts or stops governing. `scope` is exclusive: an attachment added outside Terraform shows in the plan as leaving. " +
			"Without `scope`, the set's scope is read and shown, never changed.\n\n" +
			"An OPA `source` directory's tests (`*_test.rego`) run at plan with OPA's test runner: a failing test fails the plan and no version is made. " +
			"The apply packs the directory (go-slug, `.terraformignore` honoured), uploads it as a policy set version and succeeds only once the service " +
			"says the version is `ready`; an `errored` version fails the apply with the service's message.\n\n" +
			"**Lost answers.** A create whose answer is lost looks for a set of that name: none, and the create is sent again; one, and the create fails as a taken name does, " +
			"with its ID and an `import` block: nothing the API returns tells the set the lost request made from one someone else made.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "ID of the policy set (`polset-<id>`).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"organization": organizationAttribute(),
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: "Name of the policy set, unique in the organization: letters, numbers, `-` and `_`.",
				Validators: []validator.String{nameValidator()},
			},
			"description": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Description of the policy set. Leave it out for none; it may not be empty.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"kind": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString(string(tfe.Sentinel)),
				MarkdownDescription: fmt.Sprintf("Policy framework: one of %s. Defaults to `sentinel`. It cannot change: a change is refused at plan, "+
					"as replacing the set would leave its workspaces ungoverned between the delete and the create; make a new set beside it instead.", backticked(policyKindNames)),
				Validators: []validator.String{stringvalidator.OneOf(policyKindNames...)},
			},
			"overridable": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Whether users may override the set's failed mandatory policies. Only for a set whose policies run in an agent (`opa`, or `agent_enabled`).",
			},
			"agent_enabled": schema.BoolAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Whether the set's policies run in an agent (policy evaluations). Always true for `opa`; defaults to false for `sentinel`.",
			},
			"policy_tool_version": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Sentinel or OPA version the agent runs: `latest` (the default for a set that runs in an agent) or a version such as `0.23.0`. " +
					"Null for a Sentinel set without `agent_enabled`.",
				Validators: []validator.String{stringvalidator.RegexMatches(policyToolVersionRE, "must be latest or a version such as 0.23.0")},
			},
			"policy_ids": schema.SetAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "IDs of the policies of the set (`pol-<id>`, of the set's kind). Not with `source` or `vcs_repo`: a set holds individual policies or versions, never both, and a set that has taken a version (from `source`, or uploaded outside Terraform) never takes policies again: giving it `policy_ids` is refused at plan.",
			},
			"source": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Path of a directory holding the set's code and its `sentinel.hcl` or OPA `policies.hcl`, such as `\"${path.module}/policies\"`: " +
					"packed and uploaded as a policy set version when its content changes (`source_sha256`). OPA `*_test.rego` tests in it run at plan.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"source_sha256": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "SHA-256 of the packed `source` directory (names, modes and contents), as uploaded; empty after a refresh that found another version current.",
			},
			"version_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the policy set version this resource uploaded last (`polsetver-<id>`), once `ready`.",
			},
			"vcs_repo":      vcsRepoSchema(),
			"policies_path": policiesPathSchema(),
			"scope": schema.SingleNestedAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Where the set applies, the whole of it: what is not here is removed from the set. Leave `scope` out to leave the set's scope as it is. " +
					"A workspace is governed when the set is `global`, or it is in `workspace_ids`, in a project of `project_ids`, or matched by `tags`; " +
					"and it is not in `excluded_workspace_ids`, in a project of `excluded_project_ids`, or matched by `excluded_tags`: exclusions always win.",
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"global": schema.BoolAttribute{
						Optional: true, Computed: true, Default: booldefault.StaticBool(false),
						MarkdownDescription: "Apply the set to every workspace of the organization, now and later. Not with `workspace_ids`, `project_ids` or `tags` (exclude instead).",
					},
					"workspace_ids":          idSet("IDs of workspaces the set governs (`ws-<id>`)."),
					"excluded_workspace_ids": idSet("IDs of workspaces the set never governs."),
					"project_ids":            idSet("IDs of projects whose workspaces, present and future, the set governs (`prj-<id>`)."),
					"excluded_project_ids":   idSet("IDs of projects whose workspaces the set never governs."),
					"tags":                   tagSet("Tag selectors: the set governs the workspaces they match (combined by `tag_match`)."),
					"excluded_tags":          tagSet("Tag selectors of workspaces the set never governs (combined by `tag_match`)."),
					"tag_match": schema.StringAttribute{
						Optional: true, Computed: true, Default: stringdefault.StaticString("any"),
						MarkdownDescription: "How selectors of one kind combine: `any` (the default: a workspace matching one of them) or `all` (every one).",
						Validators:          []validator.String{stringvalidator.OneOf(tagMatchValues...)},
					},
				},
			},
			"governed_workspaces": schema.MapAttribute{
				ElementType: types.StringType, Computed: true,
				MarkdownDescription: "The workspaces the set governs, name → ID, computed at plan from the proposed `scope` and the organization's workspaces " +
					"(unknown until apply when the scope names an ID unknown at plan). A workspace made later in a governed project appears in the next plan. " +
					"A plan that leaves the scope as it is keeps the value its refresh read, so a saved plan applies whatever workspaces change meanwhile; " +
					"a saved plan that changes the scope, applied after a workspace it concerns was made, deleted, renamed or re-tagged, stops before writing the set " +
					"(Terraform's \"Provider produced inconsistent final plan\" for `governed_workspaces`, as the apply plans the set again): plan again to see what it governs.",
			},
		},
	}
}

func (r *policySetResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{resourcevalidator.Conflicting(path.MatchRoot("policy_ids"), path.MatchRoot("source"), path.MatchRoot("vcs_repo"))}
}

// ValidateConfig refuses the combinations the service refuses, naming the attributes, skipping unknowns.
func (r *policySetResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg policySetResourceModel
	if resp.Diagnostics.Append(getInto(ctx, req.Config, &cfg)...); resp.Diagnostics.HasError() {
		return
	}
	kind := cfg.Kind.ValueString()
	if !cfg.Kind.IsUnknown() && kind == string(tfe.OPA) && !cfg.AgentEnabled.IsNull() && !cfg.AgentEnabled.IsUnknown() && !cfg.AgentEnabled.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("agent_enabled"), "OPA policy sets run in an agent", "An OPA policy set always runs in an agent: remove agent_enabled = false, or set it to true.")
	}
	sentinelNoAgent := !cfg.Kind.IsUnknown() && kind != string(tfe.OPA) && !cfg.AgentEnabled.IsUnknown() && !cfg.AgentEnabled.ValueBool()
	if sentinelNoAgent && cfg.Overridable.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("overridable"), "overridable needs an agent", "overridable applies to a set whose policies run in an agent: set agent_enabled = true, or use kind = \"opa\".")
	}
	if sentinelNoAgent && !cfg.PolicyToolVersion.IsNull() && !cfg.PolicyToolVersion.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("policy_tool_version"), "policy_tool_version needs an agent", "policy_tool_version is the version an agent runs: set agent_enabled = true, or use kind = \"opa\".")
	}
	validateVCSRepo(cfg.VCSRepo, &resp.Diagnostics)
	if cfg.Scope.IsNull() || cfg.Scope.IsUnknown() {
		return
	}
	scope, _ := scopeOf(cfg.Scope)
	at := path.Root("scope")
	a := cfg.Scope.Attributes()
	if scope.Global {
		for _, name := range []string{"workspace_ids", "project_ids", "tags"} {
			if s, ok := a[name].(types.Set); ok && len(s.Elements()) > 0 {
				resp.Diagnostics.AddAttributeError(at.AtName(name), "A global policy set takes no "+name,
					fmt.Sprintf("scope.global = true governs every workspace of the organization, so scope.%s adds nothing (the service refuses it): remove it, and use excluded_workspace_ids, excluded_project_ids or excluded_tags to leave workspaces out.", name))
			}
		}
	}
	for _, pair := range [][2]string{{"workspace_ids", "excluded_workspace_ids"}, {"project_ids", "excluded_project_ids"}} {
		inc, exc := scopeIDs(a, pair[0]), scopeIDs(a, pair[1])
		for _, id := range exc {
			if slices.Contains(inc, id) {
				resp.Diagnostics.AddAttributeError(at.AtName(pair[1]), "Included and excluded",
					fmt.Sprintf("%s is in both scope.%s and scope.%s: exclusions win, so the set would not govern it. Keep it in one of them.", id, pair[0], pair[1]))
			}
		}
	}
	// The service keeps no matching logic without selectors: "all" would read back as "any".
	if m, ok := a["tag_match"].(types.String); ok && m.ValueString() == "all" && len(scope.Tags)+len(scope.ExcludedTags) == 0 {
		if s1, _ := a["tags"].(types.Set); !s1.IsUnknown() {
			if s2, _ := a["excluded_tags"].(types.Set); !s2.IsUnknown() {
				resp.Diagnostics.AddAttributeError(at.AtName("tag_match"), "tag_match without tag selectors",
					"scope.tag_match = \"all\" combines tag selectors, and the scope has none (scope.tags, scope.excluded_tags): remove it, or add selectors.")
			}
		}
	}
}

// ModifyPlan plans what the service decides (agent, tool version), refuses a kind change, packs and
// tests `source`, and computes governed_workspaces with its warning (DESIGN.md "Governed workspaces").
func (r *policySetResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.data.planOrganization(ctx, req, resp)
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	var cfg, plan policySetResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Config, &cfg)...)
	resp.Diagnostics.Append(getInto(ctx, resp.Plan, &plan)...)
	var prior *policySetResourceModel
	if !req.State.Raw.IsNull() {
		prior = &policySetResourceModel{}
		resp.Diagnostics.Append(getInto(ctx, req.State, prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if prior != nil && !plan.Kind.IsUnknown() && !plan.Kind.Equal(prior.Kind) {
		resp.Diagnostics.AddAttributeError(path.Root("kind"), "A policy set's kind cannot change",
			fmt.Sprintf("Policy set %q is %s; the service cannot change a set's kind, and replacing the set would leave every workspace it governs ungoverned between the delete and the create. "+
				"Make a new %s set beside this one, move the scope to it, then remove this one.", prior.Name.ValueString(), prior.Kind.ValueString(), plan.Kind.ValueString()))
		return
	}
	if why := vcsContentSwitch(prior, &plan); why != "" {
		resp.Diagnostics.AddAttributeError(path.Root("vcs_repo"), "A policy set cannot move to or from a VCS repository", why)
		return
	}
	if why := r.versionedPolicies(ctx, prior, &plan, &resp.Diagnostics); why != "" || resp.Diagnostics.HasError() {
		if why != "" {
			resp.Diagnostics.AddAttributeError(path.Root("policy_ids"), "A versioned policy set takes no individual policies", why)
		}
		return
	}
	agent := plan.Kind.ValueString() == string(tfe.OPA) || cfg.AgentEnabled.ValueBool()
	if cfg.AgentEnabled.IsNull() && !plan.Kind.IsUnknown() {
		plan.AgentEnabled = types.BoolValue(agent)
	}
	if cfg.PolicyToolVersion.IsNull() && !plan.Kind.IsUnknown() && !cfg.AgentEnabled.IsUnknown() {
		plan.PolicyToolVersion = types.StringNull()
		if agent {
			plan.PolicyToolVersion = types.StringValue("latest")
		}
	}
	r.planSource(ctx, &cfg, &plan, prior, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if prior == nil && cfg.Scope.IsNull() {
		plan.Scope = setScope{}.object() // a new set without scope governs nothing
	}
	r.planGoverned(ctx, &plan, prior, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *policySetResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan policySetResourceModel
	if resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...); resp.Diagnostics.HasError() {
		return
	}
	org := plan.Organization.ValueString()
	var archive []byte
	if !plan.Source.IsNull() {
		if archive = r.packSource(ctx, plan, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	scope, _ := scopeOf(plan.Scope)
	opts := tfe.PolicySetCreateOptions{
		Name: plan.Name.ValueStringPointer(), Description: plan.Description.ValueStringPointer(), Kind: tfe.PolicyKind(plan.Kind.ValueString()),
		Global: tfe.Bool(scope.Global), AgentEnabled: plan.AgentEnabled.ValueBoolPointer(), PolicyToolVersion: plan.PolicyToolVersion.ValueStringPointer(),
		Policies: policyRefs(setStrings(plan.PolicyIDs)), Workspaces: workspaceRefs(scope.WorkspaceIDs), WorkspaceExclusions: workspaceRefs(scope.ExcludedWorkspaceIDs),
		Projects: projectRefs(scope.ProjectIDs), ProjectExclusions: projectRefs(scope.ExcludedProjectIDs), TagSelectors: scope.selectors(),
		VCSRepo: vcsRepoOptions(plan.VCSRepo), PoliciesPath: plan.PoliciesPath.ValueStringPointer(),
	}
	if plan.Overridable.ValueBool() {
		opts.Overridable = tfe.Bool(true)
	}
	if len(opts.TagSelectors) > 0 {
		opts.TagSelectorMatchingLogic = jsonapi.NewNullableAttrWithValue(matchLogic(scope))
	}
	tflog.Debug(ctx, "Creating policy set", map[string]any{"organization": org, "name": plan.Name.ValueString()})
	defer r.data.lists.policySets.invalidate(org)
	ps, err := reconcileCreate(ctx, "tfgov_policy_set",
		func() (*tfe.PolicySet, error) {
			ctx, notes := tfeclient.WithResponseNotes(ctx) // a taken name's 422 names the attribute
			ps, err := r.data.client.PolicySets.Create(ctx, org, opts)
			if err == nil {
				r.data.owned.receive(ps.ID)
			}
			return ps, notes.Wrap(err)
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*tfe.PolicySet, bool, error) {
			return r.data.lostPolicySetCreate(ctx, org, plan.Name.ValueString(), amb)
		})
	var taken *identityTakenError
	if errors.As(err, &taken) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Policy set already exists", taken.Error())
		return
	}
	if tfeclient.RejectedAttribute(err, "name") {
		if existing, ferr := r.data.findPolicySetByName(ctx, org, plan.Name.ValueString()); ferr == nil {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Policy set already exists",
				fmt.Sprintf("Organization %s already has a policy set named %q (%s): %s.\n\n%s", org, existing.Name, existing.ID, err, importAdvice("tfgov_policy_set", existing.ID, existing.ID)))
			return
		}
	}
	if err != nil {
		resp.Diagnostics.AddError("Error creating policy set", r.data.organizationPoliciesError(ctx, org, err))
		return
	}
	tflog.Info(ctx, "Created policy set", map[string]any{"id": ps.ID, "name": ps.Name})
	want := plan
	plan.set(ps, org)
	if archive != nil {
		vid, err := r.data.uploadPolicySetVersion(ctx, ps.ID, archive)
		if err != nil {
			// Nothing refers to the new set yet: deleted again, so that nothing is half-made.
			if derr := r.data.client.PolicySets.Delete(ctx, ps.ID); derr != nil {
				resp.Diagnostics.AddError("Error uploading policy set version", fmt.Sprintf("%s. Deleting the new policy set %s again failed too: %s; it is kept in state, and the next apply uploads again.", err, ps.ID, derr))
				plan.SourceSHA256, plan.VersionID = types.StringValue(""), types.StringNull()
				resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
				return
			}
			resp.Diagnostics.AddError("Error uploading policy set version", fmt.Sprintf("%s. The new policy set %s was deleted again: nothing was made. Fix %s and apply again.", err, ps.ID, plan.Source.ValueString()))
			return
		}
		plan.VersionID = types.StringValue(vid)
	} else {
		plan.VersionID = types.StringNull()
	}
	plan.SourceSHA256 = want.SourceSHA256
	checkPolicySetWritten(want, plan, &resp.Diagnostics)
	plan.GovernedWorkspaces = r.appliedGoverned(ctx, want, plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes the set from its organization's shared list, and computes what it governs from
// the shared workspace list: a request per 100 sets and per 100 workspaces per operation.
func (r *policySetResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state policySetResourceModel
	if resp.Diagnostics.Append(getInto(ctx, req.State, &state)...); resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	org := state.Organization.ValueString()
	id := state.ID.ValueString()
	if org == "" { // imported by ID, or moved from tfe_policy_set: the set's read names it
		ps, err := r.data.client.PolicySets.Read(ctx, id)
		if err != nil {
			if isNotFound(err) && importing {
				importedMissing(&resp.Diagnostics, "policy set", policyNotFound("Policy set "+id))
				return
			}
			resp.Diagnostics.AddError("Error reading policy set", policyError("Policy set "+id, err))
			return
		}
		org = ps.Organization.Name
	}
	ps, err := r.data.refreshPolicySet(ctx, refreshCheck, org, id)
	var hidden *cannotSeeError
	if errors.As(err, &hidden) {
		resp.Diagnostics.AddError("Cannot refresh policy set", hidden.detail)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading policy set", fmt.Sprintf("Reading policy set %s: %s", id, err))
		return
	}
	if ps == nil && importing {
		importedMissing(&resp.Diagnostics, "policy set", policyNotFound("Policy set "+id))
		return
	}
	if ps == nil {
		tflog.Info(ctx, "Policy set no longer exists; removing it from state", map[string]any{"id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	state.set(ps, org)
	if !state.VersionID.IsNull() && (ps.CurrentVersion == nil || ps.CurrentVersion.ID != state.VersionID.ValueString()) {
		// Another version is current: the next apply uploads the configured directory again.
		state.SourceSHA256 = types.StringValue("")
	}
	if importing && ps.CurrentVersion != nil {
		state.VersionID, state.SourceSHA256 = types.StringValue(ps.CurrentVersion.ID), types.StringValue("")
	}
	if state.SourceSHA256.IsUnknown() {
		state.SourceSHA256 = types.StringNull()
	}
	if state.VersionID.IsUnknown() {
		state.VersionID = types.StringNull()
	}
	if gw, ok := r.refreshGoverned(ctx, org, scopeOfSet(ps), &resp.Diagnostics); ok {
		state.GovernedWorkspaces = gw
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update sends only what changed: the attributes (PATCH), the scope and policies (relationship
// endpoints, removals first), and a new version when the source's digest changed.
func (r *policySetResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state policySetResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, org := state.ID.ValueString(), plan.Organization.ValueString()
	var archive []byte
	if !plan.Source.IsNull() && !plan.SourceSHA256.Equal(state.SourceSHA256) {
		if archive = r.packSource(ctx, plan, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	defer r.data.lists.policySets.invalidate(org)
	have, _ := scopeOf(state.Scope)
	want, _ := scopeOf(plan.Scope)
	opts := tfe.PolicySetUpdateOptions{}
	changed := false
	if !plan.Name.Equal(state.Name) {
		opts.Name, changed = plan.Name.ValueStringPointer(), true
	}
	if !plan.Description.Equal(state.Description) {
		opts.Description, changed = tfe.String(plan.Description.ValueString()), true
	}
	if !plan.AgentEnabled.Equal(state.AgentEnabled) {
		opts.AgentEnabled, changed = plan.AgentEnabled.ValueBoolPointer(), true
	}
	if !plan.Overridable.Equal(state.Overridable) {
		opts.Overridable, changed = plan.Overridable.ValueBoolPointer(), true
	}
	if !plan.PolicyToolVersion.IsNull() && !plan.PolicyToolVersion.Equal(state.PolicyToolVersion) {
		opts.PolicyToolVersion, changed = plan.PolicyToolVersion.ValueStringPointer(), true
	}
	if want.Global != have.Global {
		opts.Global, changed = tfe.Bool(want.Global), true
	}
	if !plan.VCSRepo.IsNull() && (!plan.VCSRepo.Equal(state.VCSRepo) || !plan.PoliciesPath.Equal(state.PoliciesPath)) {
		// The service takes the repository whole; policies-path "" is the root.
		opts.VCSRepo, opts.PoliciesPath, changed = vcsRepoOptions(plan.VCSRepo), tfe.String(plan.PoliciesPath.ValueString()), true
	}
	if want.MatchAll != have.MatchAll && len(want.selectors()) > 0 {
		opts.TagSelectorMatchingLogic, changed = jsonapi.NewNullableAttrWithValue(matchLogic(want)), true
	}
	err := r.data.changeScope(ctx, id, have, want, func() error {
		if !changed {
			return nil
		}
		_, err := r.data.client.PolicySets.Update(ctx, id, opts)
		return err
	})
	if err == nil && !plan.PolicyIDs.Equal(state.PolicyIDs) {
		err = r.data.changePolicies(ctx, id, setStrings(state.PolicyIDs), setStrings(plan.PolicyIDs))
	}
	if isNotFound(err) {
		if why := confirmGone(ctx, writeCheck("Updating", "updated"), "Policy set "+id, permManagePolicies, r.data.locatePolicySet(org, id)); why != "" {
			resp.Diagnostics.AddError("Cannot update policy set", why)
			return
		}
		resp.Diagnostics.AddError("Policy set is gone", fmt.Sprintf("Policy set %s was deleted outside Terraform during the apply; apply again to create it.", id))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error updating policy set", fmt.Sprintf("Updating policy set %s: %s", id, err))
		return
	}
	planned := plan
	if archive != nil {
		vid, err := r.data.uploadPolicySetVersion(ctx, id, archive)
		if err != nil {
			// The set keeps its last good version; state keeps the old digest, so the next apply uploads again.
			resp.Diagnostics.AddError("Error uploading policy set version", fmt.Sprintf("%s. Policy set %s keeps its last ready version; fix %s and apply again.", err, id, plan.Source.ValueString()))
			// What was sent is in state; the digest stays the last upload's, so the next apply uploads again.
			plan.SourceSHA256, plan.VersionID = state.SourceSHA256, state.VersionID
			plan.GovernedWorkspaces = r.appliedGoverned(ctx, plan, plan, &resp.Diagnostics)
			resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			return
		}
		plan.VersionID = types.StringValue(vid)
	} else if plan.VersionID.IsUnknown() {
		plan.VersionID = state.VersionID
	}
	plan.GovernedWorkspaces = r.appliedGoverned(ctx, planned, plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *policySetResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state policySetResourceModel
	if resp.Diagnostics.Append(getInto(ctx, req.State, &state)...); resp.Diagnostics.HasError() {
		return
	}
	id, org := state.ID.ValueString(), state.Organization.ValueString()
	defer r.data.lists.policySets.invalidate(org)
	deleteConfirmed(ctx, &resp.Diagnostics, writeCheck("Deleting", "deleted"), "delete", "policy set", "Policy set "+id, id, permManagePolicies,
		func() error { return r.data.client.PolicySets.Delete(ctx, id) }, r.data.locatePolicySet(org, id))
}

// ImportState takes the set's ID (`polset-<id>`) or `<organization>/<set name>`.
func (r *policySetResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	r.importIDOrNames(ctx, req, resp, "policy set", "polset-", "polset-<id> or <organization>/<policy set name>", 2, true, func(parts []string) (string, error) {
		ps, err := r.data.findPolicySetByName(ctx, parts[0], parts[1])
		if err != nil {
			return "", errors.New(r.data.policySetNameError(ctx, parts[0], parts[1], err))
		}
		return ps.ID, nil
	})
}

// versionedPolicies: the plan gives individual policies to a set that held none and has taken
// versions, which the service refuses for good ("" when not). The state's version_id proves it;
// else the set is read (shared with its parameters' plans), as versions uploaded outside count too.
func (r *policySetResource) versionedPolicies(ctx context.Context, prior, plan *policySetResourceModel, diags *diag.Diagnostics) string {
	if prior == nil || !isKnown(plan.PolicyIDs) || len(plan.PolicyIDs.Elements()) == 0 || len(prior.PolicyIDs.Elements()) > 0 || !plan.VCSRepo.IsNull() {
		return ""
	}
	why := fmt.Sprintf("Policy set %q (%s) has taken versions (source), and the service never takes individual policies on a versioned set: the apply would fail after writing the rest. "+
		"Make a new set with policy_ids beside this one, move the scope to it, then remove this one.", prior.Name.ValueString(), prior.ID.ValueString())
	if !prior.VersionID.IsNull() && !prior.VersionID.IsUnknown() {
		return why
	}
	read, err := r.data.policySet(ctx, prior.ID.ValueString())
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("policy_ids"), "Error reading policy set", fmt.Sprintf("Reading policy set %s to check that it takes individual policies failed: %s", prior.ID.ValueString(), err))
	case !read.missing && setVersioned(read.set):
		return why
	}
	return ""
}

// planSource plans source_sha256 from the packed directory and, for OPA, runs its tests when the
// content is new: a failing test fails the plan, before any version is made.
func (r *policySetResource) planSource(ctx context.Context, cfg, plan, prior *policySetResourceModel, diags *diag.Diagnostics) {
	if prior != nil && plan.VersionID.IsUnknown() {
		plan.VersionID = prior.VersionID
	}
	if cfg.Source.IsNull() {
		plan.SourceSHA256 = types.StringNull()
		if prior == nil {
			plan.VersionID = types.StringNull()
		}
		return
	}
	if cfg.Source.IsUnknown() {
		plan.SourceSHA256, plan.VersionID = types.StringUnknown(), types.StringUnknown()
		return
	}
	dir := cfg.Source.ValueString()
	packed, err := packConfiguration(dir, false)
	if err != nil {
		diags.AddAttributeError(path.Root("source"), "Cannot pack the policy set's source", fmt.Sprintf("Packing %s: %s.", dir, err))
		return
	}
	plan.SourceSHA256 = types.StringValue(packed.hash)
	if prior != nil && prior.SourceSHA256.Equal(plan.SourceSHA256) {
		return // the version uploaded holds this content
	}
	plan.VersionID = types.StringUnknown()
	if plan.Kind.ValueString() != string(tfe.OPA) {
		return
	}
	modules, tests, err := regoTests(dir)
	if err != nil {
		diags.AddAttributeError(path.Root("source"), "Cannot read the policy set's source", err.Error())
		return
	}
	if len(tests) == 0 {
		return
	}
	countTestRun("policy_set:" + dir)
	res, err := policyeval.RunTests(ctx, modules, tests)
	if err != nil {
		diags.AddAttributeError(path.Root("source"), "Policy tests did not finish", fmt.Sprintf("%s: %s. No version will be made.", dir, err))
		return
	}
	if n := len(res.Failures); n > 0 {
		lines := make([]string, n)
		for i, f := range res.Failures {
			lines[i] = "  " + f.String()
		}
		diags.AddAttributeError(path.Root("source"), "Policy test failed",
			fmt.Sprintf("Policy set %q, %s: OPA's test runner found %d failure(s) (%d test(s) passed), so no version will be made:\n%s",
				plan.Name.ValueString(), dir, n, res.Passed, strings.Join(lines, "\n")))
	}
}

// planGoverned computes governed_workspaces from the planned scope and warns naming each workspace
// that starts or stops being governed.
func (r *policySetResource) planGoverned(ctx context.Context, plan, prior *policySetResourceModel, diags *diag.Diagnostics) {
	scope, known := scopeOf(plan.Scope)
	org := plan.Organization.ValueString()
	if !known || plan.Organization.IsUnknown() {
		plan.GovernedWorkspaces = types.MapUnknown(types.StringType)
		diags.AddWarning(fmt.Sprintf("Policy set %q: governed workspaces known after apply", plan.Name.ValueString()),
			"The scope names a workspace or project unknown until apply, so which workspaces the set governs is known only after apply.")
		return
	}
	if prior != nil && plan.Scope.Equal(prior.Scope) && isKnown(prior.GovernedWorkspaces) {
		// The refresh's, from the plan's prior state: the apply plans it again the same, whatever
		// workspaces change meanwhile (DESIGN.md "Governed workspaces").
		plan.GovernedWorkspaces = prior.GovernedWorkspaces
		return
	}
	wss, err := r.data.everyWorkspace(ctx, org)
	if errors.Is(err, errNotEveryWorkspace) {
		diags.AddAttributeError(path.Root("governed_workspaces"), `Policy set needs "View all workspaces"`,
			fmt.Sprintf("Policy set %q: %s. The plan would otherwise show a partial governed_workspaces as complete.", plan.Name.ValueString(), err))
		return
	}
	if err != nil {
		diags.AddError("Error listing workspaces", fmt.Sprintf("Listing the workspaces of organization %s to compute what policy set %q governs: %s",
			org, plan.Name.ValueString(), workspaceListError(err)))
		return
	}
	after := scope.governed(wss)
	before := map[string]string{}
	if prior != nil {
		before = mapStrings(prior.GovernedWorkspaces)
	}
	plan.GovernedWorkspaces = stringMap(after)
	starting, stopping := governedChange(before, after)
	if len(starting)+len(stopping) == 0 {
		return
	}
	var b strings.Builder
	if len(starting) > 0 {
		fmt.Fprintf(&b, "Starts governing (%d): %s.\n", len(starting), strings.Join(starting, ", "))
	}
	if len(stopping) > 0 {
		fmt.Fprintf(&b, "Stops governing (%d): %s.\n", len(stopping), strings.Join(stopping, ", "))
	}
	diags.AddAttributeWarning(path.Root("governed_workspaces"),
		fmt.Sprintf("Policy set %q: %d workspace(s) start and %d stop being governed", plan.Name.ValueString(), len(starting), len(stopping)), b.String())
}

func workspaceListError(err error) string {
	if isNotFound(err) {
		return "the list answered 404: the API token needs to see every workspace (an owner, or a team with \"Manage workspaces\" or \"View all workspaces\")"
	}
	return err.Error()
}

func mapStrings(m types.Map) map[string]string {
	out := map[string]string{}
	for k, v := range m.Elements() {
		if s, ok := v.(types.String); ok {
			out[k] = s.ValueString()
		}
	}
	return out
}

func setStrings(s types.Set) []string {
	var out []string
	for _, e := range s.Elements() {
		if v, ok := e.(types.String); ok {
			out = append(out, v.ValueString())
		}
	}
	return out
}

func matchLogic(scope setScope) string {
	if scope.MatchAll {
		return "all"
	}
	return "any"
}

// packSource packs `source` for the upload, refusing content other than what the plan saw.
func (r *policySetResource) packSource(_ context.Context, plan policySetResourceModel, diags *diag.Diagnostics) []byte {
	dir := plan.Source.ValueString()
	packed, err := packConfiguration(dir, true)
	if err != nil {
		diags.AddAttributeError(path.Root("source"), "Cannot pack the policy set's source", fmt.Sprintf("Packing %s: %s. Nothing was sent.", dir, err))
		return nil
	}
	if !plan.SourceSHA256.IsUnknown() && plan.SourceSHA256.ValueString() != packed.hash {
		diags.AddAttributeError(path.Root("source"), "Source changed since the plan",
			fmt.Sprintf("%s packs to SHA-256 %s, but the plan saw %s: the directory changed since the plan. Nothing was sent; plan again.", dir, packed.hash, plan.SourceSHA256.ValueString()))
		return nil
	}
	return packed.archive
}

// checkPolicySetWritten fails an apply whose answer differs from the plan in what the plan showed.
func checkPolicySetWritten(want, got policySetResourceModel, diags *diag.Diagnostics) {
	for _, c := range []struct {
		name      string
		want, got attr.Value
	}{
		{"name", want.Name, got.Name}, {"kind", want.Kind, got.Kind}, {"agent_enabled", want.AgentEnabled, got.AgentEnabled},
		{"policy_tool_version", want.PolicyToolVersion, got.PolicyToolVersion}, {"scope", want.Scope, got.Scope},
		{"vcs_repo", want.VCSRepo, got.VCSRepo}, {"policies_path", want.PoliciesPath, got.PoliciesPath},
	} {
		if !c.want.IsUnknown() && !c.want.Equal(c.got) {
			diags.AddAttributeError(path.Root(c.name), "The API did not apply "+c.name, fmt.Sprintf("Planned %s, the API answered %s.", c.want, c.got))
		}
	}
}

// appliedGoverned is the planned governed_workspaces, or, when unknown at plan, computed from a fresh list.
func (r *policySetResource) appliedGoverned(ctx context.Context, planned, applied policySetResourceModel, diags *diag.Diagnostics) types.Map {
	if !planned.GovernedWorkspaces.IsUnknown() {
		return planned.GovernedWorkspaces
	}
	org := applied.Organization.ValueString()
	r.data.lists.workspaces.invalidate(org)
	scope, _ := scopeOf(applied.Scope)
	return r.governedNow(ctx, org, scope, diags)
}

// refreshGoverned is governedNow for a refresh, which keeps the value in state (ok false) for a token
// not proven to see every workspace: the plan then fails naming the permission; a destroy still works.
func (r *policySetResource) refreshGoverned(ctx context.Context, org string, scope setScope, diags *diag.Diagnostics) (types.Map, bool) {
	if sees, err := r.data.seesEveryParent(ctx, workspaceGrants, org); err == nil && !sees {
		tflog.Debug(ctx, "The API token is not proven to see every workspace: governed_workspaces kept as in state", map[string]any{"organization": org})
		return types.MapNull(types.StringType), false
	}
	return r.governedNow(ctx, org, scope, diags), true
}

// governedNow is what scope governs among org's workspaces now (the shared list), for a token proven to see them all.
func (r *policySetResource) governedNow(ctx context.Context, org string, scope setScope, diags *diag.Diagnostics) types.Map {
	wss, err := r.data.everyWorkspace(ctx, org)
	if err != nil {
		diags.AddError("Error listing workspaces", fmt.Sprintf("Listing the workspaces of organization %s: %s", org, workspaceListError(err)))
		return types.MapNull(types.StringType)
	}
	return stringMap(scope.governed(wss))
}

func scopeIDs(a map[string]attr.Value, name string) []string {
	s, _ := a[name].(types.Set)
	var out []string
	for _, e := range s.Elements() {
		if v, ok := e.(types.String); ok && !v.IsUnknown() && !v.IsNull() {
			out = append(out, v.ValueString())
		}
	}
	return out
}

// object is the scope as the `scope` attribute holds it.
func (scope setScope) object() types.Object {
	tags := func(ts []scopeTag) types.Set {
		vals := make([]attr.Value, 0, len(ts))
		for _, t := range ts {
			v := types.StringNull()
			if t.HasValue {
				v = types.StringValue(t.Value)
			}
			vals = append(vals, types.ObjectValueMust(scopeTagType.AttrTypes, map[string]attr.Value{"key": types.StringValue(t.Key), "value": v}))
		}
		return types.SetValueMust(scopeTagType, vals)
	}
	match := "any"
	if scope.MatchAll {
		match = "all"
	}
	return types.ObjectValueMust(scopeAttrTypes, map[string]attr.Value{
		"global":                 types.BoolValue(scope.Global),
		"workspace_ids":          stringSet(scope.WorkspaceIDs),
		"excluded_workspace_ids": stringSet(scope.ExcludedWorkspaceIDs),
		"project_ids":            stringSet(scope.ProjectIDs),
		"excluded_project_ids":   stringSet(scope.ExcludedProjectIDs),
		"tags":                   tags(scope.Tags),
		"excluded_tags":          tags(scope.ExcludedTags),
		"tag_match":              types.StringValue(match),
	})
}

// scopeOf reads the `scope` attribute; known is false while any part of it is unknown.
func scopeOf(obj types.Object) (scope setScope, known bool) {
	if obj.IsNull() {
		return setScope{}, true
	}
	if obj.IsUnknown() {
		return setScope{}, false
	}
	known = true
	a := obj.Attributes()
	ids := func(name string) []string {
		s, _ := a[name].(types.Set)
		if s.IsUnknown() {
			known = false
			return nil
		}
		var out []string
		for _, e := range s.Elements() {
			v, _ := e.(types.String)
			if v.IsUnknown() {
				known = false
			}
			out = append(out, v.ValueString())
		}
		slices.Sort(out)
		return out
	}
	tags := func(name string) []scopeTag {
		s, _ := a[name].(types.Set)
		if s.IsUnknown() {
			known = false
			return nil
		}
		var out []scopeTag
		for _, e := range s.Elements() {
			o, _ := e.(types.Object)
			k, _ := o.Attributes()["key"].(types.String)
			v, _ := o.Attributes()["value"].(types.String)
			if o.IsUnknown() || k.IsUnknown() || v.IsUnknown() {
				known = false
			}
			out = append(out, scopeTag{Key: k.ValueString(), Value: v.ValueString(), HasValue: !v.IsNull()})
		}
		return out
	}
	g, _ := a["global"].(types.Bool)
	m, _ := a["tag_match"].(types.String)
	if g.IsUnknown() || m.IsUnknown() {
		known = false
	}
	scope = setScope{
		Global: g.ValueBool(), WorkspaceIDs: ids("workspace_ids"), ExcludedWorkspaceIDs: ids("excluded_workspace_ids"),
		ProjectIDs: ids("project_ids"), ExcludedProjectIDs: ids("excluded_project_ids"),
		Tags: tags("tags"), ExcludedTags: tags("excluded_tags"), MatchAll: m.ValueString() == "all",
	}
	return scope, known
}
