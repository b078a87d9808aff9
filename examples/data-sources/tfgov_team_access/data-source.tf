data "tfgov_team_access" "developers" {
  team_id      = "team-LnREdjodkvZFGdXL"
  workspace_id = "ws-SihZTyXKfNXUWuUa"
}

output "developers_can_apply" {
  value = data.tfgov_team_access.developers.permissions.runs == "apply"
}
