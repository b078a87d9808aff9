import {
  to = tfgov_policy.required_tags
  identity = {
    id = "pol-Wf1qTbkVZ4fKvWxE"
  }
}
