package provider

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tfgov_policy's code (content, content_wo, source, content_sha256) at plan, apply and
// refresh, and the parts tfgov_policy_upload shares: reading, checking, planning, downloading.

// hasCode: this resource manages the code (in a plan or state, content_sha256 alone says so).
func (m *policyResourceModel) hasCode() bool {
	return !m.Content.IsNull() || !m.ContentWO.IsNull() || !m.Source.IsNull() || !m.ContentSHA256.IsNull()
}

// digestOnly: content_wo or source, whose plan and state keep only content_sha256.
func (m *policyResourceModel) digestOnly() bool {
	return !m.ContentWO.IsNull() || !m.Source.IsNull() || !m.ContentSHA256.IsNull()
}

// codeSum is the managed code's SHA-256: null without code, unknown when not known yet.
func (m *policyResourceModel) codeSum() types.String {
	if !m.ContentSHA256.IsNull() {
		return m.ContentSHA256
	}
	if m.Content.IsNull() || m.Content.IsUnknown() {
		return m.Content
	}
	return types.StringValue(sha256Hex([]byte(m.Content.ValueString())))
}

// configuredCode is the inline code and its attribute: content_wo or content (null: none).
func (m *policyResourceModel) configuredCode() (types.String, string) {
	if !m.ContentWO.IsNull() {
		return m.ContentWO, "content_wo"
	}
	return m.Content, "content"
}

// knownCode is the configured code when it is known now, else nil.
func (m *policyResourceModel) knownCode() []byte {
	if code, _ := m.configuredCode(); !code.IsNull() && !code.IsUnknown() {
		return []byte(code.ValueString())
	}
	if !m.Source.IsNull() && !m.Source.IsUnknown() {
		if b, err := readPolicySource(m.Source.ValueString()); err == nil {
			return b
		}
	}
	return nil
}

// planCode plans content_sha256 of content, content_wo or source, and checks the code known
// now; not ok when the plan stops here.
func (r *policyResource) planCode(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, cfg policyResourceModel, plan, prior *policyResourceModel) (known []byte, have, ok bool) {
	code, attr := cfg.configuredCode()
	known, have = []byte(code.ValueString()), !code.IsNull() && !code.IsUnknown() // the code, when known now
	// content_wo's or the source file's digest is the plan's record of the code.
	plan.ContentSHA256 = types.StringNull()
	switch {
	case !cfg.Source.IsNull():
		attr = "source"
		known, have, plan.ContentSHA256 = r.planSource(ctx, req, resp, cfg.Source, prior)
		if resp.Diagnostics.HasError() {
			return nil, false, false
		}
	case attr == "content_wo":
		plan.ContentSHA256 = types.StringUnknown()
		if have {
			plan.ContentSHA256 = types.StringValue(sha256Hex(known))
		}
	}
	importedSum, imported := privateJSON[string](ctx, req.Private, importedCodeKey, &resp.Diagnostics)
	imported = imported && prior != nil && !prior.ContentSHA256.IsNull()
	if imported && !cfg.hasCode() {
		// Imported code left to a tfgov_policy_upload: the digest stays, the plan clean.
		plan.ContentSHA256 = prior.ContentSHA256
	}
	if sum := plan.codeSum(); imported && cfg.hasCode() && !sum.IsUnknown() && sum.ValueString() == importedSum &&
		(!plan.Content.Equal(prior.Content) || !plan.Source.Equal(prior.Source)) {
		resp.Diagnostics.AddWarning("Imported policy code: this update uploads nothing",
			fmt.Sprintf("Policy %s (%s) already has the configured code (SHA-256 %s), as its import found it. The update planned for it records in state how the configuration gives the code (%s), "+
				"and uploads nothing: the apply downloads the code once to confirm it, and uploads only if it changed since this plan. An import into content_wo, or into a tfgov_policy_upload, plans no change.",
				plan.ID.ValueString(), plan.Name.ValueString(), importedSum, attr))
	}
	// The refresh's record served this plan only (req.Private is resp.Private).
	resp.Diagnostics.Append(forgetLocalHash(ctx, resp.Private)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content_sha256"), plan.ContentSHA256)...)
	if have && !plan.Kind.IsUnknown() && !plan.Name.IsUnknown() && !codeInState(prior, sha256Hex(known), plan.Kind) {
		if n := len(known); n > maxPolicyCodeSize {
			resp.Diagnostics.AddAttributeError(path.Root(attr), "Policy code too large", tooLarge(n))
			return nil, false, false
		}
		checkCodeOfKind(plan.ID.ValueString(), policyIdentity{kind: tfe.PolicyKind(plan.Kind.ValueString()), name: plan.Name.ValueString()},
			known, attr, &resp.Diagnostics)
	}
	if cfg.hasCode() && !plan.ID.IsUnknown() && !plan.ID.IsNull() {
		r.data.lists.inlineCode.Store(plan.ID.ValueString(), true)
	}
	return known, have, true
}

// planSource plans the source file's digest as tfgov_policy_upload plans its own.
func (r *policyResource) planSource(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, source types.String, prior *policyResourceModel) (code []byte, have bool, sum types.String) {
	priorSum, priorSource := types.StringNull(), types.StringNull()
	if prior != nil {
		priorSum, priorSource = prior.codeSum(), prior.Source
	}
	p := planPolicyCode(ctx, types.StringNull(), source, types.StringNull(), priorSum, priorSource, prior == nil, req.Private, &resp.Diagnostics)
	return p.Code, p.Attr != "", p.SHA256
}

// plannedCode is the code a plan uploads (tfgov_policy_upload's, or tfgov_policy's source).
type plannedCode struct {
	SHA256 types.String // to plan as content_sha256
	Code   []byte       // the code, when read now; nil otherwise
	Attr   string       // the attribute that holds it: "content" or "source"
	Name   string       // "content", or the source file's path
}

// planPolicyCode plans content_sha256 of content or of the source file, which it reads;
// configured (content_sha256 as configured) must match, and a missing file passes only
// with it, for a file written during the apply. DESIGN.md "Local files at plan".
func planPolicyCode(ctx context.Context, content, source, configured, state, stateSource types.String, creating bool, priv privateGetter, diags *diag.Diagnostics) plannedCode {
	out := plannedCode{SHA256: configured} // null or unknown unless configured
	switch {
	case configured.IsUnknown() && !source.IsNull():
		// A file another resource writes during the apply: the apply's plan checks it.
		return out
	case !content.IsNull() && !content.IsUnknown():
		got := sha256Hex([]byte(content.ValueString()))
		if !configured.IsNull() && !configured.IsUnknown() && configured.ValueString() != got {
			diags.AddAttributeError(path.Root("content_sha256"), "content_sha256 does not match content",
				fmt.Sprintf("content_sha256 is %s but the SHA-256 of content is %s. Leave content_sha256 out: it is computed from content.", configured.ValueString(), got))
			return out
		}
		sum := types.StringValue(got)
		if configured.IsUnknown() {
			sum = configured // Terraform takes no known plan of an unknown configured value
		}
		return plannedCode{SHA256: sum, Code: []byte(content.ValueString()), Attr: "content", Name: "content"}
	case !source.IsNull() && !source.IsUnknown():
		name := source.ValueString()
		code, err := readPolicySource(name)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !configured.IsNull():
			// Written during the apply; checked against content_sha256 then.
			return out
		case err != nil:
			diags.AddAttributeError(path.Root("source"), sourceErrorSummary(err), err.Error())
			return out
		case !configured.IsNull() && !configured.IsUnknown():
			if configured.ValueString() != sha256Hex(code) {
				diags.AddAttributeError(path.Root("content_sha256"), "content_sha256 does not match the source file",
					fmt.Sprintf("content_sha256 is %s but the SHA-256 of %s is %s.", configured.ValueString(), name, sha256Hex(code)))
				return out
			}
		default:
			out.SHA256 = planLocalHash(ctx, priv, path.Root("source"), "Policy file", name, sha256Hex(code), creating, state, stateSource, diags)
			if out.SHA256.IsUnknown() && !creating && !diags.HasError() {
				// A path the refresh did not read: the file as it is now (DESIGN.md "Local files at plan").
				out.SHA256 = types.StringValue(sha256Hex(code))
			}
		}
		out.Code, out.Attr, out.Name = code, "source", name
		return out
	}
	if out.SHA256.IsNull() && (!content.IsNull() || !source.IsNull()) {
		out.SHA256 = types.StringUnknown()
	}
	return out
}

// codeInState: the code in state passed its own plan's checks; only changed code is checked again.
func codeInState(prior *policyResourceModel, sum string, kind types.String) bool {
	if prior == nil || !prior.Kind.Equal(kind) {
		return false
	}
	was := prior.codeSum()
	return !was.IsNull() && !was.IsUnknown() && was.ValueString() == sum
}

func tooLarge(n int) string {
	return fmt.Sprintf("The code is %d bytes; the API accepts at most %d bytes (10 MB) and refuses larger code with 413. Split the policy, or trim it.", n, maxPolicyCodeSize)
}

// readPolicySource reads a code file, refusing one over the API's limit before reading it.
func readPolicySource(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, newMissingSourceError(name)
	}
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file", name)
	}
	if fi.Size() > maxPolicyCodeSize {
		return nil, codeTooLargeError{name, int(fi.Size())}
	}
	code, err := os.ReadFile(name) // reading the configured file is the point
	if err != nil {
		return nil, err
	}
	if len(code) > maxPolicyCodeSize { // grew since the stat
		return nil, codeTooLargeError{name, len(code)}
	}
	return code, nil
}

// missingSourceError (fs.ErrNotExist) names the file looked for and where, with a hint
// when one can help: DESIGN.md "Local files at plan".
type missingSourceError struct {
	name, abs string
	dirFound  bool     // the file's directory exists
	siblings  []string // names of the files in it
}

func newMissingSourceError(name string) missingSourceError {
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	e := missingSourceError{name: name, abs: abs}
	entries, err := os.ReadDir(filepath.Dir(abs))
	if err != nil {
		return e
	}
	e.dirFound = true
	for _, de := range entries {
		if !de.IsDir() {
			e.siblings = append(e.siblings, de.Name())
		}
	}
	return e
}

func (e missingSourceError) Error() string {
	msg := fmt.Sprintf("source: the file %s does not exist", e.abs)
	dir := filepath.Dir(e.abs)
	near := closestNames(filepath.Base(e.abs), e.siblings, closestCount)
	switch {
	case e.dirFound && len(e.siblings) == 0:
		msg += fmt.Sprintf("; its directory %s holds no file", dir)
	case e.dirFound && len(e.siblings) <= closestCount:
		msg += fmt.Sprintf("; its directory %s holds %s", dir, strings.Join(near, ", "))
	case e.dirFound:
		msg += fmt.Sprintf("; its directory %s holds %d files, the closest names: %s", dir, len(e.siblings), strings.Join(near, ", "))
	default:
		msg += fmt.Sprintf(", nor does its directory %s", dir)
		clean := filepath.ToSlash(e.name)
		if !filepath.IsAbs(e.name) && !strings.HasPrefix(clean, "./") && !strings.HasPrefix(clean, "../") {
			msg += fmt.Sprintf(". source = %q is taken from the directory Terraform runs in, not the module's: for a file of the module that names it, write \"${path.module}/%s\"",
				e.name, filepath.ToSlash(filepath.Clean(e.name)))
		}
	}
	return msg + "."
}

func (e missingSourceError) Unwrap() error { return fs.ErrNotExist }

type codeTooLargeError struct {
	name string
	size int
}

func (e codeTooLargeError) Error() string { return e.name + ": " + tooLarge(e.size) }

func sourceErrorSummary(err error) string {
	if errors.As(err, new(codeTooLargeError)) {
		return "Policy code too large"
	}
	return "Cannot read the policy code"
}

// contentCode is the code to upload, read once and checked as the plan checks it: content,
// content_wo (from the configuration), or the source file against the planned digest.
func contentCode(ctx context.Context, plan *policyResourceModel, config tfsdk.Config, id string, diags *diag.Diagnostics) []byte {
	code, attr := plan.Content, "content"
	switch {
	case !plan.Source.IsNull():
		b := codeFor(types.StringNull(), plan.Source, plan.ContentSHA256, diags)
		if diags.HasError() {
			return nil
		}
		plan.ContentSHA256 = types.StringValue(sha256Hex(b))
		checkCodeOfKind(id, policyIdentity{kind: tfe.PolicyKind(plan.Kind.ValueString()), name: plan.Name.ValueString()}, b, "source", diags)
		return b
	case plan.digestOnly():
		diags.Append(config.GetAttribute(ctx, path.Root("content_wo"), &code)...)
		attr = "content_wo"
	}
	if diags.HasError() {
		return nil
	}
	b := []byte(code.ValueString())
	if len(b) > maxPolicyCodeSize {
		diags.AddAttributeError(path.Root(attr), "Policy code too large", tooLarge(len(b)))
		return nil
	}
	checkCodeOfKind(id, policyIdentity{kind: tfe.PolicyKind(plan.Kind.ValueString()), name: plan.Name.ValueString()}, b, attr, diags)
	return b
}

// codeFor reads content or source, checked against the planned digest sum (unless unknown).
func codeFor(content, source, sum types.String, diags *diag.Diagnostics) []byte {
	var code []byte
	if !content.IsNull() {
		code = []byte(content.ValueString())
	} else {
		var err error
		if code, err = readPolicySource(source.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("source"), sourceErrorSummary(err), err.Error())
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

// configuresCode: the configuration gives the code, not only a digest kept in state.
func (r *policyResource) configuresCode(ctx context.Context, plan policyResourceModel, config tfsdk.Config) bool {
	if !plan.Content.IsNull() || !plan.Source.IsNull() {
		return true
	}
	var wo types.String
	_ = config.GetAttribute(ctx, path.Root("content_wo"), &wo)
	return !wo.IsNull()
}

// serviceHasCode: one download says whether the service has code sum (a failure: no, so the caller uploads).
func (d *providerData) serviceHasCode(ctx context.Context, id, sum string) bool {
	code, gone, err := d.fetchCode(ctx, id)
	has := err == nil && !gone && sha256Hex(code) == sum
	tflog.Debug(ctx, "Confirmed at apply whether the policy still has the code its import found", map[string]any{"policy_id": id, "has": has})
	return has
}

// undoCreate deletes pol, just created, whose code upload failed: nothing refers to it yet, and
// Terraform would replace it tainted anyway. It reports whether the policy is gone.
func (r *policyResource) undoCreate(ctx context.Context, pol *policyAPI, put diag.Diagnostics, diags *diag.Diagnostics) bool {
	why := ""
	for _, d := range put.Errors() {
		why = d.Detail()
	}
	tflog.Info(ctx, "Code upload failed; deleting the policy just created", map[string]any{"id": pol.ID})
	defer r.data.lists.policies.invalidate(identityOf(pol).organization)
	err := r.data.client.Policies.Delete(ctx, pol.ID)
	if isNotFound(err) {
		if why := confirmGone(ctx, writeCheck("Deleting", "deleted"), "Policy "+pol.ID, permManagePolicies, r.data.locatePolicy(identityOf(pol).organization, pol.ID)); why != "" {
			err = errors.New(why)
		} else {
			err = nil
		}
	}
	if err == nil {
		r.data.lists.inlineCode.Delete(pol.ID)
		diags.AddError("Error uploading policy code",
			fmt.Sprintf("Policy %q was created (%s), but uploading its code failed: %s\n\n"+
				"The policy was deleted again, so nothing is left half-made and nothing is recorded in state: the next apply creates the policy and uploads its code.",
				pol.Name, pol.ID, why))
		return true
	}
	diags.AddError("Error uploading policy code",
		fmt.Sprintf("Policy %q was created (%s), but uploading its code failed: %s\n\n"+
			"Deleting the policy again failed too (%s), so it is recorded in state without its code, and Terraform marks it tainted: "+
			"the next apply deletes it and creates it again with its code. To keep this policy instead, run terraform untaint on it: the next apply then uploads its code.",
			pol.Name, pol.ID, why, policyError("Policy "+pol.ID, err)))
	return false
}

// fetchCode downloads policy id's code; gone: a 404 (the policy is gone, or has no code).
func (d *providerData) fetchCode(ctx context.Context, id string) (code []byte, gone bool, err error) {
	code, err = d.client.Policies.Download(ctx, id)
	if isNotFound(err) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("downloading the code of policy %s: %w", id, err)
	}
	return code, false, nil
}

// downloadCode returns the downloaded code's digest, and content replaced by its text when
// the code changed or content was unknown (just imported) and it is text.
func (d *providerData) downloadCode(ctx context.Context, id string, sum, content types.String) (newSum, newContent types.String, gone bool, err error) {
	code, gone, err := d.fetchCode(ctx, id)
	if gone || err != nil {
		return sum, content, gone, err
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

// foundCode takes downloaded code (gone: none), so that changed code shows in the next plan:
// content becomes its text, or null when it is not text.
func (m *policyResourceModel) foundCode(ctx context.Context, id string, code []byte, gone bool) {
	sum := m.codeSum()
	switch got := sha256Hex(code); {
	case gone:
		m.Content, m.ContentSHA256 = types.StringNull(), types.StringNull()
	case got == sum.ValueString():
	case m.digestOnly():
		tflog.Info(ctx, "Policy code changed outside Terraform", map[string]any{"policy_id": id, "sha256": got, "state_sha256": sum.ValueString()})
		m.ContentSHA256 = types.StringValue(got)
	default:
		tflog.Info(ctx, "Policy code changed outside Terraform", map[string]any{"policy_id": id, "sha256": got, "state_sha256": sum.ValueString()})
		m.Content = types.StringNull()
		if utf8.Valid(code) {
			m.Content = types.StringValue(string(code))
		}
	}
}

// recordSource records the source file's digest for the apply of a saved plan (none if unreadable).
func recordSource(ctx context.Context, priv privateSetter, source types.String, diags *diag.Diagnostics) {
	sum := ""
	if !source.IsNull() {
		if code, err := readPolicySource(source.ValueString()); err == nil {
			sum = sha256Hex(code)
		}
	}
	diags.Append(recordLocalHash(ctx, priv, sum)...)
}

// noteImportedCode is the SHA-256 of the code an import found (one download); null without code or on failure.
func (d *providerData) noteImportedCode(ctx context.Context, pol *policyAPI) types.String {
	code, err := d.client.Policies.Download(ctx, pol.ID)
	if err != nil {
		if !isNotFound(err) {
			tflog.Debug(ctx, "Downloading the code of an imported policy failed; a configuration with code uploads it", map[string]any{"id": pol.ID, "error": err.Error()})
		}
		return types.StringNull()
	}
	return types.StringValue(sha256Hex(code))
}
