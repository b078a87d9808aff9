# Environment variables for every test run of the seed's module. A run's own
# `variables` override them.
resource "tfgov_module_test_variable" "region" {
  module_name     = data.tfgov_registry_module.network.module_name
  module_provider = data.tfgov_registry_module.network.module_provider
  key             = "TF_VAR_region"
  value           = "eu-west-1"
  description     = "Region the module's tests plan for."
}

# A secret: sent to HCP Terraform, never shown by it again, and (with
# value_wo, Terraform 1.11 or later) never stored in the plan or the state.
resource "tfgov_module_test_variable" "api_key" {
  module_name      = data.tfgov_registry_module.network.module_name
  module_provider  = data.tfgov_registry_module.network.module_provider
  key              = "TEST_API_KEY"
  value_wo         = "demo-secret-not-for-production"
  value_wo_version = 1
  sensitive        = true
}

output "module_test_variables" {
  description = "The module's test variables (the secret's value is not among them)."
  value = {
    for v in [tfgov_module_test_variable.region, tfgov_module_test_variable.api_key] :
    v.key => { id = v.id, sensitive = v.sensitive }
  }
}
