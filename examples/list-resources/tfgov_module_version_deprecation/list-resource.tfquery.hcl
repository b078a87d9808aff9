# The deprecated versions of one private module.
list "tfgov_module_version_deprecation" "network" {
  provider         = tfgov
  include_resource = true
  config {
    module_name     = "network"
    module_provider = "aws"
  }
}
