data "tfgov_project_team_access" "platform" {
  team_id    = "team-LnREdjodkvZFGdXL"
  project_id = "prj-XkS4wE5jJ9Yk2Pqa"
}

output "platform_can_create_workspaces" {
  value = data.tfgov_project_team_access.platform.workspace_access.create
}
