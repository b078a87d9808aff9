data "tfgov_workspace_team_access" "app" {
  workspace_id = "ws-SihZTyXKfNXUWuUa"
}

# Which team has which level on the workspace.
output "team_access_levels" {
  value = { for ta in data.tfgov_workspace_team_access.app.team_access : ta.team_name => ta.access }
}
