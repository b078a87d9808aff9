# Every OPA policy set of the provider's organization whose name contains "tags".
data "tfgov_policy_sets" "tag_sets" {
  search = "tags"
  kind   = "opa"
}

output "tag_sets" {
  value = { for s in data.tfgov_policy_sets.tag_sets.policy_sets : s.name => s.scope.global }
}
