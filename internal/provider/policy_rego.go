package provider

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

// Rego syntax checks with OPA's own parser: v1, else v0 (DESIGN.md "Evaluating OPA policies locally").

// checkRego reports why code is not a Rego module; name is used in the parser's error positions.
func checkRego(name string, code []byte) error {
	if strings.TrimSpace(string(code)) == "" {
		return errors.New("the code is empty: a Rego module needs at least a package declaration")
	}
	_, err := policyeval.ParseModule(name, code)
	return err
}

// checkPolicyCode reports why code cannot be a policy's: empty, or Rego that does not parse
// when kind is opa, or unknown ("") and the code looks like Rego (DESIGN.md "Evaluating OPA policies locally").
func checkPolicyCode(kind, name string, code []byte) error {
	if strings.TrimSpace(string(code)) == "" {
		return errEmptyPolicy
	}
	if kind == "opa" || (kind == "" && (strings.HasSuffix(name, ".rego") || declaresRegoPackage(code))) {
		return checkRego(name, code)
	}
	return nil
}

var errEmptyPolicy = errors.New("the code is empty (or only whitespace). The service would accept it, but an empty policy can never pass: " +
	"a Rego module needs at least a package declaration, a Sentinel policy its main rule")

// declaresRegoPackage: the first statement is a package declaration, which Sentinel has not.
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

func checkRegoQuery(query string) error {
	if strings.TrimSpace(query) == "" {
		return errors.New("the query is empty")
	}
	_, err := policyeval.ParseBody(query)
	return err
}

// suggestQuery ends the "Missing query" error: data.<package>.deny for a Rego module, as HCP
// Terraform's documentation writes it, else an example.
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
