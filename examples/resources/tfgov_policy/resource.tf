# The code from a file the provider reads: state keeps the path and the
# code's SHA-256, not the code, so applies stay fast with hundreds of
# policies.
resource "tfgov_policy" "required_tags" {
  name              = "required-tags"
  kind              = "opa"
  query             = "data.terraform.policies.required_tags.deny"
  enforcement_level = "mandatory"
  source            = "${path.module}/policies/required-tags.rego"
}

# The code from any expression, write-only (Terraform 1.11 or later): state
# keeps its SHA-256, not the code.
resource "tfgov_policy" "cost_center" {
  name       = "cost-center"
  kind       = "opa"
  query      = "data.terraform.policies.cost_center.deny"
  content_wo = templatefile("${path.module}/policies/cost-center.rego.tftpl", { tag = "cost-center" })
}

# A Sentinel policy (`kind` defaults to "sentinel"), its code in plan and
# state: the plan shows a change of the code line by line.
resource "tfgov_policy" "approved_regions" {
  name              = "approved-regions"
  description       = "Resources stay in the approved regions."
  enforcement_level = "soft-mandatory"
  content           = <<-EOT
    import "tfplan/v2" as tfplan

    approved = ["eu-west-1", "eu-central-1"]

    main = rule {
      all tfplan.resource_changes as _, rc {
        rc.change.after.region else "eu-west-1" in approved
      }
    }
  EOT
}

# The code managed apart from the policy, here written by another resource
# during the apply: a tfgov_policy without code and a tfgov_policy_upload.
resource "tfgov_policy" "no_public_buckets" {
  name              = "no-public-buckets"
  description       = "S3 buckets must block public access."
  enforcement_level = "soft-mandatory"
}

resource "tfgov_policy_upload" "no_public_buckets" {
  policy_id = tfgov_policy.no_public_buckets.id
  source    = "${path.module}/policies/no-public-buckets.sentinel"
}
