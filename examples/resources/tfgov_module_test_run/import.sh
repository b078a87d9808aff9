# <organization>/<module_name>/<module_provider>/<run_id>
terraform import tfgov_module_test_run.network acme/network/aws/trun-KFg8DSiRz4E37mdJ

# <module_name>/<module_provider>/<run_id>, in the provider's organization
terraform import tfgov_module_test_run.network network/aws/trun-KFg8DSiRz4E37mdJ
