# A plain environment variable for every test run of the module acme/network/aws.
resource "tfgov_module_test_variable" "region" {
  module_name     = "network"
  module_provider = "aws"
  key             = "AWS_REGION"
  value           = "eu-west-1"
  description     = "Region the module's tests create their fixtures in."
}

# A secret, kept out of the plan and the state (Terraform 1.11 or later):
# bump value_wo_version to send a new value.
variable "test_role_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "tfgov_module_test_variable" "secret" {
  module_name      = "network"
  module_provider  = "aws"
  key              = "AWS_SECRET_ACCESS_KEY"
  value_wo         = var.test_role_secret
  value_wo_version = 1
  sensitive        = true
}
