import {
  to = tfgov_module_version_deprecation.network_v1_0
  identity = {
    organization    = "acme"
    module_name     = "network"
    module_provider = "aws"
    module_version  = "1.0.0"
  }
}
