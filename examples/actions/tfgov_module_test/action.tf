# Run the tests of the module in ./modules/network, as the tests of the
# private module acme/network/aws, when invoked:
#   terraform apply -invoke=action.tfgov_module_test.network
action "tfgov_module_test" "network" {
  config {
    module_name     = "network"
    module_provider = "aws"
    source          = "${path.module}/modules/network"

    filters = ["tests/subnets.tftest.hcl"]

    # Each value is an HCL literal: a string carries its own quotes.
    variables = {
      environment = jsonencode("staging")
      replicas    = "2"
    }

    timeout = "45m"
  }
}

# Run them again each time a new version of the module is published.
resource "terraform_data" "network_release" {
  input = var.network_release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.tfgov_module_test.network]
    }
  }
}

variable "network_release" {
  type        = string
  description = "Version of the module being released, such as 1.4.0."
}
