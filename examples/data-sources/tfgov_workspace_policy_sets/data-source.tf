# The policy sets that govern the workspace "payments-prod", derived from every set's scope.
data "tfgov_workspace_policy_sets" "payments" {
  workspace_name = "payments-prod"
}

output "payments_governed_by" {
  value = data.tfgov_workspace_policy_sets.payments.names
}
