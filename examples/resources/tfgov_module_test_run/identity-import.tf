import {
  to = tfgov_module_test_run.network
  identity = {
    organization    = "acme"
    module_name     = "network"
    module_provider = "aws"
    id              = "trun-KFg8DSiRz4E37mdJ"
  }
}
