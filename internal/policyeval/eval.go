// Package policyeval evaluates an OPA policy's query as HCP Terraform does, with OPA's own
// packages: the result must be an array (a Rego set serializes as one), empty passes, each element
// is a violation. Sources and choices: DESIGN.md "Evaluating OPA policies locally".
package policyeval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Module is one Rego file; Name (a file path or a label) appears in errors as name:line.
type Module struct {
	Name string
	Code []byte
}

// Outcome is HCP Terraform's reading of a result: Pass when the array is empty, else Violations,
// one JSON document per element, in OPA's order (sets are sorted).
type Outcome struct {
	Pass       bool
	Violations []json.RawMessage
}

// Prepared is a policy compiled once for many inputs.
type Prepared struct {
	query string
	pq    rego.PreparedEvalQuery
}

// Evaluate compiles modules and evaluates query against input (JSON; nil for none).
func Evaluate(ctx context.Context, modules []Module, query string, input []byte) (Outcome, error) {
	p, err := Prepare(ctx, modules, query)
	if err != nil {
		return Outcome{}, err
	}
	return p.Eval(ctx, input)
}

// Prepare compiles modules and query, each as Rego v1 or else v0, as the service's OPA version
// may be either. Errors name name:line.
func Prepare(ctx context.Context, modules []Module, query string) (*Prepared, error) {
	opts := []func(*rego.Rego){
		// opa eval's default: builtin errors make the expression undefined.
		rego.StrictBuiltinErrors(false),
		// Evaluation stays local: a builtin not allowed is a compile error naming it (builtins.go).
		rego.Capabilities(capabilities()),
	}
	seen := map[string]bool{}
	for _, m := range modules {
		if seen[m.Name] {
			return nil, fmt.Errorf("two modules are named %q: each needs its own name", m.Name)
		}
		seen[m.Name] = true
		mod, err := ParseModule(m.Name, m.Code)
		if err != nil {
			return nil, single(err)
		}
		opts = append(opts, rego.ParsedModule(mod))
	}
	body, err := ParseQuery(query)
	if err != nil {
		return nil, err
	}
	opts = append(opts, rego.ParsedQuery(body))
	pq, err := rego.New(opts...).PrepareForEval(ctx)
	if err != nil {
		explainRefused(err)
		return nil, single(err)
	}
	return &Prepared{query: query, pq: pq}, nil
}

// ParseModule parses code as Rego v1, or else v0; the error is v1's, the current language.
func ParseModule(name string, code []byte) (*ast.Module, error) {
	if strings.TrimSpace(string(code)) == "" {
		return nil, fmt.Errorf("%s: the module is empty: a Rego module needs at least a package declaration", name)
	}
	mod, errV1 := ast.ParseModuleWithOpts(name, string(code), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if errV1 == nil {
		return mod, nil
	}
	if mod, errV0 := ast.ParseModuleWithOpts(name, string(code), ast.ParserOptions{RegoVersion: ast.RegoV0}); errV0 == nil {
		return mod, nil
	}
	return nil, errV1
}

// ParseQuery parses query as a Rego v1 body, or else v0.
func ParseQuery(query string) (ast.Body, error) {
	if strings.TrimSpace(query) == "" {
		return nil, errors.New("the query is empty: HCP Terraform needs a query such as data.terraform.deny")
	}
	body, err := ParseBody(query)
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", query, err)
	}
	return body, nil
}

// ParseBody parses query as a Rego v1 body, or else v0; the error is v1's.
func ParseBody(query string) (ast.Body, error) {
	body, errV1 := ast.ParseBodyWithOpts(query, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if errV1 == nil {
		return body, nil
	}
	if body, errV0 := ast.ParseBodyWithOpts(query, ast.ParserOptions{RegoVersion: ast.RegoV0}); errV0 == nil {
		return body, nil
	}
	return nil, errV1
}

// InputError is Eval's error for an input that is not JSON.
type InputError struct{ Err error }

func (e InputError) Error() string { return "the input is not a JSON document: " + e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// Eval evaluates the prepared query against input (JSON; nil for none).
func (p *Prepared) Eval(ctx context.Context, input []byte) (Outcome, error) {
	var opts []rego.EvalOption
	if input != nil {
		v, err := ast.ValueFromReader(bytes.NewReader(input))
		if err != nil {
			return Outcome{}, InputError{err}
		}
		opts = append(opts, rego.EvalParsedInput(v))
	}
	rs, err := p.pq.Eval(ctx, opts...)
	if err != nil {
		return Outcome{}, err // topdown errors read file:line: code: message
	}
	return Read(p.query, rs)
}

// Read applies HCP Terraform's rule to a raw result set (what `opa eval` prints): one result of
// one expression, an array; anything else is an error naming the query.
func Read(query string, rs rego.ResultSet) (Outcome, error) {
	switch {
	case len(rs) == 0:
		return Outcome{}, fmt.Errorf("query %q is undefined for this input (no rule or package of that name, or no rule body held): "+
			"HCP Terraform needs the query to give an array, and an empty array to pass", query)
	case len(rs) > 1:
		return Outcome{}, fmt.Errorf("query %q gives %d results: HCP Terraform needs exactly one array (query a rule, such as data.terraform.deny, not its elements)", query, len(rs))
	case len(rs[0].Expressions) != 1:
		return Outcome{}, fmt.Errorf("query %q has %d expressions: HCP Terraform needs one expression whose value is an array", query, len(rs[0].Expressions))
	}
	arr, ok := rs[0].Expressions[0].Value.([]any)
	if !ok {
		return Outcome{}, fmt.Errorf("query %q gives %s, not an array: HCP Terraform needs an array (a set or array rule such as deny), and an empty one to pass",
			query, describe(rs[0].Expressions[0].Value))
	}
	out := Outcome{Pass: len(arr) == 0}
	for _, v := range arr {
		b, err := json.Marshal(v)
		if err != nil {
			return Outcome{}, fmt.Errorf("query %q: violation not JSON: %w", query, err)
		}
		out.Violations = append(out.Violations, b)
	}
	return out, nil
}

// describe names a JSON value's type and shows it briefly.
func describe(v any) string {
	kind := "a value"
	switch v.(type) {
	case map[string]any:
		kind = "an object"
	case string:
		kind = "a string"
	case bool:
		kind = "a boolean"
	case json.Number, float64, int:
		kind = "a number"
	case nil:
		kind = "null"
	}
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return kind + " (" + s + ")"
}

// single drops the "1 error occurred" preamble of OPA's messages when there is one error.
func single(err error) error {
	var errs ast.Errors
	if errors.As(err, &errs) && len(errs) == 1 {
		return errs[0]
	}
	return err
}
