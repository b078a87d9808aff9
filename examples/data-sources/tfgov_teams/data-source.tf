# The teams that hold access to a workspace, by name.
data "tfgov_teams" "app" {
  names = ["platform", "developers"]
}

data "tfgov_workspace" "app" {
  name = "app"
}

# Exactly these teams may hold access to the workspace.
resource "tfgov_workspace_team_access_exclusive" "app" {
  workspace_id = data.tfgov_workspace.app.id
  team_ids     = data.tfgov_teams.app.ids
}
