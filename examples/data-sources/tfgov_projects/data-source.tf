# Projects by exact names (each must exist).
data "tfgov_projects" "named" {
  names = ["payments", "platform"]
}

# Projects whose name contains "team-" (in any case). A search that matches
# no project fails the plan, naming the closest names: a typo would otherwise
# empty a for_each and plan the destroy of everything it drove.
data "tfgov_projects" "teams" {
  search = "team-"
}

data "tfgov_team" "platform" {
  name = "platform"
}

# Only the platform team may hold access to each of these projects: the
# plan names every other team's grant it removes.
resource "tfgov_project_team_access_exclusive" "locked" {
  for_each   = data.tfgov_projects.named.ids_by_name
  project_id = each.value
  team_ids   = [data.tfgov_team.platform.id]
}

# A search that may rightly match nothing.
data "tfgov_projects" "sandboxes" {
  search      = "sandbox-"
  allow_empty = true
}
