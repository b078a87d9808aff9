# Run the tests of the module in ./modules/network, as the tests of the
# private module acme/network/aws, on every change of its files.
resource "tfgov_module_test_run" "network" {
  module_name     = "network"
  module_provider = "aws"
  source          = "${path.module}/modules/network"

  test_directory = "tests"
  filters        = ["tests/subnets.tftest.hcl", "tests/routing.tftest.hcl"]

  # Each value is an HCL literal: a string carries its own quotes.
  variables = {
    environment = jsonencode("staging")
    owner       = "\"platform-team\""
    zones       = jsonencode(["eu-west-1a", "eu-west-1b"])
    replicas    = "2"
  }

  # Also rerun the tests for each new release of the module.
  triggers = {
    release = var.network_release
  }

  timeouts = {
    create = "45m"
  }
}

variable "network_release" {
  type        = string
  description = "Version of the module being released, such as 1.4.0."
}

# Queue the tests of an uploaded configuration version without waiting for
# them: test_status is filled in by later plans.
resource "tfgov_module_test_run" "nightly" {
  module_name              = "network"
  module_provider          = "aws"
  configuration_version_id = "cv-ntv3HbhJqvFzamy7"
  wait_for_completion      = false
}
