# <organization>/<module_name>/<module_provider>/<variable_id>
terraform import tfgov_module_test_variable.region acme/network/aws/var-BEPU9NjPVCiCfrXj

# <organization>/<module_name>/<module_provider>/<key>
terraform import tfgov_module_test_variable.region acme/network/aws/AWS_REGION
