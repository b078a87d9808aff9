package provider

import (
	"context"
	"errors"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var (
	_ resource.ResourceWithConfigure      = (*policyResource)(nil)
	_ resource.ResourceWithImportState    = (*policyResource)(nil)
	_ resource.ResourceWithValidateConfig = (*policyResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*policyResource)(nil)
	_ resource.ResourceWithIdentity       = (*policyResource)(nil)
)

// NewPolicyResource is the tfgov_policy resource.
func NewPolicyResource() resource.Resource { return &policyResource{resourceBase{typ: policyType}} }

type policyResource struct{ resourceBase }

// policyIdentityAttrs is tfgov_policy's identity (identity.go): the policy's ID.
var policyIdentityAttrs = []identityAttr{{"id", "ID of the policy (`pol-<id>`)."}}

// policyCore is a policy's own attributes, shared with the data sources.
type policyCore struct {
	ID               types.String `tfsdk:"id"`
	Organization     types.String `tfsdk:"organization"`
	Name             types.String `tfsdk:"name"`
	Description      types.String `tfsdk:"description"`
	Kind             types.String `tfsdk:"kind"`
	Query            types.String `tfsdk:"query"`
	EnforcementLevel types.String `tfsdk:"enforcement_level"`
}

func (m *policyCore) set(v policyValues) {
	m.ID, m.Organization, m.Name, m.Description, m.Kind = v.ID, v.Organization, v.Name, v.Description, v.Kind
	m.Query, m.EnforcementLevel = v.Query, v.EnforcementLevel
}

// policyResourceModel keeps no more than a later plan needs: Terraform's time at scale grows
// with the bytes of state (policy_set_ids and updated_at are the data sources').
type policyResourceModel struct {
	policyCore
	Content types.String `tfsdk:"content"`
	// ContentWO and Source (a file the provider reads) leave only ContentSHA256 in state.
	ContentWO     types.String `tfsdk:"content_wo"`
	Source        types.String `tfsdk:"source"`
	ContentSHA256 types.String `tfsdk:"content_sha256"`
	// TestsWO: policy_tests.go; TestsSHA256 is the digest of what last passed.
	TestsWO     types.Object `tfsdk:"tests_wo"`
	TestsSHA256 types.String `tfsdk:"tests_sha256"`
}

// fields spares the framework's struct reflection (model_convert.go).
func (m *policyResourceModel) fields() []modelField {
	return []modelField{
		{"id", types.StringType, &m.ID},
		{"organization", types.StringType, &m.Organization},
		{"name", types.StringType, &m.Name},
		{"description", types.StringType, &m.Description},
		{"kind", types.StringType, &m.Kind},
		{"query", types.StringType, &m.Query},
		{"enforcement_level", types.StringType, &m.EnforcementLevel},
		{"content", types.StringType, &m.Content},
		{"content_wo", types.StringType, &m.ContentWO},
		{"source", types.StringType, &m.Source},
		{"content_sha256", types.StringType, &m.ContentSHA256},
		{"tests_wo", testsObjectType(false), &m.TestsWO},
		{"tests_sha256", types.StringType, &m.TestsSHA256},
	}
}

func (m *policyResourceModel) FromTerraform5Value(v tftypes.Value) error {
	return fromTerraformObject(v, m.fields())
}

func (m *policyResourceModel) ToTerraform5Value() (any, error) {
	return toTerraformObject(m.fields())
}

func (r *policyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policyType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Sentinel or OPA policy of an organization: its name, kind, query and enforcement level, and optionally its code " +
			"(`source`, `content_wo` or `content`); policy sets decide where it is enforced.\n\n" +
			"The code can be given here or with a separate `tfgov_policy_upload`, never both for one policy (refused at plan when the upload's `policy_id` is known then, " +
			"else before the upload's own upload). `source` (a file the provider reads) and `content_wo` keep only the code's SHA-256 in state, a few hundred bytes a policy whatever the code's size, and `source` keeps the code out of Terraform altogether; " +
			"`content` keeps the code, so that the plan shows a change of it line by line; all three are one resource per policy. " +
			"A create is four requests (the policy; its code; then, to know the code at the policy's `updated-at`, the policy and its code once). Use `tfgov_policy_upload` when the code's lifecycle differs from the policy's, " +
			"for example when the code is written by another resource during the apply (its `source` and `content_sha256`) or managed in another configuration. " +
			"The code is checked as `tfgov_policy_upload` checks it: size at plan, Rego syntax with OPA's parser for `opa` policies, and drift through the code's SHA-256 " +
			"(downloaded unless the policy's `updated-at` is still the value recorded together with the code, on a service where uploads are proven to move it, see `tfgov_policy_upload`; " +
			"an update of a description, query or level that moves `updated-at` downloads the code once, so that an upload by someone else is never taken for the update's own). " +
			"Importing a policy downloads its code once and records its SHA-256 in `content_sha256`, so that a configuration with the same code uploads nothing: an import into `content_wo`, " +
			"or into a `tfgov_policy` without code beside a `tfgov_policy_upload` (the shape `terraform plan -generate-config-out` writes), plans no change; with `content` or `source` the plan shows an update of state only " +
			"and warns that it uploads nothing (an import cannot know which attribute the configuration uses). An apply that uploads nothing on the import's digest downloads the code once to confirm it, and uploads when it changed since the plan. Moving between `content`, `content_wo` and `source` with the same code, or from hashicorp/tfe's `tfe_policy` (which lands on `content`), uploads nothing either. " +
			"Removing `content`, `content_wo` or `source` leaves the last code on the service.\n\n" +
			"After every create and update the provider compares what the API returns with the configuration, " +
			"so a change the API did not make fails the apply instead of showing up as drift later.\n\n" +
			"**Lost answers.** When the create request ends without a definite answer (a 5xx, or a connection lost once the request was sent), " +
			"the provider does not send it again blindly: it looks up the organization's policy with that name. No such policy: the create is sent again. " +
			"A policy with that name fails the create exactly as a taken name does with no fault (\"Policy already exists\", with its ID and an `import` block): " +
			"the API returns no creation time and nothing a create could mark, so the policy the lost request made and one that someone else made before it or while it was in flight look the same, " +
			"and the provider never takes over a policy it cannot prove it made. Import the policy if it is the one you want managed; the next apply then has nothing to do. " +
			"\n\n**A failed code upload.** When the policy is created but its code upload fails (after the provider's retries, `retry_max`), " +
			"the provider deletes the policy again (nothing refers to it yet) and fails the apply saying so: nothing is left half-made, nothing is in state, " +
			"and the next apply creates the policy with its code. If that delete fails too, the policy is kept in state without its code and the error says so; " +
			"Terraform marks it tainted, so the next apply replaces it (or, after `terraform untaint`, uploads its code to it). " +
			"A failed upload of changed code (an update) keeps the policy and the code last uploaded in state; the next apply uploads again.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "ID of the policy (`pol-<id>`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"organization": organizationAttribute(),
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Name of the policy, unique in the organization: letters, numbers, `-` and `_`. " +
					"Policy sets refer to the code as `<name>.sentinel` or `<name>.rego`. The API cannot rename a policy, so changing it replaces the policy.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{nameValidator()},
			},
			"description": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Description of the policy (Markdown). Leave it out for none; it may not be empty.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"kind": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(string(tfe.Sentinel)),
				MarkdownDescription: fmt.Sprintf("Policy-as-code framework: one of %s. Defaults to `sentinel`. Changing it replaces the policy.", backticked(policyKindNames)),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{stringvalidator.OneOf(policyKindNames...)},
			},
			"query": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The OPA query the service runs to evaluate the policy, such as `data.terraform.policies.deny`. " +
					"Required when `kind` is `opa`, not allowed for `sentinel`. Checked with OPA's parser at plan time.",
				Validators: []validator.String{regoQueryValidator{}},
			},
			"enforcement_level": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "What happens when the policy fails. For `sentinel`: " + backticked(policyLevels["sentinel"]) +
					"; for `opa`: " + backticked(policyLevels["opa"]) + ". Checked against `kind` at plan time. " +
					"Defaults to the kind's default: `hard-mandatory` for Sentinel, `advisory` for OPA (the API's); removing it from the configuration plans that default.",
				PlanModifiers: []planmodifier.String{policyLevelDefault{}},
				Validators:    []validator.String{policyLevelValidator{}},
			},
			"content": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The policy code, kept in plan and state: the plan shows a change of the code line by line. " +
					"At most one of `content`, `content_wo` and `source`. Leave all three out to upload the code with `tfgov_policy_upload` (or not at all).",
				Validators: []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("content_wo"), path.MatchRoot("source"))},
			},
			"source": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Path of a file holding the policy code, such as `\"${path.module}/policies/tags.rego\"`, read by the provider: " +
					"the code never enters Terraform's configuration, plan or state, which keep the path and the code's SHA-256 (`content_sha256`). " +
					"Editing the file plans an upload; a saved plan applied after the file changed fails with an error saying so, and nothing is sent " +
					"(after `source` moved to another file, the apply fails on Terraform's own check of the planned `content_sha256`, nothing sent either). " +
					"A new policy's `content_sha256` shows as known after apply. The file must exist at plan: for a file written during the apply, use `tfgov_policy_upload`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.ConflictsWith(path.MatchRoot("content_wo"))},
			},
			"content_wo": schema.StringAttribute{
				Optional:  true,
				WriteOnly: true,
				MarkdownDescription: "The policy code, write-only (Terraform 1.11 or later): sent to the API, never kept in plan or state, which keep its SHA-256 (`content_sha256`). " +
					"Any expression works: `file(\"${path.module}/policies/tags.rego\")`, `templatefile(...)`, a module's output. " +
					"The plan shows a change of the code as a change of `content_sha256`; a saved plan applied after the code changed fails, and Terraform stops it before anything is sent. " +
					"The code is not secret: this keeps a policy's state to a few hundred bytes whatever the code's size, so that Terraform, which rewrites the whole state after each change, stays fast with many policies.",
			},
			"content_sha256": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "SHA-256 (hex) of the code given with `content_wo` or `source`, as planned and, after a refresh, as found on the service: " +
					"code uploaded outside Terraform shows here, and the next apply uploads the configured code again. Null with `content`, and without code unless imported: " +
					"then it is the digest of the code the import found, kept as refreshes find it while a `tfgov_policy_upload` (or nothing) manages the code.",
			},
			"tests_wo":     testsSchema(false),
			"tests_sha256": testsSHA256Schema(),
		},
	}
}

// ValidateConfig checks what depends on `kind`, skipping unknown values.
func (r *policyResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg policyResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validatePolicyKind(cfg.Kind, cfg.Query, cfg.EnforcementLevel, cfg.knownCode, &resp.Diagnostics)
	if !cfg.TestsWO.IsNull() && (cfg.Kind.IsNull() || cfg.Kind.ValueString() == string(tfe.Sentinel)) {
		resp.Diagnostics.AddAttributeError(path.Root("tests_wo"), "Policy tests need an OPA policy", sentinelTestsDetail(fmt.Sprintf("Policy %q", cfg.Name.ValueString())))
	}
}

// ModifyPlan plans the organization and the code (policy_code.go), and tells
// tfgov_policy_upload's plan the policy's identity (policyIdentities), without a request.
func (r *policyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.data.planOrganization(ctx, req, resp)
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	var cfg, plan policyResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Config, &cfg)...)
	resp.Diagnostics.Append(getInto(ctx, resp.Plan, &plan)...)
	var prior *policyResourceModel // nil: a new policy
	if !req.State.Raw.IsNull() {
		prior = &policyResourceModel{}
		resp.Diagnostics.Append(getInto(ctx, req.State, prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if prior != nil {
		if r.data.planPolicyMove(ctx, prior.Name.ValueString(), prior.Organization, plan.Organization, resp); resp.Diagnostics.HasError() {
			return
		}
	}
	if !plan.ID.IsUnknown() && !plan.Kind.IsUnknown() {
		r.data.rememberPolicyIdentity(plan.ID.ValueString(), policyIdentity{
			kind: tfe.PolicyKind(plan.Kind.ValueString()), name: plan.Name.ValueString(), organization: plan.Organization.ValueString(),
			query: plan.Query.ValueString(), // "" while unknown
		})
	}
	known, have, ok := r.planCode(ctx, req, resp, cfg, &plan, prior)
	if !ok {
		return
	}
	r.planPolicyTests(ctx, resp, cfg.TestsWO, &plan, prior, known, have, cfg.hasCode())
}

func (r *policyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan policyResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	org := plan.Organization.ValueString()
	opts := &tfe.PolicyCreateOptions{
		Name:        plan.Name.ValueStringPointer(),
		Kind:        tfe.PolicyKind(plan.Kind.ValueString()),
		Query:       plan.Query.ValueStringPointer(),
		Description: plan.Description.ValueStringPointer(),
	}
	if !plan.EnforcementLevel.IsUnknown() && !plan.EnforcementLevel.IsNull() {
		opts.EnforcementLevel = tfe.EnforcementMode(tfe.EnforcementLevel(plan.EnforcementLevel.ValueString()))
	}
	// The code is checked before the policy is made.
	var code []byte
	if plan.hasCode() {
		code = contentCode(ctx, &plan, req.Config, "(new)", &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	// Tested before the policy is made, when the plan could not.
	if plan.TestsSHA256 = applyTests(ctx, req.Config, r.data.withPassed(plan.tested(code)), plan.TestsSHA256, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	tflog.Debug(ctx, "Creating policy", map[string]any{"organization": org, "name": plan.Name.ValueString(), "kind": plan.Kind.ValueString()})
	defer r.data.lists.policies.invalidate(org)
	pc := policyClient{r.data.client}
	pol, err := reconcileCreate(ctx, "tfgov_policy",
		func() (*policyAPI, error) {
			pol, err := pc.create(ctx, org, opts)
			if err == nil {
				r.data.owned.receive(pol.ID)
			}
			return pol, err
		},
		func(ctx context.Context, amb *tfeclient.AmbiguousWriteError) (*policyAPI, bool, error) {
			return pc.lostCreate(ctx, org, opts, amb)
		})
	var taken *identityTakenError
	if errors.As(err, &taken) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Policy already exists", taken.Error())
		return
	}
	if tfeclient.RejectedAttribute(err, "name") {
		// The name is taken: name the policy that holds it.
		if existing, ferr := pc.findByName(ctx, org, plan.Name.ValueString()); ferr == nil {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Policy already exists",
				fmt.Sprintf("Organization %s already has a policy named %q (%s): %s.\n\n%s", org, existing.Name, existing.ID, err,
					importAdvice("tfgov_policy", existing.ID, existing.ID)))
			return
		}
	}
	if err != nil {
		resp.Diagnostics.AddError("Error creating policy", r.data.organizationPoliciesError(ctx, org, err))
		return
	}
	r.data.rememberPolicy(pol)
	tflog.Info(ctx, "Created policy", map[string]any{"id": pol.ID, "organization": org, "name": pol.Name})
	want := plan
	plan.set(pol.values())
	checkPolicyWritten(want, plan, &resp.Diagnostics)
	if plan.hasCode() {
		r.data.lists.inlineCode.Store(pol.ID, true)
		var put diag.Diagnostics
		before := updatedAtSignal(pol) // the create's answer: null
		proof := r.data.putCode(ctx, pol.ID, identityOf(pol), code, &before, codeProof{}, &put)
		if put.HasError() {
			if r.undoCreate(ctx, pol, put, &resp.Diagnostics) {
				return // nothing made, nothing in state
			}
			// Kept without its code, tainted: the next apply replaces it (or, untainted, uploads).
			plan.Content, plan.ContentSHA256 = types.StringNull(), types.StringNull()
		} else {
			resp.Diagnostics.Append(put...)
			resp.Diagnostics.Append(r.data.setCodeProof(ctx, resp.Private, proof)...)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes the policy from its organization's shared list (bulkLists), one request per
// 100 policies; absent from it is gone (DESIGN.md "Gone or cannot see"). Just imported by ID, it
// is read by ID once.
func (r *policyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state policyResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	importing := takeImporting(ctx, req, resp)
	_, imported := privateJSON[string](ctx, req.Private, importedCodeKey, &resp.Diagnostics)
	pol, err := r.data.refreshPolicy(ctx, state.Organization.ValueString(), state.ID.ValueString())
	var hidden *cannotSeeError
	if errors.As(err, &hidden) {
		resp.Diagnostics.AddError("Cannot refresh policy", hidden.detail)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading policy", fmt.Sprintf("Reading policy %s: %s", state.ID.ValueString(), err))
		return
	}
	if pol == nil && importing {
		importedMissing(&resp.Diagnostics, "policy", policyNotFound("Policy "+state.ID.ValueString()))
		return
	}
	if pol == nil {
		tflog.Info(ctx, "Policy no longer exists; removing it from state", map[string]any{"id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	state.set(pol.values())
	if state.hasCode() {
		proof, diags := r.data.getCodeProof(ctx, req.Private)
		resp.Diagnostics.Append(diags...)
		if !r.data.skipDownload(ctx, pol, proof) {
			code, gone, err := r.data.fetchCode(ctx, pol.ID)
			if err != nil {
				resp.Diagnostics.AddError("Error reading policy code", err.Error())
				return
			}
			if !gone {
				r.data.checkDownload(pol, proof, state.codeSum().ValueString(), sha256Hex(code), &resp.Diagnostics)
			}
			state.foundCode(ctx, pol.ID, code, gone)
			proof = proof.downloaded(pol)
		}
		resp.Diagnostics.Append(r.data.setCodeProof(ctx, resp.Private, proof)...)
	} else {
		// No code in state: nothing to prove.
		resp.Diagnostics.Append(r.data.setCodeProof(ctx, resp.Private, codeProof{})...)
		if importing {
			// The import's one download: the digest the plan compares with content_wo's and source's.
			state.ContentSHA256 = r.data.noteImportedCode(ctx, pol)
			imported = true
		}
	}
	// The digest of imported code, kept as refreshes find it until an apply configures the code.
	var mark []byte
	if imported && !state.ContentSHA256.IsNull() {
		mark = privateValue(state.ContentSHA256.ValueString())
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedCodeKey, mark)...)
	recordSource(ctx, resp.Private, state.Source, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update sends description, query and enforcement level (never the deprecated `enforce`).
func (r *policyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state policyResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	opts := &tfe.PolicyUpdateOptions{Query: plan.Query.ValueStringPointer()}
	switch {
	case !plan.Description.IsNull():
		opts.Description = plan.Description.ValueStringPointer()
	case !state.Description.IsNull():
		opts.Description = tfe.String("") // clears it
	}
	if !plan.EnforcementLevel.IsUnknown() && !plan.EnforcementLevel.IsNull() {
		opts.EnforcementLevel = tfe.EnforcementMode(tfe.EnforcementLevel(plan.EnforcementLevel.ValueString()))
	}
	id := state.ID.ValueString()
	prior, diags := r.data.getCodeProof(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	var code []byte // the code to upload, once read
	if plan.hasCode() && (plan.codeSum().IsUnknown() || !plan.codeSum().Equal(state.codeSum())) {
		// Read and checked once, before anything is sent: these very bytes are uploaded.
		if code = contentCode(ctx, &plan, req.Config, id, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	if plan.TestsSHA256.IsUnknown() {
		// Tested before anything is sent, when the plan could not.
		if code == nil {
			code = contentCode(ctx, &plan, req.Config, id, &resp.Diagnostics)
		}
		if plan.TestsSHA256 = applyTests(ctx, req.Config, r.data.withPassed(plan.tested(code)), plan.TestsSHA256, &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	}
	planSum, stateSum := plan.codeSum(), state.codeSum()
	uploading := code != nil && !planSum.Equal(stateSum)
	if imported, ok := privateJSON[string](ctx, req.Private, importedCodeKey, &resp.Diagnostics); ok && r.configuresCode(ctx, plan, req.Config) {
		// The import's digest, read at plan: someone may have uploaded since. One download confirms it.
		if imported == planSum.ValueString() {
			if uploading = !r.data.serviceHasCode(ctx, id, planSum.ValueString()); uploading && code == nil {
				if code = contentCode(ctx, &plan, req.Config, id, &resp.Diagnostics); resp.Diagnostics.HasError() {
					return
				}
			}
		}
	}
	if r.configuresCode(ctx, plan, req.Config) {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedCodeKey, nil)...) // the code is this resource's now
	}
	var patched *policyAPI // the PATCH's answer, when one was sent
	// Only the code changed: no PATCH.
	if !plan.Description.Equal(state.Description) || !plan.Query.Equal(state.Query) || !plan.EnforcementLevel.Equal(state.EnforcementLevel) {
		tflog.Debug(ctx, "Updating policy", map[string]any{"id": id})
		defer r.data.lists.policies.invalidate(state.Organization.ValueString())
		pol, err := policyClient{r.data.client}.update(ctx, id, opts)
		if err != nil {
			resp.Diagnostics.AddError("Error updating policy", policyError("Policy "+id, err))
			return
		}
		tflog.Info(ctx, "Updated policy", map[string]any{"id": id})
		patched = pol
		want := plan
		plan.set(pol.values())
		checkPolicyWritten(want, plan, &resp.Diagnostics)
	}
	if patched != nil && !uploading && !stateSum.IsNull() {
		// The code in state, at the PATCH's updated-at (policy_code_proof.go).
		resp.Diagnostics.Append(r.data.setCodeProof(ctx, resp.Private, r.data.afterPatch(ctx, patched, prior, stateSum.ValueString()))...)
	}
	if uploading {
		pol := policyIdentity{kind: tfe.PolicyKind(plan.Kind.ValueString()), name: plan.Name.ValueString(), organization: plan.Organization.ValueString()}
		if resp.Diagnostics.HasError() {
			return
		}
		var before *string
		if patched != nil {
			v := updatedAtSignal(patched) // after our PATCH, never before it
			before = &v
		} else {
			before = r.data.valueBefore(ctx, id, prior)
		}
		proof := r.data.putCode(ctx, id, pol, code, before, prior, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		resp.Diagnostics.Append(r.data.setCodeProof(ctx, resp.Private, proof)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *policyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state policyResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	defer r.data.lists.policies.invalidate(state.Organization.ValueString())
	deleteConfirmed(ctx, &resp.Diagnostics, writeCheck("Deleting", "deleted"), "delete", "policy", "Policy "+id, id, permManagePolicies,
		func() error { return r.data.client.Policies.Delete(ctx, id) }, r.data.locatePolicy(state.Organization.ValueString(), id))
}

// ImportState takes the policy ID (`pol-<id>`) or `<organization>/<name>`.
func (r *policyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	r.importIDOrNames(ctx, req, resp, "policy", "pol-", "pol-<id> or <organization>/<policy name>", 2, true, func(parts []string) (string, error) {
		pol, err := policyClient{r.data.client}.findByName(ctx, parts[0], parts[1])
		if err != nil {
			return "", errors.New(r.data.policyByNameError(ctx, parts[0], parts[1], err))
		}
		return pol.ID, nil
	})
}

// validatePolicyKind checks kind, query and level; code gives the code for a query to suggest.
func validatePolicyKind(kindV, query, level types.String, code func() []byte, diags *diag.Diagnostics) {
	if kindV.IsUnknown() {
		return
	}
	kind := string(tfe.Sentinel)
	if !kindV.IsNull() {
		kind = kindV.ValueString()
	}
	if policyLevels[kind] == nil {
		return // the kind's own validator reports it
	}
	switch {
	case kind == string(tfe.OPA) && query.IsNull():
		diags.AddAttributeError(path.Root("query"), "Missing query",
			`query is required when kind = "opa": the OPA query that evaluates the policy`+suggestQuery(code()))
	case kind == string(tfe.Sentinel) && !query.IsNull() && !query.IsUnknown():
		diags.AddAttributeError(path.Root("query"), "Query not allowed",
			`query is only valid when kind = "opa"; remove it from this Sentinel policy.`)
	}
	// A level of no kind is policyLevelValidator's one error.
	if !level.IsNull() && !level.IsUnknown() && isPolicyLevel(level.ValueString()) && !levelAllowed(kind, level.ValueString()) {
		diags.AddAttributeError(path.Root("enforcement_level"), "Invalid enforcement level for the policy kind",
			fmt.Sprintf("enforcement_level %q is not valid when kind = %q; use one of %s.", level.ValueString(), kind, quoted(policyLevels[kind])))
	}
}

// checkPolicyWritten reports every planned value the API did not take (got is what it returned).
func checkPolicyWritten(want, got policyResourceModel, diags *diag.Diagnostics) {
	for _, f := range []struct {
		attr      string
		want, got types.String
	}{
		{"organization", want.Organization, got.Organization},
		{"name", want.Name, got.Name},
		{"kind", want.Kind, got.Kind},
		{"description", want.Description, got.Description},
		{"query", want.Query, got.Query},
		{"enforcement_level", want.EnforcementLevel, got.EnforcementLevel},
	} {
		if f.want.IsUnknown() || f.want.Equal(f.got) {
			continue
		}
		diags.AddAttributeError(path.Root(f.attr), "The API did not apply a policy attribute",
			fmt.Sprintf("Policy %s: %s was sent as %s but the API returned %s. The state records what the API returned; check the token's permissions and the service's rules for this attribute.",
				got.ID.ValueString(), f.attr, f.want, f.got))
	}
}
