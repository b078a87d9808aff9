package policyeval

import (
	"context"
	"strings"
	"testing"
)

const tagsPolicy = `package terraform.policies.tags

import input.plan as tfplan

deny contains msg if {
	some r in tfplan.resource_changes
	r.change.after.tags.owner == null
	msg := sprintf("%s has no owner tag", [r.address])
}
`

const tagsPolicyV0 = `package terraform.policies.tags

deny[msg] {
	r := input.plan.resource_changes[_]
	r.change.after.tags.owner == null
	msg := sprintf("%s has no owner tag", [r.address])
}
`

func TestRunTests(t *testing.T) {
	passing := `package terraform.policies.tags_test

import data.terraform.policies.tags

test_untagged_denied if {
	count(tags.deny) == 1 with input as {"plan": {"resource_changes": [{"address": "a", "change": {"after": {"tags": {"owner": null}}}}]}}
}

test_tagged_allowed if {
	count(tags.deny) == 0 with input as {"plan": {"resource_changes": [{"address": "a", "change": {"after": {"tags": {"owner": "me"}}}}]}}
}

todo_test_later if { false }
`
	failing := `package terraform.policies.tags_test

import data.terraform.policies.tags

test_tagged_allowed if {
	count(tags.deny) == 0 with input as {"plan": {"resource_changes": [{"address": "a", "change": {"after": {"tags": {"owner": "me"}}}}]}}
}

test_all_denied if {
	print("deny:", tags.deny)
	count(tags.deny) == 1 with input as {"plan": {"resource_changes": []}}
}
`
	erroring := `package terraform.policies.tags_test

test_division if {
	x := 1 / 0
	x == 1
}

conflict := 1 if true
conflict := 2 if true

test_conflict if { conflict == 1 }
`
	for _, tc := range []struct {
		name     string
		policy   string
		tests    []string
		passed   int
		skipped  int
		failures []string // each: substrings of one failure's String(), in order
	}{
		{name: "passing", policy: tagsPolicy, tests: []string{passing}, passed: 2, skipped: 1},
		{name: "passing v0 policy", policy: tagsPolicyV0, tests: []string{passing}, passed: 2, skipped: 1},
		{name: "failing", policy: tagsPolicy, tests: []string{failing}, passed: 1,
			failures: []string{"data.terraform.policies.tags_test.test_all_denied (tags_test_0.rego:9): fail: line 11, count(tags.deny) == 1 with input as"}},
		{name: "erroring", policy: tagsPolicy, tests: []string{erroring},
			failures: []string{"test_division (tags_test_0.rego:3): fail: line 4, 1 / 0", "test_conflict (tags_test_0.rego:11): error: eval_conflict_error"}},
		{name: "test does not parse", policy: tagsPolicy, tests: []string{"package x\ntest_a if {"},
			failures: []string{"tags_test_0.rego:2: rego_parse_error"}},
		{name: "test does not compile", policy: tagsPolicy, tests: []string{"package x\ntest_a if { data.terraform.policies.tags.deny == nope }"},
			failures: []string{"tags_test_0.rego:2: rego_unsafe_var_error: var nope is unsafe"}},
		{name: "no network", policy: tagsPolicy, tests: []string{"package x\ntest_a if { http.send({\"method\": \"get\", \"url\": \"https://example.com\"}) }"},
			failures: []string{"tags_test_0.rego:2: rego_type_error: undefined function http.send (refused by the provider"}},
		{name: "no test", policy: tagsPolicy, tests: []string{"package x\nallow := true"},
			failures: []string{"tags_test_0.rego: no test in this file"}},
		{name: "only todo tests", policy: tagsPolicy, tests: []string{passing, "package y\ntodo_test_a if { false }\ntodo_test_b if { true }"}, passed: 2, skipped: 3,
			failures: []string{"tags_test_1.rego: no test runs in this file: its only tests are todo_ rules"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tests []Module
			for i, code := range tc.tests {
				tests = append(tests, Module{Name: "tags_test_" + string(rune('0'+i)) + ".rego", Code: []byte(code)})
			}
			got, err := RunTests(context.Background(), []Module{{Name: "tags.rego", Code: []byte(tc.policy)}}, tests)
			if err != nil {
				t.Fatal(err)
			}
			if got.Passed != tc.passed || got.Skipped != tc.skipped || len(got.Failures) != len(tc.failures) {
				t.Fatalf("passed %d, skipped %d, failures %v; want %d, %d, %d failures", got.Passed, got.Skipped, got.Failures, tc.passed, tc.skipped, len(tc.failures))
			}
			for i, want := range tc.failures {
				if s := got.Failures[i].String(); !strings.Contains(s, want) {
					t.Errorf("failure %d: %s\nwant it to contain: %s", i, s, want)
				}
			}
		})
	}
}
