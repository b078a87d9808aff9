resource "tfgov_policy" "required_tags" {
  name  = "required-tags"
  kind  = "opa"
  query = "data.terraform.policies.required_tags.deny"
}

# The code from a file: editing the file plans an upload.
resource "tfgov_policy_upload" "required_tags" {
  policy_id = tfgov_policy.required_tags.id
  source    = "${path.module}/policies/required-tags.rego"
}

# Or inline.
resource "tfgov_policy" "allow_all" {
  name              = "allow-all"
  enforcement_level = "advisory"
}

resource "tfgov_policy_upload" "allow_all" {
  policy_id = tfgov_policy.allow_all.id
  content   = <<-EOT
    main = rule { true }
  EOT
}
