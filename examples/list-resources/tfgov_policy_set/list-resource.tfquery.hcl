# Every policy set of the provider's organization whose name contains "prod", with its scope.
list "tfgov_policy_set" "prod" {
  provider         = tfgov
  include_resource = true
  config {
    search = "prod"
  }
}
