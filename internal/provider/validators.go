package provider

import (
	"context"
	"fmt"
	"net/url"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// idValidator checks an identifier of the given prefix, such as `apool-`:
// the prefix followed by letters and digits.
func idValidator(prefix string) validator.String {
	return stringvalidator.RegexMatches(
		regexp.MustCompile(`^`+regexp.QuoteMeta(prefix)+`[A-Za-z0-9]+$`),
		fmt.Sprintf("must be an ID of the form %s<id>", prefix),
	)
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
