package provider

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

// Policy code checked at plan, and the messages: empty code, and Rego with OPA's own parser, v1
// else v0 (DESIGN.md "Evaluating OPA policies locally").

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

// checkCodeOfKind checks code as checkPolicyCode does; attr is the attribute an error names.
func checkCodeOfKind(id string, pol policyIdentity, code []byte, attr string, diags *diag.Diagnostics) {
	if err := checkPolicyCode(string(pol.kind), pol.name+".rego", code); err != nil {
		diags.AddAttributeError(path.Root(attr), policyCodeSummary(err),
			fmt.Sprintf("%s: %s", policyLabel(id, pol.name), strings.Replace(policyCodeDetail(string(pol.kind), attr, err), "will be", "was", 1)))
	}
}

// policyLabel: "Policy pol-… (name)", or "The new policy name" before it has an ID.
func policyLabel(id, name string) string {
	if id == "" {
		return "The new policy " + name
	}
	return fmt.Sprintf("Policy %s (%s)", id, name)
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
