# The code of every policy of the organization that has code.
list "tfgov_policy_upload" "all" {
  provider         = tfgov
  include_resource = true
  limit            = 1000
  config {
    organization = "my-org"
  }
}
