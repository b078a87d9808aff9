# The configuration whose tests the quickstart runs: a tiny network module
# that needs no provider download (terraform_data, locals, outputs and a
# check block), so its tests run offline in the sandbox.
variable "network_name" {
  type        = string
  description = "Name of the network."
}

variable "region" {
  type        = string
  description = "Region of the network. The quickstart's module test variable TF_VAR_region sets it for every test run."
}

variable "cidr_block" {
  type        = string
  description = "Address space of the network."
  default     = "10.0.0.0/16"
}

locals {
  subnets = [for i in range(2) : cidrsubnet(var.cidr_block, 8, i)]
}

resource "terraform_data" "network" {
  input = {
    name    = var.network_name
    region  = var.region
    subnets = local.subnets
  }
}

output "network" {
  value = terraform_data.network.output
}

check "address_space_is_private" {
  assert {
    condition     = startswith(var.cidr_block, "10.")
    error_message = "cidr_block should be in 10.0.0.0/8."
  }
}
