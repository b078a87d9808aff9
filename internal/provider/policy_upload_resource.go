package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	tfe "github.com/hashicorp/go-tfe"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
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
)

// NewPolicyUploadResource is the tfgov_policy_upload resource.
func NewPolicyUploadResource() resource.Resource {
	return &policyUploadResource{resourceBase{typ: policyUploadType}}
}

type policyUploadResource struct{ resourceBase }

type policyUploadResourceModel struct {
	ID            types.String `tfsdk:"id"`
	PolicyID      types.String `tfsdk:"policy_id"`
	Content       types.String `tfsdk:"content"`
	Source        types.String `tfsdk:"source"`
	ContentSHA256 types.String `tfsdk:"content_sha256"`
}

// fields lists the model's attributes (model_convert.go).
func (m *policyUploadResourceModel) fields() []modelField {
	return []modelField{
		{"id", types.StringType, &m.ID},
		{"policy_id", types.StringType, &m.PolicyID},
		{"content", types.StringType, &m.Content},
		{"source", types.StringType, &m.Source},
		{"content_sha256", types.StringType, &m.ContentSHA256},
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
	resp.Schema = schema.Schema{
		MarkdownDescription: "The code of a `tfgov_policy`, given inline (`content`) or read from a file (`source`).\n\n" +
			"The code is uploaded when the resource is created and whenever it changes. A refresh compares the code's SHA-256 with the one in state, " +
			"so code changed outside Terraform shows up as a change in the next plan. " +
			"To spare a download per policy on every plan, the provider uses the policy's `updated-at`, which the API moves on every upload and every change of the policy, " +
			"as the signal: it comes with the organization's policy list that refreshes read anyway (100 policies a request), and the code is downloaded only when " +
			"`updated-at` shows a change this provider did not make. The provider knows its own changes: an upload's answer is dated by the service (its `Date` header), " +
			"so an `updated-at` before the end of that second is the upload's own, and a `tfgov_policy` update's answer gives the new `updated-at`. " +
			"Both are the service's clock, so the skew of this machine's clock plays no part. A plan right after an apply therefore downloads nothing. " +
			"The cost of the `Date` header's precision (a second): code changed outside Terraform within the same second as this provider's upload " +
			"is taken for the upload's, as are two changes within the same millisecond of `updated-at`; the API gives no finer signal. " +

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
					"own `content_sha256`); the file is then checked against it before the upload.",
				Validators: []validator.String{stringvalidator.RegexMatches(sha256RE, "must be 64 lowercase hexadecimal characters")},
			},
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
	if resp.Diagnostics.HasError() || cfg.Content.IsNull() || cfg.Content.IsUnknown() {
		return
	}
	if n := len(cfg.Content.ValueString()); n > maxPolicyCodeSize {
		resp.Diagnostics.AddAttributeError(path.Root("content"), "Policy code too large", tooLarge(n))
	}
	if strings.TrimSpace(cfg.Content.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(path.Root("content"), "Empty policy code", fmt.Sprintf("content: %s.", errEmptyPolicy))
	}
}

func tooLarge(n int) string {
	return fmt.Sprintf("The code is %d bytes; the API accepts at most %d bytes (10 MB) and refuses larger code with 413. Split the policy, or trim it.", n, maxPolicyCodeSize)
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ModifyPlan puts the SHA-256 of the code into content_sha256: of
// `content`, or of the `source` file, which it reads (refusing one over the
// API's limit). A file that does not exist yet is accepted only when
// content_sha256 is configured, for a file another resource writes during
// the apply. Code known now is checked now (checkPolicyCode): empty code
// always, Rego when the policy's kind is known (remembered from the last
// upload) or the code is plainly Rego.
//
// A `source` file's hash is planned by planPolicyCode (code_hash.go), so
// that a saved plan applies, or fails with a clear error when the file
// changed since the plan: a new upload's content_sha256 is planned unknown
// (the code is still read and checked now), and the apply uploads the file
// as it then is.
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
	planned := planPolicyCode(ctx, cfg.Content, cfg.Source, cfg.ContentSHA256, state.ContentSHA256, req.State.Raw.IsNull(), req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sum, code, codeAttr, codeName := planned.SHA256, planned.Code, planned.Attr, planned.Name
	// The refresh's record served the check above; the apply does not keep it.
	resp.Diagnostics.Append(forgetLocalHash(ctx, resp.Private)...)
	if codeAttr != "" {
		// The kind from this resource's last upload, else from the
		// tfgov_policy refreshed or planned in this run.
		kind := ""
		if k, ok := privateJSON[policyKindRecord](ctx, req.Private, policyKindKey, &resp.Diagnostics); ok && k.PolicyID == plan.PolicyID.ValueString() {
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
	if !plan.PolicyID.IsUnknown() {
		if r.data != nil {
			r.data.refuseInlineCode(plan.PolicyID.ValueString(), &resp.Diagnostics)
		}
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), plan.PolicyID)...)
	}
}

func policyCodeSummary(err error) string {
	if errors.Is(err, errEmptyPolicy) {
		return "Empty policy code"
	}
	return "Invalid Rego"
}

func policyCodeDetail(kind, name string, err error) string {
	switch {
	case errors.Is(err, errEmptyPolicy):
		return fmt.Sprintf("%s: %s.", name, err)
	case kind == "opa":
		return fmt.Sprintf("The policy is an OPA policy, and its code does not parse as Rego, so nothing will be uploaded. OPA's parser says:\n%s", err)
	default:
		return fmt.Sprintf("The code is Rego (it declares a package, or the file is named *.rego) but does not parse, so nothing will be uploaded. OPA's parser says:\n%s", err)
	}
}

// Private state of tfgov_policy_upload.
const (
	// policyKindKey: the policy's kind, learnt at the last upload, so
	// that the next plan checks Rego without a request.
	policyKindKey = "policy_kind"
)

type policyKindRecord struct {
	PolicyID string `json:"policy_id"`
	Kind     string `json:"kind"`
	// Name and Organization (absent from records of earlier versions)
	// complete the policy's identity, so that the next upload needs no
	// read of the policy.
	Name         string `json:"name,omitempty"`
	Organization string `json:"organization,omitempty"`
}

// privateGetter is the part of the framework's private state that reads.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateJSON reads a JSON value from private state; ok is false when the
// key is absent or unreadable (then the caller does without it).
func privateJSON[T any](ctx context.Context, p privateGetter, key string, diags *diag.Diagnostics) (v T, ok bool) {
	if p == nil {
		return v, false
	}
	b, d := p.GetKey(ctx, key)
	diags.Append(d...)
	if len(b) == 0 || json.Unmarshal(b, &v) != nil {
		return v, false
	}
	return v, true
}

func privateValue(v any) []byte {
	b, _ := json.Marshal(v) // plain structs of strings
	return b
}

// missingSourceError is a `source` naming no file. It is fs.ErrNotExist
// (errors.Is), and says which file was looked for and where.
type missingSourceError struct{ name, abs string }

func (e missingSourceError) Error() string {
	msg := fmt.Sprintf("source: the file %s does not exist", e.abs)
	if !filepath.IsAbs(e.name) {
		msg += fmt.Sprintf(" (source = %q is taken from the directory Terraform runs in: for a file next to the configuration, write \"${path.module}/%s\")",
			e.name, filepath.ToSlash(filepath.Clean(e.name)))
	}
	return msg + "."
}

func (e missingSourceError) Unwrap() error { return fs.ErrNotExist }

// readPolicySource reads a code file, refusing one over the API's limit
// before reading it.
func readPolicySource(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		abs, aerr := filepath.Abs(name)
		if aerr != nil {
			abs = name
		}
		return nil, missingSourceError{name: name, abs: abs}
	}
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file", name)
	}
	if fi.Size() > maxPolicyCodeSize {
		return nil, fmt.Errorf("%s: %s", name, tooLarge(int(fi.Size())))
	}
	code, err := os.ReadFile(name) // reading the configured file is the point
	if err != nil {
		return nil, err
	}
	if len(code) > maxPolicyCodeSize { // grew since the stat
		return nil, fmt.Errorf("%s: %s", name, tooLarge(len(code)))
	}
	return code, nil
}

// code returns the code the plan uploads, checked against the planned
// SHA-256 (a source file may have changed since the plan).
func (m policyUploadResourceModel) code(diags *diag.Diagnostics) []byte {
	return codeFor(m.Content, m.Source, m.ContentSHA256, diags)
}

// codeFor reads the code of content or source and checks it against the
// planned SHA-256 sum (unless unknown).
func codeFor(content, source, sum types.String, diags *diag.Diagnostics) []byte {
	var code []byte
	if !content.IsNull() {
		code = []byte(content.ValueString())
	} else {
		var err error
		if code, err = readPolicySource(source.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("source"), "Cannot read the policy code", err.Error())
			return nil
		}
	}
	if len(code) > maxPolicyCodeSize {
		diags.AddAttributeError(path.Root("content"), "Policy code too large", tooLarge(len(code)))
		return nil
	}
	if !sum.IsUnknown() && sum.ValueString() != sha256Hex(code) {
		diags.AddAttributeError(path.Root("source"), "Policy code changed since the plan",
			fmt.Sprintf("The plan was made for code with SHA-256 %s, but the code now has SHA-256 %s. Run terraform plan again.", sum.ValueString(), sha256Hex(code)))
		return nil
	}
	return code
}

// checkCodeOfKind checks code for a policy (checkPolicyCode: empty code,
// and Rego for OPA). attr is the attribute an error names.
func checkCodeOfKind(id string, pol policyIdentity, code []byte, attr string, diags *diag.Diagnostics) {
	if err := checkPolicyCode(string(pol.kind), pol.name+".rego", code); err != nil {
		diags.AddAttributeError(path.Root(attr), policyCodeSummary(err),
			fmt.Sprintf("Policy %s (%s): %s", id, pol.name, strings.Replace(policyCodeDetail(string(pol.kind), attr, err), "will be", "was", 1)))
	}
}

// putCode uploads code to policy id (one request), which moves the
// policy's updated-at, so the organization's shared list is dropped. It
// returns the signal (codeSignal) that the code is ours.
func (d *providerData) putCode(ctx context.Context, id string, pol policyIdentity, code []byte, diags *diag.Diagnostics) codeSignal {
	tflog.Debug(ctx, "Uploading policy code", map[string]any{"policy_id": id, "bytes": len(code), "kind": string(pol.kind)})
	defer d.lists.policies.invalidate(pol.organization)
	at, err := policyClient{d.client}.upload(ctx, id, code)
	if err != nil {
		diags.AddError("Error uploading policy code", policyError("Policy "+id, err))
		return codeSignal{}
	}
	tflog.Info(ctx, "Uploaded policy code", map[string]any{"policy_id": id, "bytes": len(code), "sha256": sha256Hex(code)})
	return uploaded(pol.organization, sha256Hex(code), at)
}

// upload checks the code (checkPolicyCode with the policy's kind) and
// uploads it: one request. The policy's identity (kind, name,
// organization) is known when this process planned, created or listed the
// policy, or from this resource's last upload (prior, its private state;
// nil at create); only else is the policy read first (one more request).
// It records in private state that the code was uploaded by us
// (codeSignal), and returns the policy's identity.
func (r *policyUploadResource) upload(ctx context.Context, m *policyUploadResourceModel, prior privateGetter, priv privateStateSetter, diags *diag.Diagnostics) policyIdentity {
	code := m.code(diags)
	if diags.HasError() {
		return policyIdentity{}
	}
	id := m.PolicyID.ValueString()
	if r.data.refuseInlineCode(id, diags); diags.HasError() {
		return policyIdentity{}
	}
	pol, ok := r.data.knownPolicy(id)
	if !ok {
		pol, ok = recordedPolicy(ctx, prior, id, diags)
	}
	if !ok {
		// Not seen by this process nor recorded: read it.
		read, err := policyClient{r.data.client}.read(ctx, id)
		if err != nil {
			diags.AddAttributeError(path.Root("policy_id"), "Error uploading policy code", policyError("Policy "+id, err))
			return policyIdentity{}
		}
		r.data.rememberPolicy(read)
		pol = identityOf(read)
	}
	attr := "content"
	if m.Content.IsNull() {
		attr = "source"
	}
	checkCodeOfKind(id, pol, code, attr, diags)
	if diags.HasError() {
		return policyIdentity{}
	}
	sig := r.data.putCode(ctx, id, pol, code, diags)
	if diags.HasError() {
		return policyIdentity{}
	}
	m.ID = m.PolicyID
	m.ContentSHA256 = types.StringValue(sha256Hex(code))
	diags.Append(setCodeSignal(ctx, priv, sig)...)
	return pol
}

// rememberKind records the policy's identity for the next plan's Rego
// check and the next upload.
func rememberKind(ctx context.Context, p privateStateSetter, policyID string, pol policyIdentity, diags *diag.Diagnostics) {
	if pol.kind != "" {
		diags.Append(p.SetKey(ctx, policyKindKey, privateValue(policyKindRecord{PolicyID: policyID, Kind: string(pol.kind), Name: pol.name, Organization: pol.organization}))...)
	}
}

// recordedPolicy is the identity of policy id as this resource's last
// upload recorded it in private state (prior), when complete.
func recordedPolicy(ctx context.Context, prior privateGetter, id string, diags *diag.Diagnostics) (policyIdentity, bool) {
	if prior == nil {
		return policyIdentity{}, false
	}
	rec, ok := privateJSON[policyKindRecord](ctx, prior, policyKindKey, diags)
	pi := policyIdentity{kind: tfe.PolicyKind(rec.Kind), name: rec.Name, organization: rec.Organization}
	return pi, ok && rec.PolicyID == id && pi.complete()
}

func (r *policyUploadResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer r.syncIdentity(ctx, nil, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	pol := r.upload(ctx, &plan, nil, resp.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	rememberKind(ctx, resp.Private, plan.PolicyID.ValueString(), pol, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read checks the code for a change made outside Terraform. Every upload
// (and every PATCH) moves the policy's updated-at, which the organization's
// shared policy list (bulkLists) gives for free: when it shows no change
// but this provider's own (codeSignal.unchanged: the updated-at compared
// last, or one before the end of our upload's answer; or a PATCH of ours,
// ownPolicyWrite), nothing is downloaded. Otherwise the code is downloaded
// (one request) and its SHA-256 recorded, with the updated-at the list
// showed before the download. Inline `content` is replaced by downloaded
// text that differs, so the plan shows the change itself. A policy missing
// from its organization's list, or a 404 on the download (the policy is
// gone, or has no code), removes the resource from state.
func (r *policyUploadResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var state policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.PolicyID.ValueString()
	importing := false
	if b, d := req.Private.GetKey(ctx, importingKey); len(b) > 0 {
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, importingKey, nil)...)
		importing = true
	}
	noCode := func() {
		if importing {
			resp.Diagnostics.AddError("Cannot import policy code",
				fmt.Sprintf("Policy %s was not found, or has no code yet (the service has nothing to download before the first upload), "+
					"or the token may not manage policies. A policy without code has no tfgov_policy_upload to import: remove the import, "+
					"and let this resource upload the code instead.", id))
			return
		}
		tflog.Info(ctx, "Policy or its code no longer exists; removing the upload from state", map[string]any{"policy_id": id})
		resp.State.RemoveResource(ctx)
	}
	sig, diags := getCodeSignal(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if sig.Organization == "" {
		if pi, ok := r.data.knownPolicy(id); ok {
			sig.Organization = pi.organization
		}
	}
	org, orgKnown := sig.Organization, sig.Organization != ""
	if !orgKnown {
		org = r.data.organization // a guess: the policy may be elsewhere
	}
	var next *codeSignal // recorded when the code is downloaded
	unchanged := false
	if org != "" {
		pols, err := r.data.organizationPolicies(ctx, org)
		if err != nil {
			resp.Diagnostics.AddError("Error reading policy code", fmt.Sprintf("Listing the policies of organization %s: %s", org, err))
			return
		}
		pol, ok := pols.lookup(id)
		switch {
		case !ok && orgKnown && pols.definite():
			noCode()
			return
		case ok && (sig.unchanged(pol, state.ContentSHA256.ValueString()) || r.data.ownPolicyWrite(id, sig.UpdatedAt, updatedAtSignal(pol))):
			tflog.Debug(ctx, "Policy code unchanged since this provider last uploaded or compared it; not downloading", map[string]any{"policy_id": id, "updated_at": updatedAtSignal(pol)})
			unchanged = true
			if sig.UpdatedAt != updatedAtSignal(pol) {
				resp.Diagnostics.Append(setCodeSignal(ctx, resp.Private, sig.compared(org, pol))...)
			}
		case ok:
			next = &codeSignal{Organization: org, UpdatedAt: updatedAtSignal(pol)}
		}
	}
	if !unchanged {
		if state.Content.IsNull() && state.Source.IsNull() {
			// Just imported: take the code as inline content, so a
			// configuration with the same content plans no change.
			state.Content = types.StringUnknown()
		}
		sum, content, gone, err := r.data.downloadCode(ctx, id, state.ContentSHA256, state.Content)
		if gone {
			noCode()
			return
		}
		if err != nil {
			resp.Diagnostics.AddError("Error reading policy code", err.Error())
			return
		}
		state.ContentSHA256, state.Content = sum, content
		if next == nil {
			next = &codeSignal{}
		}
		resp.Diagnostics.Append(setCodeSignal(ctx, resp.Private, *next)...)
	}
	if !state.Source.IsNull() {
		// The file as this refresh finds it, for the apply of a saved plan
		// (ModifyPlan); an unreadable file is the plan's to report.
		if c, err := readPolicySource(state.Source.ValueString()); err == nil {
			resp.Diagnostics.Append(recordLocalHash(ctx, resp.Private, state.Source.ValueString(), sha256Hex(c))...)
		}
	}
	state.ID = state.PolicyID
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update uploads when the code changed; a new `source` path with the same
// code makes no request.
func (r *policyUploadResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.syncIdentity(ctx, &req.State, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state policyUploadResourceModel
	resp.Diagnostics.Append(getInto(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(getInto(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.ContentSHA256.IsUnknown() || !plan.ContentSHA256.Equal(state.ContentSHA256) {
		pol := r.upload(ctx, &plan, req.Private, resp.Private, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		rememberKind(ctx, resp.Private, plan.PolicyID.ValueString(), pol, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// ImportState takes the policy ID (`pol-<id>`). The code is downloaded
// by the read that follows and kept as `content` (when it is text); with a
// `source` file in the configuration, the first plan switches to it, and
// uploads only if the file differs.
func (r *policyUploadResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	req.ID = r.importID(ctx, req, &resp.Diagnostics)
	if !regexp.MustCompile(`^pol-[A-Za-z0-9]+$`).MatchString(req.ID) {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("invalid import ID %q: want the policy ID, pol-<id>", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("policy_id"), req.ID)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importingKey, []byte(`true`))...)
}

// Delete makes no request: the API cannot remove a policy's code, and the
// policy itself belongs to tfgov_policy.
func (r *policyUploadResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var state policyUploadResourceModel
	_ = getInto(ctx, req.State, &state)
	tflog.Info(ctx, "Removing policy code from state; the policy keeps its last code", map[string]any{"policy_id": state.PolicyID.ValueString()})
}

// refuseInlineCode refuses an upload to a policy whose tfgov_policy has
// inline code (content or source), as far as this process has seen: two
// resources would upload over each other's code.
func (d *providerData) refuseInlineCode(policyID string, diags *diag.Diagnostics) {
	if _, ok := d.lists.inlineCode.Load(policyID); ok {
		diags.AddAttributeError(path.Root("policy_id"), "Policy code managed twice",
			fmt.Sprintf("The tfgov_policy of %s sets its code inline (content or source), so a tfgov_policy_upload may not upload code to it too. "+
				"Remove this tfgov_policy_upload, or remove content and source from the tfgov_policy.", policyID))
	}
}

// downloadCode downloads the code of policy id (one request) and compares
// its SHA-256 with sum, the one in state: it returns the downloaded code's
// SHA-256, and content replaced by the downloaded text when the code
// changed (or when content is unknown: just imported) and is text. gone
// reports a 404: the policy is gone, or has no code.
func (d *providerData) downloadCode(ctx context.Context, id string, sum, content types.String) (newSum, newContent types.String, gone bool, err error) {
	code, err := d.client.Policies.Download(ctx, id)
	if isNotFound(err) {
		return sum, content, true, nil
	}
	if err != nil {
		return sum, content, false, fmt.Errorf("downloading the code of policy %s: %w", id, err)
	}
	got := sha256Hex(code)
	if content.IsUnknown() {
		content = types.StringNull()
		if utf8.Valid(code) {
			content = types.StringValue(string(code))
		}
	}
	if got != sum.ValueString() {
		tflog.Info(ctx, "Policy code changed outside Terraform", map[string]any{"policy_id": id, "sha256": got, "state_sha256": sum.ValueString()})
		if !content.IsNull() && utf8.Valid(code) {
			content = types.StringValue(string(code))
		}
	}
	return types.StringValue(got), content, false, nil
}

// privateCodeSignal is the private state key of a policy upload's
// codeSignal.
const privateCodeSignal = "code_signal"

// codeSignal is what a policy's code keeps in private state (of a
// tfgov_policy with inline code, or of a tfgov_policy_upload) to avoid
// downloading code that did not change: the policy's organization, whose
// list shows the policy's updated-at, and two ways of knowing the code in
// state is the service's:
//
//   - UpdatedAt: the policy's updated-at when the code in state was last
//     known to be the service's (compared after a download, or written by
//     this provider's own PATCH); "" when unknown;
//   - SHA256 and UploadedBy: the code this provider last uploaded, and the
//     service's time by which that upload was made: the Date header of the
//     upload's answer plus a second, the header's precision. The upload's
//     answer has no updated-at, but every later change of the policy (an
//     upload, a PATCH) moves updated-at past that answer, so an updated-at
//     before UploadedBy is our upload's own. Both times are the service's,
//     so the client's clock and its skew play no part. The cost of the
//     header's precision: a change made outside Terraform within the same
//     second as our upload's answer is taken for ours.
type codeSignal struct {
	Organization string `json:"organization,omitempty"`
	UpdatedAt    string `json:"updated_at,omitempty"`
	SHA256       string `json:"sha256,omitempty"`
	UploadedBy   string `json:"uploaded_by,omitempty"`
}

// uploaded is the signal after this provider uploaded code with SHA-256
// sum to a policy of org, its answer dated at (the service's Date; zero
// when it sent none, which leaves the next refresh to download).
func uploaded(org, sum string, at time.Time) codeSignal {
	sig := codeSignal{Organization: org, SHA256: sum}
	if !at.IsZero() {
		sig.UploadedBy = at.Add(time.Second).UTC().Format(time.RFC3339)
	}
	return sig
}

// unchanged reports whether the code with SHA-256 sum (the code in state)
// is still the code of pol, as the organization's list shows pol, without
// a download: pol's updated-at is the one recorded, or no later than the
// end of our own upload of that code.
func (s codeSignal) unchanged(pol *policyAPI, sum string) bool {
	if pol.UpdatedAt.IsZero() {
		return false // no code uploaded yet, or no sign of one
	}
	if s.UpdatedAt != "" && s.UpdatedAt == updatedAtSignal(pol) {
		return true
	}
	if s.UploadedBy == "" || s.SHA256 == "" || s.SHA256 != sum {
		return false
	}
	by, err := time.Parse(time.RFC3339, s.UploadedBy)
	return err == nil && pol.UpdatedAt.Before(by)
}

// compared is the signal once the code in state is known to be pol's
// code: at pol's updated-at.
func (s codeSignal) compared(org string, pol *policyAPI) codeSignal {
	return codeSignal{Organization: org, UpdatedAt: updatedAtSignal(pol)}
}

// updatedAtSignal is pol's updated-at as codeSignal records it, to the
// precision the API gives; "" when null.
func updatedAtSignal(pol *policyAPI) string {
	if pol.UpdatedAt.IsZero() {
		return ""
	}
	return pol.UpdatedAt.UTC().Format(time.RFC3339Nano)
}

type privateStateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

func getCodeSignal(ctx context.Context, p privateGetter) (codeSignal, diag.Diagnostics) {
	var sig codeSignal
	if p == nil {
		return sig, nil
	}
	raw, diags := p.GetKey(ctx, privateCodeSignal)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &sig); err != nil {
			return codeSignal{}, diags // unreadable: download, as with none
		}
	}
	return sig, diags
}

func setCodeSignal(ctx context.Context, p privateStateSetter, sig codeSignal) diag.Diagnostics {
	if p == nil {
		return nil
	}
	raw, err := json.Marshal(sig)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Internal error", "encoding the policy code signal: "+err.Error())
		return diags
	}
	return p.SetKey(ctx, privateCodeSignal, raw)
}
