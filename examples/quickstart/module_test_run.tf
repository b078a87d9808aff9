# Runs the tests of ./module-under-test as the seed module's tests: the
# provider packs the directory, uploads it, and the apply waits for
# `terraform test` to pass. Editing a file in the directory plans a new run.
resource "tfgov_module_test_run" "network" {
  module_name     = data.tfgov_registry_module.network.module_name
  module_provider = data.tfgov_registry_module.network.module_provider
  source          = "${path.module}/module-under-test"

  # HCL literals: a string carries its own quotes.
  variables = {
    network_name = jsonencode("quickstart")
  }

  # The tests read TF_VAR_region, so the variables must exist first.
  depends_on = [tfgov_module_test_variable.region, tfgov_module_test_variable.api_key]
}

output "module_test_run" {
  description = "The run's outcome."
  value = {
    id          = tfgov_module_test_run.network.id
    status      = tfgov_module_test_run.network.status
    test_status = tfgov_module_test_run.network.test_status
    passed      = tfgov_module_test_run.network.tests_passed
    failed      = tfgov_module_test_run.network.tests_failed
    errored     = tfgov_module_test_run.network.tests_errored
    skipped     = tfgov_module_test_run.network.tests_skipped
  }
}
