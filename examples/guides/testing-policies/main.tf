# A policy library of one OPA policy: the quickstart's required-tags. The
# provider reads the code from ./policies (source); `terraform test` proves
# the policy against example inputs first (tests/), offline.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

# Reads TFE_ADDRESS (or TFE_HOSTNAME), TFE_TOKEN and TFE_ORGANIZATION.
provider "tfgov" {}

resource "tfgov_policy" "required_tags" {
  name              = "required-tags"
  description       = "Managed resources carry the owner and cost-center tags."
  kind              = "opa"
  query             = "data.terraform.policies.required_tags.deny"
  enforcement_level = "mandatory"
  source            = "${path.module}/policies/required-tags.rego"
}
