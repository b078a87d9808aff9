# A team of the provider's organization, by name.
data "tfgov_team" "platform" {
  name = "platform"
}

output "platform_team_id" {
  value = data.tfgov_team.platform.id
}
