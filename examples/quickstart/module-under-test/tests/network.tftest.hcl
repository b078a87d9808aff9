run "plans_two_subnets" {
  command = plan

  assert {
    condition     = local.subnets == ["10.0.0.0/24", "10.0.1.0/24"]
    error_message = "The module should plan two /24 subnets."
  }
}

run "reads_the_region_test_variable" {
  command = plan

  assert {
    condition     = var.region == "eu-west-1"
    error_message = "TF_VAR_region, the module's test variable, should set the region."
  }
}

run "applies_the_network" {
  assert {
    condition     = terraform_data.network.output.name == var.network_name
    error_message = "The network should carry the name the run passes in."
  }
}
