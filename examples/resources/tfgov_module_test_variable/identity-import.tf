import {
  to = tfgov_module_test_variable.region
  identity = {
    organization    = "acme"
    module_name     = "network"
    module_provider = "aws"
    id              = "var-EnsKrUhZW9x9fcVq"
  }
}
