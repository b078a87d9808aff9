# Every OPA policy of the provider's organization whose name contains "tags".
data "tfgov_policies" "tag_policies" {
  search = "tags"
  kind   = "opa"
}

output "tag_policies" {
  value = { for p in data.tfgov_policies.tag_policies.policies : p.name => p.enforcement_level }
}
