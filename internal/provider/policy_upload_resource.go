package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
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
func NewPolicyUploadResource() resource.Resource { return &policyUploadResource{} }

type policyUploadResource struct{ data *providerData }

type policyUploadResourceModel struct {
	ID            types.String `tfsdk:"id"`
	PolicyID      types.String `tfsdk:"policy_id"`
	Content       types.String `tfsdk:"content"`
	Source        types.String `tfsdk:"source"`
	ContentSHA256 types.String `tfsdk:"content_sha256"`
}

var sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (r *policyUploadResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_policy_upload"
}

func (r *policyUploadResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The code of a `tfgov_policy`, given inline (`content`) or read from a file (`source`).\n\n" +
			"The code is uploaded when the resource is created and whenever it changes. Each refresh downloads the code and compares its SHA-256 " +
			"with the one in state, so code changed outside Terraform shows up as a change in the next plan. " +
			"Code over the API's limit of 10 MB (10,485,760 bytes) is refused at plan time. " +
			"Empty code (or only whitespace) is refused at plan: the service accepts an empty upload, but an empty policy can never pass " +
			"(a Rego module needs a package declaration, a Sentinel policy its main rule). " +
			"For an `opa` policy the code must parse as Rego (v1, or v0 for older OPA versions), checked with OPA's own parser at plan " +
			"whenever the kind is known then (from this resource's last upload, or the `tfgov_policy` of this configuration it refers to, once that exists) " +
			"or the code is plainly Rego (it declares a package, or the file is named `*.rego`), " +
			"so that nothing is created for code that would be refused; otherwise before the upload. " +
			"A `source` file edited between `terraform plan -out` and the apply of that plan is refused with an error saying so, and nothing is uploaded; " +
			"a new upload's plan shows `content_sha256` as known after apply, and uploads the file as the apply finds it.\n\n" +
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
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
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

func (r *policyUploadResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureData(req.ProviderData, &resp.Diagnostics)
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
// A `source` file edited between `terraform plan -out` and the apply: the
// apply plans again, and a different SHA-256 would make Terraform report an
// inconsistent plan as a provider bug. So the refresh of the plan records
// the file's SHA-256 in private state, and the apply's plan, which gets that
// same private state, refuses a file that no longer matches it, before
// anything is uploaded. A new upload has no refresh: its content_sha256 is
// planned unknown (the code is still read and checked now), and the apply
// uploads the file as it then is.
func (r *policyUploadResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var cfg, plan policyUploadResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	creating := req.State.Raw.IsNull()
	sum := cfg.ContentSHA256 // null or unknown unless configured
	var code []byte
	var codeAttr, codeName string
	switch {
	case !cfg.Content.IsNull() && !cfg.Content.IsUnknown():
		code, codeAttr, codeName = []byte(cfg.Content.ValueString()), "content", "content"
		got := sha256Hex(code)
		if !sum.IsNull() && !sum.IsUnknown() && sum.ValueString() != got {
			resp.Diagnostics.AddAttributeError(path.Root("content_sha256"), "content_sha256 does not match content",
				fmt.Sprintf("content_sha256 is %s but the SHA-256 of content is %s. Leave content_sha256 out: it is computed from content.", sum.ValueString(), got))
			return
		}
		sum = types.StringValue(got)
	case !cfg.Source.IsNull() && !cfg.Source.IsUnknown():
		name := cfg.Source.ValueString()
		c, err := readPolicySource(name)
		switch {
		case os.IsNotExist(err) && !sum.IsNull():
			// Written during the apply; checked against content_sha256 then.
		case err != nil:
			resp.Diagnostics.AddAttributeError(path.Root("source"), "Cannot read the policy code", err.Error()+
				"\n\nIf another resource writes this file during the apply, set content_sha256 from that resource so the plan knows the code's hash.")
			return
		case !sum.IsNull() && !sum.IsUnknown() && sum.ValueString() != sha256Hex(c):
			resp.Diagnostics.AddAttributeError(path.Root("content_sha256"), "content_sha256 does not match the source file",
				fmt.Sprintf("content_sha256 is %s but the SHA-256 of %s is %s.", sum.ValueString(), name, sha256Hex(c)))
			return
		default:
			code, codeAttr, codeName = c, "source", name
			if read, ok := privateJSON[sourceRead](ctx, req.Private, sourceReadKey, &resp.Diagnostics); ok && read.Path == name && read.SHA256 != sha256Hex(c) {
				resp.Diagnostics.AddAttributeError(path.Root("source"), "Policy file changed since the plan",
					fmt.Sprintf("%s had SHA-256 %s when Terraform read it for the plan, and has SHA-256 %s now, so the saved plan no longer describes it. "+
						"Nothing was uploaded. Run terraform plan again to review the new code, then apply it. "+
						"(With -refresh=false the plan compares with the file as the last refresh read it: refresh first.)", name, read.SHA256, sha256Hex(c)))
				return
			}
			if sum.IsNull() {
				sum = types.StringValue(sha256Hex(c))
				if creating {
					sum = types.StringUnknown()
				}
			}
		}
	}
	// The refresh's record served the check above; the apply does not keep it.
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, sourceReadKey, nil)...)
	if codeAttr != "" {
		// The kind from this resource's last upload, else from the
		// tfgov_policy refreshed or planned in this run.
		kind := ""
		if k, ok := privateJSON[policyKindRecord](ctx, req.Private, policyKindKey, &resp.Diagnostics); ok && k.PolicyID == plan.PolicyID.ValueString() {
			kind = k.Kind
		} else if r.data != nil && !plan.PolicyID.IsUnknown() {
			kind = r.data.policyKinds.kind(plan.PolicyID.ValueString())
		}
		if err := checkPolicyCode(kind, codeName, code); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root(codeAttr), policyCodeSummary(err), policyCodeDetail(kind, codeName, err))
			return
		}
	}
	if sum.IsNull() {
		sum = types.StringUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content_sha256"), sum)...)
	if !plan.PolicyID.IsUnknown() {
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

// policyKindCache maps policy IDs to kinds (`opa`, `sentinel`). Terraform
// refreshes (or creates) a tfgov_policy before planning an upload that
// refers to it, in the same provider process, so the upload's plan learns
// the kind of a policy the configuration manages without a request. The
// zero value is ready to use.
type policyKindCache struct{ m sync.Map }

func (c *policyKindCache) remember(id, kind string) {
	if id != "" && kind != "" {
		c.m.Store(id, kind)
	}
}

func (c *policyKindCache) kind(id string) string {
	k, _ := c.m.Load(id)
	s, _ := k.(string)
	return s
}

// Private state of tfgov_policy_upload.
const (
	// sourceReadKey: the `source` file as the last refresh read it.
	sourceReadKey = "source_read"
	// policyKindKey: the policy's kind, learnt at the last upload, so
	// that the next plan checks Rego without a request.
	policyKindKey = "policy_kind"
)

type sourceRead struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

type policyKindRecord struct {
	PolicyID string `json:"policy_id"`
	Kind     string `json:"kind"`
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
	b, _ := json.Marshal(v) //nolint:errchkjson // plain structs of strings
	return b
}

// readPolicySource reads a code file, refusing one over the API's limit
// before reading it.
func readPolicySource(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file", name)
	}
	if fi.Size() > maxPolicyCodeSize {
		return nil, fmt.Errorf("%s: %s", name, tooLarge(int(fi.Size())))
	}
	code, err := os.ReadFile(name) //nolint:gosec // reading the configured file is the point
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
	var code []byte
	if !m.Content.IsNull() {
		code = []byte(m.Content.ValueString())
	} else {
		var err error
		if code, err = readPolicySource(m.Source.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("source"), "Cannot read the policy code", err.Error())
			return nil
		}
	}
	if len(code) > maxPolicyCodeSize {
		diags.AddAttributeError(path.Root("content"), "Policy code too large", tooLarge(len(code)))
		return nil
	}
	if !m.ContentSHA256.IsUnknown() && m.ContentSHA256.ValueString() != sha256Hex(code) {
		diags.AddAttributeError(path.Root("source"), "Policy code changed since the plan",
			fmt.Sprintf("The plan was made for code with SHA-256 %s, but the code now has SHA-256 %s. Run terraform plan again.", m.ContentSHA256.ValueString(), sha256Hex(code)))
		return nil
	}
	return code
}

// upload reads the policy (its kind decides the syntax check), checks
// Rego code with OPA's parser, and uploads: two requests.
func (r *policyUploadResource) upload(ctx context.Context, m *policyUploadResourceModel, diags *diag.Diagnostics) (kind string) {
	code := m.code(diags)
	if diags.HasError() {
		return ""
	}
	id := m.PolicyID.ValueString()
	pol, err := policyClient{r.data.client}.read(ctx, id)
	if err != nil {
		diags.AddAttributeError(path.Root("policy_id"), "Error uploading policy code", policyError("Policy "+id, err))
		return ""
	}
	if err := checkPolicyCode(string(pol.Kind), pol.Name+".rego", code); err != nil {
		attr := "content"
		if m.Content.IsNull() {
			attr = "source"
		}
		diags.AddAttributeError(path.Root(attr), policyCodeSummary(err),
			fmt.Sprintf("Policy %s (%s): %s", id, pol.Name, strings.Replace(policyCodeDetail(string(pol.Kind), "", err), "will be", "was", 1)))
		return ""
	}
	tflog.Debug(ctx, "Uploading policy code", map[string]any{"policy_id": id, "bytes": len(code), "kind": string(pol.Kind)})
	if err := r.data.client.Policies.Upload(ctx, id, code); err != nil {
		diags.AddAttributeError(path.Root("policy_id"), "Error uploading policy code", policyError("Policy "+id, err))
		return
	}
	tflog.Info(ctx, "Uploaded policy code", map[string]any{"policy_id": id, "bytes": len(code), "sha256": sha256Hex(code)})
	m.ID = m.PolicyID
	m.ContentSHA256 = types.StringValue(sha256Hex(code))
	return string(pol.Kind)
}

// rememberKind records the policy's kind for the next plan's Rego check.
func rememberKind(ctx context.Context, p interface {
	SetKey(context.Context, string, []byte) diag.Diagnostics
}, policyID, kind string, diags *diag.Diagnostics) {
	if kind != "" {
		diags.Append(p.SetKey(ctx, policyKindKey, privateValue(policyKindRecord{PolicyID: policyID, Kind: kind}))...)
	}
}

func (r *policyUploadResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan policyUploadResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	kind := r.upload(ctx, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	rememberKind(ctx, resp.Private, plan.PolicyID.ValueString(), kind, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read downloads the code (one request) and records its SHA-256: a change
// made outside Terraform then differs from the planned hash. Inline
// `content` is replaced by the downloaded text too, so the plan shows the
// change itself. A 404 (the policy is gone, or has no code) removes the
// resource from state.
func (r *policyUploadResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state policyUploadResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.PolicyID.ValueString()
	code, err := r.data.client.Policies.Download(ctx, id)
	if importing, d := req.Private.GetKey(ctx, importingKey); len(importing) > 0 {
		resp.Diagnostics.Append(d...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, importingKey, nil)...)
		if isNotFound(err) {
			resp.Diagnostics.AddError("Cannot import policy code",
				fmt.Sprintf("Policy %s was not found, or has no code yet (the service has nothing to download before the first upload), "+
					"or the token may not manage policies. A policy without code has no tfgov_policy_upload to import: remove the import, "+
					"and let this resource upload the code instead.", id))
			return
		}
	}
	if isNotFound(err) {
		tflog.Info(ctx, "Policy or its code no longer exists; removing the upload from state", map[string]any{"policy_id": id})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Error reading policy code", fmt.Sprintf("Downloading the code of policy %s: %s", id, err))
		return
	}
	sum := sha256Hex(code)
	if state.Content.IsNull() && state.Source.IsNull() && utf8.Valid(code) {
		// Just imported: take the code as inline content, so a
		// configuration with the same content plans no change.
		state.Content = types.StringValue(string(code))
	}
	if sum != state.ContentSHA256.ValueString() {
		tflog.Info(ctx, "Policy code changed outside Terraform", map[string]any{"policy_id": id, "sha256": sum, "state_sha256": state.ContentSHA256.ValueString()})
		state.ContentSHA256 = types.StringValue(sum)
		if !state.Content.IsNull() && utf8.Valid(code) {
			state.Content = types.StringValue(string(code))
		}
	}
	if !state.Source.IsNull() {
		// The file as this refresh finds it, for the apply of a saved plan
		// (ModifyPlan); an unreadable file is the plan's to report.
		if c, err := readPolicySource(state.Source.ValueString()); err == nil {
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, sourceReadKey, privateValue(sourceRead{Path: state.Source.ValueString(), SHA256: sha256Hex(c)}))...)
		}
	}
	state.ID = state.PolicyID
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update uploads when the code changed; a new `source` path with the same
// code makes no request.
func (r *policyUploadResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state policyUploadResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.ContentSHA256.IsUnknown() || !plan.ContentSHA256.Equal(state.ContentSHA256) {
		kind := r.upload(ctx, &plan, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		rememberKind(ctx, resp.Private, plan.PolicyID.ValueString(), kind, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// ImportState takes the policy ID (`pol-<id>`). The code is downloaded
// by the read that follows and kept as `content` (when it is text); with a
// `source` file in the configuration, the first plan switches to it, and
// uploads only if the file differs.
func (r *policyUploadResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
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
	_ = req.State.Get(ctx, &state)
	tflog.Info(ctx, "Removing policy code from state; the policy keeps its last code", map[string]any{"policy_id": state.PolicyID.ValueString()})
}
