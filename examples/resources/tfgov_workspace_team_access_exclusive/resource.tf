# The grants this configuration makes...
resource "tfgov_team_access" "app" {
  for_each = {
    "team-LnREdjodkvZFGdXL" = "write" # developers
    "team-7mQDrNoH9YsRbCuA" = "admin" # platform
  }
  team_id      = each.key
  workspace_id = "ws-SihZTyXKfNXUWuUa"
  access       = each.value
}

# ... are the only grants the workspace may hold: any other team's access
# (say, one added in the UI) shows in the plan as a team leaving team_ids,
# and the apply removes it.
resource "tfgov_workspace_team_access_exclusive" "app" {
  workspace_id = "ws-SihZTyXKfNXUWuUa"
  team_ids     = [for a in tfgov_team_access.app : a.team_id]
}
