# Every team's access to one workspace.
list "tfgov_team_access" "app" {
  provider         = tfgov
  include_resource = true
  config {
    workspace_id = "ws-SihZTyXKfNXUWuUa"
  }
}
