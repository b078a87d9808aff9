import {
  to = tfgov_policy_set_parameter.region
  id = "acme/baseline/region"
}
