package provider

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
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
	if strings.TrimSpace(string(code)) == "" {
		return errors.New("the code is empty: a Rego module needs at least a package declaration")
	}
	_, err := policyeval.ParseModule(name, code)
	return err
}

// checkPolicyCode reports why code cannot be a policy's code, or nil, when
// it is known at plan time (inline, or read from a file). kind is the
// policy's kind (`opa`, `sentinel`) or "" when not known yet; code that
// declares a package, or a file named *.rego, is taken for Rego then
// (Sentinel has no package declarations), so that most broken Rego is
// refused at plan even for a policy created in the same apply. The
// service accepts an empty upload, but an empty policy can never pass (a
// Rego module needs a package, a Sentinel policy its main rule), so empty
// code is refused whatever the kind. tfgov_policy_upload and tfgov_policy's
// inline code share it.
func checkPolicyCode(kind, name string, code []byte) error {
	if strings.TrimSpace(string(code)) == "" {
		return errEmptyPolicy
	}
	if kind == "opa" || (kind == "" && (strings.HasSuffix(name, ".rego") || declaresRegoPackage(code))) {
		return checkRego(name, code)
	}
	return nil
}

// errEmptyPolicy is checkPolicyCode's answer for empty code.
var errEmptyPolicy = errors.New("the code is empty (or only whitespace). The service would accept it, but an empty policy can never pass: " +
	"a Rego module needs at least a package declaration, a Sentinel policy its main rule")

// declaresRegoPackage reports whether the first statement of code, after
// blank lines and # comments, is a package declaration: Rego, since
// Sentinel has no such statement.
func declaresRegoPackage(code []byte) bool {
	for _, line := range strings.Split(string(code), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		return line == "package" || strings.HasPrefix(line, "package ") || strings.HasPrefix(line, "package\t")
	}
	return false
}

// checkRegoQuery reports why query is not a Rego query, or nil.
func checkRegoQuery(query string) error {
	if strings.TrimSpace(query) == "" {
		return errors.New("the query is empty")
	}
	_, err := policyeval.ParseBody(query)
	return err
}

// suggestQuery ends the "Missing query" error: the query HCP Terraform's
// documentation writes for code (data.<package>.deny, the set of messages
// a policy denies with) when code is a Rego module, else an example.
func suggestQuery(code []byte) string {
	const example = `, such as "data.terraform.policies.deny".`
	mod, err := policyeval.ParseModule("policy.rego", code)
	if err != nil || mod.Package == nil {
		return example
	}
	pkg := mod.Package.Path.String() // data.terraform.policies.x
	var rules []string
	for _, r := range mod.Rules {
		name := r.Head.Ref().String()
		if !slices.Contains(rules, name) {
			rules = append(rules, name)
		}
	}
	if len(rules) == 0 || slices.Contains(rules, "deny") {
		return fmt.Sprintf(". The code declares package %s: query = %q evaluates its deny rule, as HCP Terraform's documentation writes OPA queries.",
			strings.TrimPrefix(pkg, "data."), pkg+".deny")
	}
	return fmt.Sprintf(". The code declares package %s, with no deny rule (its rules: %s): HCP Terraform's documentation writes the query as data.<package>.<rule>, for a rule that holds the messages that deny, such as %q.",
		strings.TrimPrefix(pkg, "data."), strings.Join(rules, ", "), pkg+".deny")
}
