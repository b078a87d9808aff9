package terraform.policies.tags_test

import rego.v1

import data.terraform.policies.tags

test_untagged if {
	count(tags.deny) == 1 with input as {"plan": {"resource_changes": [{"address": "aws_s3_bucket.b", "change": {"after": {"tags": null}}}]}}
}

test_tagged if {
	count(tags.deny) == 0 with input as {"plan": {"resource_changes": [{"address": "aws_s3_bucket.b", "change": {"after": {"tags": {"team": "x"}}}}]}}
}
