# A Sentinel policy (`kind` defaults to "sentinel").
resource "tfgov_policy" "no_public_buckets" {
  name              = "no-public-buckets"
  description       = "S3 buckets must block public access."
  enforcement_level = "soft-mandatory"
}

resource "tfgov_policy_upload" "no_public_buckets" {
  policy_id = tfgov_policy.no_public_buckets.id
  source    = "${path.module}/policies/no-public-buckets.sentinel"
}

# An OPA policy: `query` names the rule the service evaluates.
resource "tfgov_policy" "required_tags" {
  name              = "required-tags"
  kind              = "opa"
  query             = "data.terraform.policies.required_tags.deny"
  enforcement_level = "mandatory"
}

resource "tfgov_policy_upload" "required_tags" {
  policy_id = tfgov_policy.required_tags.id
  source    = "${path.module}/policies/required-tags.rego"
}

# The code inline: one resource per policy, the leaner shape with many
# policies. For code in a file: content = file("${path.module}/policies/x.rego").
# Do not also give this policy a tfgov_policy_upload.
resource "tfgov_policy" "approved_regions" {
  name    = "approved-regions"
  kind    = "opa"
  query   = "data.terraform.policies.approved_regions.deny"
  content = <<-EOT
    package terraform.policies.approved_regions

    import rego.v1

    deny contains msg if {
      some rc in input.plan.resource_changes
      not rc.change.after.region in {"eu-west-1", "eu-central-1"}
      msg := sprintf("%s is outside the approved regions", [rc.address])
    }
  EOT
}
