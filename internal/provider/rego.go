package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/open-policy-agent/opa/v1/ast"
)

// Rego syntax checks, with OPA's own parser (github.com/open-policy-agent/
// opa/v1/ast). The service evaluates OPA policies with the OPA version of
// each policy set (`policy-tool-version`), which may predate Rego v1, and a
// policy may belong to several sets. So code passes when it parses as
// Rego v1 or as Rego v0: the check catches syntax errors, never a policy
// that some supported OPA version accepts.

// checkRego reports why code is not a Rego module, or nil. name is used
// in the parser's error positions.
func checkRego(name string, code []byte) error {
	src := string(code)
	if strings.TrimSpace(src) == "" {
		return errors.New("the code is empty: a Rego module needs at least a package declaration")
	}
	_, errV1 := ast.ParseModuleWithOpts(name, src, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if errV1 == nil {
		return nil
	}
	if _, errV0 := ast.ParseModuleWithOpts(name, src, ast.ParserOptions{RegoVersion: ast.RegoV0}); errV0 == nil {
		return nil
	}
	return errV1
}

// checkRegoQuery reports why query is not a Rego query, or nil.
func checkRegoQuery(query string) error {
	if strings.TrimSpace(query) == "" {
		return errors.New("the query is empty")
	}
	_, errV1 := ast.ParseBodyWithOpts(query, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if errV1 == nil {
		return nil
	}
	if _, errV0 := ast.ParseBodyWithOpts(query, ast.ParserOptions{RegoVersion: ast.RegoV0}); errV0 == nil {
		return nil
	}
	return errV1
}

// regoQueryValidator checks that a string is a Rego query, such as
// `data.terraform.policies.deny`.
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
