import {
  to = tfgov_policy_set_parameter.region
  identity = {
    policy_set_id = "polset-3yVQZvHzf5j3WRJ1"
    id            = "var-EnsKrUhZW9x9fcVq"
  }
}
