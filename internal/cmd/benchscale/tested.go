package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tfgov/terraform-provider-tfgov/internal/policysample"
)

// policy_tested (issue 45): N OPA policies of the median Rego size, each
// with `source`, a test file of two tests and two examples (one passing,
// one failing), so that a plan runs OPA's test runner and evaluator for
// each policy whose code, tests or examples changed, and none otherwise.

// writeTestedCode writes, under dir, v0/<i>.rego and v1/<i>.rego (the
// policy; the update changes it, so its tests run again), <i>_test.rego
// and <i>_fail.json (an input its first rule denies).
func writeTestedCode(dir string, n int) error {
	for v := range 2 {
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprint("v", v)), 0o755); err != nil {
			return err
		}
	}
	for i := range n {
		pkg := fmt.Sprintf("terraform.policies.tested_%d", i)
		for v := range 2 {
			code := policysample.RegoCode(pkg, i, v, int(policysample.Rego.Median))
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprint("v", v), fmt.Sprint(i, ".rego")), []byte(code), 0o644); err != nil {
				return err
			}
		}
		fail := fmt.Sprintf(`{"plan": {"resource_changes": [{"address": "x.y", "type": %q, "change": {"actions": ["create"], "after": {"tags": {}}}}]}}`, policysample.RegoFirstType(i))
		test := fmt.Sprintf(`package %[1]s_test

import rego.v1

import data.%[1]s

test_untagged_denied if {
	count(%[2]s.deny) > 0 with input as %[3]s
}

test_nothing_passes if {
	count(%[2]s.deny) == 0 with input as {"plan": {"resource_changes": []}}
}
`, pkg, fmt.Sprintf("tested_%d", i), fail)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(i, "_test.rego")), []byte(test), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(i, "_fail.json")), []byte(fail), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// testedPolicyConfig is policy_tested's configuration, version v.
func testedPolicyConfig(b *bench, n, v int) string {
	dir := b.code + "/tested"
	return fmt.Sprintf(`resource "tfgov_policy" "r" {
  count       = %[1]d
  name        = "bench-tst-${count.index}"
  kind        = "opa"
  query       = "data.terraform.policies.tested_${count.index}.deny"
  description = "policy ${count.index} v%[2]d"
  source      = "%[3]s/v%[2]d/${count.index}.rego"
  tests_wo = {
    files = ["%[3]s/${count.index}_test.rego"]
    examples = [
      { name = "nothing", input = jsonencode({ plan = { resource_changes = [] } }), expect = "pass" },
      { name = "untagged", input = file("%[3]s/${count.index}_fail.json"), expect = "fail" },
    ]
  }
}
`, n, v, dir)
}
