# By organization (the provider's, unless set) and name.
data "tfgov_policy" "required_tags" {
  name = "required-tags"
}

# By ID.
data "tfgov_policy" "by_id" {
  id = "pol-Wf1qTbkVZ4fKvWxE"
}

output "required_tags_level" {
  value = data.tfgov_policy.required_tags.enforcement_level
}
