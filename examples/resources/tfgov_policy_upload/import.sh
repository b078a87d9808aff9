# By policy ID; the code is downloaded and compared by SHA-256 at the next plan:
terraform import tfgov_policy_upload.required_tags pol-Wf1qTbkVZ4fKvWxE
