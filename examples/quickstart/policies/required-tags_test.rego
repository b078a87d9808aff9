# Tests of required-tags.rego, run by OPA's test runner at plan time
# (tfgov_policy.required_tags, tests_wo): a failing test stops the plan,
# and the policy is not uploaded. `opa test policies/` runs them too.
package terraform.policies.required_tags_test

import rego.v1

import data.terraform.policies.required_tags

# change is one resource change of a plan, as terraform show -json writes it.
change(actions, after) := {"plan": {"resource_changes": [{
	"address": "aws_s3_bucket.logs",
	"mode": "managed",
	"type": "aws_s3_bucket",
	"name": "logs",
	"change": {"actions": actions, "after": after},
}]}}

test_tagged_bucket_passes if {
	count(required_tags.deny) == 0 with input as change(["create"], {"tags": {"owner": "platform", "cost-center": "cc-1234"}})
}

test_missing_tag_is_named if {
	required_tags.deny == {`aws_s3_bucket.logs is missing the tags {"cost-center"}`} with input as change(["update"], {"tags": {"owner": "platform"}})
}

test_untagged_bucket_misses_both if {
	required_tags.deny == {`aws_s3_bucket.logs is missing the tags {"cost-center", "owner"}`} with input as change(["create"], {"bucket": "acme-logs"})
}

test_deleted_bucket_is_not_checked if {
	count(required_tags.deny) == 0 with input as change(["delete"], null)
}
