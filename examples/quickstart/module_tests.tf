# The private registry module whose tests the quickstart configures and
# whose old version it deprecates, by name and provider, with its versions.
data "tfgov_registry_module" "network" {
  module_name     = "network"
  module_provider = "aws"
}
