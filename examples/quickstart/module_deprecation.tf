locals {
  # The version to deprecate: the seed's 1.0.0 (1.1.0 replaces it).
  network_old_version = "1.0.0"
}

# Deprecate the old version: HCP Terraform warns on the registry page and in
# the runs of every configuration that still uses it. Destroying this
# resource reverts the deprecation.
resource "tfgov_module_version_deprecation" "network_v1_0" {
  module_name     = data.tfgov_registry_module.network.module_name
  module_provider = data.tfgov_registry_module.network.module_provider
  module_version  = local.network_old_version
  reason          = "Superseded by 1.1.0, which fixes the NAT gateway routes; upgrade."
  link            = "https://example.com/modules/network/upgrade-1.1"
}

# What a consumer sees before pinning the version.
data "tfgov_module_version" "network_v1_0" {
  module_name     = data.tfgov_registry_module.network.module_name
  module_provider = data.tfgov_registry_module.network.module_provider
  module_version  = local.network_old_version
  depends_on      = [tfgov_module_version_deprecation.network_v1_0]
}

output "module_version_deprecation" {
  description = "The deprecated version as the registry reports it."
  value = {
    version    = "network/aws ${local.network_old_version}"
    deprecated = data.tfgov_module_version.network_v1_0.deprecated
    reason     = data.tfgov_module_version.network_v1_0.deprecation_reason
    link       = data.tfgov_module_version.network_v1_0.deprecation_link
  }
}
