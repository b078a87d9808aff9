package policyeval

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// A policy's Rego tests, run with OPA's own test runner (as `opa test`
// runs them) over the policy's modules and its test modules.

// TestFailure is a test that failed or stopped with an error, or (Test "") a module that does
// not parse or compile, so that no test ran.
type TestFailure struct {
	Test    string // such as data.terraform.policies.tags_test.test_untagged
	File    string
	Line    int
	Message string
}

func (f TestFailure) String() string {
	where := f.File
	if f.Line > 0 {
		where = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	if f.Test == "" {
		return fmt.Sprintf("%s: %s", where, f.Message)
	}
	return fmt.Sprintf("%s (%s): %s", f.Test, where, f.Message)
}

// TestResults is what RunTests found: the number of tests that passed and
// were skipped (todo_ rules), and every failure, in file and line order.
type TestResults struct {
	Passed, Skipped int
	Failures        []TestFailure
}

// RunTests runs the test_* rules of tests against modules, each parsed on its own (ParseModule).
// A test module that runs no test (none, or only todo_ rules) fails: a glob that matched the wrong
// files should not pass.
// The error is for ctx's end only.
func RunTests(ctx context.Context, modules, tests []Module) (TestResults, error) {
	var out TestResults
	parsed := map[string]*ast.Module{}
	testFiles := map[string]bool{}
	for i, m := range append(append([]Module{}, modules...), tests...) {
		mod, err := ParseModule(m.Name, m.Code)
		if err != nil {
			out.Failures = append(out.Failures, astFailures(err, m.Name)...)
			continue
		}
		if _, dup := parsed[m.Name]; dup {
			out.Failures = append(out.Failures, TestFailure{File: m.Name, Message: "two modules have this file name; give each its own"})
			continue
		}
		parsed[m.Name] = mod
		if i >= len(modules) {
			testFiles[m.Name] = true
		}
	}
	if len(out.Failures) > 0 {
		return out, nil
	}
	results, err := run(ctx, parsed, "")
	if err != nil {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		explainRefused(err)
		out.Failures = astFailures(err, "")
		return out, nil
	}
	var failed []string
	ran, skipped := map[string]bool{}, map[string]bool{}
	for _, r := range results {
		switch {
		case r.Skip:
			skipped[r.Location.File] = true
			out.Skipped++
			continue
		case r.Error != nil:
			out.Failures = append(out.Failures, TestFailure{Test: testName(r), File: r.Location.File, Line: r.Location.Row, Message: "error: " + errorText(r.Error)})
		case r.Fail:
			out.Failures = append(out.Failures, TestFailure{Test: testName(r), File: r.Location.File, Line: r.Location.Row, Message: "fail"})
			failed = append(failed, regexp.QuoteMeta(testName(r)))
		default:
			out.Passed++
		}
		ran[r.Location.File] = true
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	for name := range testFiles {
		switch {
		case skipped[name] && !ran[name]:
			out.Failures = append(out.Failures, TestFailure{File: name, Message: "no test runs in this file: its only tests are todo_ rules, which OPA skips; rename one test_ to run it"})
		case !ran[name]:
			out.Failures = append(out.Failures, TestFailure{File: name, Message: "no test in this file: OPA runs the rules whose names start with test_ (todo_ skips one)"})
		}
	}
	if len(failed) > 0 {
		explainFailures(ctx, parsed, failed, out.Failures)
	}
	sort.SliceStable(out.Failures, func(i, j int) bool {
		a, b := out.Failures[i], out.Failures[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return out, nil
}

// run runs the tests of modules matching filter ("": all), collecting
// their results; trace records the evaluation, for explainFailures.
func run(ctx context.Context, modules map[string]*ast.Module, filter string) ([]*tester.Result, error) {
	// As Prepare: only the allowed builtins (builtins.go).
	compiler := ast.NewCompiler().WithCapabilities(capabilities()).WithEnablePrintStatements(true)
	r := tester.NewRunner().SetCompiler(compiler).SetModules(modules).CapturePrintOutput(true).SetParallel(1)
	if filter != "" {
		r = r.Filter(filter).EnableTracing(true)
	}
	ch, err := r.RunTests(ctx, nil)
	if err != nil {
		return nil, err
	}
	var out []*tester.Result
	for res := range ch {
		out = append(out, res)
	}
	return out, nil
}

// explainFailures reruns the failed tests with a trace (the passing run is not slowed by one) and
// adds the expression that failed, where the trace shows it, and what the test printed.
func explainFailures(ctx context.Context, modules map[string]*ast.Module, failed []string, failures []TestFailure) {
	results, err := run(ctx, modules, "^("+strings.Join(failed, "|")+")$")
	if err != nil {
		return
	}
	for _, r := range results {
		for i := range failures {
			f := &failures[i]
			if f.Test != testName(r) || f.File != r.Location.File || f.Line != r.Location.Row {
				continue
			}
			if expr := failedExpr(r); expr != nil {
				f.Message = fmt.Sprintf("fail: line %d, %s, is false or undefined", expr.Location.Row, strings.TrimSpace(string(expr.Location.Text)))
			}
			if out := strings.TrimSpace(string(r.Output)); out != "" {
				f.Message += "; it printed: " + truncate(out, 500)
			}
		}
	}
}

// failedExpr is the last expression of the test's own body that failed, in
// the trace of r; nil when the trace shows none.
func failedExpr(r *tester.Result) *ast.Expr {
	var last *ast.Expr
	first := r.Location.Row
	end := first + strings.Count(string(r.Location.Text), "\n")
	for _, e := range r.Trace {
		if e.Op != topdown.FailOp {
			continue
		}
		expr, ok := e.Node.(*ast.Expr)
		if !ok || expr.Location == nil || expr.Location.File != r.Location.File || expr.Location.Row < first || expr.Location.Row > end {
			continue
		}
		last = expr
	}
	return last
}

// astFailures splits an error of OPA's parser or compiler into failures
// at their positions (file: where none is given).
func astFailures(err error, file string) []TestFailure {
	var errs ast.Errors
	if !errors.As(err, &errs) {
		return []TestFailure{{File: file, Message: err.Error()}}
	}
	out := make([]TestFailure, 0, len(errs))
	for _, e := range errs {
		f := TestFailure{File: file, Message: e.Code + ": " + e.Message}
		if e.Location != nil {
			f.File, f.Line = e.Location.File, e.Location.Row
		}
		out = append(out, f)
	}
	return out
}

func testName(r *tester.Result) string { return r.Package + "." + r.Name }

func errorText(err error) string {
	var te *topdown.Error
	if errors.As(err, &te) {
		msg := te.Code + ": " + te.Message
		if te.Location != nil {
			msg = fmt.Sprintf("%s (%s:%d)", msg, te.Location.File, te.Location.Row)
		}
		return msg
	}
	return err.Error()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
