# <organization>/<module_name>/<module_provider>/<module_version>
terraform import tfgov_module_version_deprecation.network_v1_0 acme/network/aws/1.0.0
