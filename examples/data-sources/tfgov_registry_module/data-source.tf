# A private registry module with its versions and their deprecations.
data "tfgov_registry_module" "network" {
  module_name         = "network"
  module_provider     = "aws"
  include_deprecation = true
}

output "network_versions" {
  value = {
    latest     = data.tfgov_registry_module.network.latest_version
    deprecated = [for v in data.tfgov_registry_module.network.versions : v.version if v.deprecated]
  }
}
