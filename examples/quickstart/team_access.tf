# The workspace and the teams, by name: the data sources turn the names
# into the IDs the resources take.
data "tfgov_workspace" "demo" {
  name = "demo-app"
}

data "tfgov_teams" "demo" {
  names = ["platform", "developers"]
}

# The platform team administers the workspace.
resource "tfgov_team_access" "platform" {
  team_id      = data.tfgov_teams.demo.ids_by_name["platform"]
  workspace_id = data.tfgov_workspace.demo.id
  access       = "admin"
}

# Developers run plans and applies and read outputs, but neither see the
# variables nor lock the workspace.
resource "tfgov_team_access" "developers" {
  team_id      = data.tfgov_teams.demo.ids_by_name["developers"]
  workspace_id = data.tfgov_workspace.demo.id
  access       = "custom"

  permissions = {
    runs           = "apply"
    state_versions = "read-outputs"
  }
}

data "tfgov_workspace_team_access" "demo" {
  workspace_id = data.tfgov_workspace.demo.id
  depends_on   = [tfgov_team_access.platform, tfgov_team_access.developers]
}

output "team_access" {
  description = "Each team's access level on the workspace."
  value       = { for ta in data.tfgov_workspace_team_access.demo.team_access : ta.team_name => ta.access }
}
