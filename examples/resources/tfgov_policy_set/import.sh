# By policy set ID:
terraform import tfgov_policy_set.production polset-3yVQZvHzf5j3WRJ1

# By organization and policy set name:
terraform import tfgov_policy_set.production my-org/production
