policy "tags" {
  query             = "data.terraform.policies.tags.deny"
  enforcement_level = "mandatory"
}
