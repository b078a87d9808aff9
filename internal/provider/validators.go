package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	pathpkg "path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// idValidator checks an ID: the prefix (such as `apool-`), then letters and digits.
func idValidator(prefix string) validator.String {
	msg := fmt.Sprintf("must be an ID of the form %s<id>", prefix)
	if ds, ok := idByName[prefix]; ok {
		msg += fmt.Sprintf(" (a name is no ID: data.%s finds the ID from the name)", ds)
	}
	return stringvalidator.RegexMatches(regexp.MustCompile(`^`+regexp.QuoteMeta(prefix)+`[A-Za-z0-9]+$`), msg)
}

// idByName: the data source that turns a name into an ID of each prefix, for the error's hint.
var idByName = map[string]string{
	"ws-":    "tfgov_workspace",
	"team-":  "tfgov_team",
	"apool-": "tfgov_agent_pool",
}

func notBlank() validator.String {
	return stringvalidator.RegexMatches(regexp.MustCompile(`\S`), "must not be empty or only whitespace")
}

// urlValidator requires an absolute http:// or https:// URL.
type urlValidator struct{}

func (urlValidator) Description(context.Context) string {
	return "must be an absolute http:// or https:// URL"
}

func (v urlValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v urlValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	s := req.ConfigValue.ValueString()
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL", fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), s))
	}
}

// positiveDuration requires a Go duration above zero, such as `30m` (a timeout of zero fails the
// operation before it starts; terraform-plugin-framework-timeouts only checks that it parses).
type positiveDuration struct{}

func (positiveDuration) Description(context.Context) string {
	return `must be a positive duration such as "30m" or "1h30m"`
}

func (v positiveDuration) MarkdownDescription(context.Context) string {
	return "must be a positive duration such as `\"30m\"` or `\"1h30m\"`"
}

func (v positiveDuration) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err == nil && d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid timeout",
			fmt.Sprintf("%s %s, got %q: a timeout of zero or less would end the operation before it starts. Leave it out for the default.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}

// withPositiveTimeouts adds positiveDuration to every duration of a `timeouts` attribute, so that
// `timeouts.create = "-5m"` is refused at plan, naming timeouts.create.
func withPositiveTimeouts(a schema.SingleNestedAttribute) schema.SingleNestedAttribute {
	attrs := make(map[string]schema.Attribute, len(a.Attributes))
	for name, at := range a.Attributes {
		if s, ok := at.(schema.StringAttribute); ok {
			s.Validators = append(append([]validator.String(nil), s.Validators...), positiveDuration{})
			at = s
		}
		attrs[name] = at
	}
	a.Attributes = attrs
	return a
}

func isPolicyLevel(level string) bool { return slices.Contains(allPolicyLevels, level) }

// policyLevelValidator requires one of the API's levels: the one error for a level no kind has
// (ValidateConfig checks the level against the kind only when it is one of them); a level written
// with underscores gets the hyphenated spelling as a hint.
type policyLevelValidator struct{}

func (policyLevelValidator) Description(context.Context) string {
	return fmt.Sprintf("must be one of %s (Sentinel: %s; OPA: %s)", quoted(allPolicyLevels), quoted(policyLevels["sentinel"]), quoted(policyLevels["opa"]))
}

func (v policyLevelValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v policyLevelValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	got := req.ConfigValue.ValueString()
	if isPolicyLevel(got) {
		return
	}
	detail := fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), got)
	if hint := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(got)), "_", "-"); isPolicyLevel(hint) {
		detail += fmt.Sprintf(" Did you mean %q? The levels are written in lower case with hyphens.", hint)
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid enforcement level", detail)
}

// regexpValidator requires an RE2 regular expression.
type regexpValidator struct{}

func (regexpValidator) Description(context.Context) string {
	return "must be a regular expression (RE2 syntax)"
}

func (v regexpValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v regexpValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := regexp.Compile(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid regular expression",
			fmt.Sprintf("%s %s: %s", req.Path, v.Description(ctx), strings.TrimPrefix(err.Error(), "error parsing regexp: ")))
	}
}

// unusedForValidator requires a positive Go duration.
type unusedForValidator struct{}

func (unusedForValidator) Description(context.Context) string {
	return `must be a positive duration such as "720h" or "1h30m" (units h, m, s)`
}

func (v unusedForValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v unusedForValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if d, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("%s %s, got %q.%s", req.Path, v.Description(ctx), req.ConfigValue.ValueString(), durationHint(req.ConfigValue.ValueString())))
	}
}

// daysRE is a duration written with days or weeks, which Go's durations
// (and so every duration tfgov reads) do not have: "30d", "2w", "1d12h".
var (
	daysRE    = regexp.MustCompile(`^(?:\d{1,6}[wd])+(?:\d+(?:\.\d+)?(?:h|m|s|ms|us|µs|ns))*$`)
	dayPartRE = regexp.MustCompile(`^(\d+)([wd])`)
)

// durationHint is, for a duration in days or weeks, the same duration in
// hours (` A duration's largest unit is h: write "720h" for "30d".`), else "".
func durationHint(s string) string {
	if !daysRE.MatchString(s) {
		return ""
	}
	hours, rest := 0, s
	for m := dayPartRE.FindStringSubmatch(rest); m != nil; m = dayPartRE.FindStringSubmatch(rest) {
		n, _ := strconv.Atoi(m[1]) // at most 6 digits (daysRE)
		if m[2] == "w" {
			n *= 7
		}
		hours += 24 * n
		rest = rest[len(m[0]):]
	}
	d, err := time.ParseDuration(fmt.Sprintf("%dh%s", hours, rest))
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" A duration's largest unit is h: write %q for %q.", formatHours(d), s)
}

// formatHours writes d as time.Duration.String does, without zero minutes and seconds ("720h").
func formatHours(d time.Duration) string {
	out := d.String()
	out = strings.TrimSuffix(out, "0s")
	if strings.HasSuffix(out, "h0m") {
		out = strings.TrimSuffix(out, "0m")
	}
	return out
}

// semverValidator requires a semantic version such as 1.2.3, as the registry does.
type semverValidator struct{}

func (semverValidator) Description(context.Context) string {
	return "must be a semantic version such as 1.2.3"
}

func (v semverValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v semverValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := version.NewSemver(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid module version", fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), req.ConfigValue.ValueString()))
	}
}

// regoQueryValidator requires a Rego query, such as `data.terraform.policies.deny`.
type regoQueryValidator struct{}

func (regoQueryValidator) Description(context.Context) string {
	return "must be a Rego query, such as data.terraform.policies.deny"
}

func (v regoQueryValidator) MarkdownDescription(context.Context) string {
	return "must be a Rego query, such as `data.terraform.policies.deny`"
}

func (v regoQueryValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkRegoQuery(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Rego query", fmt.Sprintf("%s %s; OPA's parser says:\n%s", req.Path, v.Description(ctx), err))
	}
}

// nameValidator checks a name by the service's rule (nameRE).
func nameValidator() validator.String {
	return stringvalidator.RegexMatches(nameRE, "must contain only letters, numbers, - and _")
}

func moduleProviderValidator() validator.String {
	return stringvalidator.RegexMatches(moduleProviderRE, "must contain only lower-case letters and digits")
}

// relativePathValidator requires a path inside the configuration.
type relativePathValidator struct{}

func (relativePathValidator) Description(context.Context) string {
	return "must be a relative path inside the configuration (no leading /, no ..)"
}

func (v relativePathValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v relativePathValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	p := req.ConfigValue.ValueString()
	clean := pathpkg.Clean(strings.ReplaceAll(p, "\\", "/"))
	if strings.TrimSpace(p) == "" || pathpkg.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid path", fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), p))
	}
}

// runVariablesValidator checks run variables as the API does: keys are
// identifiers, values single literals of the configuration language.
type runVariablesValidator struct{}

func (runVariablesValidator) Description(context.Context) string {
	return "keys must start with a letter or underscore and hold only letters, digits, _ and -; values must be literals of the configuration language"
}

func (v runVariablesValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v runVariablesValidator) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for key, val := range req.ConfigValue.Elements() {
		at := req.Path.AtMapKey(key)
		if !runVariableKeyRE.MatchString(key) {
			resp.Diagnostics.AddAttributeError(at, "Invalid variable name",
				fmt.Sprintf("Variable name %q must start with a letter or underscore and hold only letters, digits, _ and -.", key))
		}
		s, ok := val.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			continue
		}
		if err := checkHCLLiteral(key, s.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(at, "Invalid variable value",
				fmt.Sprintf("The value of %s must be a literal of the configuration language, such as \"\\\"text\\\"\" (a string with its own quotes), \"42\", \"true\" or jsonencode([\"a\"]): %s", key, err))
		}
	}
}

// checkHCLLiteral accepts one expression that has a value without any
// context: no references, no function calls.
func checkHCLLiteral(name, src string) error {
	expr, diags := hclsyntax.ParseExpression([]byte(src), name, hcl.Pos{Line: 1, Column: 1})
	if !diags.HasErrors() {
		_, diags = expr.Value(nil)
	}
	if diags.HasErrors() {
		return errors.New(diags.Error())
	}
	return nil
}

// durationValidator requires a Go duration such as `30m`.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `must be a duration such as "30m" or "1h30m"`
}

func (v durationValidator) MarkdownDescription(context.Context) string {
	return "must be a duration such as `\"30m\"` or `\"1h30m\"`"
}

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid timeout",
			fmt.Sprintf("%s %s, got %q.%s", req.Path, v.Description(ctx), req.ConfigValue.ValueString(), durationHint(req.ConfigValue.ValueString())))
	}
}
