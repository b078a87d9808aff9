import {
  to = tfgov_module_version_deprecation.network_v1_0
  id = "acme/network/aws/1.0.0"
}
