# By policy ID:
terraform import tfgov_policy.required_tags pol-Wf1qTbkVZ4fKvWxE

# By organization and policy name:
terraform import tfgov_policy.required_tags my-org/required-tags
