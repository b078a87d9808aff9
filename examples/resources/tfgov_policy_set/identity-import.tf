import {
  to = tfgov_policy_set.production
  identity = {
    id = "polset-3yVQZvHzf5j3WRJ1"
  }
}
