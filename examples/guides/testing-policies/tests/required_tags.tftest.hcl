# The required-tags policy against two example inputs, evaluated as HCP
# Terraform would, offline: no token, no organization, nothing applied.

variables {
  policy = "policies/required-tags.rego"
  query  = "data.terraform.policies.required_tags.deny"
}

run "tagged_bucket_passes" {
  command = plan

  module {
    source = "./tests/evaluate"
  }

  variables {
    input = "inputs/tagged.json"
  }

  assert {
    condition     = output.result == "pass"
    error_message = "A bucket with both tags fails the policy: ${jsonencode(output.violations)}."
  }
}

run "untagged_bucket_fails" {
  command = plan

  module {
    source = "./tests/evaluate"
  }

  variables {
    input = "inputs/untagged.json"
  }

  assert {
    condition     = output.result == "fail"
    error_message = "A bucket without its cost-center tag passes the policy."
  }

  assert {
    condition     = output.violations == ["aws_s3_bucket.logs is missing the tags {\"cost-center\"}"]
    error_message = "Unexpected violations: ${jsonencode(output.violations)}."
  }
}
