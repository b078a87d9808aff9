variable "network_test_run_id" {
  type        = string
  description = "ID of a test run of the network/aws module (trun-<id>)."
}

data "tfgov_module_test_run" "network" {
  module_name     = "network"
  module_provider = "aws"
  id              = var.network_test_run_id
}

# Warn in every plan while the run's tests do not pass.
check "network_tests_pass" {
  assert {
    condition     = data.tfgov_module_test_run.network.test_status == "pass"
    error_message = "Test run ${data.tfgov_module_test_run.network.id} is ${data.tfgov_module_test_run.network.status}: ${coalesce(data.tfgov_module_test_run.network.tests_failed, 0)} failed, ${coalesce(data.tfgov_module_test_run.network.tests_errored, 0)} errored."
  }
}
