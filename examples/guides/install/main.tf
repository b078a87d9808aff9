# A configuration installed from any route of the guide: the provider's
# address is tfgov/tfgov (registry.terraform.io/tfgov/tfgov) everywhere but
# in the organization's private registry (see the guide).
terraform {
  required_providers {
    tfgov = {
      source  = "tfgov/tfgov"
      version = "~> 0.1"
    }
  }
}

# hostname (or address), token and organization come from the environment:
# TFE_HOSTNAME, TFE_TOKEN (or `terraform login`), TFE_ORGANIZATION.
provider "tfgov" {}

# A read and a planned policy: `terraform plan` shows that the provider
# installed, started and reached the service.
data "tfgov_policies" "all" {}

resource "tfgov_policy" "install_check" {
  name              = "install-check"
  kind              = "opa"
  query             = "data.terraform.main.deny"
  enforcement_level = "advisory"
}

output "policies" {
  value = length(data.tfgov_policies.all.policies)
}
