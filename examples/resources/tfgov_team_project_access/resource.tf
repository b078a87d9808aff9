# A fixed access level: the service decides the permissions, on the project
# and on every workspace in it.
resource "tfgov_team_project_access" "platform" {
  team_id    = "team-LnREdjodkvZFGdXL"
  project_id = "prj-XkS4wE5jJ9Yk2Pqa"
  access     = "maintain"
}

# Custom access: choose each permission. Those left out get the service's
# defaults (settings and runs "read", everything else "none" or false).
resource "tfgov_team_project_access" "release_managers" {
  team_id    = "team-7mQDrNoH9YsRbCuA"
  project_id = "prj-XkS4wE5jJ9Yk2Pqa"
  access     = "custom"

  project_access = {
    teams = "read"
  }
  workspace_access = {
    runs           = "apply"
    state_versions = "read-outputs"
    locking        = true
  }
}
