import {
  to = tfgov_policy_set.production
  id = "my-org/production"
}
