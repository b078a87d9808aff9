import {
  to = tfgov_module_test_run.network
  id = "acme/network/aws/trun-KFg8DSiRz4E37mdJ"
}
