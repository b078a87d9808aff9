import {
  to = tfgov_policy_upload.required_tags
  id = "pol-Wf1qTbkVZ4fKvWxE"
}
