# Every run of the network/aws module's tests queued through the API or by
# version control (not from the Terraform CLI), newest first.
data "tfgov_module_test_runs" "network" {
  module_name     = "network"
  module_provider = "aws"
  sources         = ["svc-api", "svc-configuration-version"]
}

locals {
  # Runs are listed newest first: the first finished one is the latest result.
  latest_finished = [for r in data.tfgov_module_test_runs.network.runs : r if r.status == "finished"]
}

output "network_tests_latest" {
  value = length(local.latest_finished) == 0 ? null : {
    id          = local.latest_finished[0].id
    test_status = local.latest_finished[0].test_status
    passed      = local.latest_finished[0].tests_passed
    failed      = local.latest_finished[0].tests_failed
    finished_at = local.latest_finished[0].finished_at
  }
}
