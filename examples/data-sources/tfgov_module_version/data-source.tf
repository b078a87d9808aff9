data "tfgov_module_version" "network" {
  module_name     = "network"
  module_provider = "aws"
  module_version  = "1.0.0"
}

# Warn in every plan while the pinned version is deprecated.
check "network_module_not_deprecated" {
  assert {
    condition     = !data.tfgov_module_version.network.deprecated
    error_message = "network/aws 1.0.0 is deprecated: ${coalesce(data.tfgov_module_version.network.deprecation_reason, "no reason given")} (${coalesce(data.tfgov_module_version.network.deprecation_link, "no link")})"
  }
}
