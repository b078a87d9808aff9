package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var (
	_ resource.ResourceWithConfigure        = (*policyUploadResource)(nil)
	_ resource.ResourceWithConfigValidators = (*policyUploadResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*policyUploadResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*policyUploadResource)(nil)
	_ resource.ResourceWithImportState      = (*policyUploadResource)(nil)
	_ resource.ResourceWithIdentity         = (*policyUploadResource)(nil)
)

// NewPolicyUploadResource is the tfgov_policy_upload resource.
func NewPolicyUploadResource() resource.Resource {
	return &policyUploadResource{resourceBase{typ: policyUploadType}}
}

type policyUploadResource struct{ resourceBase }

// policyUploadIdentityAttrs is tfgov_policy_upload's identity (identity.go): its policy's ID.
var policyUploadIdentityAttrs = []identityAttr{{"policy_id", "ID of the policy whose code this is (`pol-<id>`)."}}

type policyUploadResourceModel struct {
	ID            types.String `tfsdk:"id"`
	PolicyID      types.String `tfsdk:"policy_id"`
	Content       types.String `tfsdk:"content"`
	Source        types.String `tfsdk:"source"`
	ContentSHA256 types.String `tfsdk:"content_sha256"`
	TestsWO       types.Object `tfsdk:"tests_wo"` // policy_tests.go
	TestsSHA256   types.String `tfsdk:"tests_sha256"`
}

// fields lists the model's attributes (model_convert.go).
func (m *policyUploadResourceModel) fields() []modelField {
	return []modelField{
		{"id", types.StringType, &m.ID},
		{"policy_id", types.StringType, &m.PolicyID},
		{"content", types.StringType, &m.Content},
		{"source", types.StringType, &m.Source},
		{"content_sha256", types.StringType, &m.ContentSHA256},
		{"tests_wo", testsObjectType(true), &m.TestsWO},
		{"tests_sha256", types.StringType, &m.TestsSHA256},
	}
}

func (m *policyUploadResourceModel) FromTerraform5Value(v tftypes.Value) error {
	return fromTerraformObject(v, m.fields())
}

func (m *policyUploadResourceModel) ToTerraform5Value() (any, error) {
	return toTerraformObject(m.fields())
}

var sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (r *policyUploadResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policyUploadType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "The code of a `tfgov_policy`, given inline (`content`) or read from a file (`source`).\n\n" +
			"The code is uploaded when the resource is created and whenever it changes. A refresh compares the code's SHA-256 with the one in state, " +
			"so code changed outside Terraform shows up as a change in the next plan. " +
			"To spare a download per policy on every plan, the provider uses the policy's `updated-at`, which comes with the organization's policy list that refreshes read anyway " +
			"(100 policies a request), but only on evidence seen on the service: the code is not downloaded when `updated-at` still equals the value the provider recorded " +
			"together with the code in state (it read the policy, then the code), and uploads are proven to move `updated-at` on this service " +
			"(the provider saw its own upload move it: until then it reads the policy itself right before each upload, and right after it, and downloads the code once). " +
			"The API reference does not say what moves `updated-at`: where uploads do not move it, the provider downloads the code on every refresh, " +
			"as its debug log says. An update of the `tfgov_policy` that moves `updated-at` costs one download at the next refresh. " +
			"A proof counts only on the service it was seen on (host and base path), and each refresh also downloads the code of the proven policies whose turn the hour is " +
			"(one in 23, each policy once in every 23 hours): code found changed while `updated-at` stayed warns, and drops every proof of that service. " +
			"Two `tfgov_policy_upload` for one policy in one configuration are refused, at plan when the policy exists, else when the apply plans the second one. " +
			"Code over the API's limit of 10 MB (10,485,760 bytes) is refused at plan time. " +
			"Empty code (or only whitespace) is refused at plan: the service accepts an empty upload, but an empty policy can never pass " +
			"(a Rego module needs a package declaration, a Sentinel policy its main rule). " +
			"For an `opa` policy the code must parse as Rego (v1, or v0 for older OPA versions), checked with OPA's own parser at plan " +
			"whenever the kind is known then (from this resource's last upload, or the `tfgov_policy` of this configuration it refers to, once that exists) " +
			"or the code is plainly Rego (it declares a package, or the file is named `*.rego`), " +
			"so that nothing is created for code that would be refused; otherwise before the upload. " +
			"A `source` file edited between `terraform plan -out` and the apply of that plan is refused with an error saying so, and nothing is uploaded; " +
			"a new upload's plan shows `content_sha256` as known after apply, and uploads the file as the apply finds it. " +
			"(With `-refresh=false` a plan compares the file with the last refresh's reading of it: refresh first after editing it.)\n\n" +
			"A failed upload (after the provider's retries, `retry_max`) fails the apply: a new upload leaves nothing in state, and the next apply uploads again; " +
			"an upload of changed code keeps the code last uploaded in state, and the next apply uploads again. The policy itself is never touched.\n\n" +
			"After an import the code is kept as `content`, which `terraform plan -generate-config-out` writes, and which then plans no change. " +
			"A configuration with `source` instead plans one in-place update after the import, from `content` to `source`, because Terraform cannot know " +
			"which file an imported policy's code came from; its `content_sha256` stays the same when the file holds the same code, and applying it uploads nothing.\n\n" +
			"Destroying this resource leaves the policy and its last code in place: the API has no way to remove code; destroy the `tfgov_policy` for that.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The policy ID, as `policy_id`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"policy_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the policy (`pol-<id>`), usually `tfgov_policy.<name>.id`. Changing it uploads to the new policy.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{idValidator("pol-")},
			},
			"content": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The policy code, inline. Exactly one of `content` and `source` must be set.",
			},
			"source": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Path of a file holding the policy code, such as `\"${path.module}/policies/tags.rego\"`. " +
					"The file is read at plan time and its SHA-256 goes into `content_sha256`, so editing the file plans an upload. " +
					"Exactly one of `content` and `source` must be set.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"content_sha256": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Hex SHA-256 of the code. Computed from `content` or from the `source` file at plan time. " +
					"Set it only for a `source` file that another resource writes during the apply (for example from that resource's " +
					"own `content_sha256`); the file is then checked against it before the upload. " +
					"While that digest is not known (the writer changes during the apply), the plan shows the upload, with `content_sha256` known after apply; " +
					"the apply uploads the file as the writer left it, after checking it against the digest, then known: a file that does not match fails the apply, and nothing is uploaded.",
				Validators: []validator.String{stringvalidator.RegexMatches(sha256RE, "must be 64 lowercase hexadecimal characters")},
			},
			"tests_wo":     testsSchema(true),
			"tests_sha256": testsSHA256Schema(),
		},
	}
}

func (r *policyUploadResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(path.MatchRoot("content"), path.MatchRoot("source")),
	}
}

// ValidateConfig refuses inline code over the API's limit, and empty code.
func (r *policyUploadResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validateUploadTests(cfg.TestsWO, &resp.Diagnostics)
	if cfg.Content.IsNull() || cfg.Content.IsUnknown() {
		return
	}
	if n := len(cfg.Content.ValueString()); n > maxPolicyCodeSize {
		resp.Diagnostics.AddAttributeError(path.Root("content"), "Policy code too large", tooLarge(n))
	}
	if strings.TrimSpace(cfg.Content.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("content"), "Empty policy code", fmt.Sprintf("content: %s.", errEmptyPolicy))
	}
}

// ModifyPlan plans content_sha256 (planPolicyCode: DESIGN.md "Local files at plan") and checks
// code known now: empty code always, Rego when the kind is known or the code is plainly Rego.
func (r *policyUploadResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var cfg, plan policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Config, &cfg)...)
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state policyUploadResourceModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	planned := planPolicyCode(ctx, cfg.Content, cfg.Source, cfg.ContentSHA256, state.ContentSHA256, state.Source, req.State.Raw.IsNull(), req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sum, code, codeAttr, codeName := planned.SHA256, planned.Code, planned.Attr, planned.Name
	// The refresh's record served the check above; the apply does not keep it.
	resp.Diagnostics.Append(forgetLocalHash(ctx, resp.Private)...)
	kind := ""
	if codeAttr != "" {
		// The kind from this resource's last upload, else from a tfgov_policy of this run.
		if k, ok := getPolicyKind(ctx, req.Private, &resp.Diagnostics); ok && k.PolicyID == plan.PolicyID.ValueString() {
			kind = k.Kind
		} else if r.data != nil && !plan.PolicyID.IsUnknown() {
			kind = string(r.data.policyKind(plan.PolicyID.ValueString()))
		}
		if err := checkPolicyCode(kind, codeName, code); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root(codeAttr), policyCodeSummary(err), policyCodeDetail(kind, codeName, err))
			return
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content_sha256"), sum)...)
	c := r.data.withPassed(uploadTested(plan.PolicyID, codeName, kind, code, sum))
	c.newPolicy = plan.PolicyID.IsUnknown()
	if r.data != nil && !c.newPolicy {
		// Known when the policy was listed or planned in this process (DESIGN.md "Policy tests at plan").
		pi, _ := r.data.policyIdentity(plan.PolicyID.ValueString())
		c.policyQuery = pi.query
	}
	if plan.TestsSHA256 = planTests(ctx, cfg.TestsWO, c, state.TestsSHA256, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("tests_sha256"), plan.TestsSHA256)...)
	if !plan.PolicyID.IsUnknown() {
		if r.data != nil {
			r.data.refuseInlineCode(plan.PolicyID.ValueString(), &resp.Diagnostics)
			if !sum.IsUnknown() && !sum.IsNull() {
				r.data.claimPolicyCode(plan.PolicyID.ValueString(), uploadClaim{sha256: sum.ValueString(), what: describeUpload(cfg, sum)}, &resp.Diagnostics)
			}
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), plan.PolicyID)...)
	}
}

func (r *policyUploadResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	pol := r.upload(ctx, &plan, req.Config, nil, resp.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	rememberKind(ctx, resp.Private, plan.PolicyID.ValueString(), pol, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read downloads the code unless its proof says it is unchanged (DESIGN.md "Policy code
// proofs"). Absent from its organization's list, or a 404 on the download, is gone
// (DESIGN.md "Gone or cannot see"); downloaded `content` that differs shows in the plan.
func (r *policyUploadResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.PolicyID.ValueString()
	importing := takeImporting(ctx, req, resp)
	noCode := func(pol *policyAPI, absentFrom string, sure bool) {
		if importing {
			resp.Diagnostics.AddError("Cannot import policy code", r.noCodeDetail(ctx, id, pol, absentFrom, sure))
			return
		}
		tflog.Info(ctx, "Policy or its code no longer exists; removing the upload from state", map[string]any{"policy_id": id})
		resp.State.RemoveResource(ctx)
	}
	proof, diags := r.data.getCodeProof(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	org := ""
	if rec, ok := getPolicyKind(ctx, req.Private, &resp.Diagnostics); ok && rec.PolicyID == id {
		org = rec.Organization
	}
	if org == "" {
		if pi, ok := r.data.knownPolicy(id); ok {
			org = pi.organization
		}
	}
	orgKnown := org != ""
	if !orgKnown {
		org = r.data.organization // a guess: the policy may be elsewhere
	}
	download := true
	var checked codeProof    // the proof a download checks (checkDownload)
	var listedPol *policyAPI // the policy as its organization's list shows it
	absentFrom := ""         // an organization whose whole list lacks it
	listReadable := false    // the policy's organization listed its policies
	if org != "" {
		pols, err := r.data.organizationPolicies(ctx, org)
		if err != nil {
			resp.Diagnostics.AddError("Error reading policy code", fmt.Sprintf("Listing the policies of organization %s: %s", org, err))
			return
		}
		if pols.parentMissing && orgKnown {
			resp.Diagnostics.AddError("Cannot refresh policy code", r.data.policyCannotSee(ctx, refreshCheck, org, "The code of policy "+id))
			return
		}
		listReadable = orgKnown && !pols.parentMissing
		var ok bool
		listedPol, ok = pols.lookup(id)
		pol := listedPol
		if !ok {
			absentFrom = org // over several pages only probably: noCodeDetail reads by ID then
		}
		switch {
		case !ok && orgKnown && pols.definite():
			noCode(nil, org, true)
			return
		case ok && r.data.skipDownload(ctx, pol, proof):
			download = importing
		case ok:
			checked = proof
			proof = proof.downloaded(pol)
		default:
			proof = proof.downloaded(nil)
		}
	} else {
		proof = proof.downloaded(nil)
	}
	if download {
		if state.Content.IsNull() && state.Source.IsNull() {
			// Just imported: the code as inline content, so the same content plans no change.
			state.Content = types.StringUnknown()
		}
		sum, content, gone, err := r.data.downloadCode(ctx, id, state.ContentSHA256, state.Content)
		if gone && listedPol == nil && !listReadable && !importing {
			// No list was read that shows every policy: one read tells gone from cannot-see.
			if pol, err := (policyClient{r.data.client}).read(ctx, id); err == nil {
				listedPol = pol // it exists, without code: the upload is gone
			} else {
				detail := fmt.Sprintf("Policy %s has no code the API token may download, and reading the policy failed: %s.", id, err)
				if isNotFound(err) {
					detail = fmt.Sprintf("Policy %s cannot be refreshed: the policy and its code answered 404. It was deleted, or it is in an organization whose policies the API token may not manage (it needs %s, or to be an owner). %s",
						id, permManagePolicies, stateRmAdvice)
				}
				resp.Diagnostics.AddError("Cannot refresh policy code", detail)
				return
			}
		}
		if gone {
			noCode(listedPol, absentFrom, false)
			return
		}
		if err != nil {
			resp.Diagnostics.AddError("Error reading policy code", err.Error())
			return
		}
		if listedPol != nil {
			r.data.checkDownload(listedPol, checked, state.ContentSHA256.ValueString(), sum.ValueString(), &resp.Diagnostics)
		}
		if listedPol != nil && !orgKnown {
			// So that the next refresh reads its own organization's list, where absence is gone.
			rememberKind(ctx, resp.Private, id, identityOf(listedPol), &resp.Diagnostics)
		}
		state.ContentSHA256, state.Content = sum, content
		resp.Diagnostics.Append(r.data.setCodeProof(ctx, resp.Private, proof)...)
	}
	// The import's digest, confirmed by an apply that uploads nothing on it (Update).
	var imported []byte
	if importing {
		imported = privateValue(state.ContentSHA256.ValueString())
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedCodeKey, imported)...)
	// The file as this refresh finds it, for the apply of a saved plan.
	recordSource(ctx, resp.Private, state.Source, &resp.Diagnostics)
	state.ID = state.PolicyID
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update uploads when the code changed; a new `source` path with the same code makes no request.
func (r *policyUploadResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	upload := plan.ContentSHA256.IsUnknown() || !plan.ContentSHA256.Equal(state.ContentSHA256)
	if imported, ok := privateJSON[string](ctx, req.Private, importedCodeKey, &resp.Diagnostics); ok && !upload && imported == plan.ContentSHA256.ValueString() {
		// The import's digest, read at plan: someone may have uploaded since. One download confirms it.
		upload = !r.data.serviceHasCode(ctx, plan.PolicyID.ValueString(), imported)
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedCodeKey, nil)...)
	if upload {
		pol := r.upload(ctx, &plan, req.Config, req.Private, resp.Private, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		rememberKind(ctx, resp.Private, plan.PolicyID.ValueString(), pol, &resp.Diagnostics)
	} else if plan.TestsSHA256.IsUnknown() {
		// Tests known only now, on code that stays.
		r.testUnchanged(ctx, &plan, req.Config, req.Private, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete makes no request: the API cannot remove a policy's code, and the policy is tfgov_policy's.
func (r *policyUploadResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var state policyUploadResourceModel
	_ = getInto(ctx, req.State, &state)
	tflog.Info(ctx, "Removing policy code from state; the policy keeps its last code", map[string]any{"policy_id": state.PolicyID.ValueString()})
}

// ImportState takes the policy ID; the read that follows keeps the code as `content`.
func (r *policyUploadResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	if !regexp.MustCompile(`^pol-[A-Za-z0-9]+$`).MatchString(req.ID) {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("invalid import ID %q: want the policy ID, pol-<id>", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("policy_id"), req.ID)...)
	markImporting(ctx, resp)
}

// code is the code the plan uploads, checked against the planned digest.
func (m policyUploadResourceModel) code(diags *diag.Diagnostics) []byte {
	return codeFor(m.Content, m.Source, m.ContentSHA256, diags)
}

// upload checks the code with its policy's kind and uploads it, reading the policy first only
// when neither this process nor the last upload (prior) knows its identity.
func (r *policyUploadResource) upload(ctx context.Context, m *policyUploadResourceModel, config tfsdk.Config, prior privateGetter, priv privateSetter, diags *diag.Diagnostics) policyIdentity {
	code := m.code(diags)
	if diags.HasError() {
		return policyIdentity{}
	}
	id := m.PolicyID.ValueString()
	if r.data.refuseInlineCode(id, diags); diags.HasError() {
		return policyIdentity{}
	}
	proof, d := r.data.getCodeProof(ctx, prior)
	diags.Append(d...)
	var before *string
	pol, ok := r.data.knownPolicy(id)
	if !ok {
		pol, ok = recordedPolicy(ctx, prior, id, diags)
	}
	if ok && pol.query == "" && m.TestsSHA256.IsUnknown() && givesTestsQuery(ctx, config) {
		ok = false // tests_wo.query is compared with the policy's, not recorded
	}
	if !ok {
		// Not seen nor recorded: read it, which also shows updated-at right before the upload.
		read, err := policyClient{r.data.client}.read(ctx, id)
		if err != nil {
			diags.AddAttributeError(path.Root("policy_id"), "Error uploading policy code", policyError("Policy "+id, err))
			return policyIdentity{}
		}
		r.data.rememberPolicy(read)
		pol = identityOf(read)
		v := updatedAtSignal(read)
		before = &v
	}
	attr := "content"
	if m.Content.IsNull() {
		attr = "source"
	}
	checkCodeOfKind(id, pol, code, attr, diags)
	if diags.HasError() {
		return policyIdentity{}
	}
	// Tested before the upload, when the plan could not.
	if m.TestsSHA256 = applyTests(ctx, config, r.data.withPassed(m.tested(pol, code)), m.TestsSHA256, diags); diags.HasError() {
		return policyIdentity{}
	}
	if before == nil {
		before = r.data.valueBefore(ctx, id, proof)
	}
	proof = r.data.putCode(ctx, id, pol, code, before, proof, diags)
	if diags.HasError() {
		return policyIdentity{}
	}
	m.ID = m.PolicyID
	m.ContentSHA256 = types.StringValue(sha256Hex(code))
	diags.Append(r.data.setCodeProof(ctx, priv, proof)...)
	return pol
}

// recordedPolicy is policy id's identity as this resource's last upload recorded it, when complete.
func recordedPolicy(ctx context.Context, prior privateGetter, id string, diags *diag.Diagnostics) (policyIdentity, bool) {
	if prior == nil {
		return policyIdentity{}, false
	}
	rec, ok := getPolicyKind(ctx, prior, diags)
	pi := policyIdentity{kind: tfe.PolicyKind(rec.Kind), name: rec.Name, organization: rec.Organization}
	return pi, ok && rec.PolicyID == id && pi.complete()
}

// noCodeDetail says why an imported upload has no code: the policy has none yet (pol), or is
// missing. absentFrom's whole list lacks it (sure: it belongs there); else one read tells which.
func (r *policyUploadResource) noCodeDetail(ctx context.Context, id string, pol *policyAPI, absentFrom string, sure bool) string {
	const fix = " A policy without code has no tfgov_policy_upload to import: remove the import, and let this resource upload the code instead."
	if pol == nil && !sure {
		p, err := policyClient{r.data.client}.read(ctx, id)
		switch {
		case err == nil:
			pol = p
		case isNotFound(err) && absentFrom != "":
			return fmt.Sprintf("Policy %s was not found: organization %s, whose policies the token can list, has none with that ID, and the token sees no such policy elsewhere.", id, absentFrom) + fix
		case isNotFound(err):
			return policyNotFound("Policy "+id) + fix
		default:
			return fmt.Sprintf("Policy %s has no code to download, and reading the policy failed: %s.", id, err) + fix
		}
	}
	if pol == nil {
		return fmt.Sprintf("Policy %s was not found: organization %s, whose policies the token can list, has none with that ID.", id, absentFrom) + fix
	}
	return fmt.Sprintf("Policy %s (%q, %s) has no code yet: the service has nothing to download before the first upload.", id, pol.Name, pol.Kind) + fix
}
