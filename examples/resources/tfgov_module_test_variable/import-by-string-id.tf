import {
  to = tfgov_module_test_variable.region
  id = "acme/network/aws/AWS_REGION"
}
