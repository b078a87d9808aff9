# Two policies with their code: a Sentinel policy and an OPA policy. The
# code lives in ./policies, and the provider reads each file (source):
# state keeps the path and the code's SHA-256, not the code, and editing a
# file plans an upload. Policy sets decide where the policies are enforced.

resource "tfgov_policy" "no_public_buckets" {
  name              = "no-public-buckets"
  description       = "S3 buckets must block public ACLs and policies."
  enforcement_level = "soft-mandatory"
  source            = "${path.module}/policies/no-public-buckets.sentinel"
}

variable "required_tags_level" {
  type        = string
  description = "Enforcement level of the required-tags policy: mandatory or advisory. make demo sets it to advisory to show an update."
  default     = "mandatory"
}

# The Rego is parsed with OPA's parser at plan time, before anything is made,
# and proves itself: its tests and two example inputs run at plan (tests_wo).
# A failure stops the plan, and nothing is uploaded.
resource "tfgov_policy" "required_tags" {
  name              = "required-tags"
  description       = "Managed resources carry the owner and cost-center tags."
  kind              = "opa"
  query             = "data.terraform.policies.required_tags.deny"
  enforcement_level = var.required_tags_level
  source            = "${path.module}/policies/required-tags.rego"

  tests_wo = {
    files = ["${path.module}/policies/*_test.rego"]
    examples = [
      {
        name   = "tagged"
        input  = file("${path.module}/policies/examples/tagged.json")
        expect = "pass"
      },
      {
        name       = "untagged"
        input      = file("${path.module}/policies/examples/untagged.json")
        expect     = "fail"
        violations = jsonencode(["aws_s3_bucket.logs is missing the tags {\"cost-center\"}"])
      },
    ]
  }
}

data "tfgov_policies" "all" {
  depends_on = [tfgov_policy.no_public_buckets, tfgov_policy.required_tags]
}

output "policies" {
  description = "The organization's policies: name => kind and enforcement level."
  value       = { for p in data.tfgov_policies.all.policies : p.name => "${p.kind}, ${p.enforcement_level}" }
}

output "policy_code_sha256" {
  description = "SHA-256 of each policy's uploaded code."
  value = {
    (tfgov_policy.no_public_buckets.name) = tfgov_policy.no_public_buckets.content_sha256
    (tfgov_policy.required_tags.name)     = tfgov_policy.required_tags.content_sha256
  }
}
