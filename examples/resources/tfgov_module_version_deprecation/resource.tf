# Deprecate version 1.0.0 of the private module acme/network/aws.
resource "tfgov_module_version_deprecation" "network_v1_0" {
  organization    = "acme"
  module_name     = "network"
  module_provider = "aws"
  module_version  = "1.0.0"
  reason          = "Superseded by 1.1.0, which fixes the NAT gateway routes; upgrade."
  link            = "https://example.com/modules/network/upgrade-1.1"
}

# Deprecate every release older than the supported ones.
locals {
  unsupported_network_versions = ["0.9.0", "0.9.1"]
}

resource "tfgov_module_version_deprecation" "network_old" {
  for_each = toset(local.unsupported_network_versions)

  module_name     = "network"
  module_provider = "aws"
  module_version  = each.key
  reason          = "No longer supported; use 1.1.0 or later."
}
