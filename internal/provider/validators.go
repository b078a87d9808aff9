package provider

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// idValidator checks an identifier of the given prefix, such as `apool-`:
// the prefix followed by letters and digits.
func idValidator(prefix string) validator.String {
	msg := fmt.Sprintf("must be an ID of the form %s<id>", prefix)
	if ds, ok := idByName[prefix]; ok {
		msg += fmt.Sprintf(" (a name is no ID: data.%s finds the ID from the name)", ds)
	}
	return stringvalidator.RegexMatches(regexp.MustCompile(`^`+regexp.QuoteMeta(prefix)+`[A-Za-z0-9]+$`), msg)
}

// idByName is the data source that turns a name into an ID of each prefix,
// for the error of an ID attribute given a name (`workspace_id =
// "payments-prod"`).
var idByName = map[string]string{
	"ws-":    "tfgov_workspace",
	"team-":  "tfgov_team",
	"apool-": "tfgov_agent_pool",
}

// notBlank rejects empty and whitespace-only strings.
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

// positiveDuration requires a Go duration above zero, such as `30m`: a
// timeout of zero or less would fail the operation before it starts.
// (terraform-plugin-framework-timeouts only checks that it parses.)
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

// withPositiveTimeouts adds positiveDuration to every duration of a
// terraform-plugin-framework-timeouts `timeouts` attribute: a resource with
// timeouts takes its attribute through it, so that `timeouts.create = "-5m"`
// is refused at plan, naming timeouts.create.
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

// isPolicyLevel reports whether level is an enforcement level of any kind.
func isPolicyLevel(level string) bool { return slices.Contains(allPolicyLevels, level) }

// policyLevelValidator requires one of the API's enforcement levels. It is
// the one error for a level no kind has (`soft_mandatory`): ValidateConfig
// checks the level against the kind only when it is one of them. A level
// written with underscores gets the hyphenated spelling as a hint.
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
