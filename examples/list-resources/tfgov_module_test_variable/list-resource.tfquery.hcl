# The test variables of one private module.
list "tfgov_module_test_variable" "network" {
  provider         = tfgov
  include_resource = true
  config {
    module_name     = "network"
    module_provider = "aws"
  }
}
