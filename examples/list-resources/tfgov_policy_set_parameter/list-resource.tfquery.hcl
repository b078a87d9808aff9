# The parameters of one policy set.
list "tfgov_policy_set_parameter" "baseline" {
  provider         = tfgov
  include_resource = true
  config {
    policy_set_id = "polset-3yVQZvHzf5j3WRJ1"
  }
}
