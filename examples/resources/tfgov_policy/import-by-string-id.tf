import {
  to = tfgov_policy.required_tags
  id = "my-org/required-tags"
}
