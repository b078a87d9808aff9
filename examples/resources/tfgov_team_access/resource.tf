# A fixed access level: the service decides the permissions.
resource "tfgov_team_access" "developers" {
  team_id      = "team-LnREdjodkvZFGdXL"
  workspace_id = "ws-SihZTyXKfNXUWuUa"
  access       = "write"
}

# Custom access: choose each permission. Those left out get the service's
# defaults (runs "read", everything else "none" or false).
resource "tfgov_team_access" "release_managers" {
  team_id      = "team-7mQDrNoH9YsRbCuA"
  workspace_id = "ws-SihZTyXKfNXUWuUa"
  access       = "custom"

  permissions = {
    runs              = "apply"
    variables         = "read"
    state_versions    = "read-outputs"
    workspace_locking = true
  }
}
