data "tfgov_module_test_variables" "network" {
  module_name     = "network"
  module_provider = "aws"
}

# The keys of the module's test variables, and which are sensitive.
output "network_test_variables" {
  value = { for v in data.tfgov_module_test_variables.network.variables : v.key => v.sensitive }
}
