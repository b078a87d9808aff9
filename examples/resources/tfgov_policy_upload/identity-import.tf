import {
  to = tfgov_policy_upload.required_tags
  identity = {
    policy_id = "pol-Wf1qTbkVZ4fKvWxE"
  }
}
