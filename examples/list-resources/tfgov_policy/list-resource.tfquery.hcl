# Every OPA policy of the provider's organization whose name contains "tags".
list "tfgov_policy" "tags" {
  provider         = tfgov
  include_resource = true
  config {
    search = "tags"
    kind   = "opa"
  }
}
