# The test runs of one private module, newest first.
list "tfgov_module_test_run" "network" {
  provider         = tfgov
  include_resource = true
  limit            = 10
  config {
    module_name     = "network"
    module_provider = "aws"
  }
}
