package provider

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Policy code as tfgov_policy and tfgov_policy_upload share it: read from
// a `source` file, sized, hashed, checked, downloaded; and updatedAtSignal.

func tooLarge(n int) string {
	return fmt.Sprintf("The code is %d bytes; the API accepts at most %d bytes (10 MB) and refuses larger code with 413. Split the policy, or trim it.", n, maxPolicyCodeSize)
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

// missingSourceError is a `source` naming no file. It is fs.ErrNotExist
// (errors.Is), and says which file was looked for and where. The hint to
// write "${path.module}/..." comes only when it can help: a bare relative
// path (not "./" or "../", which is what ${path.module} gives in the root
// module and in a module beside it) whose directory does not exist from
// where Terraform runs, as when a child module names a file of its own.
// When the directory exists, the name is what is wrong: the error names
// the files beside it closest to the one asked for (a typo is fixed from
// the message, however many files the directory holds).
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

// codeTooLargeError is code over the API's limit, read from a file: the
// same summary as inline code over it (sourceErrorSummary).
type codeTooLargeError struct {
	name string
	size int
}

func (e codeTooLargeError) Error() string { return e.name + ": " + tooLarge(e.size) }

// sourceErrorSummary is the summary of an error of readPolicySource:
// "Policy code too large" as for inline code, else "Cannot read the policy
// code".
func sourceErrorSummary(err error) string {
	if errors.As(err, new(codeTooLargeError)) {
		return "Policy code too large"
	}
	return "Cannot read the policy code"
}

// readPolicySource reads a code file, refusing one over the API's limit
// before reading it.
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

// codeFor reads the code of content or source and checks it against the
// planned SHA-256 sum (unless unknown).
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

// checkCodeOfKind checks code for a policy (checkPolicyCode: empty code,
// and Rego for OPA). attr is the attribute an error names.
func checkCodeOfKind(id string, pol policyIdentity, code []byte, attr string, diags *diag.Diagnostics) {
	if err := checkPolicyCode(string(pol.kind), pol.name+".rego", code); err != nil {
		diags.AddAttributeError(path.Root(attr), policyCodeSummary(err),
			fmt.Sprintf("%s: %s", policyLabel(id, pol.name), strings.Replace(policyCodeDetail(string(pol.kind), attr, err), "will be", "was", 1)))
	}
}

// policyLabel names a policy in a message: "Policy pol-… (name)", or, for a
// policy not created yet (no ID), "The new policy name".
func policyLabel(id, name string) string {
	if id == "" {
		return "The new policy " + name
	}
	return fmt.Sprintf("Policy %s (%s)", id, name)
}

// fetchCode downloads the code of policy id (one request); gone reports a
// 404: the policy is gone, or has no code.
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

// downloadCode downloads the code of policy id (one request) and compares
// its SHA-256 with sum, the one in state: it returns the downloaded code's
// SHA-256, and content replaced by the downloaded text when the code
// changed (or when content is unknown: just imported) and is text. gone
// reports a 404: the policy is gone, or has no code.
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

// updatedAtSignal is pol's updated-at as codeProof records it, to the
// precision the API gives; "" when null.
func updatedAtSignal(pol *policyAPI) string {
	if pol.UpdatedAt.IsZero() {
		return ""
	}
	return pol.UpdatedAt.UTC().Format(time.RFC3339Nano)
}
