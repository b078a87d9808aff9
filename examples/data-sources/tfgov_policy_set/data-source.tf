# The policy set "baseline" of the provider's organization, with its whole scope.
data "tfgov_policy_set" "baseline" {
  name = "baseline"
}

output "baseline_scope" {
  value = data.tfgov_policy_set.baseline.scope
}
